"""The functional API in the JAX manner, built on GradientTape.

Every transform takes pytrees (nested lists, tuples and dicts of tensors,
NumPy arrays and Python floats) as arguments and may return them. Each
differentiated argument position gets its own identity, so ``f(x, x)``
differentiated at ``argnums=(0, 1)`` has two gradients, as in JAX.
"""
import functools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from pycg.tensor import structure
from pycg.api._docs import documented
from pycg.api.tape import GradientTape
from pycg.ops.manipulation import _copy
from pycg.tensor import Tensor, convert_to_tensor, is_differentiable


def _argnums(argnums, nargs, who):
    nums = (argnums,) if isinstance(argnums, int) else tuple(argnums)
    for i in nums:
        if not -nargs <= i < nargs:
            raise ValueError(f"{who}: argnums {argnums} is out of range for "
                             f"{nargs} positional argument(s)")
    return tuple(i % nargs for i in nums)


def _diff_arg(x, who, i):
    """Argument i as a tree of fresh tensors (a recorded copy of a tensor,
    so enclosing tapes still reach the caller's tensor)."""
    conv = []
    for leaf in structure.flatten(x):
        if leaf is None:   # (an empty subtree, as in JAX: no gradient)
            conv.append(None)
            continue
        t = _copy(leaf) if isinstance(leaf, Tensor) else \
            convert_to_tensor(leaf)
        if not is_differentiable(t.dtype):
            raise TypeError(
                f"{who}: argument {i} has dtype {t.dtype}; differentiate "
                f"with respect to floating inputs (write 2.0, not 2)")
        conv.append(t)
    return structure.unflatten(x, conv)


def _prepare(args, argnums, who):
    nums = _argnums(argnums, len(args), who)
    args = list(args)
    for i in nums:
        args[i] = _diff_arg(args[i], who, i)
    return args, nums, [args[i] for i in nums]


def _live(tree):
    """The tensors of a tree of arguments (None leaves are empty)."""
    return [t for t in structure.flatten(tree) if t is not None]


def _per_leaf(tree, gradients):
    """`gradients` of tree's tensors, in tree's structure, None where tree
    holds None (JAX's empty subtree)."""
    it = iter(gradients(_live(tree)))
    return structure.unflatten(tree, [
        None if t is None else next(it) for t in structure.flatten(tree)])


def _split_aux(out, has_aux, who):
    if not has_aux:
        return out, None
    if not isinstance(out, (tuple, list)) or len(out) != 2:
        raise TypeError(f"{who}: has_aux=True needs f to return a pair "
                        f"(value, aux), got {type(out).__name__}")
    return out[0], out[1]


def _scalar(y, who):
    if not isinstance(y, Tensor) and isinstance(y, (int, float, np.number)):
        y = convert_to_tensor(float(y))
    if not isinstance(y, Tensor) or y.shape != ():
        shape = getattr(y, "shape", type(y).__name__)
        raise TypeError(f"{who}: the function must return a scalar, got "
                        f"{shape}; use pycg.jacobian or reduce it first")
    return y


def _name(f):
    return getattr(f, "__name__", "f")


@documented("f", "argnums", "has_aux")
def value_and_grad(f: Callable[..., Any], argnums: int | Sequence[int] = 0,
                   has_aux: bool = False) -> Callable[..., Any]:
    """A function returning (f(*args), gradient of f at argnums)
    (jax.value_and_grad).

    Args:

    Returns:
        A function of f's arguments returning (value, gradient), or
        ((value, aux), gradient) with has_aux; the gradient has the
        structure of the argument(s) at argnums.

    Example:
    >>> import pycg
    >>> value, g = pycg.value_and_grad(lambda x: x * x)(3.0)
    >>> float(value), float(g)
    (9.0, 6.0)
    """
    who = f"pycg.value_and_grad({_name(f)})"

    def wrapped(*args, **kwargs):
        args, nums, sources = _prepare(args, argnums, who)
        with GradientTape() as tape:
            tape.watch(_live(sources))
            value, aux = _split_aux(f(*args, **kwargs), has_aux, who)
        value = _scalar(value, who)
        grads = _per_leaf(sources, lambda live: tape.gradient(
            value, live, unconnected_gradients="zero"))
        g = grads[0] if isinstance(argnums, int) else tuple(grads)
        return ((value, aux), g) if has_aux else (value, g)
    return wrapped


@documented("f", "argnums", "has_aux")
def grad(f: Callable[..., Any], argnums: int | Sequence[int] = 0,
         has_aux: bool = False) -> Callable[..., Any]:
    """The gradient of scalar f with respect to argument(s) `argnums`
    (jax.grad).

    Args:

    Returns:
        A function of f's arguments returning the gradient (the structure
        of the argument(s) at argnums), or (gradient, aux) with has_aux.

    Differs:
        An integer argument is refused with an error (JAX refuses it too;
        TensorFlow's tape answers None).

    Example:
    >>> import pycg
    >>> float(pycg.grad(lambda x: x ** 3)(2.0))
    12.0
    """
    vg = value_and_grad(f, argnums, has_aux)

    def wrapped(*args, **kwargs):
        (value, g) = vg(*args, **kwargs)
        return (g, value[1]) if has_aux else g
    return wrapped


@documented("f", "has_aux")
def vjp(f: Callable[..., Any], *primals: Any,
        has_aux: bool = False) -> tuple[Any, ...]:
    """(f(*primals), vjp_fn) where vjp_fn(cotangent) gives one gradient per
    primal, each in its primal's structure (jax.vjp).

    Args:
        *primals: The point: f's arguments (tensors, arrays, numbers or
            pytrees of them).

    Returns:
        (output, vjp_fn), or (output, vjp_fn, aux) with has_aux; vjp_fn
        takes a cotangent of the output's structure and returns a tuple of
        gradients, one per primal.

    Example:
    >>> import pycg
    >>> y, vjp_fn = pycg.vjp(lambda x: x * x, 3.0)
    >>> float(y), float(vjp_fn(pycg.constant(1.0))[0])
    (9.0, 6.0)
    """
    who = f"pycg.vjp({_name(f)})"
    xs = [_diff_arg(p, who, i) for i, p in enumerate(primals)]
    with GradientTape(persistent=True) as tape:
        tape.watch(_live(xs))
        out, aux = _split_aux(f(*xs), has_aux, who)
    out = structure.unflatten(out, [_as_tensor(y) for y in
                                    structure.flatten(out)])

    def vjp_fn(cotangent):
        if not structure.same_structure(out, cotangent):
            raise TypeError(f"{who}: the cotangent must have the structure "
                            f"of f's output")
        return tuple(_per_leaf(xs, lambda live: tape.gradient(
            out, live, output_gradients=cotangent,
            unconnected_gradients="zero")))
    return (out, vjp_fn, aux) if has_aux else (out, vjp_fn)


def _skeleton(tree):
    leaves = structure.flatten(tree)
    return repr(structure.unflatten(tree, ["*"] * len(leaves))).replace(
        "'*'", "*")


def _as_tensor(y):
    return y if isinstance(y, Tensor) else convert_to_tensor(y)


def _assemble(out, per_leaf, argnums, sources):
    """JAX's layout: the output's structure, each leaf holding the
    arguments' structure (a tuple of them for a tuple argnums)."""
    built = []
    for cols in per_leaf:       # one flat list of blocks per output leaf
        k, per_arg = 0, []
        for src in sources:
            n = len(structure.flatten(src))
            per_arg.append(structure.unflatten(src, cols[k:k + n]))
            k += n
        built.append(per_arg[0] if isinstance(argnums, int)
                     else tuple(per_arg))
    return structure.unflatten(out, built)


@documented("f", "argnums", "has_aux")
def jacobian(f: Callable[..., Any], argnums: int | Sequence[int] = 0,
             has_aux: bool = False) -> Callable[..., Any]:
    """A function returning the Jacobian of f by reverse mode: for an output
    leaf y and an input leaf x, a block of shape y.shape + x.shape
    (jax.jacrev; pycg.jacrev is the same function).

    Args:

    Returns:
        A function of f's arguments returning the Jacobian in JAX's layout
        (the output's structure, each leaf holding the arguments'), or
        (jacobian, aux) with has_aux.

    Example:
    >>> import pycg
    >>> pycg.jacobian(lambda x: x * x)(pycg.constant([1.0, 2.0])).numpy()
    array([[2., 0.],
           [0., 4.]], dtype=float32)
    """
    who = f"pycg.jacobian({_name(f)})"

    def wrapped(*args, **kwargs):
        args, nums, sources = _prepare(args, argnums, who)
        with GradientTape(persistent=True) as tape:
            tape.watch(_live(sources))
            out, aux = _split_aux(f(*args, **kwargs), has_aux, who)
        leaves = [_as_tensor(y) for y in structure.flatten(out)]
        flat_src = structure.flatten(sources)
        per_leaf = [_per_leaf(flat_src, functools.partial(
            tape.jacobian, y, unconnected_gradients="zero")) for y in leaves]
        jac = _assemble(out, per_leaf, argnums, sources)
        return (jac, aux) if has_aux else jac
    return wrapped


jacrev = jacobian


@documented("f", "argnums", "has_aux")
def hessian(f: Callable[..., Any], argnums: int | Sequence[int] = 0,
            has_aux: bool = False) -> Callable[..., Any]:
    """The Jacobian of the Jacobian (JAX's): for a scalar f and
    argnums=(0, 1), the nested tuple ((H00, H01), (H10, H11)).

    Args:

    Returns:
        A function of f's arguments returning the Hessian blocks.

    Example:
    >>> import pycg
    >>> float(pycg.hessian(lambda x: x ** 3)(pycg.constant(2.0)))
    12.0
    """
    return jacobian(jacobian(f, argnums, has_aux), argnums, has_aux)
