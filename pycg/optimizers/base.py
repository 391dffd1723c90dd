"""The optimizer base class: Keras 3's BaseOptimizer, on pycg Variables.

`apply(grads, variables)` does what Keras does, in Keras' order: drop None
gradients, clip (clipnorm, global_clipnorm or clipvalue), decay the weights
(`weight_decay`), run each optimizer's `update_step`, count the step in
`iterations`. The slots (momentums, velocities...) are built on the first
apply, eagerly even when that apply runs inside pycg.function (TensorFlow
then traces that function twice; `build(variables)` beforehand avoids it).
"""
import inspect
import numbers
import re
import threading
import warnings

import numpy as np

from pycg import config, ops
from pycg._state import state_variable, var_key
from pycg.optimizers._docs import shared_args
from pycg.optimizers.clipping import clip
from pycg.optimizers.schedules import LearningRateSchedule
from pycg.tensor import Tensor, Variable, convert_to_tensor, is_float

_KERAS_ONLY = ("use_ema", "ema_momentum", "ema_overwrite_frequency",
               "loss_scale_factor", "gradient_accumulation_steps")


class Optimizer:
    """The base class of pycg's optimizers (keras.optimizers.Optimizer):
    a subclass defines `build_slots(variables)` (its slot variables) and
    `update_step(gradient, variable, learning_rate)`; `apply` does the rest.

    Args:
        learning_rate: A non-negative float, or a schedule (a callable of
            the step, as pycg.optimizers.schedules').
    """
    __doc__ = shared_args(__doc__)

    def __init__(self, learning_rate, weight_decay=None, clipnorm=None,
                 clipvalue=None, global_clipnorm=None, name=None, **kwargs):
        who = f"pycg.optimizers.{type(self).__name__}"
        if kwargs:
            self._unknown(who, kwargs)
        for arg, v in (("weight_decay", weight_decay), ("clipnorm", clipnorm),
                       ("clipvalue", clipvalue),
                       ("global_clipnorm", global_clipnorm)):
            if v is not None and not _nonneg(v):
                raise ValueError(f"{who}: `{arg}` must be a non-negative "
                                 f"number or None, got {v!r}")
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
        self._iterations = state_variable(0, "int64", f"{self.name}_iteration")
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

    def _lr_state(self, learning_rate):
        if callable(learning_rate):
            return learning_rate
        if not _nonneg(learning_rate):
            raise ValueError(
                f"{self._who}: `learning_rate` must be a non-negative float, "
                f"a pycg.optimizers.schedules.LearningRateSchedule or a "
                f"callable, got {learning_rate!r}")
        return state_variable(float(learning_rate), config.floatx(),
                              f"{self.name}_learning_rate")

    @property
    def iterations(self):
        """The number of steps applied so far (an int64 Variable)."""
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
            self._lr_state(value)  # checks it
            self._learning_rate.assign(float(value))

    @property
    def variables(self):
        """The optimizer's own state, in Keras' order: iterations, the
        learning rate (unless a schedule or callable), the slots."""
        lr = [self._learning_rate] if isinstance(self._learning_rate,
                                                 Variable) else []
        return [self._iterations] + lr + [
            v for slots in self._slots() for v in slots if v is not None]

    # ---- building --------------------------------------------------------
    def build(self, variables):
        """Create the slots for `variables` (done by the first apply)."""
        variables = self._check_variables(list(variables))
        if self.built:
            return
        self._variables = variables
        self._index = {var_key(v): i for i, v in enumerate(variables)}
        self.build_slots(variables)
        self.built = True

    def build_slots(self, variables):
        """Subclasses create their slot variables here."""

    def _slots(self):
        return []

    def add_slots(self, variables, name, initial=0.0):
        """One slot Variable per variable, filled with `initial`."""
        return [state_variable(np.full(v.shape, initial, v.dtype), v.dtype,
                               f"{v.name or f'variable_{i}'}_{name}")
                for i, v in enumerate(variables)]

    def slot_index(self, variable):
        return self._index[var_key(variable)]

    # ---- applying --------------------------------------------------------
    def apply_gradients(self, grads_and_vars):
        """apply() on (gradient, variable) pairs; returns `iterations`.

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

    def apply(self, grads, variables=None):
        """Update `variables` (pycg.Variable) in place from `grads`. A step
        is atomic across threads: steps applied from several threads run
        one after another, none lost, `iterations` counting each."""
        grads = list(grads)
        if not grads:
            return
        with self._lock:
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

    def update_step(self, gradient, variable, learning_rate):
        raise NotImplementedError

    def _check_variables(self, variables):
        for i, v in enumerate(variables):
            if not isinstance(v, Variable):
                raise TypeError(
                    f"{self._who}.apply: variable {i} is a "
                    f"{type(v).__name__}, not a pycg.Variable; optimizers "
                    f"update Variables in place")
            if not is_float(v.dtype):
                raise TypeError(f"{self._who}.apply: variable {_label(v, i)} "
                                f"has dtype {v.dtype.name}; optimizers update "
                                f"floating variables")
        return variables

    def _check_known(self, variables):
        for i, v in enumerate(variables):
            if var_key(v) not in self._index:
                raise ValueError(
                    f"{self._who}.apply: variable {_label(v, i)} is not one "
                    f"of the {len(self._variables)} variables this optimizer "
                    f"was built with; use a new optimizer for new variables")

    def _present(self, grads, variables):
        kept = [(g, v) for g, v in zip(grads, variables) if g is not None]
        if not kept:
            raise ValueError(f"{self._who}.apply: no gradients provided for "
                             f"any variable (all are None)")
        if len(kept) < len(grads):
            missing = [_label(v, i) for i, (g, v) in
                       enumerate(zip(grads, variables)) if g is None]
            warnings.warn(f"{self._who}.apply: no gradients for variables "
                          f"{', '.join(missing)}; they are left unchanged",
                          stacklevel=3)
        return [g for g, _ in kept], [v for _, v in kept]

    def _check_gradient(self, g, v, i):
        if isinstance(g, Tensor):
            if g.dtype != v.dtype:
                raise TypeError(
                    f"{self._who}.apply: the gradient for variable "
                    f"{_label(v, i)} has dtype {g.dtype.name} but the "
                    f"variable has {v.dtype.name}; cast the gradient")
            g = convert_to_tensor(g)
        else:
            try:
                g = convert_to_tensor(np.asarray(g), v.dtype)
            except (TypeError, ValueError) as e:
                raise TypeError(f"{self._who}.apply: the gradient for "
                                f"variable {_label(v, i)} is not numeric "
                                f"({e})") from None
        if g.shape != v.shape:
            raise ValueError(
                f"{self._who}.apply: the gradient for variable "
                f"{_label(v, i)} has shape {g.shape} but the variable has "
                f"shape {v.shape}")
        return g

    def exclude_from_weight_decay(self, var_list=None, var_names=None):
        """Leave out of weight decay the variables in `var_list` and those
        whose name contains a match of a regular expression in `var_names`
        (before the first apply, as in Keras)."""
        if self.built:
            raise ValueError(f"{self._who}.exclude_from_weight_decay: call it "
                             f"before the optimizer is built (before the "
                             f"first apply)")
        self._no_decay_keys = {var_key(v) for v in
                               self._check_variables(list(var_list or []))}
        self._no_decay_names = [re.compile(p) for p in var_names or []]

    def _decays(self, v):
        return var_key(v) not in self._no_decay_keys and not any(
            p.search(v.name or "") for p in self._no_decay_names)

    def _decay_weights(self, variables, lr):
        if self.weight_decay is None:
            return
        for v in filter(self._decays, variables):
            wd_lr = ops.multiply(ops.multiply(v.read(), self.weight_decay),
                                 ops.cast(lr, v.dtype))
            v.assign_sub(wd_lr)

    def __repr__(self):
        return f"<pycg.optimizers.{type(self).__name__} name={self.name!r}>"


def _label(v, i):
    return f"{i} ({v.name!r})" if v.name else str(i)


def _nonneg(v):
    return isinstance(v, numbers.Real) and not isinstance(v, bool) and v >= 0
