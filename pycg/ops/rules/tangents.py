"""The tangent rules of forward mode (pycg.core.tangents), on real float
values: the ops whose J t is not their VJP applied to the tangent (the
linear shape ops: the op itself on the tangent; matmul: the product
rule), and `elementwise`, which gives every elementwise op its tangent from
its VJP rule (a diagonal Jacobian is its own transpose). Every other op
(reductions but sum, linear algebra but matmul, convolutions, sorting,
indexing with updates, control flow, custom gradients) is transposed entry
by entry from its VJP (pycg.core.tangents.transposed)."""
import numpy as np

from pycg import backends
from pycg.backends import FLOAT_DTYPES
from pycg.core import tangents as T
from pycg.core.tangents import deftangent
from pycg.ops import creation as C
from pycg.ops import linalg as L
from pycg.ops import manipulation as S
from pycg.ops import reduction as R
from pycg.ops._machinery import dynamic as D

# ops whose VJP kernel is 0 where the cotangent is 0 (TensorFlow's
# SqrtGrad, RsqrtGrad, ReciprocalGrad): applied to a tangent that is 0 at
# an infinite derivative it would give 0 where J t is NaN (0 * inf, as
# JAX and TensorFlow's forward mode give); transposed instead
ZERO_AT_ZERO = frozenset({"sqrt", "rsqrt", "reciprocal"})
_SCALARS = backends.load("numpy").float_types   # (NumPy's float scalars:
# the type says the dtype)


def elementwise(rule, ts, out, ins, params):
    """J t of an elementwise op of several inputs: its VJP rules applied to
    the inputs' tangents, summed, broadcast to the output's shape; None
    (transpose it) where an input of another dtype moves. (The core calls
    it for the elementwise rules of fixed arity but ZERO_AT_ZERO; one
    input takes the core's own way, ForwardTrace._unary.)"""
    fns, ov, total = rule.fns, out._value, None
    for i, t in enumerate(ts):
        if t is None:
            continue
        xv = ins[i]._value
        if (type(xv) is not type(ov) or type(ov) not in _SCALARS) and \
                xv.dtype != ov.dtype:
            return None
        term = fns[i](t, out, *ins, **params) if params else \
            fns[i](t, out, *ins)
        if term is None:
            return None
        total = term if total is None else total + term
    if type(ov) not in _SCALARS and total._value.shape != ov.shape:
        total = D.broadcast(total, D.shape_of(out))
    return total


_ZEROS: dict = {}   # (dtype, shape) -> TensorFlow's eager zeros (immutable)


def zero(y):
    """A backend value of zeros like y: a NumPy float scalar made at once,
    TensorFlow's eager zeros kept per dtype and shape (tf.zeros costs
    tens of microseconds a call), else made."""
    v = y._value
    if type(v) in _SCALARS:
        return type(v)(0)
    K = backends.active
    if K.name != "tensorflow" or type(v) not in K.types:
        return C.zeros_like(y)._value
    key = (v.dtype, tuple(v.shape))
    z = _ZEROS.get(key)
    if z is None:
        if len(_ZEROS) > 256:
            _ZEROS.clear()
        z = _ZEROS[key] = C.zeros_like(y)._value
    return z


T.register(elementwise=elementwise, real=FLOAT_DTYPES, zero=zero,
           transposed=ZERO_AT_ZERO)


def _matmul(ts, ans, a, b, **flags):
    ta, tb = ts
    terms = ([L._matmul(ta, b, **flags)] if ta is not None else []) + \
        ([L._matmul(a, tb, **flags)] if tb is not None else [])
    return terms[0] if len(terms) == 1 else terms[0] + terms[1]


def _concatenate(ts, ans, *xs, axis):
    return S.concatenate([t if t is not None else C.zeros_like(x)
                          for t, x in zip(ts, xs)], axis=axis)


deftangent("_copy", lambda ts, ans, x: ts[0])
deftangent("reshape", lambda ts, ans, x, shape: S.reshape(
    ts[0], D.shape_of(ans)))
deftangent("transpose", lambda ts, ans, x, axes: S.transpose(
    ts[0], tuple(np.asarray(axes).tolist())))
deftangent("broadcast_to", lambda ts, ans, x, shape: D.broadcast(
    ts[0], D.shape_of(ans)))
deftangent("sum", lambda ts, ans, x, axis, keepdims: R.sum(
    ts[0], axis=axis, keepdims=keepdims))
deftangent("_gather", lambda ts, ans, x, positions: S._gather(
    ts[0], positions))
deftangent("concatenate", _concatenate)
deftangent("matmul", _matmul)
