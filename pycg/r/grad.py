"""pycg_grad() and pycg_value_and_grad()'s Python half (R/functional.R):
pycg.value_and_grad of an R function, its records replayed
(pycg/r/replay.py), with R's warning where a finite value has a gradient
holding NaN, and R arrays out where R's optim() wants them."""
import warnings

import numpy as np

import pycg
from pycg.optimize import nan_gradient_message
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
