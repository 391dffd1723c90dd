"""R's logical NA beside boolean tensors, for the R package.

A bool tensor has no NA, so a logical result of R's operators (`x > 0`
where x holds NA, `NA & TRUE`) carries a mask beside it: a boolean tensor
of its shape, True where R's answer is NA. The functions that make such
results (pycg/r/base/arith.py, pycg/r/base/summary.py) return the result alone where
no element is NA (the usual case, and the quick one through reticulate),
else (result, mask); R keeps the mask on its handle of the result
(R/tensor-na.R). While tracing (pycg.function, or JAX's tracers) a mask
cannot be read, and there is none.

Doubles and integers hold their NA in their bits (pycg/r/base/semantics.py).
"""
import numpy as np

import pycg
from pycg.ops._machinery.traced import is_symbolic, tracing
from pycg.ops._machinery.traced import static_value as traced_static_value
from pycg.r.base import semantics as rs
from pycg.tensor import Tensor
from pycg.tensor.convert import jax_tracer

ops = pycg.ops


def with_mask(out, mask):
    """out alone if `mask` (None, a boolean tensor or NumPy value) marks no
    element, else (out, the mask as a boolean tensor of out's shape)."""
    if mask is None or symbolic(out) or symbolic(mask):
        return out
    m = np.asarray(mask.numpy() if isinstance(mask, Tensor) else mask)
    if not m.any():
        return out
    return out, pycg.convert_to_tensor(np.broadcast_to(m, out.shape).copy())


def as_nan(x, na):
    """x as doubles with R's NA where the mask says NA (for arithmetic and
    sums in R code)."""
    return rs.coerce(x, rs.DOUBLE, "float64", na)


def fill(x, na):
    """x with R's NA where `na` (of x's size): NA_real_ in a floating x,
    NA_integer_ in an integer one, else as the mask of x."""
    na = ops.reshape(na, x.shape)
    if x.dtype.kind in "fc":
        return ops.where(na, rs.NA_REAL, x)
    if rs.r_type(x) == rs.INTEGER:
        return ops.where(na, rs.INT_NA, x)
    return with_mask(x, np.asarray(na))


def is_missing(x):
    """R's is.na(x) of a tensor without a mask: a boolean tensor."""
    out = rs.missing(x)
    return ops.zeros(x.shape, "bool") if out is None else out


def is_nan(x):
    """R's is.nan(x): NaN but not R's NA (a boolean tensor)."""
    if rs.r_type(x) < rs.DOUBLE:
        return ops.zeros(x.shape, "bool")
    return ops.logical_and(ops.isnan(x), ops.logical_not(
        pycg.convert_to_tensor(rs.is_na(x))))


def static_value(x):
    """The value of a traced tensor where the trace knows it already (a
    constant of the TF graph, such as R data given to an op inside
    pycg_function), else None."""
    return None if jax_tracer(x._value) else traced_static_value(x)


def symbolic(x):
    """True for a tensor being traced (a TensorFlow graph's under
    pycg.function, or a JAX tracer), which has no value yet."""
    return isinstance(x, Tensor) and (tracing() and is_symbolic(x) or
                                      jax_tracer(x._value))
