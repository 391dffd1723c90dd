"""R's NA through R's comparison and logical operators on tensors.

A tensor has no logical NA: `NaN > 0` is False. So that `x > 0` keeps R's
meaning where it reaches R (as.logical(), `if`, all(), any(), `[`), the R
package carries beside such a boolean result a mask, a boolean tensor of
the result's shape that is True where R's answer is NA, or None where no
element is NA. These functions compute results with their masks; R keeps
the mask on its handle of the result (R/tensor-na.R).

Each takes and returns masks as None or boolean tensors. While tracing
(pycg.function) a mask cannot be read, and is None.
"""
import pycg
from pycg.ops._traced import is_symbolic, tracing
from pycg.tensor import Tensor

ops = pycg.ops


def compare(name, e1, e2, na1=None, na2=None):
    """(e1 <name> e2, its NA mask): NA where either side is NA or NaN."""
    out = getattr(ops, name)(e1, e2)
    return out, _shaped(_either(_missing(e1, na1), _missing(e2, na2)), out)


def logical(name, e1, e2, na1=None, na2=None):
    """(e1 & e2 or e1 | e2, its NA mask) by R's three-valued logic: an NA
    beside a FALSE is FALSE for `&`, beside a TRUE is TRUE for `|`."""
    out = getattr(ops, name)(e1, e2)
    m1, m2 = _missing(e1, na1), _missing(e2, na2)
    na = _either(m1, m2)
    if na is None:
        return out, None
    decided = ops.logical_not if name == "logical_and" else _identity
    settles = _either(_known(e1, m1, decided), _known(e2, m2, decided))
    return out, _shaped(ops.logical_and(na, ops.logical_not(settles)), out)


def reduce(name, x, na, na_rm):
    """(all(x) or any(x), its NA mask), R's: all() is NA when no element is
    FALSE and one is NA; any() when none is TRUE and one is NA. With
    na_rm the NAs are left out."""
    na = _missing(x, na)
    if na is None:
        return getattr(ops, name)(x), None
    fill = name == "all"
    out = ops.all(ops.where(na, fill, x)) if name == "all" else \
        ops.any(ops.where(na, fill, x))
    if na_rm:
        return out, None
    unsettled = out if name == "all" else ops.logical_not(out)
    return out, _shaped(ops.logical_and(ops.any(na), unsettled), out)


def as_nan(x, na):
    """x as floats, NaN where the mask says NA (for arithmetic and sums)."""
    return ops.where(na, float("nan"), ops.cast(x, pycg.config.floatx()))


def fill(x, na):
    """x with R's NA where `na` (of x's size): NaN in a floating x, else
    as the mask of x."""
    na = ops.reshape(na, x.shape)
    if x.dtype.kind in "fc":
        return ops.where(na, float("nan"), x), None
    return x, _shaped(na, x)


def symbolic(x):
    """True for a tensor of a graph being traced, which has no value yet."""
    return tracing() and is_symbolic(x)


def _identity(x):
    return x


def _missing(e, na):
    """Where e is NA: its mask, else NaN in a floating e, else None."""
    if na is not None:
        return na
    if isinstance(e, float):
        return e != e or None
    if isinstance(e, Tensor) and e.dtype.kind in "fc":
        return ops.isnan(e)
    return None


def _either(a, b):
    if a is None or b is None:
        return b if a is None else a
    return ops.logical_or(a, b)


def _known(e, na, decided):
    """Where e is not NA and `decided(e)` holds (so the result is known)."""
    value = decided(ops.not_equal(e, 0))
    return value if na is None else ops.logical_and(
        ops.logical_not(na), value)


def _shaped(na, out):
    """na broadcast to out's shape, or None if no element is NA."""
    if na is None or symbolic(out):
        return None
    if na is True:
        return ops.ones(out.shape, dtype="bool")
    if symbolic(na) or not bool(ops.any(na).numpy()):
        return None
    return ops.broadcast_to(na, out.shape)
