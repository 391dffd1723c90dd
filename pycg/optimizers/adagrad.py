"""Adagrad (keras.optimizers.Adagrad)."""
from typing import Any

from pycg import ops
from pycg.optimizers._checks import hyper_parameter
from pycg.optimizers._docs import LearningRate, shared_args
from pycg.optimizers.base import Optimizer


class Adagrad(Optimizer):
    """a += g**2 (a starts at initial_accumulator_value) and
    w -= lr * g / sqrt(a + epsilon).

    Args:
        learning_rate: A non-negative float, or a schedule of the step
            (pycg.optimizers.schedules); Keras' default, 0.001.
        initial_accumulator_value: The accumulator's first value.
        epsilon: Added to the accumulator for stability (Keras' 1e-7).

    Example:
    >>> import pycg
    >>> w = pycg.Variable([1.0])
    >>> opt = pycg.optimizers.Adagrad(learning_rate=0.1,
    ...                               initial_accumulator_value=0.0)
    >>> opt.apply([pycg.constant([2.0])], [w])
    >>> round(float(w[0]), 4)  # 1 - 0.1 * 2 / sqrt(4)
    0.9
    """
    __doc__ = shared_args(__doc__)

    def __init__(self, learning_rate: LearningRate = 0.001,
                 initial_accumulator_value: float = 0.1,
                 epsilon: float = 1e-7,
                 weight_decay: float | None = None,
                 clipnorm: float | None = None,
                 clipvalue: float | None = None,
                 global_clipnorm: float | None = None, name: str | None = None,
                 **kwargs: Any) -> None:
        super().__init__(learning_rate=learning_rate,
                         weight_decay=weight_decay, clipnorm=clipnorm,
                         clipvalue=clipvalue, global_clipnorm=global_clipnorm,
                         name=name, **kwargs)
        self.initial_accumulator_value = hyper_parameter(
            self._who, "initial_accumulator_value", initial_accumulator_value)
        self.epsilon = hyper_parameter(self._who, "epsilon", epsilon)
        self._accumulators: list[Any] = []

    def build_slots(self, variables):
        self._accumulators = self.add_slots(
            variables, "accumulator", self.initial_accumulator_value)

    def _slots(self):
        return [self._accumulators]

    def update_step(self, gradient, variable, learning_rate):
        lr = ops.cast(learning_rate, variable.dtype)
        accumulator = self._accumulators[self.slot_index(variable)]
        accumulator.assign_add(ops.square(gradient))
        variable.assign_sub(ops.divide(
            ops.multiply(lr, gradient),
            ops.sqrt(ops.add(accumulator.read(), self.epsilon))))
