"""The optimizer base class: Keras 3's BaseOptimizer, on pycg Variables.

`apply(grads, variables)` does what Keras does, in Keras' order: drop None
gradients, clip (clipnorm, global_clipnorm or clipvalue), decay the weights
(`weight_decay`), run each optimizer's `update_step`, count the step in
`iterations`. The slots (momentums, velocities...) are built on the first
apply, eagerly even when that apply runs inside pycg.function (TensorFlow
then traces that function twice; `build(variables)` beforehand avoids it).
"""
import inspect
import threading
from typing import Any

import numpy as np

from pycg import config
from pycg.compile.state import counter_dtype, hold_in_call, state_variable, var_key
from pycg.optimizers._checks import Checks, hyper_parameter
from pycg.optimizers._docs import LearningRate, shared_args
from pycg.optimizers.clipping import clip
from pycg.optimizers.schedules import LearningRateSchedule
from pycg.optimizers.weight_decay import WeightDecay
from pycg.tensor import Variable, convert_to_tensor

_KERAS_ONLY = ("use_ema", "ema_momentum", "ema_overwrite_frequency",
               "loss_scale_factor", "gradient_accumulation_steps")


class Optimizer(WeightDecay, Checks):
    """The base class of pycg's optimizers (keras.optimizers.Optimizer):
    a subclass defines `build_slots(variables)` (its slot variables) and
    `update_step(gradient, variable, learning_rate)`; `apply` does the rest.

    Args:
        learning_rate: A non-negative float, or a schedule (a callable of
            the step, as pycg.optimizers.schedules').
    """
    __doc__ = shared_args(__doc__)

    def __init__(self, learning_rate: LearningRate,
                 weight_decay: float | None = None,
                 clipnorm: float | None = None, clipvalue: float | None = None,
                 global_clipnorm: float | None = None,
                 name: str | None = None, **kwargs: Any) -> None:
        who = f"pycg.optimizers.{type(self).__name__}"
        if kwargs:
            self._unknown(who, kwargs)
        weight_decay, clipnorm, clipvalue, global_clipnorm, name = (
            hyper_parameter(who, arg, v, optional=True) for arg, v in (
                ("weight_decay", weight_decay), ("clipnorm", clipnorm),
                ("clipvalue", clipvalue), ("global_clipnorm", global_clipnorm),
                ("name", name)))
        if sum(a is not None for a in (clipnorm, clipvalue,
                                       global_clipnorm)) > 1:
            raise ValueError(
                f"{who}: only one of `clipnorm`, `clipvalue` and "
                f"`global_clipnorm` can be set, got clipnorm={clipnorm}, "
                f"clipvalue={clipvalue}, global_clipnorm={global_clipnorm}")
        self._who = who
        self.name = name or type(self).__name__.lower()
        self.weight_decay = weight_decay
        self.clipnorm, self.clipvalue = clipnorm, clipvalue
        self.global_clipnorm = global_clipnorm
        self.built = False
        self._lock = threading.RLock()   # one step at a time (see apply)
        self._variables = []
        self._index = {}
        self._no_decay_keys, self._no_decay_names = set(), []
        self._iterations = state_variable(0, counter_dtype(),
                                          f"{self.name}_iteration")
        self._learning_rate = self._lr_state(learning_rate)

    # ---- hyper-parameters ------------------------------------------------
    def _unknown(self, who, kwargs):
        name = next(iter(kwargs))
        if name in _KERAS_ONLY:
            raise ValueError(f"{who}: Keras' argument `{name}` is not "
                             f"supported by pycg")
        valid = [p for p in inspect.signature(type(self)).parameters
                 if p != "kwargs"]
        raise ValueError(f"{who}: unknown argument `{name}`; valid "
                         f"arguments are {', '.join(valid)}")

    def _lr_state(self, learning_rate, dtype=None):
        if callable(learning_rate):
            return learning_rate
        dtype = dtype or config.floatx()
        learning_rate = hyper_parameter(self._who, "learning_rate",
                                        learning_rate, dtype=dtype)
        return state_variable(learning_rate, dtype,
                              f"{self.name}_learning_rate")

    @property
    def iterations(self):
        """The number of steps applied so far (an int64 Variable; int32
        on the jax backend with JAX's 64-bit mode off, as Keras')."""
        return self._iterations

    @property
    def learning_rate(self):
        """The learning rate of the next step (a schedule is called with
        `iterations`, another callable with no arguments, as in Keras)."""
        lr = self._learning_rate
        if isinstance(lr, LearningRateSchedule):
            return lr(self._iterations)
        if isinstance(lr, Variable):
            return lr.read()
        return convert_to_tensor(lr())

    @learning_rate.setter
    def learning_rate(self, value):
        if callable(value) or not isinstance(self._learning_rate, Variable):
            if isinstance(self._learning_rate, LearningRateSchedule) and \
                    not callable(value):
                raise TypeError(
                    f"{self._who}: the learning rate is a schedule, so it "
                    f"cannot be set to a number; create the optimizer with a "
                    f"float `learning_rate` to set it later")
            self._learning_rate = self._lr_state(value)
        else:
            self._learning_rate.assign(hyper_parameter(
                self._who, "learning_rate", value,
                dtype=self._learning_rate.dtype))

    @property
    def variables(self):
        """The optimizer's own state, in Keras' order: iterations, the
        learning rate (unless a schedule or callable), the slots."""
        lr = [self._learning_rate] if isinstance(self._learning_rate,
                                                 Variable) else []
        return [self._iterations] + lr + [
            v for slots in self._slots() for v in slots if v is not None]

    # ---- building --------------------------------------------------------
    def build(self, variables: list[Variable]) -> None:
        """Create the slots for `variables` (done by the first apply; call
        it first inside pycg.function, so the first step traces once).

        Args:
            variables: The variables the optimizer will update.

        Returns:
            None.
        """
        variables = self._check_variables(list(variables))
        if self.built:
            return
        self._variables = variables
        self._index = {var_key(v): i for i, v in enumerate(variables)}
        self.build_slots(variables)
        self.built = True

    def build_slots(self, variables: list[Variable]) -> None:
        """Subclasses create their slot variables here (with add_slots).

        Args:
            variables: The variables the optimizer updates.

        Returns:
            None.
        """

    def _slots(self):
        return []

    def add_slots(self, variables: list[Variable], name: str,
                  initial: float = 0.0) -> list[Variable]:
        """One slot Variable per variable, filled with `initial` (for a
        subclass's build_slots).

        Args:
            variables: The variables the optimizer updates.
            name: The slot's name (each slot is named <variable>_<name>).
            initial: The slots' first value.

        Returns:
            A list of Variables, one per variable, of its shape and dtype.
        """
        return [state_variable(np.full(v.shape, initial, v.dtype), v.dtype,
                               f"{v.name or f'variable_{i}'}_{name}")
                for i, v in enumerate(variables)]

    def slot_index(self, variable: Variable) -> int:
        """The position of `variable` among the optimizer's (its slots' index
        in each add_slots list).

        Args:
            variable: One of the variables the optimizer was built with.

        Returns:
            An int.
        """
        return self._index[var_key(variable)]

    # ---- applying --------------------------------------------------------
    def apply_gradients(self, grads_and_vars: Any) -> Variable:
        """apply() on (gradient, variable) pairs; returns `iterations`.

        Args:
            grads_and_vars: An iterable of (gradient, variable) pairs.

        Returns:
            The `iterations` Variable, after the step.

        Example:
        >>> import pycg
        >>> w = pycg.Variable([1.0, 2.0], name="w")
        >>> opt = pycg.optimizers.SGD(learning_rate=0.5)
        >>> _ = opt.apply_gradients([(pycg.constant([2.0, 2.0]), w)])
        >>> w.numpy().tolist()
        [0.0, 1.0]
        """
        pairs = list(grads_and_vars)
        grads = [g for g, _ in pairs]
        self.apply(grads, [v for _, v in pairs])
        return self._iterations

    def apply(self, grads: Any, variables: Any = None) -> None:
        """Update `variables` (pycg.Variable) in place from `grads`. A step
        is atomic across threads: steps applied from several threads run
        one after another, none lost, `iterations` counting each, eagerly
        and inside pycg.function (a compiled function that applies a step
        runs each call whole under the optimizer's lock: its calls take
        turns with each other and with the eager steps).

        Args:
            grads: One gradient per variable (None: that variable is left
                as it is, as Keras).
            variables: The variables (None: those of the first apply or of
                build).

        Returns:
            None.
        """
        grads = list(grads)
        if not grads:
            return
        with self._lock:
            hold_in_call(self._lock)   # (inside pycg.function: to its end)
            self._apply(grads, variables)

    def _apply(self, grads, variables):
        if variables is None:
            if not self.built:
                raise ValueError(
                    f"{self._who}.apply: pass the variables on the first "
                    f"call (or call build(variables) first)")
            variables = self._variables
        variables = self._check_variables(list(variables))
        if len(grads) != len(variables):
            raise ValueError(
                f"{self._who}.apply: got {len(grads)} gradients for "
                f"{len(variables)} variables")
        if not self.built:
            self.build(variables)
        self._check_known(variables)
        grads, variables = self._present(grads, variables)
        grads = clip([self._check_gradient(g, v, i)
                      for i, (g, v) in enumerate(zip(grads, variables))],
                     self.clipnorm, self.global_clipnorm, self.clipvalue)
        lr = self.learning_rate
        self._decay_weights(variables, lr)
        for g, v in zip(grads, variables):
            self.update_step(g, v, lr)
        self._iterations.assign_add(1)

    def update_step(self, gradient: Any, variable: Variable,
                    learning_rate: Any) -> None:
        """One variable's update, for a subclass to define (Keras' name).

        Args:
            gradient: The variable's gradient (clipped), a Tensor.
            variable: The Variable to update in place.
            learning_rate: This step's learning rate, a Tensor.

        Returns:
            None.
        """
        raise NotImplementedError

    def __repr__(self):
        return f"<pycg.optimizers.{type(self).__name__} name={self.name!r}>"

