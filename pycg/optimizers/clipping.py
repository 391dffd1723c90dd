"""Gradient clipping as Keras does it (clipnorm per variable, clipnorm
over all variables), in pycg ops."""
from pycg import ops


def clip_by_norm(g, clipnorm):
    """tf.clip_by_norm (Keras' per-variable clipnorm)."""
    l2sum = ops.sum(ops.square(g), keepdims=True)
    pred = ops.greater(l2sum, 0)
    safe = ops.where(pred, l2sum, ops.ones_like(l2sum))
    l2norm = ops.where(pred, ops.sqrt(safe), l2sum)
    return ops.divide(ops.multiply(g, clipnorm), ops.maximum(l2norm, clipnorm))


def clip_by_global_norm(grads, clipnorm):
    """Keras' clip_by_global_norm (NaN-propagating for non-finite norms)."""
    norm = ops.sqrt(ops.sum(ops.stack([ops.sum(ops.square(g))
                                       for g in grads])))
    scale = ops.multiply(clipnorm, ops.minimum(ops.divide(1.0, norm),
                                               1.0 / clipnorm))
    scale = ops.add(scale, ops.subtract(norm, norm))
    return [ops.multiply(g, ops.cast(scale, g.dtype)) for g in grads]


def clip(grads, clipnorm, global_clipnorm, clipvalue):
    """`grads` clipped as Keras' optimizers clip them (by the one of
    clipnorm, global_clipnorm and clipvalue that is set)."""
    if clipnorm:
        return [clip_by_norm(g, clipnorm) for g in grads]
    if global_clipnorm:
        return clip_by_global_norm(grads, global_clipnorm)
    if clipvalue:
        return [ops.clip(g, -clipvalue, clipvalue) for g in grads]
    return grads
