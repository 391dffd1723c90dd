"""What the optimizers check: their hyper-parameters when they are made
(`hyper_parameter`, by name, from one table of ranges), and what
Optimizer.apply gets before a step, each error naming the optimizer
(`_who`) and the variable by position and name."""
import math
import numbers
import warnings
from typing import Any

import numpy as np

from pycg._errors import Api, Arg, Value, user_error
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
                    optional: bool = False) -> Any:
    """`value` of hyper-parameter `name` of `who` ("pycg.optimizers.Adam"),
    checked: a float in the range RANGES gives it (None too if `optional`),
    True or False for a flag, a str or None for a name."""
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
    if _real(value) and math.isfinite(value) and value >= low and (
            value <= high if closed else value < high) and \
            not (name in POSITIVE and value == 0):
        return value if name in POSITIVE else float(value)
    if name == "learning_rate":
        expected += (", a pycg.optimizers.schedules.LearningRateSchedule "
                     "or a callable")
    raise user_error(ValueError, "{api}: {arg} must be {expected}"
                     + (" or None" if optional else "") + ", got {value}",
                     api=api, arg=arg, expected=expected, value=Value(value))


def _real(v):
    return isinstance(v, numbers.Real) and not isinstance(v, (bool,
                                                              np.bool_))
