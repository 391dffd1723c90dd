"""keras.random's draws. The numbers come from NumPy (one Philox generator
per draw, see seed_generator.py) through the backend's host call; the
affine parts (mean, stddev, minval, maxval), shuffle's gather and dropout's
mask-times-scale are pycg ops, so they differentiate."""
import numbers

import numpy as np

from pycg import backends, config, ops
from pycg.random.seed_generator import draw_seed, generator
from pycg.tensor import Tensor, convert_to_tensor, is_float


def normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Samples from a normal distribution (keras.random.normal).

    >>> import pycg
    >>> x = pycg.random.normal((2, 3), seed=1)
    >>> x.shape, x.dtype.name
    ((2, 3), 'float32')
    >>> bool((x.numpy() == pycg.random.normal((2, 3), seed=1).numpy()).all())
    True
    """
    shape, dtype = _shape(shape, "normal"), _float(dtype, "normal")
    z = _host(_standard_normal, "normal", seed, shape, dtype)
    return ops.add(ops.multiply(z, stddev), mean)


def uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    """Samples from [minval, maxval) (keras.random.uniform).

    >>> import pycg
    >>> u = pycg.random.uniform((1000,), minval=2.0, maxval=3.0, seed=0)
    >>> bool((u.numpy() >= 2).all() and (u.numpy() < 3).all())
    True
    """
    shape, dtype = _shape(shape, "uniform"), _float(dtype, "uniform")
    u = _host(_unit_uniform, "uniform", seed, shape, dtype)
    numbers_only = all(isinstance(v, numbers.Real) and not isinstance(
        v, Tensor) for v in (minval, maxval))
    width = maxval - minval if numbers_only else ops.subtract(maxval, minval)
    return ops.add(ops.multiply(u, width), minval)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Normal samples, those more than two stddevs from the mean redrawn
    (keras.random.truncated_normal).

    >>> import pycg
    >>> z = pycg.random.truncated_normal((1000,), seed=3)
    >>> bool(abs(z.numpy()).max() <= 2.0)
    True
    """
    shape = _shape(shape, "truncated_normal")
    dtype = _float(dtype, "truncated_normal")
    z = _host(_truncated, "truncated_normal", seed, shape, dtype)
    return ops.add(ops.multiply(z, stddev), mean)


def randint(shape, minval, maxval, dtype="int32", seed=None):
    """Integers uniform on [minval, maxval) (keras.random.randint).

    >>> import pycg
    >>> pycg.random.randint((4,), 0, 1, seed=5).numpy().tolist()
    [0, 0, 0, 0]
    """
    shape = _shape(shape, "randint")
    dtype = np.dtype(dtype)
    if dtype.kind not in "iu":
        raise ValueError(f"pycg.random.randint: `dtype` must be an integer "
                         f"dtype, got {dtype.name}")
    lo, hi = (_int_bound(v, name, "randint")
              for v, name in ((minval, "minval"), (maxval, "maxval")))
    if hi <= lo:
        raise ValueError(f"pycg.random.randint: `maxval` ({hi}) must be "
                         f"greater than `minval` ({lo})")
    return _host(_integers, "randint", seed, shape, dtype, lo=lo, hi=hi)


def categorical(logits, num_samples, dtype="int32", seed=None):
    """Class indices drawn from each row of `logits` (batch, classes), as a
    (batch, num_samples) tensor (keras.random.categorical).

    >>> import pycg
    >>> pycg.random.categorical([[-1e9, 0.0]], 3, seed=2).numpy().tolist()
    [[1, 1, 1]]
    """
    logits = convert_to_tensor(logits)
    if logits.ndim != 2:
        raise ValueError(
            f"pycg.random.categorical: `logits` must be 2-D (batch_size, "
            f"num_classes), got shape {logits.shape}")
    if not _is_count(num_samples):
        raise ValueError(f"pycg.random.categorical: `num_samples` must be a "
                         f"non-negative int, got {num_samples!r}")
    dtype = np.dtype(dtype)
    shape = (logits.shape[0], int(num_samples))
    return _host(_gumbel_argmax, "categorical", seed, shape, dtype,
                 extra=[ops.stop_gradient(logits)])


def shuffle(x, axis=0, seed=None):
    """`x` permuted uniformly at random along `axis` (keras.random.shuffle).

    >>> import pycg
    >>> y = pycg.random.shuffle(pycg.constant([1.0, 2.0, 3.0]), seed=7)
    >>> sorted(y.numpy().tolist())
    [1.0, 2.0, 3.0]
    """
    x = convert_to_tensor(x)
    if not isinstance(axis, numbers.Integral) or not -x.ndim <= axis < x.ndim:
        raise ValueError(f"pycg.random.shuffle: `axis` must be an int in "
                         f"[{-x.ndim}, {x.ndim}), got {axis!r}")
    n = x.shape[axis]
    perm = _host(_permutation, "shuffle", seed, (n,), np.dtype("int64"))
    return ops.take(x, perm, axis=int(axis))


def dropout(inputs, rate, noise_shape=None, seed=None):
    """Zero each entry with probability `rate`, scale the rest by
    1 / (1 - rate) (keras.random.dropout); the gradient is the same mask
    times scale.

    >>> import pycg
    >>> y = pycg.random.dropout(pycg.ops.ones((1000,)), 0.25, seed=0)
    >>> sorted({round(v, 4) for v in y.numpy().tolist()})
    [0.0, 1.3333]
    """
    x = convert_to_tensor(inputs)
    if not isinstance(rate, numbers.Real) or isinstance(rate, bool) or \
            not 0 <= rate <= 1:
        raise ValueError(f"pycg.random.dropout: `rate` must be a number in "
                         f"[0, 1], got {rate!r}")
    if not is_float(x.dtype):
        raise TypeError(f"pycg.random.dropout: `inputs` must be floating, "
                        f"got {x.dtype.name}")
    shape = _noise_shape(noise_shape, x.shape)
    scale = _host(_mask_scale, "dropout", seed, shape, x.dtype,
                  keep=1.0 - float(rate))
    return ops.multiply(x, scale)


# ---- the NumPy samplers: (generator, shape, dtype, *extra) -> array --------
def _standard_normal(gen, shape, dtype):
    return gen.standard_normal(shape, dtype=_drawn(dtype)).astype(dtype)


def _unit_uniform(gen, shape, dtype):
    u = gen.random(shape, dtype=_drawn(dtype)).astype(dtype)
    return np.minimum(u, np.nextafter(dtype.type(1), dtype.type(0)))


def _truncated(gen, shape, dtype):
    z = gen.standard_normal(shape)
    bad = np.abs(z) > 2
    while bad.any():
        z[bad] = gen.standard_normal(int(bad.sum()))
        bad = np.abs(z) > 2
    return z.astype(dtype)


def _integers(gen, shape, dtype, lo, hi):
    return gen.integers(lo, hi, size=shape, dtype=np.int64).astype(dtype)


def _gumbel_argmax(gen, shape, dtype, logits):
    g = gen.gumbel(size=(shape[0], shape[1], logits.shape[1]))
    scores = logits.astype(np.float64)[:, None, :] + g
    return np.argmax(scores, axis=-1).astype(dtype)


def _permutation(gen, shape, dtype):
    return gen.permutation(shape[0]).astype(dtype)


def _mask_scale(gen, shape, dtype, keep):
    if keep == 0:
        return np.zeros(shape, dtype)
    mask = gen.random(shape) < keep
    return (mask / keep).astype(dtype)


def _drawn(dtype):
    return dtype if dtype in (np.float32, np.float64) else np.float32


# ---- plumbing --------------------------------------------------------------
def _host(sampler, who, seed, shape, dtype, extra=(), **params):
    """Run sampler on the (seed, counter) pair, as a Tensor of shape/dtype."""
    pair = draw_seed(seed, who)

    def run(pair, *extra):
        out = sampler(generator(pair), shape, dtype, *extra, **params)
        return np.asarray(out, dtype=dtype).reshape(shape)
    inputs = [pair._value] + [convert_to_tensor(e)._value for e in extra]
    return Tensor(backends.active.host_call(run, inputs, dtype, shape))


def _shape(shape, who):
    if isinstance(shape, numbers.Integral) and not isinstance(shape, bool):
        shape = (shape,)
    try:
        shape = tuple(int(d) for d in shape)
    except (TypeError, ValueError):
        shape = None
    if shape is None or any(d < 0 for d in shape):
        raise ValueError(f"pycg.random.{who}: `shape` must be a tuple of "
                         f"non-negative ints")
    return shape


def _float(dtype, who):
    dtype = np.dtype(dtype or config.floatx())
    if not is_float(dtype):
        raise ValueError(f"pycg.random.{who}: `dtype` must be a floating "
                         f"dtype, got {dtype.name}")
    return dtype


def _int_bound(v, name, who):
    if isinstance(v, Tensor):
        v = v.numpy()
    if not isinstance(v, (numbers.Integral, np.integer)) or \
            isinstance(v, bool):
        raise ValueError(f"pycg.random.{who}: `{name}` must be an int, got "
                         f"{type(v).__name__} {v!r:.40}")
    return int(v)


def _is_count(n):
    return isinstance(n, numbers.Integral) and not isinstance(n, bool) \
        and n >= 0


def _noise_shape(noise_shape, shape):
    if noise_shape is None:
        return tuple(shape)
    noise_shape = tuple(noise_shape)
    if len(noise_shape) != len(shape):
        raise ValueError(f"pycg.random.dropout: `noise_shape` {noise_shape} "
                         f"must have one entry per axis of `inputs` {shape}")
    return tuple(d if n is None else int(n)
                 for n, d in zip(noise_shape, shape))
