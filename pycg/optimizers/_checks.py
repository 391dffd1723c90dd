"""What the optimizers check: their hyper-parameters when they are made
(`hyper_parameter`, by name, from one table of ranges), and what
Optimizer.apply gets before a step, each error naming the optimizer
(`_who`) and the variable by position and name."""
import math
import numbers
import warnings
from typing import Any

import numpy as np

from pycg import config
from pycg._errors import Api, Arg, Dtype, Value, user_error
from pycg.compile.state import var_key
from pycg.optimizers import _messages as messages
from pycg.tensor import Tensor, Variable, convert_to_tensor, is_float


class Checks:
    """The argument checks of Optimizer.apply (Optimizer provides the
    attributes declared below)."""

    _who: str
    _index: dict[Any, int]
    _variables: list[Any]

    def _check_variables(self, variables):
        for i, v in enumerate(variables):
            if not isinstance(v, Variable):
                raise messages.not_a_variable(self._who, v, i)
            if not is_float(v.dtype):
                raise messages.not_floating(self._who, v, i)
        return variables

    def _check_known(self, variables):
        for i, v in enumerate(variables):
            if var_key(v) not in self._index:
                raise messages.not_built_with(self._who, v, i,
                                              len(self._variables))

    def _present(self, grads, variables):
        kept = [(g, v) for g, v in zip(grads, variables) if g is not None]
        if not kept:
            raise ValueError(f"{self._who}.apply: no gradients provided for "
                             f"any variable (all are None)")
        if len(kept) < len(grads):
            missing = [(i, v) for i, (g, v) in
                       enumerate(zip(grads, variables)) if g is None]
            warnings.warn(messages.no_gradients_for(self._who, missing),
                          stacklevel=3)
        return [g for g, _ in kept], [v for _, v in kept]

    def _check_gradient(self, g, v, i):
        if isinstance(g, Tensor):
            if g.dtype != v.dtype:
                raise messages.gradient_dtype(self._who, g, v, i)
            g = convert_to_tensor(g)
        else:
            try:
                g = convert_to_tensor(np.asarray(g), v.dtype)
            except (TypeError, ValueError) as e:
                raise messages.gradient_not_numeric(self._who, v, i,
                                                    e) from None
        if g.shape != v.shape:
            raise messages.gradient_shape(self._who, g, v, i)
        return g



# ---- hyper-parameters ----------------------------------------------------
# name -> (low, high, high included): every range holds finite numbers only
# and includes its low end. Keras checks SGD's momentum in [0, 1] and
# schedules' decay_steps > 0; where it checks nothing these are PyTorch's
# ranges for the same parameters (betas in [0, 1), rho/alpha, epsilon,
# weight decay, learning rate and Adagrad's initial accumulator >= 0), so
# that no value accepted turns the first step into inf or NaN.
INF = math.inf
RANGES = {
    "learning_rate": (0, INF, False), "weight_decay": (0, INF, False),
    "clipnorm": (0, INF, False), "clipvalue": (0, INF, False),
    "global_clipnorm": (0, INF, False), "momentum": (0, 1, True),
    "beta_1": (0, 1, False), "beta_2": (0, 1, False),
    "epsilon": (0, INF, False), "rho": (0, 1, True),
    "initial_accumulator_value": (0, INF, False),
    # schedules
    "initial_learning_rate": (0, INF, False), "decay_rate": (0, INF, False),
    "alpha": (0, 1, True), "warmup_target": (0, INF, False),
    "warmup_steps": (0, INF, False), "values": (0, INF, False),
    "boundaries": (0, INF, False),
}
POSITIVE = ("decay_steps",)   # (> 0: a step count divided by)
FLAGS = ("nesterov", "amsgrad", "centered", "staircase")


def hyper_parameter(who: str, name: str, value: Any,
                    optional: bool = False, dtype: Any = None) -> Any:
    """`value` of hyper-parameter `name` of `who` ("pycg.optimizers.Adam"),
    checked: a float in the range RANGES gives it (None too if `optional`),
    True or False for a flag, a str or None for a name. A number is checked
    twice: as it arrived, and as `dtype` holds it (None: floatx, where the
    learning rate is stored and the others meet float32 weights), where
    1e39 is inf, 1e-50 is 0 and 1 - 1e-10 is 1."""
    api, arg = Api(who.removeprefix("pycg.")), Arg(name)
    if name in FLAGS:
        if isinstance(value, (bool, np.bool_)):
            return bool(value)
        raise user_error(ValueError, "{api}: {arg} must be True or False, "
                         "got {value}", api=api, arg=arg, value=Value(value))
    if name == "name":
        if value is None or isinstance(value, str):
            return value
        raise user_error(ValueError, "{api}: {arg} must be a str or None, "
                         "got {value}", api=api, arg=arg, value=Value(value))
    if value is None and optional:
        return None
    if name in POSITIVE:
        low, high, closed, expected = 0, INF, False, "a finite number > 0"
    else:
        low, high, closed = RANGES[name]
        expected = "a finite float >= 0" if high == INF else \
            "a float " + (
                          f"in [0, 1{']' if closed else ')'}")
    def fits(v):
        return math.isfinite(v) and v >= low and (
            v <= high if closed else v < high) and \
            not (name in POSITIVE and v == 0)

    if name == "learning_rate":
        expected += (", a pycg.optimizers.schedules.LearningRateSchedule "
                     "or a callable")
    if _real(value) and fits(value):
        stored_range(api, arg, value, expected, fits, dtype)
        return value if name in POSITIVE else float(value)
    raise user_error(ValueError, "{api}: {arg} must be {expected}"
                     + (" or None" if optional else "") + ", got {value}",
                     api=api, arg=arg, expected=expected, value=Value(value))


def stored_range(api, arg, value, expected, fits, dtype):
    """The ValueError for a `value` that `fits` as it arrived but not as
    `dtype` holds it: past its range (inf, or 1.0 for beta_1 < 1), or a
    nonzero value below its smallest normal number, which it rounds to 0
    or keeps as a subnormal that TensorFlow's and XLA's kernels flush to
    0 (epsilon=1e-50 would divide by 0)."""
    dtype = np.dtype(dtype or config.floatx())
    with np.errstate(over="ignore", under="ignore"):
        stored = dtype.type(value)
    smallest = dtype.type(np.finfo(dtype).smallest_normal)
    underflows = value != 0 and abs(stored) < smallest
    if fits(stored) and not underflows:
        return
    after = "" if not underflows else (
        f"; a nonzero value must be at least {smallest!s}, {dtype.name}'s "
        f"smallest normal number")
    raise user_error(ValueError, "{api}: {arg} must be {expected}, got "
                     "{value}, which is {stored} in {dtype}, the dtype it "
                     "is used in (pycg.config.floatx())" + after, api=api,
                     arg=arg, expected=expected, value=Value(value),
                     stored=stored, dtype=Dtype(dtype.name))


def _real(v):
    return isinstance(v, numbers.Real) and not isinstance(v, (bool,
                                                              np.bool_))
