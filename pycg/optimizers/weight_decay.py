"""Decoupled weight decay (Keras 3's: w -= w * weight_decay * lr before
each step), with the variables left out of it."""
import re
from collections.abc import Callable
from typing import Any

from pycg import ops
from pycg.compile.state import var_key


class WeightDecay:
    """The weight-decay part of Optimizer (which provides the attributes
    declared below)."""

    weight_decay: float | None
    built: bool
    _who: str
    _no_decay_keys: set[Any]
    _no_decay_names: list[Any]
    _check_variables: Callable[[list[Any]], list[Any]]

    def exclude_from_weight_decay(self, var_list: Any = None,
                                  var_names: Any = None) -> None:
        """Leave out of weight decay the variables in `var_list` and those
        whose name contains a match of a regular expression in `var_names`
        (before the first apply, as in Keras).

        Args:
            var_list: pycg.Variables to leave out (None: none).
            var_names: Regular expressions; a variable whose name contains
                a match is left out (None: none).

        Returns:
            None.
        """
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
