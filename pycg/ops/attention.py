"""Scaled dot-product attention (keras.ops name), built from differentiable
pycg ops: einsum, softmax, where."""
import math

import numpy as np

from pycg._errors import Op, Shape, user_error
from pycg.ops._machinery.dispatch import as_tensor, result_dtype
from pycg.ops.creation import cast
from pycg.ops.elementwise import logical_and, where
from pycg.ops.linalg import einsum
from pycg.ops.manipulation import broadcast_to
from pycg.ops.tiling import repeat
from pycg.ops.nn import softmax

__all__ = ("dot_product_attention",)


def _large_negative(dtype):
    # Keras' masking value: well inside the dtype's range, so that a fully
    # masked row still gives a finite (uniform) softmax
    return (65500.0 if dtype == np.float16 else 3.38953e38) * -0.7


def dot_product_attention(query, key, value, bias=None, mask=None,
                          scale=None, is_causal=False, flash_attention=None,
                          attn_logits_soft_cap=None):
    """softmax(q k^T * scale + bias, masked) v, per head.

    query (batch, T, heads, dim); key and value (batch, S, kv_heads, dim),
    kv_heads dividing heads (grouped-query attention repeats them); bias
    and mask broadcast to (batch, heads, T, S); mask and is_causal keep the
    positions where they are True; scale defaults to 1 / sqrt(dim).

    Args:
        query: The queries (batch, T, heads, dim).
        key: The keys (batch, S, kv_heads, dim).
        value: The values (batch, S, kv_heads, dim).
        bias: Added to the logits (None: none).
        mask: A bool mask: True keeps the position (None: all kept).
        scale: The logits' factor (None: 1 / sqrt(dim)).
        is_causal: Keep only the positions at or before the query's.
        flash_attention: Must be None or False: pycg has no flash kernel.
        attn_logits_soft_cap: If given, the logits become cap * tanh(logits /
            cap).

    Returns:
        A tensor of query's shape (batch, T, heads, dim).

    Example:
        >>> from pycg import ops
        >>> q = ops.ones((1, 2, 1, 4))
        >>> v = ops.reshape(ops.arange(4.0), (1, 2, 1, 2))
        >>> ops.dot_product_attention(q, q, v).numpy().ravel().tolist()
        [1.0, 2.0, 1.0, 2.0]
    """
    op = "dot_product_attention"
    if flash_attention:
        raise ValueError(
            f"pycg.ops.{op}: flash_attention=True is not supported (pycg "
            f"has no fused attention kernel); pass False or None")
    if attn_logits_soft_cap is not None:
        raise NotImplementedError(
            f"pycg.ops.{op}: attn_logits_soft_cap is not supported (Keras' "
            f"TensorFlow backend ignores it); pass None")
    q, k, v = (as_tensor(t, op) for t in (query, key, value))
    for name, t in (("query", q), ("key", k), ("value", v)):
        if t.ndim != 4:
            raise user_error(ValueError, "{op}: {name} must have rank 4 (batch, "
                             "sequence, heads, dim), got shape {shape}",
                             op=Op(op), name=name, shape=Shape(t.shape))
    dt = result_dtype(q.dtype, k.dtype, v.dtype)
    q, k, v = cast(q, dt), cast(k, dt), cast(v, dt)
    heads, kv_heads = q.shape[2], k.shape[2]
    if heads % kv_heads or v.shape[2] != kv_heads:
        raise user_error(ValueError, "{op}: key and value must have a number of "
                         "heads that divides query's {heads}, got key.shape={k} "
                         "and value.shape={v}", op=Op(op), heads=heads,
                         k=Shape(k.shape), v=Shape(v.shape))
    if kv_heads != heads:
        k = repeat(k, heads // kv_heads, axis=2)
        v = repeat(v, heads // kv_heads, axis=2)
    if scale is None:
        scale = 1.0 / math.sqrt(k.shape[-1])
    logits = einsum("btnh,bsnh->bnts", q, k) * scale
    if bias is not None:
        logits = logits + cast(as_tensor(bias, op), dt)
    keep = None
    if mask is not None:
        keep = broadcast_to(cast(as_tensor(mask, op), bool), logits.shape)
    if is_causal:
        t, s = logits.shape[-2:]
        causal = as_tensor(np.tril(np.ones((t, s), bool)))
        keep = causal if keep is None else logical_and(keep, causal)
    if keep is not None:
        logits = where(keep, logits, _large_negative(dt))
    return einsum("bnts,bsnh->btnh", softmax(logits, axis=-1), v)
