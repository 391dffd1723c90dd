"""The VJP rules of the linear algebra in pycg/ops/linalg.py."""
import numpy as np

from pycg.core.backward import strong_zeros_on
from pycg.core.recorder import defvjp, defvjp_each
from pycg.ops import creation as C
from pycg.ops import elementwise as E
from pycg.ops import linalg as L
from pycg.ops import manipulation as S
from pycg.ops import logic as G
from pycg.ops.rules._complex import conjugate as _c


# ---- linear algebra ---------------------------------------------------------
def _mT(x):
    perm = list(range(x.ndim))
    perm[-1], perm[-2] = perm[-2], perm[-1]
    return S.transpose(x, perm)


def _einsum(i, g, ans, *xs, subscripts):
    # the gradient over the distinct letters of input i, by one einsum of g
    # with the other inputs; letters summed inside input i alone are
    # broadcast back; a repeated letter (a diagonal) is put back on the
    # diagonal by einsum with an identity matrix
    lhs, out = subscripts.split("->")
    ins = lhs.split(",")
    term, x = ins[i], xs[i]
    others = [s for j, s in enumerate(ins) if j != i]
    sizes = {c: n for c, n in zip(term, x.shape)}
    uniq = "".join(dict.fromkeys(term))
    present = set(out + "".join(others))
    reduced = "".join(c for c in uniq if c in present)
    spec = ",".join([out] + others) + "->" + reduced
    gi = L.einsum(spec, g, *[x for j, x in enumerate(xs) if j != i])
    if reduced != uniq:
        gi = S.reshape(gi, [sizes[c] if c in present else 1 for c in uniq])
        gi = S.broadcast_to(gi, [sizes[c] for c in uniq])
    if uniq == term:
        return gi
    fresh = iter(c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                 if c not in subscripts)
    target, eyes, seen = "", [], set()
    for c in term:
        if c in seen:
            d = next(fresh)
            target += d
            eyes.append((c + d, C.eye(sizes[c], dtype=x.dtype)))
        else:
            target += c
            seen.add(c)
    spec = ",".join([uniq] + [e for e, _ in eyes]) + "->" + target
    return L.einsum(spec, gi, *[m for _, m in eyes])


def _cholesky(g, ans, x):
    n = x.shape[-1]
    lower = C.convert_to_tensor(np.tril(np.ones((n, n))), x.dtype)
    half_diag = C.convert_to_tensor(1 - 0.5 * np.eye(n), x.dtype)
    l_inv = L.inv(ans)
    middle = L.matmul(_mT(ans), g) * lower * half_diag
    grad = L.matmul(L.matmul(_mT(l_inv), middle), l_inv)
    return 0.5 * (grad + _mT(grad))


def _solve_b(g, ans, a, b):
    return L.solve(_mT(a), g)


def _solve_a(g, ans, a, b):
    return -L.matmul(L.solve(_mT(a), g), _mT(ans))


def _scalar_of_matrix(g):
    return S.expand_dims(S.expand_dims(g, -1), -1)


def _reaching(x, g, ans, axis, transposed):
    # strong zeros (pycg.core.backward): the rows (axis -1 of g all 0) of
    # op(a), or the columns (axis -2) of op(b), whose cotangents are all
    # exactly 0 where the product holds NaN reach nothing, so they are 0 in
    # the contraction (a row of NA data that the value leaves out)
    if not strong_zeros_on():
        return x
    dead = E.logical_and(G.all(E.equal(g, 0), axis=axis, keepdims=True),
                         G.any(E.isnan(ans), axis=axis, keepdims=True))
    return E.where(_mT(dead) if transposed else dead, 0, x)


def _matmul_a(g, ans, a, b, transpose_a=False, transpose_b=False):
    # c = op(a) @ op(b); TensorFlow's rule, with no Transpose op
    b = _reaching(b, g, ans, -2, transpose_b)
    if transpose_a:
        return L._matmul(_c(b), g, transpose_a=transpose_b, transpose_b=True)
    return L._matmul(g, _c(b), transpose_b=not transpose_b)


def _matmul_b(g, ans, a, b, transpose_a=False, transpose_b=False):
    a = _reaching(a, g, ans, -1, transpose_a)
    if transpose_b:
        return L._matmul(g, _c(a), transpose_a=True, transpose_b=transpose_a)
    return L._matmul(_c(a), g, transpose_a=not transpose_a)


defvjp("matmul", _matmul_a, _matmul_b, broadcast=True)
defvjp("cholesky", _cholesky)
defvjp("inv", lambda g, ans, x: -L.matmul(L.matmul(_mT(ans), g), _mT(ans)))
defvjp("det", lambda g, ans, x: _scalar_of_matrix(g * ans) * _mT(L.inv(x)))
defvjp("logabsdet", lambda g, ans, x: _scalar_of_matrix(g) * _mT(L.inv(x)))
defvjp("solve", _solve_a, _solve_b)
defvjp_each("einsum", _einsum)
