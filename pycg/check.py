"""check_gradients: the tape against central finite differences."""
import numpy as np

from pycg import ops
from pycg.backends import finfo
from pycg.custom.bind import name_of
from pycg.api.tape import GradientTape
from pycg.tensor import Tensor, convert_to_tensor, is_float

# narrowest precision that flows -> (eps, rtol, atol) for order 1 and 2:
# a central difference errs by about eps**2 (truncation) plus unit roundoff
# / eps, least near eps = roundoff ** (1/3)
_STEPS = {
    8: ((1e-6, 1e-5, 1e-6), (1e-5, 1e-4, 1e-5)),     # float64
    4: ((3e-3, 1e-3, 1e-3), (1e-2, 1e-2, 1e-2)),     # float32
    2: ((3e-2, 5e-2, 5e-2), (6e-2, 1e-1, 1e-1)),     # float16
    1: ((1e-1, 1e-1, 1e-1), (1e-1, 2e-1, 2e-1)),     # bfloat16
}


def check_gradients(f, *args, order=1, eps=None, rtol=None, atol=None):
    """Compare pycg's gradients of `f` at `args` (and, with order=2, its
    second derivatives) with central finite differences.

    The arguments are float64; the step `eps` and the tolerances default to
    what the narrowest floating dtype computed inside `f` allows (a function
    that computes in float32 gets a float32 step). A non-scalar output is
    projected on a fixed random vector v, so every entry of the Jacobian is
    checked: the values compared are then the gradient of sum(f(...) * v).
    Raises AssertionError naming `f`, showing both and the gradient of f
    itself (of the sum of its output, as TensorFlow's tape gives it).

    >>> import pycg
    >>> pycg.check_gradients(lambda x: pycg.ops.sin(x) * x, 0.7, order=2)
    """
    if order not in (1, 2):
        raise ValueError(f"pycg.check_gradients: order must be 1 or 2, got "
                         f"{order!r}")
    name = name_of(f)
    xs = [np.array(a.numpy() if isinstance(a, Tensor) else a,
                   dtype=np.float64) for a in args]
    ts = [convert_to_tensor(x) for x in xs]
    with GradientTape(persistent=True) as tape:
        tape.watch(ts)
        y0 = f(*ts)
    if not isinstance(y0, Tensor):
        raise TypeError(f"check_gradients({name}): f must return one tensor, "
                        f"got {type(y0).__name__}")
    plain = tape.gradient(y0, ts, unconnected_gradients="zero")
    narrowest = _narrowest(tape._recorded_dtypes() | {y0.dtype})
    steps = _STEPS[narrowest][order - 1]
    eps, rtol, atol = (given or default for given, default in
                       zip((eps, rtol, atol), steps))
    rng = np.random.default_rng(0)
    projected = y0.shape != ()
    v = convert_to_tensor(rng.standard_normal(y0.shape) if projected
                          else np.float64(1))

    def scalar(*ts):
        return ops.sum(f(*ts) * v)

    if order == 2:
        ws = [convert_to_tensor(rng.standard_normal(x.shape)) for x in xs]
        first = scalar

        def scalar(*ts):
            with GradientTape() as tape:
                tape.watch(list(ts))
                s = first(*ts)
            gs = tape.gradient(s, list(ts), unconnected_gradients="zero")
            return sum(ops.sum(g * w) for g, w in zip(gs, ws))

    with GradientTape() as tape:
        tape.watch(ts)
        s = scalar(*ts)
    analytic = tape.gradient(s, ts, unconnected_gradients="zero")
    for i, a in enumerate(analytic):
        numeric = _differences(scalar, xs, i, eps)
        a = a.numpy()
        if not np.allclose(a, numeric, rtol=rtol, atol=atol, equal_nan=True):
            raise AssertionError(_message(
                name, i, order, projected, a, numeric, plain[i].numpy(),
                (eps, rtol, atol), narrowest))


def _narrowest(dtypes):
    """The itemsize of the narrowest floating precision among dtypes (a
    complex dtype counts as its parts; bfloat16 counts as 1)."""
    sizes = [8]
    for d in dtypes:
        d = np.dtype(d)
        if d.kind == "c":
            sizes.append(d.itemsize // 2)
        elif is_float(d):
            sizes.append(1 if finfo(d).nmant < 10 else min(d.itemsize, 8))
    return min(sizes)


def _differences(scalar, xs, i, eps):
    x = xs[i]
    numeric = np.zeros_like(x)
    for j in np.ndindex(x.shape):
        hi, lo = x.copy(), x.copy()
        hi[j] += eps
        lo[j] -= eps
        plus = scalar(*[convert_to_tensor(hi if k == i else xk)
                        for k, xk in enumerate(xs)])
        minus = scalar(*[convert_to_tensor(lo if k == i else xk)
                         for k, xk in enumerate(xs)])
        numeric[j] = (float(plus) - float(minus)) / (2 * eps)
    return numeric


_PRECISION = {8: "float64", 4: "float32", 2: "float16", 1: "bfloat16"}


def _message(name, i, order, projected, a, numeric, plain, tols,
             narrowest):
    show = lambda z: np.array2string(np.asarray(z), 10**3)  # noqa: E731
    what = ("second derivatives (along a fixed random direction) for "
            f"argument {i} differ") if order == 2 else \
        f"gradient for argument {i} differs"
    eps, rtol, atol = tols
    lines = [
        f"check_gradients({name}): the {what} from finite differences "
        f"(rtol={rtol}, atol={atol}, eps={eps}; the narrowest precision "
        f"computed is {_PRECISION[narrowest]})"]
    if order == 2:
        lines.append(
            "  analytic and numeric are the gradient of sum(grad * w), grad "
            "the gradient of sum(f(...) * v), for fixed random v and w (a "
            "Hessian-vector product), not f's gradient")
    elif projected:
        lines.append(
            "  f's output is not a scalar, so analytic and numeric are the "
            "gradient of sum(f(...) * v) for a fixed random v of f's output "
            "shape (a projection along a random direction), not f's "
            "gradient")
    lines += [f"  analytic: {show(a)}", f"  numeric:  {show(numeric)}",
              f"  max abs error: {np.nanmax(np.abs(a - numeric)):.3g}"]
    if order == 2 or projected:
        lines.append(f"  f's analytic gradient (of the sum of its output, "
                     f"as tape.gradient gives it): {show(plain)}")
    return "\n".join(lines)
