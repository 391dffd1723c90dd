"""RMSprop, centered and with momentum (keras.optimizers.RMSprop)."""
from typing import Any

from pycg import ops
from pycg.optimizers._checks import hyper_parameter
from pycg.optimizers._docs import LearningRate, shared_args
from pycg.optimizers.base import Optimizer


class RMSprop(Optimizer):
    """v = rho * v + (1 - rho) * g**2 and w -= lr * g / sqrt(v + epsilon);
    centered subtracts the squared moving average of g from v; momentum
    accumulates the increments.

    Args:
        learning_rate: A non-negative float, or a schedule of the step
            (pycg.optimizers.schedules); Keras' default, 0.001.
        rho: The decay of the moving average of g**2.
        momentum: The momentum of the increments (0: none).
        epsilon: Added to v for stability (Keras' 1e-7).
        centered: Subtract the squared moving average of g (centered
            RMSprop).

    Example:
    >>> import pycg
    >>> w = pycg.Variable([1.0])
    >>> opt = pycg.optimizers.RMSprop(learning_rate=0.01, rho=0.75)
    >>> opt.apply([pycg.constant([2.0])], [w])
    >>> round(float(w[0]), 4)  # 1 - 0.01 * 2 / sqrt(0.25 * 4)
    0.98
    """
    __doc__ = shared_args(__doc__)

    def __init__(self, learning_rate: LearningRate = 0.001, rho: float = 0.9,
                 momentum: float = 0.0, epsilon: float = 1e-7,
                 centered: bool = False,
                 weight_decay: float | None = None,
                 clipnorm: float | None = None,
                 clipvalue: float | None = None,
                 global_clipnorm: float | None = None, name: str | None = None,
                 **kwargs: Any) -> None:
        super().__init__(learning_rate=learning_rate,
                         weight_decay=weight_decay, clipnorm=clipnorm,
                         clipvalue=clipvalue, global_clipnorm=global_clipnorm,
                         name=name, **kwargs)
        self.rho, self.momentum, self.epsilon, self.centered = (
            hyper_parameter(self._who, arg, v) for arg, v in (
                ("rho", rho), ("momentum", momentum), ("epsilon", epsilon),
                ("centered", centered)))
        self._velocities: list[Any] = []
        self._momentums: list[Any] = []
        self._average_gradients: list[Any] = []

    def build_slots(self, variables):
        self._velocities = self.add_slots(variables, "velocity")
        if self.momentum > 0:
            self._momentums = self.add_slots(variables, "momentum")
        if self.centered:
            self._average_gradients = self.add_slots(variables,
                                                     "average_gradient")

    def _slots(self):
        return [self._velocities, self._momentums, self._average_gradients]

    def update_step(self, gradient, variable, learning_rate):
        lr = ops.cast(learning_rate, variable.dtype)
        i = self.slot_index(variable)
        rho, velocity = self.rho, self._velocities[i]
        velocity.assign(ops.add(ops.multiply(rho, velocity.read()),
                                ops.multiply(1 - rho, ops.square(gradient))))
        if self.centered:
            average = self._average_gradients[i]
            average.assign(ops.add(ops.multiply(rho, average.read()),
                                   ops.multiply(1 - rho, gradient)))
            denominator = ops.add(ops.subtract(
                velocity.read(), ops.square(average.read())), self.epsilon)
        else:
            denominator = ops.add(velocity.read(), self.epsilon)
        increment = ops.divide(ops.multiply(lr, gradient),
                               ops.sqrt(denominator))
        if self.momentum > 0:
            m = self._momentums[i]
            m.assign(ops.add(ops.multiply(self.momentum, m.read()),
                             increment))
            variable.assign_sub(m.read())
        else:
            variable.assign_sub(increment)
