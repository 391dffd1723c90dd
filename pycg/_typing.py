"""The types pycg's public annotations are written in (imported only by
type checkers and pdoc: the modules that use them import it under
typing.TYPE_CHECKING)."""
from collections.abc import Sequence
from typing import Any, TypeAlias

import numpy as np

from pycg.tensor import Tensor

ArrayLike: TypeAlias = Tensor | np.ndarray | np.generic | float | int | \
    bool | complex | Sequence[Any]
DTypeLike: TypeAlias = str | np.dtype[Any] | type | None
Axis: TypeAlias = int | Sequence[int] | None
Shape: TypeAlias = int | Sequence[int]
