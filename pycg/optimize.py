"""A bridge to scipy.optimize (SciPy is the optional extra `pycg[scipy]`).

>>> import numpy as np, pycg
>>> from pycg import ops
>>> fun = pycg.optimize.scipy_objective(lambda x: ops.sum((x - 3.0) ** 2))
>>> value, grad = fun(np.array([1.0, 5.0]))
>>> float(value), grad.tolist()
(8.0, [-4.0, 4.0])
"""
import numpy as np

from pycg.functional import value_and_grad
from pycg.tensor import convert_to_tensor


def scipy_objective(f, dtype="float64"):
    """fun(x) -> (value, gradient) as float64 NumPy, for
    ``scipy.optimize.minimize(fun, x0, jac=True)``.

    `f` takes one 1-D tensor (of `dtype`, float64 by default) and returns a
    scalar; pycg differentiates it. A non-scalar or non-finite value is an
    error naming `f`.
    """
    who = f"pycg.optimize.scipy_objective({getattr(f, '__name__', 'f')})"
    vg = value_and_grad(f)
    dtype = np.dtype(dtype)

    def fun(x):
        x = np.asarray(x, dtype=np.float64)
        if x.ndim != 1:
            raise ValueError(f"{who}: x must be 1-D, got shape {x.shape}")
        value, grad = vg(convert_to_tensor(x.astype(dtype)))
        value = np.asarray(value, dtype=np.float64)
        if value.shape != ():
            raise ValueError(f"{who}: f must return a scalar, got shape "
                             f"{value.shape}")
        return float(value), np.asarray(grad, dtype=np.float64).reshape(-1)
    return fun
