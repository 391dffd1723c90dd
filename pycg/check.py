"""check_gradients: the tape against central finite differences."""
import numpy as np

from pycg import ops
from pycg.custom_gradient_bind import name_of
from pycg.tape import GradientTape
from pycg.tensor import Tensor, convert_to_tensor


def check_gradients(f, *args, order=1, eps=None, rtol=None, atol=None):
    """Compare pycg's gradients of `f` at `args` (and, with order=2, its
    second derivatives) with central finite differences in float64.

    The output is projected on a fixed random vector, so every entry of the
    Jacobian is checked. Raises AssertionError naming `f` and showing the
    analytic and numeric values.

    >>> import pycg
    >>> pycg.check_gradients(lambda x: pycg.ops.sin(x) * x, 0.7, order=2)
    """
    if order not in (1, 2):
        raise ValueError(f"pycg.check_gradients: order must be 1 or 2, got "
                         f"{order!r}")
    name = name_of(f)
    eps = eps or (1e-6 if order == 1 else 1e-5)
    rtol = rtol or (1e-5 if order == 1 else 1e-4)
    atol = atol or (1e-6 if order == 1 else 1e-5)
    xs = [np.array(a.numpy() if isinstance(a, Tensor) else a,
                   dtype=np.float64) for a in args]
    rng = np.random.default_rng(0)
    y0 = f(*[convert_to_tensor(x) for x in xs])
    if not isinstance(y0, Tensor):
        raise TypeError(f"check_gradients({name}): f must return one tensor, "
                        f"got {type(y0).__name__}")
    v = convert_to_tensor(rng.standard_normal(y0.shape))

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

    ts = [convert_to_tensor(x) for x in xs]
    with GradientTape() as tape:
        tape.watch(ts)
        s = scalar(*ts)
    analytic = tape.gradient(s, ts, unconnected_gradients="zero")
    for i, (x, a) in enumerate(zip(xs, analytic)):
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
        a = a.numpy()
        if not np.allclose(a, numeric, rtol=rtol, atol=atol, equal_nan=True):
            what = "second derivatives" if order == 2 else "gradient"
            raise AssertionError(
                f"check_gradients({name}): {what} for argument {i} differ "
                f"from finite differences (rtol={rtol}, atol={atol}, "
                f"eps={eps})\n  analytic: {np.array2string(a, 10**3)}\n"
                f"  numeric:  {np.array2string(numeric, 10**3)}\n"
                f"  max abs error: {np.nanmax(np.abs(a - numeric)):.3g}")
