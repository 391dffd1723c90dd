"""What Optimizer.apply checks before a step, each error naming the
optimizer (`_who`) and the variable by position and name."""
import warnings
from typing import Any

import numpy as np

from pycg._state import var_key
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


def _label(v, i):
    return f"{i} ({v.name!r})" if v.name else str(i)
