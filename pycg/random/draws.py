"""keras.random's draws. The numbers come from NumPy (one Philox generator
per draw, see seed_generator.py) through the backend's host call; the
affine parts (mean, stddev, minval, maxval), shuffle's gather and dropout's
mask-times-scale are pycg ops, so they differentiate."""
from __future__ import annotations

import numbers
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from pycg import backends, ops
from pycg._errors import Api, user_error
from pycg.api._docs import with_args
from pycg.compile.state import counter_dtype
from pycg.ops._machinery.allocation import guard
from pycg._errors import Shape as ShapeFact
from pycg.random import _samplers
from pycg.random._arguments import (as_shape, float_dtype, int_bound,
                                    is_count, mask_shape)
from pycg.random.seed_generator import draw_seed, generator
from pycg.tensor import Tensor, convert_to_tensor, is_float

if TYPE_CHECKING:
    from collections.abc import Sequence

    from pycg._typing import ArrayLike, DTypeLike, Shape
    from pycg.random.seed_generator import SeedGenerator
    Seed = int | SeedGenerator | None

_F = TypeVar("_F", bound=Callable[..., Any])

# the `seed` argument of every draw, at the end of its Args
_SEED = """\
        seed: An int (the same numbers at every call), a
            pycg.random.SeedGenerator (its state moves on at each draw) or
            None (the global generator's next numbers).
"""


def _seeded(fn: _F) -> _F:
    """fn, with _SEED at the end of its docstring's Args."""
    fn.__doc__ = with_args(fn.__doc__ or "", _SEED)
    return fn


@_seeded
def normal(shape: Shape, mean: ArrayLike = 0.0, stddev: ArrayLike = 1.0,
           dtype: DTypeLike = None, seed: Seed = None) -> Tensor:
    """Samples from a normal distribution (keras.random.normal).

    Args:
        shape: The shape of the result, a tuple of ints.
        mean: The distribution's mean (a number or a tensor that
            broadcasts against shape).
        stddev: Its standard deviation.
        dtype: A float dtype (None: floatx, pycg.config.floatx()).

    Returns:
        A tensor of `shape` in `dtype`; differentiable in mean and stddev.

    Example:
    >>> import pycg
    >>> x = pycg.random.normal((2, 3), seed=1)
    >>> x.shape, x.dtype.name
    ((2, 3), 'float32')
    >>> bool((x.numpy() == pycg.random.normal((2, 3), seed=1).numpy()).all())
    True
    """
    shape, dtype = as_shape(shape, "normal"), float_dtype(dtype, "normal")
    z = _host(_samplers.standard_normal, "normal", seed, shape, dtype)
    return ops.add(ops.multiply(z, stddev), mean)


@_seeded
def uniform(shape: Shape, minval: ArrayLike = 0.0, maxval: ArrayLike = 1.0,
            dtype: DTypeLike = None, seed: Seed = None) -> Tensor:
    """Samples from [minval, maxval) (keras.random.uniform).

    Args:
        shape: The shape of the result, a tuple of ints.
        minval: The lower bound, included.
        maxval: The upper bound, excluded.
        dtype: A float dtype (None: floatx, pycg.config.floatx()).

    Returns:
        A tensor of `shape` in `dtype`; differentiable in minval and maxval.

    Example:
    >>> import pycg
    >>> u = pycg.random.uniform((1000,), minval=2.0, maxval=3.0, seed=0)
    >>> bool((u.numpy() >= 2).all() and (u.numpy() < 3).all())
    True
    """
    shape, dtype = as_shape(shape, "uniform"), float_dtype(dtype, "uniform")
    u = _host(_samplers.unit_uniform, "uniform", seed, shape, dtype)
    width: Any
    if isinstance(minval, numbers.Real) and isinstance(maxval, numbers.Real) \
            and not isinstance(minval, Tensor) \
            and not isinstance(maxval, Tensor):
        width = maxval - minval   # (Python numbers: the draw's dtype stays)
    else:
        width = ops.subtract(maxval, minval)
    return ops.add(ops.multiply(u, width), minval)


@_seeded
def truncated_normal(shape: Shape, mean: ArrayLike = 0.0,
                     stddev: ArrayLike = 1.0, dtype: DTypeLike = None,
                     seed: Seed = None) -> Tensor:
    """Normal samples, those more than two stddevs from the mean redrawn
    (keras.random.truncated_normal).

    Args:
        shape: The shape of the result, a tuple of ints.
        mean: The distribution's mean.
        stddev: Its standard deviation (before truncation).
        dtype: A float dtype (None: floatx, pycg.config.floatx()).

    Returns:
        A tensor of `shape` in `dtype`; differentiable in mean and stddev.

    Example:
    >>> import pycg
    >>> z = pycg.random.truncated_normal((1000,), seed=3)
    >>> bool(abs(z.numpy()).max() <= 2.0)
    True
    """
    shape = as_shape(shape, "truncated_normal")
    dtype = float_dtype(dtype, "truncated_normal")
    z = _host(_samplers.truncated, "truncated_normal", seed, shape, dtype)
    return ops.add(ops.multiply(z, stddev), mean)


@_seeded
def randint(shape: Shape, minval: int, maxval: int, dtype: DTypeLike = "int32",
            seed: Seed = None) -> Tensor:
    """Integers uniform on [minval, maxval) (keras.random.randint).

    Args:
        shape: The shape of the result, a tuple of ints.
        minval: The lowest integer, included.
        maxval: The upper bound, excluded.
        dtype: An integer dtype.

    Returns:
        An integer tensor of `shape` in `dtype`.

    Example:
    >>> import pycg
    >>> pycg.random.randint((4,), 0, 1, seed=5).numpy().tolist()
    [0, 0, 0, 0]
    """
    shape = as_shape(shape, "randint")
    dtype = np.dtype(dtype)
    if dtype.kind not in "iu":
        raise ValueError(f"pycg.random.randint: `dtype` must be an integer "
                         f"dtype, got {dtype.name}")
    lo, hi = (int_bound(v, name, "randint")
              for v, name in ((minval, "minval"), (maxval, "maxval")))
    if hi <= lo:
        raise ValueError(f"pycg.random.randint: `maxval` ({hi}) must be "
                         f"greater than `minval` ({lo})")
    return _host(_samplers.integers, "randint", seed, shape, dtype, lo=lo, hi=hi)


@_seeded
def categorical(logits: ArrayLike, num_samples: int,
                dtype: DTypeLike = "int32", seed: Seed = None) -> Tensor:
    """Class indices drawn from each row of `logits` (batch, classes), as a
    (batch, num_samples) tensor (keras.random.categorical).

    Args:
        logits: Unnormalised log-probabilities, (batch, classes).
        num_samples: How many draws per row.
        dtype: The integer dtype of the indices.

    Returns:
        A (batch, num_samples) tensor of class indices in `dtype`; not
        differentiable.

    Example:
    >>> import pycg
    >>> pycg.random.categorical([[-1e9, 0.0]], 3, seed=2).numpy().tolist()
    [[1, 1, 1]]
    """
    logits = convert_to_tensor(logits)
    if logits.ndim != 2:
        raise user_error(ValueError, "{api}: `logits` must be 2-D (batch_size, "
                         "num_classes), got shape {shape}",
                         api=Api("random.categorical"),
                         shape=ShapeFact(logits.shape))
    if not is_count(num_samples):
        raise ValueError(f"pycg.random.categorical: `num_samples` must be a "
                         f"non-negative int, got {num_samples!r}")
    dtype = np.dtype(dtype)
    shape = (logits.shape[0], int(num_samples))
    guard(Api("random.categorical"), shape + logits.shape[1:], "float64",
          "num_samples")   # (the Gumbel noise NumPy draws)
    return _host(_samplers.gumbel_argmax, "categorical", seed, shape, dtype,
                 extra=[ops.stop_gradient(logits)])


@_seeded
def shuffle(x: ArrayLike, axis: int = 0, seed: Seed = None) -> Tensor:
    """`x` permuted uniformly at random along `axis` (keras.random.shuffle).

    Args:
        x: The tensor to shuffle.
        axis: The axis along which to permute.

    Returns:
        A tensor of x's shape and dtype; the gradient flows back through the
        permutation.

    Example:
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
    perm = _host(_samplers.permutation, "shuffle", seed, (n,), counter_dtype())
    return ops.take(x, perm, axis=int(axis))


@_seeded
def dropout(inputs: ArrayLike, rate: float,
            noise_shape: Sequence[int | None] | None = None,
            seed: Seed = None) -> Tensor:
    """Zero each entry with probability `rate`, scale the rest by
    1 / (1 - rate) (keras.random.dropout); the gradient is the same mask
    times scale.

    Args:
        inputs: A floating tensor.
        rate: The probability of zeroing an entry, in [0, 1].
        noise_shape: The shape of the mask, broadcast against inputs (None:
            inputs' shape; a None entry takes inputs' length there).

    Returns:
        A tensor of inputs' shape and dtype.

    Example:
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
    shape = mask_shape(noise_shape, x.shape)
    scale = _host(_samplers.mask_scale, "dropout", seed, shape, x.dtype,
                  keep=1.0 - float(rate))
    return ops.multiply(x, scale)


# ---- plumbing --------------------------------------------------------------
def _host(sampler, who, seed, shape, dtype, extra=(), **params):
    """Run sampler on the (seed, counter) pair, as a Tensor of shape/dtype
    (its size checked first, as every op's: ops/_machinery/allocation.py)."""
    guard(Api(f"random.{who}"), shape, dtype)
    pair = draw_seed(seed, who)

    def run(pair, *extra):
        out = sampler(generator(pair), shape, dtype, *extra, **params)
        return np.asarray(out, dtype=dtype).reshape(shape)
    inputs = [pair._value] + [convert_to_tensor(e)._value for e in extra]
    return Tensor(backends.active.host_call(run, inputs, dtype, shape))
