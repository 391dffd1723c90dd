"""SGD with momentum and Nesterov momentum (keras.optimizers.SGD)."""
from typing import Any

from pycg import ops
from pycg.optimizers._checks import hyper_parameter
from pycg.optimizers._docs import LearningRate, shared_args
from pycg.optimizers.base import Optimizer


class SGD(Optimizer):
    """Gradient descent; with momentum m: v = m * v - lr * g, w += v
    (nesterov: w += m * v - lr * g).

    Args:
        learning_rate: A non-negative float, or a schedule of the step
            (pycg.optimizers.schedules); Keras' default, 0.01.
        momentum: The momentum m, in [0, 1] (0: plain gradient descent).
        nesterov: Use Nesterov momentum.

    Example:
    >>> import pycg
    >>> w = pycg.Variable([1.0])
    >>> opt = pycg.optimizers.SGD(learning_rate=0.1, momentum=0.9)
    >>> for _ in range(2):
    ...     opt.apply([pycg.constant([1.0])], [w])
    >>> round(float(w[0]), 4)  # 1 - 0.1 - (0.9 * 0.1 + 0.1)
    0.71
    """
    __doc__ = shared_args(__doc__)

    def __init__(self, learning_rate: LearningRate = 0.01,
                 momentum: float = 0.0, nesterov: bool = False,
                 weight_decay: float | None = None,
                 clipnorm: float | None = None,
                 clipvalue: float | None = None,
                 global_clipnorm: float | None = None, name: str | None = None,
                 **kwargs: Any) -> None:
        super().__init__(learning_rate=learning_rate,
                         weight_decay=weight_decay, clipnorm=clipnorm,
                         clipvalue=clipvalue, global_clipnorm=global_clipnorm,
                         name=name, **kwargs)
        self.momentum = hyper_parameter(self._who, "momentum", momentum)
        self.nesterov = hyper_parameter(self._who, "nesterov", nesterov)
        self._momentums: list[Any] = []

    def build_slots(self, variables):
        if self.momentum != 0:
            self._momentums = self.add_slots(variables, "momentum")

    def _slots(self):
        return [self._momentums]

    def update_step(self, gradient, variable, learning_rate):
        lr = ops.cast(learning_rate, variable.dtype)
        step = ops.multiply(gradient, lr)
        if self.momentum == 0:
            variable.assign_sub(step)
            return
        m = self._momentums[self.slot_index(variable)]
        m.assign(ops.subtract(ops.multiply(m.read(), self.momentum), step))
        if self.nesterov:
            variable.assign_add(ops.subtract(
                ops.multiply(m.read(), self.momentum), step))
        else:
            variable.assign_add(m.read())
