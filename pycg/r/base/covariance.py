"""var(), cov(), cor() and sd() of tensors as base R computes them (its
stats/src/cov.c), for the R package (R/tensor-stats.R), recorded on tapes.

`use` is one of base R's: "everything" propagates NA (a column holding an
NA or NaN is NA in its row and column of the result), "all.obs" stops at
one, "complete.obs" and "na.or.complete" leave out the rows that hold one
(var(x, na.rm = TRUE) is "na.or.complete"). As base R: a matrix is its
columns, anything else one column of its elements (in R's order); fewer
than two observations give NA everywhere; the means take R's second pass;
cor() is NA where a column has no spread, with R's warning "the standard
deviation is zero", clamped to [-1, 1], and 1 on the diagonal of one
matrix's correlations.
"""
import warnings

import numpy as np

import pycg
from pycg.r.base.na import symbolic
from pycg.r.base.semantics import NA_REAL, BaseRError, as_double, r_ravel

ops = pycg.ops


def covariance(x, y=None, who="cov", use="everything"):
    """base R's var(x, y), cov(x, y) or cor(x, y) (`who`) with `use`."""
    x = as_double(x)
    y = None if y is None else as_double(y)
    if who in ("cov", "cor") and y is None and x.ndim != 2:
        raise BaseRError(f"{who}(): supply both 'x' and 'y' or a matrix-like 'x'")
    matrix = x.ndim == 2 or (y is not None and y.ndim == 2)
    xs = _columns(x)
    ys = xs if y is None else _columns(y)
    if ys.shape[0] != xs.shape[0]:
        raise BaseRError(f"{who}(): incompatible dimensions")
    if use != "everything":
        xs, ys = _complete(xs, ys, y is None, who, use)
    out = _moments(xs, ys, y is None, who == "cor")
    return out if matrix else ops.reshape(out, (-1,) if out.shape[0] *
                                          out.shape[1] != 1 else ())


def sd(x, use="everything"):
    """base R's sd(x): the square root of var() of all x's elements."""
    return ops.sqrt(covariance(r_ravel(as_double(x)), None, "var", use))


def _columns(v):
    return v if v.ndim == 2 else ops.reshape(r_ravel(v), (-1, 1))


def _complete(xs, ys, alone, who, use):
    """The rows of xs (and ys) without NA, or base R's error for `use`."""
    if symbolic(xs) or symbolic(ys):
        raise BaseRError(f"{who}(): use = \"{use}\" leaves out rows by their "
                     "values, which a traced tensor does not have yet; use "
                     "\"everything\" inside pycg_function()")
    if use != "na.or.complete" and not xs.shape[0] * xs.shape[1]:
        raise BaseRError(f"{who}(): 'x' is empty" if use == "all.obs" else
                     f"{who}(): no complete element pairs")
    values = [np.asarray(xs.numpy())] + ([] if alone else
                                         [np.asarray(ys.numpy())])
    keep = ~np.any(np.concatenate([np.isnan(v) for v in values], axis=1),
                   axis=1)
    if use == "all.obs" and not keep.all():
        raise BaseRError(f"{who}(): missing observations in cov/cor")
    if use == "complete.obs" and not keep.any():
        raise BaseRError(f"{who}(): no complete element pairs")
    rows = np.flatnonzero(keep)
    xs = ops.take(xs, rows, axis=0)
    return xs, xs if alone else ops.take(ys, rows, axis=0)


def _moments(xs, ys, alone, cor):
    """The covariances (or correlations) of the columns of xs and ys."""
    n, ncx, ncy = xs.shape[0], xs.shape[1], ys.shape[1]
    if n <= 1:
        return ops.full((ncx, ncy), NA_REAL, dtype=xs.dtype)
    na_x = ops.any(ops.isnan(xs), axis=0)
    na_y = na_x if alone else ops.any(ops.isnan(ys), axis=0)
    xc = _centred(ops.where(na_x, 0.0, xs))   # (an NA column gives NA
    yc = xc if alone else _centred(ops.where(na_y, 0.0, ys))   # below)
    out = ops.divide(ops.matmul(ops.transpose(xc), yc), n - 1)
    na = ops.logical_or(ops.expand_dims(na_x, 1), ops.expand_dims(na_y, 0))
    if cor:
        sx = ops.sqrt(ops.divide(ops.sum(ops.square(xc), axis=0), n - 1))
        sy = sx if alone else \
            ops.sqrt(ops.divide(ops.sum(ops.square(yc), axis=0), n - 1))
        zero = ops.logical_or(ops.expand_dims(ops.equal(sx, 0), 1),
                              ops.expand_dims(ops.equal(sy, 0), 0))
        zero = ops.logical_and(zero, ops.logical_not(na))
        if not symbolic(zero) and bool(np.any(zero.numpy())):
            warnings.warn("the standard deviation is zero", RuntimeWarning,
                          stacklevel=3)
        spread = ops.multiply(ops.expand_dims(sx, 1), ops.expand_dims(sy, 0))
        r = ops.divide(out, ops.where(zero, 1.0, spread))
        r = ops.where(ops.greater_equal(r, 1.0), 1.0,
                      ops.where(ops.less_equal(r, -1.0), -1.0, r))
        out = ops.where(zero, NA_REAL, r)
    out = ops.where(na, NA_REAL, out)
    if cor and alone:
        out = ops.where(ops.eye(ncx, dtype="bool"), 1.0, out)
    return ops.cast(out, xs.dtype)


def _centred(v):
    """v less its column means, R's two passes (the mean corrected by the
    mean of the residuals where it is finite)."""
    first = ops.mean(v, axis=0)
    finite = ops.isfinite(first)
    safe = ops.where(finite, first, 0.0)
    second = ops.add(safe, ops.mean(ops.subtract(v, safe), axis=0))
    return ops.subtract(v, ops.where(finite, second, first))
