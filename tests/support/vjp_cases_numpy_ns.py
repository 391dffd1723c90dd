"""VJP cases of the issue-14 NumPy-namespace and math ops (elementwise,
order statistics, reductions, array ops), merged into the table of
tests/test_ops_vjp.py; the linear algebra, Fourier and scatter ops are in
tests/support/vjp_cases_linalg_ns.py."""
import math

import numpy as np
import tensorflow as tf

from pycg import ops
from pycg.ops import numeric as N
from support.vjp_case import (COND, Case, binary, normal, off_integer, off_zero,
                      positive, unary, uniform_, unit)

tnp = tf.experimental.numpy
J2 = np.array([[1, -2, 0], [3, 0, -1]], np.int32)
STEP_AT = np.array([[-1.0, 0.0, 2.0], [0.0, 3.0, 0.0]])


def with_nan(*shape):
    def make(rng):
        a = rng.standard_normal(shape)
        a.reshape(-1)[1] = np.nan
        return a
    return make


def with_nonfinite(*shape):
    def make(rng):
        a = rng.standard_normal(shape)
        a.reshape(-1)[:3] = [np.nan, np.inf, -np.inf]
        return a
    return make


def around(lo, hi):
    """|x| in [lo, hi], either sign."""
    return lambda *shape: lambda rng: (rng.choice([-1.0, 1.0], shape)
                                       * rng.uniform(lo, hi, shape))


# ---- TensorFlow twins -------------------------------------------------------
def tf_quantile(x, q, axis=None):
    s = tf.sort(tf.reshape(x, [-1]) if axis is None else x, axis=-1)
    n = s.shape[-1]
    pos = q * (n - 1)
    lo, hi = math.floor(pos), min(math.floor(pos) + 1, n - 1)
    return s[..., lo] + (s[..., hi] - s[..., lo]) * (pos - lo)


def tf_nan_filled(x, fill):
    return tf.where(tf.math.is_nan(x), tf.constant(fill, x.dtype), x)


def tf_nan_count(x, axis=None):
    return tf.reduce_sum(tf.cast(~tf.math.is_nan(x), x.dtype), axis)


def tf_nanvar(x, axis):
    f = tf_nan_filled(x, 0.0)
    n = tf_nan_count(x, axis)
    m = tf.reduce_sum(f, axis, keepdims=True) / tf.expand_dims(n, axis)
    d = tf.where(tf.math.is_nan(x), tf.zeros_like(x), x - m)
    return tf.reduce_sum(d * d, axis) / n


def tf_correlate(a, v):
    m = v.shape[0]
    ap = tf.pad(a, [[m - 1, m - 1]])
    return tf.stack([tf.reduce_sum(ap[k:k + m] * v)
                     for k in range(ap.shape[0] - m + 1)])


def tf_corrcoef(x):
    c = x - tf.reduce_mean(x, 1, keepdims=True)
    cov = c @ tf.transpose(c)
    d = tf.sqrt(tf.linalg.diag_part(cov))
    return cov / d[:, None] / d[None, :]

def tf_trunc(x):
    return tf.where(x < 0, tf.math.ceil(x), tf.math.floor(x))

def tf_band(x, lower, upper):
    return tf.linalg.band_part(x, lower, upper)


CASES = {
    # elementwise maths
    "absolute": unary(ops.absolute, tf.abs, off_zero),
    "fabs": unary(ops.fabs, tf.abs, off_zero),
    "arccosh": unary(ops.arccosh, tf.acosh, uniform_(1.2, 3.0)),
    "arcsinh": unary(ops.arcsinh, tf.asinh),
    "arctanh": unary(ops.arctanh, tf.atanh, unit),
    "cbrt": unary(ops.cbrt, lambda x: tf.sign(x) * tf.abs(x) ** (1 / 3),
                  off_zero),
    "exp2": unary(ops.exp2, lambda x: tf.pow(tf.constant(2.0, x.dtype), x)),
    "erfc": unary(ops.erfc, tf.math.erfc),
    "erfinv": unary(ops.erfinv, tf.math.erfinv, unit),
    "i0": unary(ops.i0, tf.math.bessel_i0, uniform_(-3.0, 3.0)),
    "_i1": [unary(N._i1, tf.math.bessel_i1, uniform_(-3.0, 3.0)),
            Case(N._i1, tf.math.bessel_i1, (lambda rng: np.array(
                [1e-3, 9.0, -7.0]),))],
    "trunc": unary(ops.trunc, tf_trunc, off_integer),
    "deg2rad": unary(ops.deg2rad, lambda x: x * (math.pi / 180)),
    "rad2deg": unary(ops.rad2deg, lambda x: x * (180 / math.pi)),
    "sinc": unary(ops.sinc, lambda x: tf.sin(math.pi * x) / (math.pi * x),
                  off_zero),
    "hypot": binary(ops.hypot, lambda a, b: tf.sqrt(a * a + b * b)),
    "polar": binary(ops.polar, lambda r, t: tf.complex(r * tf.cos(t),
                                                       r * tf.sin(t))),
    "_complex_from_pair": Case(N._complex_from_pair,
                               lambda p: tf.complex(p[0], p[1]),
                               (normal(2, 2, 3),)),
    "fmax": binary(ops.fmax, tf.maximum),
    "fmin": binary(ops.fmin, tf.minimum, shapes=((2, 1), (2, 3))),
    # |x1 / x2| in (1.56, 1.8): away from the jumps of trunc
    "fmod": binary(ops.fmod, lambda a, b: a - b * tf_trunc(a / b),
                   dom_x=around(2.5, 2.7),
                   dom_y=uniform_(1.5, 1.6)),
    # no gradient for x1 (a step); x2 counts where x1 == 0
    "heaviside": Case(lambda b: ops.heaviside(STEP_AT, b), lambda b: tf.where(
        STEP_AT < 0, 0.0, tf.where(STEP_AT > 0, 1.0, b)), (normal(2, 3),)),
    "ldexp": unary(lambda x: ops.ldexp(x, J2), lambda x: x * 2.0 ** J2),
    "logaddexp2": binary(ops.logaddexp2, tnp.logaddexp2),
    "divide_no_nan": binary(ops.divide_no_nan, tf.math.divide_no_nan,
                            dom_y=off_zero),
    "nan_to_num": unary(lambda x: ops.nan_to_num(x, 1.0, 9.0, -9.0),
                        lambda x: tf.clip_by_value(tf_nan_filled(x, 1.0),
                                                   -9.0, 9.0),
                        with_nonfinite),
    "copy": unary(ops.copy, tf.identity),
    "conjugate": unary(ops.conjugate, tf.identity),
    "array": unary(ops.array, tf.identity),
    "view_as_real": unary(ops.view_as_real,
                          lambda x: tf.stack([x, tf.zeros_like(x)], -1)),
    "saturate_cast": unary(lambda x: ops.saturate_cast(x, "float32"),
                           lambda x: tf.cast(x, tf.float32), eps=1e-3,
                           rtol=1e-3, atol=1e-4),
    # sorting and order statistics
    "sort": [unary(lambda x: ops.sort(x, axis=1), lambda x: tf.sort(x, 1)),
             unary(lambda x: ops.sort(x, axis=0), lambda x: tf.sort(x, 0))],
    "top_k": unary(lambda x: ops.top_k(x, 2)[0],
                   lambda x: tf.math.top_k(x, 2).values),
    "median": [unary(ops.median, lambda x: tf_quantile(x, 0.5)),
               unary(lambda x: ops.median(x, axis=1),
                     lambda x: tf_quantile(x, 0.5, 1))],
    "quantile": Case(lambda x: ops.quantile(x, [0.3, 0.8], axis=1),
                     lambda x: tf.stack([tf_quantile(x, 0.3, 1),
                                         tf_quantile(x, 0.8, 1)]),
                     (normal(2, 5),)),
    "percentile": unary(lambda x: ops.percentile(x, 30.0),
                        lambda x: tf_quantile(x, 0.3)),
    "nanmedian": Case(lambda x: ops.nanmedian(x, axis=1),
                      lambda x: tf.stack([tf_quantile(x[0, ::2], 0.5),
                                          tf_quantile(x[1], 0.5)]),
                      (with_nan(2, 3),)),
    "nanquantile": Case(lambda x: ops.nanquantile(x, 0.25),
                        lambda x: tf_quantile(tf.concat([x[:1, :1],
                                                         x[:1, 2:], x[1:]],
                                                        1), 0.25),
                        (with_nan(2, 3),)),
    "nanpercentile": Case(lambda x: ops.nanpercentile(x, 75.0),
                          lambda x: tf_quantile(tf.concat(
                              [x[:1, :1], x[:1, 2:], x[1:]], 1), 0.75),
                          (with_nan(2, 3),)),
    # reductions and scans
    "amax": unary(lambda x: ops.amax(x, axis=1),
                  lambda x: tf.reduce_max(x, 1)),
    "amin": unary(ops.amin, tf.reduce_min),
    "ptp": unary(lambda x: ops.ptp(x, axis=1),
                 lambda x: tf.reduce_max(x, 1) - tf.reduce_min(x, 1)),
    "cumprod": [unary(lambda x: ops.cumprod(x, axis=1),
                      lambda x: tf.math.cumprod(x, 1), off_zero),
                unary(ops.cumprod, lambda x: tf.math.cumprod(
                    tf.reshape(x, [-1])), off_zero)],
    "average": binary(lambda x, w: ops.average(x, axis=1, weights=w),
                      lambda x, w: tf.reduce_sum(x * w, 1)
                      / tf.reduce_sum(w), dom_y=positive),
    "nansum": unary(lambda x: ops.nansum(x, axis=1),
                    lambda x: tf.reduce_sum(tf_nan_filled(x, 0.0), 1),
                    with_nan),
    "nanprod": unary(ops.nanprod,
                     lambda x: tf.reduce_prod(tf_nan_filled(x, 1.0)),
                     with_nan),
    "nanmean": unary(ops.nanmean, lambda x: tf.reduce_sum(
        tf_nan_filled(x, 0.0)) / tf_nan_count(x), with_nan),
    "nanvar": unary(lambda x: ops.nanvar(x, axis=1),
                    lambda x: tf_nanvar(x, 1), with_nan),
    "nanstd": unary(lambda x: ops.nanstd(x, axis=1),
                    lambda x: tf.sqrt(tf_nanvar(x, 1)), with_nan),
    "nanmax": unary(lambda x: ops.nanmax(x, axis=1), lambda x: tf.reduce_max(
        tf_nan_filled(x, -np.inf), 1), with_nan),
    "nanmin": unary(ops.nanmin, lambda x: tf.reduce_min(
        tf_nan_filled(x, np.inf)), with_nan),
    "nancumsum": unary(lambda x: ops.nancumsum(x, axis=1),
                       lambda x: tf.cumsum(tf_nan_filled(x, 0.0), 1),
                       with_nan),
    "nancumprod": unary(lambda x: ops.nancumprod(x, axis=1),
                        lambda x: tf.math.cumprod(tf_nan_filled(x, 1.0), 1),
                        with_nan),
    "diff": Case(lambda x: ops.diff(x, n=2), lambda x: tnp.diff(x, 2),
                 (normal(2, 4),)),
    "trapezoid": unary(ops.trapezoid, lambda x: tf.reduce_sum(
        (x[:, 1:] + x[:, :-1]) / 2, -1)),
    "corrcoef": Case(ops.corrcoef, tf_corrcoef, (normal(3, 5),)),
    "correlate": Case(lambda a, v: ops.correlate(a, v, mode="full"),
                      tf_correlate, (normal(5), normal(3))),
    # diagonals, triangles, moves, stacking
    "diag": [Case(ops.diag, tf.linalg.diag, (normal(3),)),
             Case(lambda x: ops.diag(x, 1), lambda x: tf.linalg.diag(x, k=1),
                  (normal(3),)),
             unary(ops.diag, tf.linalg.diag_part)],
    "diagflat": Case(ops.diagflat,
                     lambda x: tf.linalg.diag(tf.reshape(x, [-1])),
                     (normal(2, 2),)),
    "diagonal": Case(lambda x: ops.diagonal(x, 1, 1, 2),
                     lambda x: tf.linalg.diag_part(x, k=1),
                     (normal(2, 3, 4),)),
    "trace": unary(ops.trace, tf.linalg.trace),
    "tril": unary(ops.tril, lambda x: tf_band(x, -1, 0)),
    "triu": unary(lambda x: ops.triu(x, 1), lambda x: tf_band(x, 0, -1)
                  - tf_band(x, 0, 0)),
    "roll": [unary(lambda x: ops.roll(x, 1, axis=1),
                   lambda x: tf.roll(x, 1, 1)),
             unary(lambda x: ops.roll(x, -2), lambda x: tf.reshape(
                 tf.roll(tf.reshape(x, [-1]), -2, 0), (2, 3)))],
    "rot90": unary(ops.rot90, tnp.rot90),
    "fliplr": unary(ops.fliplr, lambda x: tf.reverse(x, [1])),
    "flipud": unary(ops.flipud, lambda x: tf.reverse(x, [0])),
    "moveaxis": Case(lambda x: ops.moveaxis(x, 0, -1),
                     lambda x: tf.transpose(x, (1, 2, 0)),
                     (normal(2, 3, 4),)),
    "hstack": binary(lambda a, b: ops.hstack([a, b]),
                     lambda a, b: tf.concat([a, b], 1),
                     shapes=((2, 3), (2, 1))),
    "vstack": binary(lambda a, b: ops.vstack([a, b]),
                     lambda a, b: tf.stack([a, b]), shapes=((3,), (3,))),
    "dstack": binary(lambda a, b: ops.dstack([a, b]),
                     lambda a, b: tf.stack([a, b], 2),
                     shapes=((2, 3), (2, 3))),
    "append": binary(lambda a, b: ops.append(a, b, axis=0),
                     lambda a, b: tf.concat([a, b], 0),
                     shapes=((2, 3), (1, 3))),
    "array_split": unary(lambda x: ops.array_split(x, 2, axis=1),
                         lambda x: tf.split(x, [2, 1], 1)),
    "hsplit": Case(lambda x: ops.hsplit(x, 2), lambda x: tf.split(x, 2, 1),
                   (normal(2, 4),)),
    "vsplit": Case(lambda x: ops.vsplit(x, 2), lambda x: tf.split(x, 2, 0),
                   (normal(4, 2),)),
    "dsplit": Case(lambda x: ops.dsplit(x, 2), lambda x: tf.split(x, 2, 2),
                   (normal(2, 2, 4),)),
    "unstack": unary(lambda x: ops.unstack(x, axis=1),
                     lambda x: tf.unstack(x, axis=1)),
    "get_item": unary(lambda x: ops.get_item(x, (1, slice(0, 2))),
                      lambda x: x[1, 0:2]),
    "select": binary(lambda a, b: ops.select([COND, ~COND], [a, b]),
                     lambda a, b: tf.where(COND, a, tf.where(
                         ~COND, b, tf.zeros_like(a))),
                     shapes=((2, 3), (2, 3))),
    "meshgrid": Case(lambda a, b: ops.meshgrid(a, b), tf.meshgrid,
                     (normal(3), normal(2))),
    "vander": Case(ops.vander, lambda x: tf.stack(
        [x * x, x, tf.ones_like(x)], 1), (normal(3),)),
}
