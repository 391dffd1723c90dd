"""with_signature: give a callable the signature of another language's
function, described as data.

Bridges (R through pycg.r and the R package) hand Python callables whose
parameters hide behind ``(*args, **kwargs)``; `custom_gradient` reads a
``grad_fn``'s signature to pick its calling convention, so the bridge
describes the foreign function's parameters as a list of entries
``(name, kind)`` or ``(name, kind, default)``:

================  =====================================  ==================
kind              Python parameter                       example
================  =====================================  ==================
positional_only   before ``/``                           ``x, /``
positional        positional or keyword                  ``x``, ``y=None``
var_positional    ``*name``                              ``*args``
keyword           keyword-only (after ``*``)             ``upstream=None``
var_keyword       ``**name``                             ``**kwargs``
================  =====================================  ==================
"""
import functools
import inspect
import keyword
from collections.abc import Callable, Sequence
from typing import Any

_KINDS = {"positional_only": inspect.Parameter.POSITIONAL_ONLY,
          "positional": inspect.Parameter.POSITIONAL_OR_KEYWORD,
          "var_positional": inspect.Parameter.VAR_POSITIONAL,
          "keyword": inspect.Parameter.KEYWORD_ONLY,
          "var_keyword": inspect.Parameter.VAR_KEYWORD}


def with_signature(fn: Callable[..., Any],
                   params: Sequence[tuple[Any, ...]]) -> Callable[..., Any]:
    """A proxy of `fn` whose inspect.signature is built from `params`, a
    list of ``(name, kind)`` or ``(name, kind, default)`` entries (kinds in
    the module docstring). R's pycg package uses it to give an R function's
    formals to custom_gradient, which reads grad_fn's signature.

    Args:
        fn: The function to proxy (called with whatever the proxy gets).
        params: The signature as data: ``(name, kind)`` or ``(name, kind,
            default)`` entries; kinds 'positional', 'var_positional',
            'keyword' (keyword-only), 'var_keyword'.

    Returns:
        A function calling fn, whose inspect.signature is `params'`.

    Example:
    >>> import inspect, pycg
    >>> grad = pycg.with_signature(lambda *a, **k: None, [
    ...     ("x", "positional"), ("args", "var_positional"),
    ...     ("upstream", "keyword", None)])
    >>> str(inspect.signature(grad))
    '(x, *args, upstream=None)'
    """
    sig = make_signature(params)

    @functools.wraps(fn)
    def proxy(*args, **kwargs):
        return fn(*args, **kwargs)
    proxy.__signature__ = sig  # type: ignore[attr-defined]
    proxy.__name__ = getattr(fn, "__name__", "grad_fn")
    return proxy


def make_signature(params, caller="pycg.with_signature"):
    """The inspect.Signature that `params` describes; a bad entry raises a
    TypeError or ValueError naming `caller` and the entry."""
    if isinstance(params, (str, bytes)) or not hasattr(params, "__iter__"):
        raise TypeError(
            f"{caller}: expected a list of (name, kind) or (name, kind, "
            f"default) entries, got {type(params).__name__} {params!r}")
    built = []
    for i, entry in enumerate(params):
        built.append(_parameter(entry, i, caller))
    try:
        return inspect.Signature(built)
    except ValueError as e:  # order, or a name used twice
        raise ValueError(f"{caller}: the entries {_show(params)} do not make "
                         f"a Python signature: {e}") from None


def _parameter(entry, i, caller):
    if not isinstance(entry, (tuple, list)) or len(entry) not in (2, 3):
        raise TypeError(f"{caller}: entry {i} must be (name, kind) or (name, "
                        f"kind, default), got {entry!r}")
    name, kind = entry[0], entry[1]
    if not isinstance(name, str) or not name.isidentifier() or \
            keyword.iskeyword(name):
        raise ValueError(f"{caller}: entry {i} {tuple(entry)!r} has name "
                         f"{name!r}, which is not a Python parameter name")
    if kind not in _KINDS:
        raise ValueError(f"{caller}: entry {i} {tuple(entry)!r} has kind "
                         f"{kind!r}; expected one of {', '.join(_KINDS)}")
    if len(entry) == 3 and kind in ("var_positional", "var_keyword"):
        raise ValueError(f"{caller}: entry {i} {tuple(entry)!r} gives a "
                         f"default to a {kind} parameter, which takes none")
    default = entry[2] if len(entry) == 3 else inspect.Parameter.empty
    return inspect.Parameter(name, _KINDS[kind], default=default)


def _show(params):
    return "[" + ", ".join(repr(tuple(p)) for p in params) + "]"
