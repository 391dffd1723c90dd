"""CTC (keras.ops names): ctc_loss, a differentiable forward algorithm in
log space over ops.scan, and ctc_decode, a decoder of concrete values."""
import numpy as np

from pycg import config
from pycg._errors import Op, Shape, user_error
from pycg.ops._machinery.dispatch import as_tensor
from pycg.ops.creation import arange, cast, full
from pycg.ops.elementwise import (equal, less, logaddexp, logical_and,
                                  logical_or, not_equal, where)
from pycg.ops._machinery.traced import tracing
from pycg.ops.control_flow import scan
from pycg.ops.linalg import einsum
from pycg.ops.losses import _labels, one_hot
from pycg.ops.manipulation import concatenate, reshape, stack
from pycg.ops.nn import log_softmax, logsumexp
from pycg.tensor import convert_to_tensor, is_float

__all__ = ("ctc_decode", "ctc_loss")

_NEG = -1e30   # log(0) for CTC: finite, so that no gradient is 0 * inf


def ctc_loss(target, output, target_length, output_length, mask_index=0):
    """Connectionist temporal classification loss per batch entry: -log
    p(target | output), output (batch, time, classes) holding logits, class
    mask_index the blank. The forward algorithm in log space, one
    ops.scan step per time step (a tf.while_loop inside pycg.function).

    Args:
        target: The labels (batch, max_label_length), integers.
        output: The logits (batch, time, classes).
        target_length: The length of each label sequence.
        output_length: The number of valid time steps of each entry.

    Returns:
        A float tensor (batch,) of losses.
    """
    op = "ctc_loss"
    output = as_tensor(output, op)
    if not is_float(output.dtype):
        output = cast(output, config.floatx())
    target = _labels(target, op)
    if output.ndim != 3 or target.ndim != 2 or \
            target.shape[0] != output.shape[0]:
        raise user_error(ValueError, "{op}: output must have shape (batch, time, "
                         "classes) and target (batch, max_label_length), got "
                         "output.shape={o} and target.shape={t}", op=Op(op),
                         o=Shape(output.shape), t=Shape(target.shape))
    b, t, c = output.shape
    blank = full(target.shape, int(mask_index), target.dtype)
    ext = reshape(stack([blank, target], axis=-1), (b, 2 * target.shape[1]))
    ext = concatenate([ext, blank[:, :1]], axis=1)          # (b, s)
    s = ext.shape[1]
    emit = einsum("btc,bsc->tbs", log_softmax(output),
                  one_hot(ext, c, dtype=output.dtype))
    prev2 = concatenate([full((b, 2), int(mask_index), ext.dtype),
                         ext[:, :-2]], axis=1)
    skip = logical_and(not_equal(ext, int(mask_index)), not_equal(ext, prev2))
    lengths = cast(as_tensor(output_length, op), "int32")
    position = arange(s)
    start = where(less(position, 2), emit[0], _NEG)

    def step(alpha, inputs):
        e, time = inputs
        one = concatenate([full((b, 1), _NEG, alpha.dtype), alpha[:, :-1]],
                          axis=1)
        two = concatenate([full((b, 2), _NEG, alpha.dtype), alpha[:, :-2]],
                          axis=1)
        new = logaddexp(logaddexp(alpha, one), where(skip, two, _NEG)) + e
        return where(_column(less(time, lengths)), new, alpha), None
    times = arange(1, t)
    alpha = scan(step, start, (emit[1:], times))[0] if t > 1 else start
    end = 2 * cast(as_tensor(target_length, op), "int32")
    last = logical_or(equal(position, _column(end)),
                      equal(position, _column(end - 1)))
    return -logsumexp(where(last, alpha, _NEG), axis=1)


def _column(lengths):
    """Lengths per batch entry (or one for all: a scalar) as a column."""
    return reshape(lengths, (-1, 1))


def ctc_decode(inputs, sequence_lengths, strategy="greedy", beam_width=100,
               top_paths=1, merge_repeated=True, mask_index=0):
    """Greedy CTC decoding of logits (batch, time, classes): the best class
    per step, repeats merged, blanks (mask_index) dropped. Returns
    (decoded (1, batch, time) int32 padded with -1, scores (batch, 1): minus
    the summed best logits), as tf.nn.ctc_greedy_decoder. Not
    differentiable, and it needs values: not inside pycg.function.

    Args:
        inputs: The logits (batch, time, classes).
        sequence_lengths: The valid time steps per entry.
        strategy: 'greedy' (the only one pycg has; 'beam_search' is refused).
        beam_width: Accepted for keras.ops' signature (greedy decoding ignores
            it).
        top_paths: Accepted for keras.ops' signature (greedy decoding finds one
            path).
        merge_repeated: Merge repeated classes (then drop blanks).

    Returns:
        A pair (decoded, scores) (shapes above).
    """
    op = "ctc_decode"
    if strategy != "greedy":
        raise NotImplementedError(
            f"pycg.ops.{op}: strategy={strategy!r} is not supported; only "
            f"'greedy' is (beam search is left out)")
    x, lengths = as_tensor(inputs, op), as_tensor(sequence_lengths, op)
    if tracing():
        raise TypeError(
            f"pycg.ops.{op}: decoding needs values, and inside pycg.function "
            f"inputs has none yet; decode outside the compiled function")
    z, n = np.asarray(x.numpy()), np.atleast_1d(lengths.numpy()).astype(int)
    if z.ndim != 3 or n.shape != z.shape[:1]:
        raise user_error(ValueError, "{op}: inputs must have shape (batch, time, "
                         "classes) and sequence_lengths (batch,), got {z} and "
                         "{n}", op=Op(op), z=Shape(z.shape), n=Shape(n.shape))
    blank = mask_index % z.shape[2] if mask_index is not None else -1
    decoded = np.full((1,) + z.shape[:2], -1, np.int32)
    scores = np.zeros((z.shape[0], 1), z.dtype if is_float(z.dtype)
                      else config.floatx())
    for b in range(z.shape[0]):
        best = z[b, :n[b]].argmax(-1)
        scores[b, 0] = -z[b, :n[b]].max(-1).sum()
        keep = best != blank
        if merge_repeated:
            keep &= np.r_[True, best[1:] != best[:-1]]
        labels = best[keep]
        decoded[0, b, :len(labels)] = labels
    return convert_to_tensor(decoded), convert_to_tensor(scores)
