"""What Optimizer.apply checks before a step, each error naming the
optimizer (`_who`) and the variable by position and name."""
import warnings
from typing import Any

import numpy as np

from pycg._state import var_key
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

