"""The functional API in the JAX manner, built on GradientTape."""
import numpy as np

from pycg import ops, structure
from pycg.tape import GradientTape
from pycg.tensor import Tensor, convert_to_tensor, is_float


def _argnums(argnums, nargs, who):
    nums = (argnums,) if isinstance(argnums, int) else tuple(argnums)
    for i in nums:
        if not -nargs <= i < nargs:
            raise ValueError(f"{who}: argnums {argnums} is out of range for "
                             f"{nargs} positional argument(s)")
    return nums


def _diff_arg(x, who, i):
    leaves = structure.flatten(x)
    conv = []
    for leaf in leaves:
        t = leaf if isinstance(leaf, Tensor) else convert_to_tensor(leaf)
        if not is_float(t.dtype):
            raise TypeError(
                f"{who}: argument {i} has dtype {t.dtype}; differentiate "
                f"with respect to floating inputs (write 2.0, not 2)")
        conv.append(t)
    return structure.unflatten(x, conv)


def _scalar(y, who):
    if not isinstance(y, Tensor) or y.shape != ():
        shape = getattr(y, "shape", type(y).__name__)
        raise TypeError(f"{who}: the function must return a scalar, got "
                        f"{shape}; use pycg.jacobian or reduce it first")
    return y


def value_and_grad(f, argnums=0, has_aux=False):
    """A function returning (f(*args), gradient of f at argnums).

    >>> import pycg
    >>> value, g = pycg.value_and_grad(lambda x: x * x)(3.0)
    >>> float(value), float(g)
    (9.0, 6.0)
    """
    who = f"pycg.value_and_grad({getattr(f, '__name__', 'f')})"

    def wrapped(*args, **kwargs):
        nums = _argnums(argnums, len(args), who)
        args = list(args)
        for i in nums:
            args[i] = _diff_arg(args[i], who, i)
        with GradientTape() as tape:
            tape.watch([args[i] for i in nums])
            out = f(*args, **kwargs)
        if has_aux:
            if not isinstance(out, (tuple, list)) or len(out) != 2:
                raise TypeError(f"{who}: has_aux=True needs f to return a "
                                f"pair (value, aux)")
            value, aux = out
        else:
            value = out
        value = _scalar(value, who)
        sources = [args[i] for i in nums]
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


def vjp(f, *primals):
    """(f(*primals), vjp_fn) where vjp_fn(cotangent) gives one gradient per
    primal."""
    xs = [_diff_arg(p, "pycg.vjp", i) for i, p in enumerate(primals)]
    with GradientTape(persistent=True) as tape:
        tape.watch(xs)
        out = f(*xs)

    def vjp_fn(cotangent):
        grads = tape.gradient(out, xs, output_gradients=cotangent,
                              unconnected_gradients="zero")
        return tuple(grads)
    return out, vjp_fn


def jacobian(f, argnums=0):
    """A function returning the Jacobian: shape f(x).shape + x.shape."""
    def wrapped(*args):
        nums = _argnums(argnums, len(args), "pycg.jacobian")
        args = list(args)
        for i in nums:
            args[i] = _diff_arg(args[i], "pycg.jacobian", i)
        with GradientTape(persistent=True) as tape:
            tape.watch([args[i] for i in nums])
            out = f(*args)
        jac = tape.jacobian(out, [args[i] for i in nums],
                            unconnected_gradients="zero")
        return jac[0] if isinstance(argnums, int) else tuple(jac)
    return wrapped


jacrev = jacobian


def hessian(f, argnums=0):
    """The matrix of second derivatives of scalar f."""
    return jacobian(grad(f, argnums), argnums)


def jvp(f, primals, tangents):
    """(f(*primals), J @ tangents): forward mode by transposing the reverse
    rule (the double-VJP trick), so it works through custom gradients."""
    xs = [_diff_arg(p, "pycg.jvp", i) for i, p in enumerate(primals)]
    ts = [convert_to_tensor(t, x.dtype) for t, x in zip(tangents, xs)]
    for t, x in zip(ts, xs):
        if t.shape != x.shape:
            raise ValueError(f"pycg.jvp: tangent has shape {t.shape} but its "
                             f"primal has shape {x.shape}")
    with GradientTape(persistent=True) as outer:
        with GradientTape() as inner:
            inner.watch(xs)
            out = f(*xs)
        flat = structure.flatten(out)
        us = [ops.zeros_like(y) for y in flat]
        outer.watch(us)
        gs = inner.gradient(flat, xs, output_gradients=us)
    pairs = [(g, t) for g, t in zip(gs, ts) if g is not None]
    if not pairs:
        tangent_out = [ops.zeros_like(y) for y in flat]
    else:
        tangent_out = outer.gradient([g for g, _ in pairs], us,
                                     output_gradients=[t for _, t in pairs],
                                     unconnected_gradients="zero")
    return out, structure.unflatten(out, tangent_out)


def jacfwd(f, argnums=0):
    """The Jacobian by forward mode, one jvp per input element."""
    def wrapped(*args):
        x = _diff_arg(args[argnums], "pycg.jacfwd", argnums)
        cols = []
        for i in range(max(x.size, 1)):
            t = np.zeros(x.size, dtype=x.dtype)
            t[i] = 1
            rest = list(args)
            rest[argnums] = x
            tangents = [np.zeros(np.shape(a), np.asarray(a).dtype)
                        if j != argnums else t.reshape(x.shape)
                        for j, a in enumerate(rest)]
            _, col = jvp(lambda *a: f(*a), rest, tangents)
            cols.append(col)
        out = ops.stack(cols, axis=-1)
        return ops.reshape(out, out.shape[:-1] + x.shape)
    return wrapped
