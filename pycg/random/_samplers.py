"""The NumPy samplers behind pycg.random's draws: each is
(generator, shape, dtype, *extra) -> array, run on the host for one
(seed, counter) pair (see seed_generator.py)."""
import numpy as np


def standard_normal(gen, shape, dtype):
    return gen.standard_normal(shape, dtype=_drawn(dtype)).astype(dtype)


def unit_uniform(gen, shape, dtype):
    u = gen.random(shape, dtype=_drawn(dtype)).astype(dtype)
    return np.minimum(u, np.nextafter(dtype.type(1), dtype.type(0)))


def truncated(gen, shape, dtype):
    z = gen.standard_normal(shape)
    bad = np.abs(z) > 2
    while bad.any():
        z[bad] = gen.standard_normal(int(bad.sum()))
        bad = np.abs(z) > 2
    return z.astype(dtype)


def integers(gen, shape, dtype, lo, hi):
    return gen.integers(lo, hi, size=shape, dtype=np.int64).astype(dtype)


def gumbel_argmax(gen, shape, dtype, logits):
    g = gen.gumbel(size=(shape[0], shape[1], logits.shape[1]))
    scores = logits.astype(np.float64)[:, None, :] + g
    return np.argmax(scores, axis=-1).astype(dtype)


def permutation(gen, shape, dtype):
    return gen.permutation(shape[0]).astype(dtype)


def mask_scale(gen, shape, dtype, keep):
    if keep == 0:
        return np.zeros(shape, dtype)
    mask = gen.random(shape) < keep
    return (mask / keep).astype(dtype)


def _drawn(dtype):
    return dtype if dtype in (np.float32, np.float64) else np.float32
