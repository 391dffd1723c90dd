"""Learning-rate schedules: Keras 3's, as pycg ops of the step, so they run
eagerly and inside pycg.function on both backends.

>>> from pycg.optimizers import schedules
>>> lr = schedules.ExponentialDecay(0.1, decay_steps=10, decay_rate=0.5)
>>> round(float(lr(10)), 6)
0.05
"""
import math

from pycg import ops
from pycg.optimizers._checks import hyper_parameter


class LearningRateSchedule:
    """A learning rate as a function of the optimizer's step (subclass and
    define `__call__(self, step)` with pycg ops; an optimizer calls it with
    its iteration count, an int64 tensor, at each step)."""

    def __call__(self, step):
        raise NotImplementedError


class ExponentialDecay(LearningRateSchedule):
    """initial_learning_rate * decay_rate ** (step / decay_steps); with
    staircase=True the exponent is floored
    (keras.optimizers.schedules.ExponentialDecay).

    Args:
        initial_learning_rate: The rate at step 0.
        decay_steps: The steps over which the rate is multiplied by
            decay_rate once (positive).
        decay_rate: The factor per decay_steps.
        staircase: Floor step / decay_steps (the rate changes in steps).
        name: The schedule's name.
    """

    def __init__(self, initial_learning_rate, decay_steps, decay_rate,
                 staircase=False, name="ExponentialDecay"):
        (self.initial_learning_rate, self.decay_steps, self.decay_rate,
         self.staircase, self.name) = _checked(
            "ExponentialDecay", initial_learning_rate=initial_learning_rate,
            decay_steps=decay_steps, decay_rate=decay_rate,
            staircase=staircase, name=name)

    def __call__(self, step):
        lr = ops.convert_to_tensor(self.initial_learning_rate)
        p = ops.divide(ops.cast(step, lr.dtype),
                       ops.cast(self.decay_steps, lr.dtype))
        if self.staircase:
            p = ops.floor(p)
        return ops.multiply(lr, ops.power(ops.cast(self.decay_rate, lr.dtype),
                                          p))


class PiecewiseConstantDecay(LearningRateSchedule):
    """values[0] up to and including boundaries[0], values[1] up to and
    including boundaries[1], ..., values[-1] after the last boundary.

    Args:
        boundaries: The steps where the rate changes, increasing.
        values: The rates, one more than boundaries.
        name: The schedule's name.

    Example:
    >>> from pycg.optimizers import schedules
    >>> lr = schedules.PiecewiseConstantDecay([10, 20], [1.0, 0.5, 0.1])
    >>> [round(float(lr(s)), 3) for s in (10, 11, 20, 21)]
    [1.0, 0.5, 0.5, 0.1]
    """

    def __init__(self, boundaries, values, name="PiecewiseConstant"):
        if len(boundaries) != len(values) - 1:
            raise ValueError(
                f"pycg.optimizers.schedules.PiecewiseConstantDecay: "
                f"`boundaries` must have one entry fewer than `values`, got "
                f"{len(boundaries)} boundaries and {len(values)} values")
        who = "pycg.optimizers.schedules.PiecewiseConstantDecay"
        self.boundaries = [hyper_parameter(who, "boundaries", b)
                           for b in boundaries]
        self.values = [hyper_parameter(who, "values", v) for v in values]
        self.name = hyper_parameter(who, "name", name)

    def __call__(self, step):
        step = ops.convert_to_tensor(step)
        values = [ops.convert_to_tensor(v) for v in self.values]
        dtype = values[0].dtype
        bounds = [ops.cast(b, step.dtype) for b in self.boundaries]
        result = ops.multiply(
            ops.cast(ops.less_equal(step, bounds[0]), dtype), values[0])
        result = ops.add(result, ops.multiply(
            ops.cast(ops.greater(step, bounds[-1]), dtype), values[-1]))
        for low, high, value in zip(bounds[:-1], bounds[1:], values[1:-1]):
            inside = ops.logical_and(ops.greater(step, low),
                                     ops.less_equal(step, high))
            result = ops.add(result, ops.multiply(ops.cast(inside, dtype),
                                                  value))
        return result


class CosineDecay(LearningRateSchedule):
    """Cosine decay from the initial rate (or, after a linear warmup of
    warmup_steps, from warmup_target) to alpha times it over decay_steps.

    Args:
        initial_learning_rate: The rate the decay starts from (after warmup,
            warmup_target when given).
        decay_steps: The steps the decay takes (positive).
        alpha: The final rate, as a fraction of the starting one.
        name: The schedule's name.
        warmup_target: The rate a linear warmup reaches (None: no warmup).
        warmup_steps: The warmup's length in steps.

    Example:
    >>> from pycg.optimizers import schedules
    >>> lr = schedules.CosineDecay(1.0, decay_steps=4)
    >>> [round(float(lr(s)), 4) for s in (0, 2, 4, 8)]
    [1.0, 0.5, 0.0, 0.0]
    """

    def __init__(self, initial_learning_rate, decay_steps, alpha=0.0,
                 name="CosineDecay", warmup_target=None, warmup_steps=0):
        (self.initial_learning_rate, self.decay_steps, self.alpha, self.name,
         self.warmup_steps) = _checked(
            "CosineDecay", initial_learning_rate=initial_learning_rate,
            decay_steps=decay_steps, alpha=alpha, name=name,
            warmup_steps=warmup_steps)
        self.warmup_target = hyper_parameter(
            "pycg.optimizers.schedules.CosineDecay", "warmup_target",
            warmup_target, optional=True)

    def _decay(self, step, decay_steps, decay_from):
        fraction = ops.divide(step, decay_steps)
        pi = ops.cast(math.pi, step.dtype)
        cosine = ops.multiply(0.5, ops.add(1.0, ops.cos(ops.multiply(
            pi, fraction))))
        decayed = ops.add(ops.multiply(1 - self.alpha, cosine), self.alpha)
        return ops.multiply(decay_from, decayed)

    def __call__(self, step):
        lr = ops.convert_to_tensor(self.initial_learning_rate)
        dtype = lr.dtype
        decay_steps = ops.cast(self.decay_steps, dtype)
        step = ops.cast(step, dtype)
        if self.warmup_target is None:
            return self._decay(ops.minimum(step, decay_steps), decay_steps,
                               lr)
        target = ops.cast(self.warmup_target, dtype)
        warmup_steps = ops.cast(self.warmup_steps, dtype)
        step = ops.minimum(step, ops.add(decay_steps, warmup_steps))
        warm = ops.add(ops.multiply(ops.subtract(target, lr),
                                    ops.divide(step, warmup_steps)), lr)
        decay = self._decay(ops.subtract(step, warmup_steps), decay_steps,
                            target)
        return ops.where(ops.less(step, warmup_steps), warm, decay)


def _checked(schedule, **values):
    """The hyper-parameters of `schedule`, each checked by its name."""
    who = f"pycg.optimizers.schedules.{schedule}"
    return [hyper_parameter(who, name, v) for name, v in values.items()]
