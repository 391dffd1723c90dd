"""GradientTape: the user's view of recording (TensorFlow's API).

A tape owns a `core.Recorder`; entering the tape pushes it on the stack of
recording tapes of the calling thread or asyncio task, so every op that
touches a tracked tensor is recorded on it (see pycg.core). The backward
pass runs ops too, so an enclosing tape that is recording records it:
nested tapes give higher derivatives.
"""
import warnings
from typing import Any

from pycg import ops
from pycg.tensor import structure
from pycg.core import recorder as core
from pycg.core import backward as core_backward
from pycg.core.sigint import protected
from pycg.api.explain import explain as _explain
from pycg.api.tape_jacobians import Jacobians
from pycg.api.tape_jacobians import tensors as _tensors
from pycg.tensor import Tensor, convert_to_tensor, is_differentiable


class GradientTape(Jacobians):
    """Records operations for reverse-mode differentiation
    (tf.GradientTape: watch, gradient, jacobian, batch_jacobian,
    stop_recording, reset, watched_variables).

    Args:
        persistent: Allow several gradient() calls (a non-persistent tape
            is spent by its first).
        watch_accessed_variables: Watch every trainable Variable read
            while recording (else only what `watch` names).

    Differs:
        As in TensorFlow, a source the target does not depend on has
        gradient None (unconnected_gradients="zero" gives zeros).

    Example:
    >>> import pycg
    >>> x = pycg.constant(3.0)
    >>> with pycg.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = x * x
    >>> float(tape.gradient(y, x))
    6.0
    """

    def __init__(self, persistent: bool = False,
                 watch_accessed_variables: bool = True) -> None:
        self._persistent = bool(persistent)
        self._rec = core.Recorder(bool(watch_accessed_variables))
        self._state = "new"   # new -> recording -> exited; used when spent

    # ---- context ----------------------------------------------------------
    @protected
    def __enter__(self):
        if self._state == "used":
            raise RuntimeError(
                "GradientTape: this non-persistent tape was already used by "
                "gradient(); create a new tape")
        if core.is_recording(self._rec):
            raise ValueError(
                "GradientTape: the tape is still recording; a tape cannot be "
                "re-entered while its `with` block is active (TensorFlow "
                "raises the same)")
        try:   # (cut short by Ctrl-C: undone, as pycg.core.recorder's steps)
            core.push(self._rec)
            self._state = "recording"
            return self
        except BaseException:
            core.pop(self._rec)
            raise

    @protected

    def __exit__(self, *exc):
        try:
            core.pop(self._rec)   # (finished, even when cut short)
        finally:
            if self._state == "recording":
                self._state = "exited"
        return False

    def stop_recording(self) -> Any:
        """Ops inside ``with tape.stop_recording():`` are not recorded on
        this tape (tf.GradientTape.stop_recording).

        Returns:
            A context manager.
        """
        i = core.position(self._rec)
        if i is None:
            raise RuntimeError(
                "GradientTape.stop_recording: the tape is not recording")
        return _Paused(self._rec, i)

    def reset(self) -> None:
        """Forget everything recorded and watched so far.

        Returns:
            None.
        """
        rec = self._rec
        rec.ids.clear()
        rec.roots.clear()
        rec.entries.clear()
        rec.variables.clear()

    # ---- watching ---------------------------------------------------------
    def watch(self, tensor: Any) -> None:
        """Track a tensor, a variable, or a nested list/tuple/dict of them.

        Args:
            tensor: What to track: pycg Tensors or Variables, alone or
                nested in lists, tuples and dicts. An integer or bool one
                is skipped with a warning (it gets no gradient).

        Returns:
            None.
        """
        if self._state != "recording":
            raise RuntimeError(
                "GradientTape.watch: the tape is not recording (its `with` "
                "block has exited or was never entered); call watch() inside "
                "`with pycg.GradientTape() as tape:`")
        for x in structure.flatten(tensor):
            if not isinstance(x, Tensor):
                raise TypeError(
                    f"GradientTape.watch: expected a pycg.Tensor or Variable "
                    f"(or a nested list/tuple/dict of them), got "
                    f"{type(x).__name__}; convert it first with "
                    f"pycg.convert_to_tensor")
            if not is_differentiable(x.dtype):
                warnings.warn(
                    f"GradientTape.watch: a tensor of dtype {x.dtype} was "
                    f"watched; only floating and complex tensors get "
                    f"gradients, so its "
                    f"gradient will be None", stacklevel=2)
                continue
            self._rec.track(x)

    def watched_variables(self) -> tuple[Any, ...]:
        """The Variables this tape watches, in the order first watched.

        Returns:
            A tuple of pycg.Variable.
        """
        return tuple(self._rec.variables.values())

    def _recorded_dtypes(self):
        """The dtypes of the tensors the recorded ops made (check_gradients
        picks its finite-difference step from the narrowest)."""
        return {t.dtype for entry in self._rec.entries for t in entry[2]}

    # ---- gradients --------------------------------------------------------
    def gradient(self, target: Any, sources: Any,
                 output_gradients: Any = None,
                 unconnected_gradients: str = "none") -> Any:
        """d(sum of target)/d(sources), in the sources' structure
        (tf.GradientTape.gradient). A non-persistent tape is spent by it.

        Args:
            target: A tensor, or a nested structure of tensors (their
                gradients add up).
            sources: A tensor or Variable, or a nested structure of them.
            output_gradients: The upstream gradient of each target (its
                shape); None: ones.
            unconnected_gradients: 'none' (a source the target does not
                depend on gets None, as TensorFlow) or 'zero' (zeros).

        Returns:
            The gradients in the structure of `sources`.
        """
        targets, ogs, srcs = self._gradient_args(
            target, sources, output_gradients, unconnected_gradients)
        try:   # (the call that runs kernels early in the body: see _run_backward)
            grads = self._run_backward(targets, ogs, srcs)
        finally:
            if not self._persistent:
                self._release()
        out = []
        for s in srcs:
            g = grads.get(s._id)
            if g is None and unconnected_gradients == "zero":
                g = ops.zeros_like(s)
            out.append(g)
        return structure.unflatten(sources, out)

    def _gradient_args(self, target, sources, output_gradients,
                       unconnected_gradients):
        """gradient()'s arguments checked: (targets, their upstream
        gradients or None, sources), flat."""
        self._check_usable("gradient")
        if unconnected_gradients not in ("none", "zero"):
            raise ValueError(
                f"GradientTape.gradient: unconnected_gradients must be "
                f"'none' or 'zero', got {unconnected_gradients!r}")
        targets = _tensors(target, "target")
        srcs = _tensors(sources, "sources")
        if output_gradients is None:
            return targets, [None] * len(targets), srcs
        ogs = structure.flatten(output_gradients)
        if len(ogs) != len(targets):
            raise ValueError(
                f"GradientTape.gradient: {len(ogs)} output_gradients for "
                f"{len(targets)} targets")
        return targets, ogs, srcs

    def _run_backward(self, targets, ogs, srcs):
        # TensorFlow notes the Python stack at each eager op, each frame's
        # line found by a scan of its code up to the current call: the
        # frames under which the backward's kernels run make that call
        # early in their body (pycg.backends.tensorflow._fast)
        seeds, source_ids = self._seeds(targets, ogs, srcs)
        if self._persistent and core.is_recording(self._rec):
            return _recorded_backward(self._rec, seeds, source_ids)
        return _paused_backward(self._rec, seeds, source_ids)

    def _seeds(self, targets, ogs, srcs):
        """({target id: its upstream gradient}, the ids of the sources that
        can have a gradient)."""
        ids = self._rec.ids
        seeds = {}
        for t, og in zip(targets, ogs):
            if t._id not in ids or not is_differentiable(t.dtype):
                continue
            if og is None:
                og = ops.ones_like(t)
            else:
                og = convert_to_tensor(og, t.dtype)
                if og.shape != t.shape:
                    raise ValueError(
                        f"GradientTape.gradient: output_gradients entry has "
                        f"shape {og.shape} but its target has shape "
                        f"{t.shape}")
            prev = seeds.get(t._id)
            seeds[t._id] = og if prev is None else prev + og
        # only what this tape tracks can have a gradient (TensorFlow's rule:
        # an unwatched source, or a variable under watch_accessed_variables
        # =False, gets None even when it fed a recorded op)
        return seeds, {s._id for s in srcs
                       if s._id in ids and is_differentiable(s.dtype)}

    def explain(self, target: Any, source: Any) -> str:
        """Say in words why d target / d source is what it is (most often,
        why it is None). pycg's own; TensorFlow has no counterpart.

        Args:
            target: The tensor differentiated.
            source: The tensor or Variable differentiated with respect to.

        Returns:
            The explanation, a str.
        """
        return _explain(self, target, source)

    def _check_usable(self, what):
        if self._state == "used":
            raise RuntimeError(
                f"GradientTape.{what} can only be called once on a "
                f"non-persistent tape; create the tape with "
                f"pycg.GradientTape(persistent=True) to call it more than "
                f"once")

    def _release(self):
        core.pop(self._rec)
        spent, self._rec = self._rec, core.Recorder(self._rec.watch_accessed)
        self._rec.variables = spent.variables  # watched_variables() stays
        self._state = "used"


class _Paused:
    """``with tape.stop_recording():``: the tape paused at the entry and put
    back at the exit, each a protected step (pycg.core.sigint). A class, not
    a generator: a Ctrl-C inside contextlib's own frames left the generator
    suspended, and its `finally` resumed the tape when it was collected,
    after the tape's own exit had popped it."""

    __slots__ = ("rec", "i")

    def __init__(self, rec, i):
        self.rec, self.i = rec, i

    @protected
    def __enter__(self):
        core.pop(self.rec, pause=True)

    @protected
    def __exit__(self, *exc):
        core.resume(self.rec, self.i)
        return False


def _paused_backward(rec, seeds, source_ids):
    """The backward pass with rec paused (put back as it was after): every
    root among the sources means all the tape tracks is reachable."""
    i = core.position(rec)
    try:
        core.pop(rec, pause=True)
        return core_backward.backward(
            rec.entries, seeds, source_ids,
            rec.ids if rec.roots <= source_ids else None)
    finally:
        if i is not None:
            core.resume(rec, i)


def _recorded_backward(rec, seeds, source_ids):
    """TensorFlow's rule: a persistent tape still recording records its own
    backward pass (higher derivatives), at a cost."""
    warnings.warn(
        "GradientTape.gradient: calling gradient() on a persistent tape "
        "inside its `with` block records the backward pass on the tape "
        "itself, which costs time and memory; call it after the block "
        "unless you need higher derivatives", stacklevel=4)
    return core_backward.backward(rec.entries[:], seeds, source_ids)
