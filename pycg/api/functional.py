"""The functional API in the JAX manner, built on GradientTape.

Every transform takes pytrees (nested lists, tuples and dicts of tensors,
NumPy arrays and Python floats) as arguments and may return them. Each
differentiated argument position gets its own identity, so ``f(x, x)``
differentiated at ``argnums=(0, 1)`` has two gradients, as in JAX.
"""
import numpy as np

from pycg import ops, structure
from pycg.api.tape import GradientTape
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
        t = ops._copy(leaf) if isinstance(leaf, Tensor) else \
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


def value_and_grad(f, argnums=0, has_aux=False):
    """A function returning (f(*args), gradient of f at argnums).

    >>> import pycg
    >>> value, g = pycg.value_and_grad(lambda x: x * x)(3.0)
    >>> float(value), float(g)
    (9.0, 6.0)
    """
    who = f"pycg.value_and_grad({_name(f)})"

    def wrapped(*args, **kwargs):
        args, nums, sources = _prepare(args, argnums, who)
        with GradientTape() as tape:
            tape.watch(sources)
            value, aux = _split_aux(f(*args, **kwargs), has_aux, who)
        value = _scalar(value, who)
        grads = tape.gradient(value, sources, unconnected_gradients="zero")
        g = grads[0] if isinstance(argnums, int) else tuple(grads)
        return ((value, aux), g) if has_aux else (value, g)
    return wrapped


def grad(f, argnums=0, has_aux=False):
    """The gradient of scalar f with respect to argument(s) `argnums`.

    >>> import pycg
    >>> float(pycg.grad(lambda x: x ** 3)(2.0))
    12.0
    """
    vg = value_and_grad(f, argnums, has_aux)

    def wrapped(*args, **kwargs):
        (value, g) = vg(*args, **kwargs)
        return (g, value[1]) if has_aux else g
    return wrapped


def vjp(f, *primals, has_aux=False):
    """(f(*primals), vjp_fn) where vjp_fn(cotangent) gives one gradient per
    primal, each in its primal's structure."""
    who = f"pycg.vjp({_name(f)})"
    xs = [_diff_arg(p, who, i) for i, p in enumerate(primals)]
    with GradientTape(persistent=True) as tape:
        tape.watch(xs)
        out, aux = _split_aux(f(*xs), has_aux, who)
    out = structure.unflatten(out, [_as_tensor(y) for y in
                                    structure.flatten(out)])

    def vjp_fn(cotangent):
        if not structure.same_structure(out, cotangent):
            raise TypeError(f"{who}: the cotangent must have the structure "
                            f"of f's output")
        grads = tape.gradient(out, xs, output_gradients=cotangent,
                              unconnected_gradients="zero")
        return tuple(grads)
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


def jacobian(f, argnums=0, has_aux=False):
    """A function returning the Jacobian of f by reverse mode: for an output
    leaf y and an input leaf x, a block of shape y.shape + x.shape."""
    who = f"pycg.jacobian({_name(f)})"

    def wrapped(*args, **kwargs):
        args, nums, sources = _prepare(args, argnums, who)
        with GradientTape(persistent=True) as tape:
            tape.watch(sources)
            out, aux = _split_aux(f(*args, **kwargs), has_aux, who)
        leaves = [_as_tensor(y) for y in structure.flatten(out)]
        flat_src = structure.flatten(sources)
        per_leaf = [tape.jacobian(y, flat_src, unconnected_gradients="zero")
                    for y in leaves]
        jac = _assemble(out, per_leaf, argnums, sources)
        return (jac, aux) if has_aux else jac
    return wrapped


jacrev = jacobian


def hessian(f, argnums=0, has_aux=False):
    """The Jacobian of the Jacobian (JAX's): for a scalar f and
    argnums=(0, 1), the nested tuple ((H00, H01), (H10, H11))."""
    return jacobian(jacobian(f, argnums, has_aux), argnums, has_aux)


def jvp(f, primals, tangents, has_aux=False):
    """(f(*primals), J @ tangents): forward mode by transposing the reverse
    rule (the double-VJP trick), so it works through custom gradients."""
    who = f"pycg.jvp({_name(f)})"
    if not isinstance(primals, (tuple, list)) or \
            not isinstance(tangents, (tuple, list)):
        raise TypeError(f"{who}: primals and tangents must be tuples or "
                        f"lists, got {type(primals).__name__} and "
                        f"{type(tangents).__name__}")
    if not structure.same_structure(tuple(primals), tuple(tangents)):
        raise TypeError(
            f"{who}: primals and tangents must have the same structure; "
            f"got primals {_skeleton(primals)} and tangents "
            f"{_skeleton(tangents)} (* is a leaf: a tensor, array or "
            f"number)")
    xs = [_diff_arg(p, who, i) for i, p in enumerate(primals)]
    flat_x = structure.flatten(xs)
    ts = [convert_to_tensor(t, x.dtype)
          for t, x in zip(structure.flatten(tangents), flat_x)]
    for t, x in zip(ts, flat_x):
        if t.shape != x.shape:
            raise ValueError(f"{who}: a tangent has shape {t.shape} but its "
                             f"primal has shape {x.shape}")
    with GradientTape(persistent=True) as outer:
        with GradientTape() as inner:
            inner.watch(flat_x)
            out, aux = _split_aux(f(*xs), has_aux, who)
        flat = [_as_tensor(y) for y in structure.flatten(out)]
        us = [ops.zeros_like(y) for y in flat]
        outer.watch(us)
        gs = inner.gradient(flat, flat_x, output_gradients=us)
    pairs = [(g, t) for g, t in zip(gs, ts) if g is not None]
    if not pairs:
        tangent_out = [ops.zeros_like(y) for y in flat]
    else:
        tangent_out = outer.gradient([g for g, _ in pairs], us,
                                     output_gradients=[t for _, t in pairs],
                                     unconnected_gradients="zero")
    out = structure.unflatten(out, flat)
    result = (out, structure.unflatten(out, tangent_out))
    return result + (aux,) if has_aux else result


def jacfwd(f, argnums=0, has_aux=False):
    """The Jacobian by forward mode, one jvp per input element; the same
    layout as jacobian (pytrees in and out)."""
    who = f"pycg.jacfwd({_name(f)})"

    def wrapped(*args, **kwargs):
        args, nums, sources = _prepare(args, argnums, who)

        def at(*srcs):
            full = list(args)
            for i, s in zip(nums, srcs):
                full[i] = s
            return f(*full, **kwargs)
        flat_src = structure.flatten(sources)
        out, aux, blocks = None, None, []
        for j, s in enumerate(flat_src):
            cols = []
            for i in range(s.size):
                basis = np.zeros(s.size, dtype=s.dtype)
                basis[i] = 1
                tangents = [ops.zeros_like(x) for x in flat_src]
                tangents[j] = basis.reshape(s.shape)
                res = jvp(at, sources, structure.unflatten(sources, tangents),
                          has_aux)
                out, aux = res[0], (res[2] if has_aux else None)
                cols.append(structure.flatten(res[1]))
            blocks.append([_block(ops.stack([c[k] for c in cols], axis=-1),
                                  s) for k in range(len(cols[0]))])
        per_leaf = [[b[k] for b in blocks] for k in range(len(blocks[0]))]
        jac = _assemble(out, per_leaf, argnums, sources)
        return (jac, aux) if has_aux else jac
    return wrapped


def _block(stacked, s):
    return ops.reshape(stacked, stacked.shape[:-1] + s.shape)
