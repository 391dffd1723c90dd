"""check_gradients: the tape against central finite differences."""
import inspect
from collections.abc import Callable
from typing import Any

import numpy as np

from pycg import ops
from pycg._errors import Api, Arg, Array, Position, Shape, user_error
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


def check_gradients(f: Callable[..., Any], *args: Any, order: int = 1,
                    eps: float | None = None, rtol: float | None = None,
                    atol: float | None = None) -> None:
    """Compare pycg's gradients of `f` at `args` (and, with order=2, its
    second derivatives) with central finite differences.

    The arguments are float64; the step `eps` and the tolerances default to
    what the narrowest floating dtype computed inside `f` allows (a function
    that computes in float32 gets a float32 step). A non-scalar output is
    projected on a fixed random vector v, so every entry of the Jacobian is
    checked: the values compared are then the gradient of sum(f(...) * v).
    Raises AssertionError naming `f` and the argument, saying what was
    compared, and showing f's gradient (of the sum of its output, as
    pycg.grad gives it) and its finite differences.

    Args:
        f: The function to check: tensors in, one tensor out.
        *args: The point: numbers or arrays (taken as float64).
        order: 1 (gradients) or 2 (also second derivatives).
        eps: The finite-difference step (None: by the dtype, see above).
        rtol: The relative tolerance (None: by the dtype).
        atol: The absolute tolerance (None: by the dtype).

    Returns:
        None, when every gradient agrees (else AssertionError).

    Differs:
        TensorFlow's tf.test.compute_gradient returns both Jacobians for
        the caller to compare; autograd's check_grads, like this, raises.

    Example:
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
            compared = Compared(order, y0.shape, a, numeric, rtol, atol)
            if order == 1 and projected:   # f's gradient, as pycg.grad's
                compared.plain = (plain[i].numpy(), _differences(
                    lambda *ts: ops.sum(f(*ts)), xs, i, eps))
            raise _failure(f, i, compared, (eps, rtol, atol), narrowest)


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


class Compared:
    """What check_gradients compared for one argument, where it failed."""

    def __init__(self, order, out_shape, analytic, numeric, rtol, atol):
        self.order, self.out_shape = order, out_shape
        self.analytic, self.numeric = analytic, numeric
        self.rtol, self.atol = rtol, atol
        self.plain = None   # f's gradient and its differences, if projected

    def largest(self):
        return f"{np.nanmax(np.abs(self.analytic - self.numeric)):.3g}"


_HEAD = ("check_gradients({name}): the {what} for argument {position}{arg} "
         "{differ} from finite differences (rtol={rtol}, atol={atol}, "
         "eps={eps}; the narrowest precision computed is {precision})\n")
_SHOWN = ("  pycg (analytic):\n{analytic}\n"
          "  finite differences (numeric):\n{numeric}")
_COMPARED = {
    "scalar": ("  compared: f's gradient, as {grad} gives it, against central "
               "finite differences of f; largest difference {largest}\n"),
    "projected": (
        "  compared: f's output has shape {shape}, so the gradient of "
        "sum(f(...) * v), for a fixed random v of that shape, against its "
        "central finite differences (every entry of f's Jacobian counts); "
        "largest difference {largest}. Below, f's gradient (of the sum of "
        "its output, as {grad} gives it for a scalar) and its finite "
        "differences{agree}:\n"),
    "second": (
        "  compared: the gradient of sum(g * w), g the gradient of "
        "sum(f(...) * v), for fixed random v and w (a Hessian-vector "
        "product), against its central finite differences; largest "
        "difference {largest}\n"),
}


def _failure(f, i, compared, tols, narrowest):
    """The AssertionError of check_gradients: what was compared, and the
    gradients as the user's language prints arrays."""
    eps, rtol, atol = tols
    name = _param_name(f, i)
    case = "second" if compared.order == 2 else \
        "projected" if compared.plain is not None else "scalar"
    shown = compared.plain or (compared.analytic, compared.numeric)
    agree = compared.plain is not None and np.allclose(
        *compared.plain, rtol=rtol, atol=atol, equal_nan=True)
    what, differ = (("second derivatives (along a fixed random direction)",
                     "differ") if compared.order == 2 else
                    ("gradient", "differs"))
    head = _HEAD.replace("{arg}", "" if name is None else " ({arg_name})")
    return user_error(
        AssertionError, head + _COMPARED[case] + _SHOWN,
        name=name_of(f), what=what, differ=differ, position=Position(i),
        rtol=rtol, atol=atol,
        eps=eps, precision=_PRECISION[narrowest], grad=Api("grad"),
        shape=Shape(compared.out_shape), largest=compared.largest(),
        agree=" (these agree: the difference cancels in the sum)" if agree
        else "", analytic=Array(shown[0]), numeric=Array(shown[1]),
        **({} if name is None else {"arg_name": Arg(name)}))


def _param_name(f, i):
    """The name of f's i-th positional parameter, if it has one."""
    try:
        params = list(inspect.signature(f).parameters.values())
    except (TypeError, ValueError):
        return None
    positional = (inspect.Parameter.POSITIONAL_ONLY,
                  inspect.Parameter.POSITIONAL_OR_KEYWORD)
    if i < len(params) and all(p.kind in positional for p in params[:i + 1]):
        return params[i].name
    return None
