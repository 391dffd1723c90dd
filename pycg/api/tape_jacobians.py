"""GradientTape's Jacobians (TensorFlow's tape.jacobian and
batch_jacobian): one backward pass of the tape per target element."""
from collections.abc import Callable
from typing import Any

import numpy as np

from pycg import ops
from pycg.tensor import structure
from pycg.ops.creation import _one_hot_flat
from pycg.tensor import Tensor


class Jacobians:
    """The Jacobian methods of GradientTape (which provides _check_usable,
    _run_backward, _release and _persistent)."""

    # (what GradientTape provides them)
    _persistent: bool
    _check_usable: Callable[[str], None]
    _run_backward: Callable[..., dict[int, Any]]
    _release: Callable[[], None]

    def jacobian(self, target: Any, source: Any,
                 unconnected_gradients: str = "none") -> Any:
        """The full Jacobian: shape target.shape + source.shape
        (tf.GradientTape.jacobian).

        Args:
            target: One tensor.
            source: A tensor or Variable, or a nested structure of them.
            unconnected_gradients: 'none' (None for a source the target
                does not depend on) or 'zero'.

        Returns:
            One Jacobian per source, in the structure of `source`.
        """
        self._check_usable("jacobian")
        (t,) = tensors(target, "target")
        srcs = tensors(source, "source")
        n = max(t.size, 1)
        rows = []
        try:
            for i in range(n):
                seed = ops.reshape(_one_hot_flat(i, n, t.dtype), t.shape)
                g = self._run_backward([t], [seed], srcs)
                rows.append([g.get(s._id) for s in srcs])
        finally:
            if not self._persistent:
                self._release()
        out = []
        for j, s in enumerate(srcs):
            col = [r[j] for r in rows]
            if all(c is None for c in col):
                out.append(None if unconnected_gradients == "none" else
                           ops.zeros(t.shape + s.shape, s.dtype))
                continue
            col = [ops.zeros_like(s) if c is None else c for c in col]
            out.append(ops.reshape(ops.stack(col), t.shape + s.shape))
        return structure.unflatten(source, out)

    def batch_jacobian(self, target: Any, source: Any,
                       unconnected_gradients: str = "none",
                       parallel_iterations: Any = None,
                       experimental_use_pfor: bool = True) -> Any:
        """Per-example Jacobians (TensorFlow's): target [b, y...] and source
        [b, x...] give [b, y..., x...], assuming example i of the target
        depends only on example i of the source.

        Args:
            target: A tensor with a batch axis first.
            source: A tensor with the same batch axis first.
            unconnected_gradients: 'none' or 'zero'.
            parallel_iterations: Accepted for TensorFlow's signature (no
                effect).
            experimental_use_pfor: Accepted for TensorFlow's signature (no
                effect).

        Returns:
            A tensor [b, y..., x...], or None when unconnected.
        """
        self._check_usable("batch_jacobian")
        (t,) = tensors(target, "target")
        (s,) = tensors(source, "source")
        if t.ndim < 2 or s.ndim < 2:
            raise ValueError(
                f"GradientTape.batch_jacobian: target and source must have "
                f"rank at least 2 (a batch dimension first), got shapes "
                f"{t.shape} and {s.shape}")
        if t.shape[0] != s.shape[0]:
            raise ValueError(
                f"GradientTape.batch_jacobian: target and source need the "
                f"same first (batch) dimension, got shapes {t.shape} and "
                f"{s.shape}")
        ys = t.shape[1:]
        n = int(np.prod(ys, dtype=np.int64))
        if n == 0 or s.size == 0:
            return ops.zeros(t.shape + s.shape[1:], s.dtype)
        rows = []
        try:
            for i in range(n):
                one = ops.reshape(_one_hot_flat(i, n, t.dtype), (1,) + ys)
                seed = ops.broadcast_to(one, t.shape)
                rows.append(self._run_backward([t], [seed], [s]).get(s._id))
        finally:
            if not self._persistent:
                self._release()
        if all(r is None for r in rows):
            return None if unconnected_gradients == "none" else \
                ops.zeros(t.shape + s.shape[1:], s.dtype)
        rows = [ops.zeros_like(s) if r is None else r for r in rows]
        out = ops.swapaxes(ops.stack(rows), 0, 1)
        return ops.reshape(out, t.shape + s.shape[1:])


def tensors(tree, what):
    """The leaves of `tree`, each a pycg Tensor (else a TypeError naming
    `what`)."""
    leaves = structure.flatten(tree)
    for x in leaves:
        if not isinstance(x, Tensor):
            raise TypeError(
                f"GradientTape.gradient: every {what} must be a pycg.Tensor "
                f"or Variable, got {type(x).__name__}")
    return leaves
