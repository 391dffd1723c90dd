"""The Python half of the R package's gradients (R/functional.R,
R/optim.R): pycg_grad() and pycg_value_and_grad() are pycg.value_and_grad
of an R function, its records replayed (pycg/r/replay.py), with R's warning
where a finite value has a gradient holding NaN, and R arrays out where
R's optim() wants them; `objective` is pycg_optim_objective()'s call."""
import warnings

import numpy as np

import pycg
from pycg.optimize import NaNGradientError, nan_gradient_message
from pycg.r import codec
from pycg.r.envelope import ARRAY_KEY as R_ARRAY
from pycg.r import replay as _replay
from pycg.r.base.na import symbolic
from pycg.tensor import Tensor, structure


def checked_value_and_grad(f, argnums, has_aux, value, replay=None):
    """pycg.value_and_grad(f, argnums, has_aux) for the R package's
    pycg_value_and_grad() (`value` True) and pycg_grad() (False: what
    pycg.grad returns), warning where a finite value has a gradient holding
    NaN (pycg.optimize.nan_gradient_message). `replay`: None, or True to
    replay records of f (pycg/r/replay.py), or R's reason to keep none.
    The function returned has the Replayed (or value_and_grad) as its
    `replayed`."""
    def transform(g):
        return pycg.value_and_grad(g, argnums=argnums, has_aux=has_aux)

    vg = transform(f) if replay is None else _replay.Replayed(
        f, transform, why_not=None if replay is True else replay)
    name = getattr(f, "__name__", "f")

    def run(*args, **kwargs):
        out, grads = vg(*args, **kwargs)
        _warn_nan_gradient(name, out[0] if has_aux else out, grads)
        if value:
            return out, grads
        return (grads, out[1]) if has_aux else grads

    def run_r(*args, **kwargs):   # (R data in: R arrays out, as R's own
        # gradient functions give optim())
        out = run(*args, **kwargs)
        return structure.unflatten(out, [_r_array(x) for x in
                                         structure.flatten(out)])
    run.replayed, run.r_values = vg, run_r
    return run


def _r_array(x):
    return {R_ARRAY: codec.to_r(x)} if isinstance(x, Tensor) else x


def _warn_nan_gradient(name, value, grads):
    leaves = [g for g in structure.flatten(grads) if isinstance(g, Tensor)]
    if symbolic(value) or any(symbolic(g) for g in leaves):
        return
    problem = nan_gradient_message(name, float(np.asarray(value.numpy())),
                                   [np.asarray(g.numpy()) for g in leaves])
    if problem:
        warnings.warn(problem, RuntimeWarning, stacklevel=3)


def objective(fun, x):
    """fun(x) for R's optim() and nlminb(), fun a
    pycg.optimize.scipy_objective: (value, the gradient as codec.to_r's
    triple). R calls it by its entry, "r.grad.objective"
    (pycg/r/entries.py), so that an older pycg fails only there, with a
    message naming it."""
    try:
        value, grad = fun(np.asarray(
            x.numpy() if isinstance(x, Tensor) else x,
            dtype=np.float64).reshape(-1))
    except NaNGradientError as e:   # (R names its own function)
        raise FloatingPointError(e.problem) from None
    return value, codec.to_r(grad)
