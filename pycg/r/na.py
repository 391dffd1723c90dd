"""R's NA through R's comparison and logical operators on tensors.

A tensor has no logical NA: `NaN > 0` is False. So that `x > 0` keeps R's
meaning where it reaches R (as.logical(), `if`, all(), any(), `[`), the R
package carries beside such a boolean result a mask, a boolean tensor of
the result's shape that is True where R's answer is NA. These functions
return the result alone where no element is NA (the usual case, and the
quick one through reticulate), else (result, mask); R keeps the mask on its
handle of the result (R/tensor-na.R).

Each takes masks as None or boolean tensors. While tracing (pycg.function)
a mask cannot be read, and is None.
"""
import numpy as np

import pycg
from pycg.ops._machinery.traced import is_symbolic, tracing
from pycg.tensor import Tensor

ops = pycg.ops


def compare(name, e1, e2, na1=None, na2=None):
    """e1 <name> e2, with its NA mask: NA where either side is NA or NaN."""
    out = getattr(ops, name)(e1, e2)
    if symbolic(out):
        return out
    return _with(out, _either(_missing(e1, na1), _missing(e2, na2)))


def logical(name, e1, e2, na1=None, na2=None):
    """e1 & e2 or e1 | e2, with its NA mask by R's three-valued logic: an NA
    beside a FALSE is FALSE for `&`, beside a TRUE is TRUE for `|`."""
    out = getattr(ops, name)(e1, e2)
    m1, m2 = _missing(e1, na1), _missing(e2, na2)
    if symbolic(out) or (m1 is None and m2 is None):
        return out
    settled = False   # where one side alone decides: FALSE for &, TRUE for |
    for e, m in ((e1, m1), (e2, m2)):
        value = np.asarray(e) != 0
        decides = ~value if name == "logical_and" else value
        settled = settled | (decides if m is None else decides & ~m)
    return _with(out, _either(m1, m2) & ~settled)


def reduce(name, x, na, na_rm):
    """all(x) or any(x), with its NA mask, R's: all() is NA when no element is
    FALSE and one is NA; any() when none is TRUE and one is NA. With
    na_rm the NAs are left out."""
    x = pycg.convert_to_tensor(x)
    m = None if symbolic(x) else _missing(x, na)
    if m is None or not m.any():
        return getattr(ops, name)(x)
    value = np.asarray(x) != 0
    out = bool((value | m).all()) if name == "all" else \
        bool((value & ~m).any())
    unsettled = out if name == "all" else not out
    na = None if na_rm or not unsettled else np.True_
    return _with(pycg.convert_to_tensor(out), na)


def as_nan(x, na):
    """x as floats, NaN where the mask says NA (for arithmetic and sums)."""
    return ops.where(na, float("nan"), ops.cast(x, pycg.config.floatx()))


def fill(x, na):
    """x with R's NA where `na` (of x's size): NaN in a floating x, else
    as the mask of x."""
    na = ops.reshape(na, x.shape)
    if x.dtype.kind in "fc":
        return ops.where(na, float("nan"), x)
    return _with(x, np.asarray(na))


def symbolic(x):
    """True for a tensor of a graph being traced, which has no value yet."""
    return tracing() and is_symbolic(x)


def _missing(e, na):
    """Where e is NA (a NumPy mask): its mask, else NaN in a floating e,
    else None."""
    if na is not None:
        return np.asarray(na)
    if isinstance(e, float):
        return np.bool_(e != e)
    if isinstance(e, Tensor) and e.dtype.kind in "fc":
        return np.isnan(np.asarray(e))
    return None


def _either(a, b):
    if a is None or b is None:
        return b if a is None else a
    return a | b


def _with(out, na):
    """out alone if no element is NA, else (out, na broadcast to out's
    shape as a boolean tensor)."""
    if na is None or not na.any():
        return out
    return out, pycg.convert_to_tensor(np.broadcast_to(na, out.shape).copy())
