"""The VJP rules of the reductions (pycg/ops/reduction.py), and `expand`,
a reduction's g broadcast back to its input, which other rules share."""
from pycg.core.recorder import defvjp
from pycg.ops import creation as C
from pycg.ops import elementwise as E
from pycg.ops import manipulation as S
from pycg.ops import reduction as R
from pycg.ops._machinery import dynamic as D
from pycg.ops.rules.elementwise import reached_if_strong


# ---- reductions -------------------------------------------------------------
def expand(g, x, axis, keepdims):
    """g of a reduction over `axis`, broadcast back to x's shape."""
    shape = D.shape_of(x)
    if not keepdims and axis is not None:
        g = S.reshape(g, [1 if i in axis else n for i, n in enumerate(shape)])
    return S.broadcast_to(g, shape)


def _cumsum(g, ans, x, axis):
    if not D.known(g.shape):  # the reversed cumsum, without a static flip
        return R.sum(g, axis, keepdims=True) - R.cumsum(g, axis) + g
    return S.flip(R.cumsum(S.flip(g, axis), axis), axis)


def _extremum(g, ans, x, axis, keepdims):
    # ties share the gradient equally, as TensorFlow does
    hit = C.cast(E.equal(x, expand(ans, x, axis, keepdims)), x.dtype)
    count = R.sum(hit, axis, keepdims=True)
    up = expand(g, x, axis, keepdims)
    return reached_if_strong(up, expand(ans, x, axis, keepdims),
                             up * hit / count)


defvjp("sum", lambda g, ans, x, axis, keepdims: expand(g, x, axis, keepdims))
defvjp("max", _extremum)
defvjp("min", _extremum)
defvjp("cumsum", _cumsum)


# Ops that never carry a gradient (their outputs are not recorded).
NON_DIFFERENTIABLE = ("argmax", "argmin")
