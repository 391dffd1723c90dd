"""The skeleton every bridge (pycg.to_tensorflow, to_jax, to_torch) shares;
each framework's module supplies only what differs (its Spec row, how it
defines a custom derivative, hands values in and out and batches).

The steps, in order:

- `convert`: the door. A function already converted comes back as it is;
  what is not callable, and a callable of a framework (which needs no
  conversion, and which pycg cannot run), is refused by name; the
  framework is imported (`framework`: the shadowing check, the install
  hint); the framework's `build(f, name, module)` makes the function.
- `substituted`: the call's leaves with the framework's inputs replaced by
  the pycg tensors that wrap them, back in the call's structure.
- `recorded`: f run on a watched tape (its floating and complex inputs
  watched).
- `vjp`: pycg's backward of that tape, the output gradients given.
- `jvp`: the forward hook: f's outputs and their tangents (J t) from
  pycg's public forward mode (`pycg.jvp`), so that whatever pycg's forward
  mode knows of f's rules (a custom_gradient rule transposed, a forward
  rule) is what the framework's forward mode gets.
- outputs are checked by `pycg.interop._outputs.checked`.
"""
import importlib
from collections.abc import Callable
from dataclasses import dataclass

from pycg import _imports
from pycg.api.forward import jvp as pycg_jvp
from pycg.custom.bind import name_of
from pycg.tensor import is_differentiable

WHAT = ("a function written with pycg (pycg.ops, a pycg.custom_gradient "
        "rule, or an R rule from pycg.r)")


@dataclass(frozen=True)
class Spec:
    """One framework's row: the public name (``to_jax``), the module to
    import, what to install, the attribute that marks a converted function
    (its pycg source), and `foreign(f, module)`: a label ("JAX") where f is
    that framework's own callable, else None."""
    api: str
    module: str
    install: str
    marker: str
    foreign: Callable
    load: Callable | None = None   # (the import itself, where not plain)


def convert(spec, f, build):
    """The bridge's door: `build(f, name, module)` for a pycg function `f`
    (f itself where it is converted already), else the error naming f."""
    if getattr(f, spec.marker, None) is not None:
        return f  # already converted
    if not callable(f):
        raise TypeError(f"pycg.{spec.api}: expected {WHAT}, got "
                        f"{type(f).__name__}")
    name = name_of(f)
    module = framework(spec, name)
    label = spec.foreign(f, module)
    if label:
        raise TypeError(
            f"pycg.{spec.api}({name}): {name} is a {label} callable "
            f"({type(f).__name__}), not {WHAT}; call it directly, it needs "
            f"no conversion")
    return build(f, name, module)


def framework(spec, name):
    """The framework's module, its origin checked (a module of that name in
    the working directory is an error); not installed: what to install."""
    try:
        module = spec.load() if spec.load else \
            importlib.import_module(spec.module)
    except ImportError as e:
        raise ImportError(
            f"pycg.{spec.api}({name}): {spec.install.format(e=e)} (installing "
            f"it: docs/troubleshooting.md)") from None
    _imports.check_origin(spec.module)
    return module


def substituted(leaves, slots, ins, unflatten):
    """The call's arguments, (args, kwargs), with the pycg tensors `ins` in
    place of the framework's inputs (the leaves at `slots`)."""
    values = list(leaves)
    for i, t in zip(slots, ins):
        values[i] = t
    return unflatten(values)


def recorded(tape, f, call, ins):
    """f(*args, **kwargs) of `call` on `tape`, its floating and complex
    `ins` watched (pycg's complex gradients are TensorFlow's and PyTorch's
    convention; pycg.to_jax conjugates at its border)."""
    with tape:
        for t in ins:
            if is_differentiable(t.dtype):
                tape.watch(t)
        args, kwargs = call
        return f(*args, **kwargs)


def vjp(tape, outs, ins, ups):
    """pycg's gradients of `ins` from `tape`, the gradients `ups` of
    `outs` given (None where unconnected)."""
    return tape.gradient(outs, ins, output_gradients=ups)


def jvp(flat, ins, tangents):
    """(outs, their tangents): `flat(*ins)` (f of its inputs, returning the
    flat list of f's output tensors) and J @ tangents, by pycg's forward
    mode."""
    outs, touts = pycg_jvp(lambda *xs: list(flat(*xs)), list(ins),
                           list(tangents))
    return outs, touts
