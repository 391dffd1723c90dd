"""Adam (with AMSGrad) and AdamW (keras.optimizers.Adam, AdamW)."""
from typing import Any

from pycg import ops
from pycg.optimizers._checks import hyper_parameter
from pycg.api._docs import with_args
from pycg.optimizers._docs import LearningRate, shared_args
from pycg.optimizers.base import Optimizer

# Adam's own arguments, in the Args of Adam and AdamW (before those that
# every optimizer shares: _docs.SHARED)
_ARGS = """\
        learning_rate: A non-negative float, or a schedule of the step
            (pycg.optimizers.schedules); Keras' default, 0.001.
        beta_1: The decay of the first-moment average m.
        beta_2: The decay of the second-moment average v.
        epsilon: Added to sqrt(v) for stability (Keras' 1e-7).
        amsgrad: Use the running maximum of v (AMSGrad).
"""


class Adam(Optimizer):
    """Adam: m and v are moving averages of g and g**2, and
    w -= lr * sqrt(1 - beta_2**t) / (1 - beta_1**t) * m / (sqrt(v) + epsilon)
    (amsgrad: v is the running maximum of the v's).

    Args:

    Example:
    >>> import pycg
    >>> w = pycg.Variable([1.0, -1.0])
    >>> opt = pycg.optimizers.Adam(learning_rate=0.1)
    >>> opt.apply([pycg.constant([3.0, -0.5])], [w])
    >>> [round(x, 4) for x in w.numpy().tolist()]  # first step: lr * sign(g)
    [0.9, -0.9]
    """
    __doc__ = shared_args(with_args(__doc__, _ARGS))

    def __init__(self, learning_rate: LearningRate = 0.001,
                 beta_1: float = 0.9, beta_2: float = 0.999,
                 epsilon: float = 1e-7, amsgrad: bool = False,
                 weight_decay: float | None = None,
                 clipnorm: float | None = None,
                 clipvalue: float | None = None,
                 global_clipnorm: float | None = None, name: str | None = None,
                 **kwargs: Any) -> None:
        super().__init__(learning_rate=learning_rate,
                         weight_decay=weight_decay, clipnorm=clipnorm,
                         clipvalue=clipvalue, global_clipnorm=global_clipnorm,
                         name=name, **kwargs)
        self.beta_1, self.beta_2, self.epsilon, self.amsgrad = (
            hyper_parameter(self._who, arg, v) for arg, v in (
                ("beta_1", beta_1), ("beta_2", beta_2), ("epsilon", epsilon),
                ("amsgrad", amsgrad)))
        self._momentums: list[Any] = []
        self._velocities: list[Any] = []
        self._velocity_hats: list[Any] = []

    def build_slots(self, variables):
        self._momentums = self.add_slots(variables, "momentum")
        self._velocities = self.add_slots(variables, "velocity")
        if self.amsgrad:
            self._velocity_hats = self.add_slots(variables, "velocity_hat")

    def _slots(self):
        return [self._momentums, self._velocities, self._velocity_hats]

    def update_step(self, gradient, variable, learning_rate):
        dtype = variable.dtype
        lr = ops.cast(learning_rate, dtype)
        t = ops.cast(ops.add(self.iterations.read(), 1), dtype)
        beta_1_power = ops.power(ops.cast(self.beta_1, dtype), t)
        beta_2_power = ops.power(ops.cast(self.beta_2, dtype), t)
        i = self.slot_index(variable)
        m, v = self._momentums[i], self._velocities[i]
        alpha = ops.divide(ops.multiply(lr, ops.sqrt(
            ops.subtract(1, beta_2_power))), ops.subtract(1, beta_1_power))
        m.assign_add(ops.multiply(ops.subtract(gradient, m.read()),
                                  1 - self.beta_1))
        v.assign_add(ops.multiply(ops.subtract(ops.square(gradient),
                                               v.read()), 1 - self.beta_2))
        if self.amsgrad:
            v_hat = self._velocity_hats[i]
            v_hat.assign(ops.maximum(v_hat.read(), v.read()))
            v = v_hat
        variable.assign_sub(ops.divide(
            ops.multiply(m.read(), alpha),
            ops.add(ops.sqrt(v.read()), self.epsilon)))


class AdamW(Adam):
    """Adam with decoupled weight decay: before each step
    w -= w * weight_decay * lr (Keras' AdamW, weight_decay=0.004).

    """
    __doc__ = shared_args(__doc__.rstrip(" ") + "    Args:\n" + _ARGS).replace(
        "(None: none)", "(0.004)")

    def __init__(self, learning_rate: LearningRate = 0.001,
                 weight_decay: float = 0.004, beta_1: float = 0.9,
                 beta_2: float = 0.999, epsilon: float = 1e-7,
                 amsgrad: bool = False, clipnorm: float | None = None,
                 clipvalue: float | None = None,
                 global_clipnorm: float | None = None, name: str | None = None,
                 **kwargs: Any) -> None:
        super().__init__(learning_rate=learning_rate, beta_1=beta_1,
                         beta_2=beta_2, epsilon=epsilon, amsgrad=amsgrad,
                         weight_decay=weight_decay, clipnorm=clipnorm,
                         clipvalue=clipvalue, global_clipnorm=global_clipnorm,
                         name=name, **kwargs)
        hyper_parameter(self._who, "weight_decay", weight_decay)
