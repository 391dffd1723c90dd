"""What the R package may call in Python by name: every name R/*.R passes to
core_call() (R/calls.R), and where each lives, as "module:attribute".

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
import importlib

ENTRIES = {
    # pycg's public API
    "GradientTape": "pycg:GradientTape",
    "Variable": "pycg:Variable",
    "check_gradients": "pycg:check_gradients",
    "config.backend": "pycg.config:backend",
    "config.floatx": "pycg.config:floatx",
    "config.set_backend": "pycg.config:set_backend",
    "config.set_floatx": "pycg.config:set_floatx",
    "custom_gradient": "pycg:custom_gradient",
    "debug.check_numerics": "pycg.debug:check_numerics",
    "function": "pycg:function",
    "load_variables": "pycg:load_variables",
    "optimize.scipy_objective": "pycg.optimize:scipy_objective",
    "random.SeedGenerator": "pycg.random:SeedGenerator",
    "random.categorical": "pycg.random:categorical",
    "random.dropout": "pycg.random:dropout",
    "random.normal": "pycg.random:normal",
    "random.randint": "pycg.random:randint",
    "random.seed_generator.seed_global":
        "pycg.random.seed_generator:seed_global",
    "random.shuffle": "pycg.random:shuffle",
    "random.truncated_normal": "pycg.random:truncated_normal",
    "random.uniform": "pycg.random:uniform",
    "save_variables": "pycg:save_variables",
    "to_jax": "pycg:to_jax",
    "to_keras": "pycg:to_keras",
    "to_tensorflow": "pycg:to_tensorflow",
    "to_torch": "pycg:to_torch",
    # the R package's own: its functions' Python halves
    "r.grad.checked_value_and_grad": "pycg.r.grad:checked_value_and_grad",
    "r.interop.r_objective": "pycg.r.interop:r_objective",
    # R's meaning on tensors (pycg/r/base/)
    "r.covariance.covariance": "pycg.r.base.covariance:covariance",
    "r.covariance.sd": "pycg.r.base.covariance:sd",
    "r.linalg.drop": "pycg.r.base.linalg:drop",
    "r.linalg.kronecker_layout": "pycg.r.base.linalg:kronecker_layout",
    "r.linalg.matprod": "pycg.r.base.linalg:matprod",
    "r.linalg.norm": "pycg.r.base.linalg:norm",
    "r.linalg.outer_operands": "pycg.r.base.linalg:outer_operands",
    "r.linalg.transpose": "pycg.r.base.linalg:transpose",
    "r.linalg.with_r_dims": "pycg.r.base.linalg:with_r_dims",
    "r.na.as_nan": "pycg.r.base.na:as_nan",
    "r.na.fill": "pycg.r.base.na:fill",
    "r.na.is_missing": "pycg.r.base.na:is_missing",
    "r.na.is_nan": "pycg.r.base.na:is_nan",
    "r.replace.nas": "pycg.r.base.replace:nas",
    "r.semantics.r_type": "pycg.r.base.semantics:r_type",
    "r.special.beta": "pycg.r.base.special:beta",
    "r.special.choose": "pycg.r.base.special:choose",
    "r.special.lbeta": "pycg.r.base.special:lbeta",
    "r.special.lchoose": "pycg.r.base.special:lchoose",
    "r.special.math_group": "pycg.r.base.special:math_group",
    "r.special.psigamma": "pycg.r.base.special:psigamma",
    "r.square.backsolve": "pycg.r.base.square:backsolve",
    "r.square.chol": "pycg.r.base.square:chol",
    "r.square.chol2inv": "pycg.r.base.square:chol2inv",
    "r.square.det": "pycg.r.base.square:det",
    "r.square.determinant": "pycg.r.base.square:determinant",
    "r.square.solve": "pycg.r.base.square:solve",
    "r.stats.combine": "pycg.r.base.stats:combine",
    "r.stats.median": "pycg.r.base.stats:median",
    "r.stats.rowsum": "pycg.r.base.stats:rowsum",
    "r.stats.scale": "pycg.r.base.stats:scale",
    "r.stats.slices": "pycg.r.base.stats:slices",
    "r.summary.proportions": "pycg.r.base.summary:proportions",
}

def lookup(name):
    """The function ENTRIES names `name`; LookupError for another name."""
    where = ENTRIES.get(name) if isinstance(name, str) else None
    if where is None:
        raise LookupError(
            f"pycg: the R package called {name!r}, which is not among the "
            f"Python functions it may call (pycg/r/entries.py); an R package "
            f"newer than this pycg? Reinstall both from one release")
    module, attribute = where.split(":")
    return getattr(importlib.import_module(module), attribute)
