"""GradientTape.explain: why a gradient is None or zero, in words."""
from pycg.tensor import structure
from pycg.core.recorder import live_ids
from pycg.tensor import Tensor, Variable, is_float


def explain(tape, target, source):
    targets = structure.flatten(target)
    (src,) = structure.flatten(source) or [None]
    if not isinstance(src, Tensor):
        return f"the source is a {type(src).__name__}, not a pycg.Tensor"
    if tape._state == "used":
        return ("the tape was already used by gradient(); a non-persistent "
                "tape keeps nothing after its first gradient() call")
    if not is_float(src.dtype):
        return (f"the source has integer dtype {src.dtype}: only floating "
                f"tensors get gradients")
    if src._id not in tape._rec.ids:
        if isinstance(src, Variable) and not src.trainable:
            return "the source is a non-trainable Variable; watch() it"
        return ("the source is not watched: call tape.watch(x) inside the "
                "tape's block before using it (trainable Variables are "
                "watched when read, unless watch_accessed_variables=False)")
    recorded = [t for t in targets if isinstance(t, Tensor)
                and t._id in tape._rec.ids]
    if not recorded:
        return ("the target was not recorded on this tape: it was computed "
                "under stop_recording(), outside the tape's block, or from "
                "tensors the tape does not watch")
    live = live_ids(tape._rec.entries, {src._id})
    if not any(t._id in live for t in recorded):
        return ("the target is disconnected from the source: no recorded op "
                "leads from the source to the target (a stop_gradient, a "
                "non-differentiable op, or simply no use of the source)")
    return ("the target depends on the source through recorded ops; the "
            "gradient is connected")
