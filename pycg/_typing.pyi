"""The types pycg's public annotations are written in (a stub only: read by
type checkers and pdoc, never imported at run time)."""
from collections.abc import Sequence
from typing import Any, TypeAlias

import numpy as np

from pycg.tensor import Tensor

ArrayLike: TypeAlias = Tensor | np.ndarray | np.generic | float | int | \
    bool | complex | Sequence[Any]
DTypeLike: TypeAlias = str | np.dtype[Any] | type | None
Axis: TypeAlias = int | Sequence[int] | None
Shape: TypeAlias = int | Sequence[int]
