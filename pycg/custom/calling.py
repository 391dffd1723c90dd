"""Which calling convention a custom_gradient's grad_fn takes, decided
from grad_fn's own signature (the table in pycg.custom_gradient's
docstring)."""
import inspect
import types

UPSTREAM, VARIABLES, TENSORFLOW = "upstream", "variables", "tensorflow"

# custom_gradient's Args and Returns, before the tables (decorator.py's
# module docstring) in help(pycg.custom_gradient)
DECORATOR_ARGS = """
    Args:
        f: The forward function: f(*args, **kwargs) returns (output,
            grad_fn), output a tensor or a nested structure of tensors,
            grad_fn the rule in any of the conventions below.

    Returns:
        A function with f's signature and name that returns f's output;
        every tape (pycg's, and TensorFlow's through pycg.to_tensorflow or
        a traced branch) differentiates it with grad_fn.

    Differs:
        Every published convention works on every backend (TensorFlow's
        ``grad(*grad_ys)`` and ``variables=``, Keras 3's ``upstream=``,
        JAX's tuple per argument, keras3 for R's ``function(...,
        upstream)``): each peer accepts only its own.

"""


_CONVENTIONS = {}   # a plain function's code object -> its convention


def convention_of(grad_fn):
    """grad_fn's calling convention, from its signature; cached by code
    object for plain functions (a closure made at each call shares one;
    one with attributes, such as __wrapped__ or __signature__, is read each
    time)."""
    plain = type(grad_fn) is types.FunctionType and not grad_fn.__dict__
    convention = _CONVENTIONS.get(grad_fn.__code__) if plain else None
    if convention is None:
        convention = _convention(grad_fn)
        if plain:
            if len(_CONVENTIONS) > 4096:
                _CONVENTIONS.clear()
            _CONVENTIONS[grad_fn.__code__] = convention
    return convention


def _convention(grad_fn):
    try:
        params = list(inspect.signature(grad_fn).parameters.values())
    except (TypeError, ValueError):
        return TENSORFLOW
    names = [p.name for p in params]
    if "upstream" in names:
        i = names.index("upstream")
        p = params[i]
        # `def grad(upstream)` is the TensorFlow/JAX form; `upstream` after
        # *args, keyword-only, or after other parameters is the Keras one
        if p.kind == p.KEYWORD_ONLY or (
                p.kind == p.POSITIONAL_OR_KEYWORD and i > 0):
            return UPSTREAM
    if any(p.name == "variables" and p.kind in (
            p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params):
        return VARIABLES
    return TENSORFLOW
