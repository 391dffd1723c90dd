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
    who = f"pycg.optimize.scipy_objective({getattr(f, '__name__', 'f')})"
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
        return float(value.numpy()), np.asarray(grad.numpy(),
                                                dtype=np.float64)
    return fun
