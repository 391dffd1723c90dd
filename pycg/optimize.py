"""A bridge to scipy.optimize (SciPy is the optional extra `pycg[scipy]`).

>>> import numpy as np, pycg
>>> from pycg import ops
>>> fun = pycg.optimize.scipy_objective(lambda x: ops.sum((x - 3.0) ** 2))
>>> value, grad = fun(np.array([1.0, 5.0]))
>>> float(value), grad.tolist()
(8.0, [-4.0, 4.0])
"""
import numpy as np

from pycg.api.tape import GradientTape
from pycg.core.backward import strong_zeros_on
from pycg.tensor import convert_to_tensor


def scipy_objective(f, dtype="float64"):
    """fun(x) -> (value, gradient) as float64 NumPy, for
    ``scipy.optimize.minimize(fun, x0, jac=True)``.

    `f` takes one 1-D tensor (of `dtype`, float64 by default) and returns a
    scalar; pycg differentiates it (a gradient that does not reach x is
    zero).

    Args:
        f: The objective: one 1-D tensor in, a scalar out.
        dtype: The dtype f computes in (x arrives from SciPy as float64).

    Returns:
        fun(x) -> (value, gradient): a float and a float64 NumPy array.
    """
    name = getattr(f, "__name__", "f")
    who = f"pycg.optimize.scipy_objective({name})"
    dtype = np.dtype(dtype)

    def fun(x):
        x = np.asarray(x, dtype=np.float64)
        if x.ndim != 1:
            raise ValueError(f"{who}: x must be 1-D, got shape {x.shape}")
        xt = convert_to_tensor(x.astype(dtype))
        with GradientTape() as tape:
            tape.watch(xt)
            value = convert_to_tensor(f(xt))
        if value.shape != ():
            raise TypeError(f"{who}: f must return a scalar, got shape "
                            f"{value.shape}; reduce it (ops.sum) first")
        grad = tape.gradient(value, xt, unconnected_gradients="zero")
        value, grad = float(value.numpy()), np.asarray(grad.numpy(),
                                                       dtype=np.float64)
        problem = nan_gradient_message(name, value, [grad])
        if problem:
            raise NaNGradientError(f"{who}: {problem}", problem)
        return value, grad
    return fun


class NaNGradientError(FloatingPointError):
    """A finite value with a NaN gradient (an optimiser given it would stop
    at once and report convergence).

    Args:
        message: The whole message, naming the user's function.
        problem: The message without the function's name (the R package
            names its own).
    """

    def __init__(self, message, problem):
        super().__init__(message)
        self.problem = problem


def nan_gradient_message(name, value, grads):
    """What is wrong where a finite value of the function `name` has
    gradients holding NaN: an optimiser given such a gradient stops at once
    and reports convergence.

    Args:
        name: The user's function, as the message names it.
        value: Its value (a float).
        grads: Its gradients (NumPy arrays).

    Returns:
        The message (a str), or None where the value is not finite or no
        gradient holds NaN.
    """
    if not np.isfinite(value):
        return None
    nan = sum(int(np.isnan(g).sum()) for g in grads)
    if not nan:
        return None
    size = sum(int(np.size(g)) for g in grads)
    head = (f"the gradient of {name} holds NaN (R's NA) in {nan} of its {size} "
            f"elements where the value is finite ({value:.7g}); an optimiser "
            f"given it would stop at once and report convergence. ")
    if strong_zeros_on():   # (R's rule: left-out observations give 0)
        return head + (
            "A partial derivative on the way to the value is NaN or "
            "infinite where the value is not (sqrt() of a sum of squares "
            "at 0, a custom gradient returning NaN); missing observations "
            "that the value leaves out (sum(ll, na.rm = TRUE), "
            "ll[!is.na(y)]) are not the cause: they contribute 0")
    return head + (
        "A missing value in the data is the usual cause: every element "
        "computed from it carries NaN back, even where a masked sum or an "
        "index skips it (as in TensorFlow; the R package's gradients "
        "give the observed part's): drop the missing observations from "
        "the data before computing with them")
