"""What the R package may call in Python by name: every name R/*.R passes to
core_call() (R/calls.R), and the function it names.

A name starting "r." is the R package's own: R's meaning on tensors
(pycg/r/base/) and the Python halves of its functions. Any other name is
pycg's public API, by its path below `pycg` ("config.backend" is
pycg.config.backend). A name missing here is refused (`lookup`), with the
name in the message, so an R package newer than its pycg fails at the one
call that pycg lacks. interop.call_core, one `_guarded` function, calls
them: strong zeros, a Failure for R, a step of a pycg_grad() record
(pycg/r/replay.py). tests/test_r_entries.py holds the table against R/.

The functions R holds directly (R/python.R's interop(): the ops, the
operators, conversions) are interop's own `_guarded` functions.
"""
import pycg
from pycg.r import grad
from pycg.r.base import (covariance, linalg, na, replace, semantics, special,
                         square, stats, summary)

ENTRIES = {
    # pycg's public API, by its path
    "GradientTape": pycg.GradientTape,
    "Variable": pycg.Variable,
    "check_gradients": pycg.check_gradients,
    "config.backend": pycg.config.backend,
    "config.floatx": pycg.config.floatx,
    "config.set_backend": pycg.config.set_backend,
    "config.set_floatx": pycg.config.set_floatx,
    "custom_gradient": pycg.custom_gradient,
    "custom_jvp": pycg.custom_jvp,
    "debug.check_numerics": pycg.debug.check_numerics,
    "function": pycg.function,
    "hessian": pycg.hessian,
    "jacfwd": pycg.jacfwd,
    "jvp": pycg.jvp,
    "load_variables": pycg.load_variables,
    "optimize.scipy_objective": pycg.optimize.scipy_objective,
    "optimizers.Adagrad": pycg.optimizers.Adagrad,
    "optimizers.Adam": pycg.optimizers.Adam,
    "optimizers.AdamW": pycg.optimizers.AdamW,
    "optimizers.RMSprop": pycg.optimizers.RMSprop,
    "optimizers.SGD": pycg.optimizers.SGD,
    "random.SeedGenerator": pycg.random.SeedGenerator,
    "random.categorical": pycg.random.categorical,
    "random.dropout": pycg.random.dropout,
    "random.normal": pycg.random.normal,
    "random.randint": pycg.random.randint,
    "random.seed_generator.seed_global":
        pycg.random.seed_generator.seed_global,
    "random.shuffle": pycg.random.shuffle,
    "random.truncated_normal": pycg.random.truncated_normal,
    "random.uniform": pycg.random.uniform,
    "save_variables": pycg.save_variables,
    "to_jax": pycg.to_jax,
    "to_keras": pycg.to_keras,
    "to_tensorflow": pycg.to_tensorflow,
    "to_torch": pycg.to_torch,
    # the R package's own: its gradients' Python half (pycg/r/grad.py)
    "r.grad.checked_value_and_grad": grad.checked_value_and_grad,
    "r.grad.objective": grad.objective,
    # R's meaning on tensors (pycg/r/base/)
    "r.covariance.covariance": covariance.covariance,
    "r.covariance.sd": covariance.sd,
    "r.linalg.drop": linalg.drop,
    "r.linalg.kronecker_layout": linalg.kronecker_layout,
    "r.linalg.matprod": linalg.matprod,
    "r.linalg.norm": linalg.norm,
    "r.linalg.outer_operands": linalg.outer_operands,
    "r.linalg.transpose": linalg.transpose,
    "r.linalg.with_r_dims": linalg.with_r_dims,
    "r.na.as_nan": na.as_nan,
    "r.na.fill": na.fill,
    "r.na.is_missing": na.is_missing,
    "r.na.is_nan": na.is_nan,
    "r.replace.nas": replace.nas,
    "r.semantics.r_type": semantics.r_type,
    "r.special.beta": special.beta,
    "r.special.choose": special.choose,
    "r.special.lbeta": special.lbeta,
    "r.special.lchoose": special.lchoose,
    "r.special.math_group": special.math_group,
    "r.special.psigamma": special.psigamma,
    "r.square.backsolve": square.backsolve,
    "r.square.chol": square.chol,
    "r.square.chol2inv": square.chol2inv,
    "r.square.det": square.det,
    "r.square.determinant": square.determinant,
    "r.square.solve": square.solve,
    "r.stats.combine": stats.combine,
    "r.stats.median": stats.median,
    "r.stats.rowsum": stats.rowsum,
    "r.stats.scale": stats.scale,
    "r.stats.slices": stats.slices,
    "r.summary.proportions": summary.proportions,
}


def lookup(name):
    """The function ENTRIES names `name`; LookupError for another name."""
    fn = ENTRIES.get(name) if isinstance(name, str) else None
    if fn is None:
        raise LookupError(
            f"pycg: the R package called {name!r}, which is not among the "
            f"Python functions it may call (pycg/r/entries.py); an R package "
            f"newer than this pycg? Reinstall both from one release")
    return fn
