"""VJP rules of the decompositions (decompositions.py) and of the Fourier
transforms (spectral.py). A decomposition's outputs are packed into one
array; its rule unpacks the upstream gradient the same way."""
import numpy as np

from pycg._errors import Op, Shape, Value, user_error
from pycg.ops import arrays as A
from pycg.ops import creation as C
from pycg.ops import linalg as L
from pycg.ops import manipulation as S
from pycg.ops import spectral as F
from pycg.core.recorder import defvjp
from pycg.ops import decompositions as D
from pycg.ops.decompositions import _mT, _unpack


def _eye_like(x, n):
    return C.convert_to_tensor(np.eye(n, dtype=x.dtype))


def _off_diagonal_inverse(d, n):
    """1 / d off the diagonal, 0 on it (d: differences of eigen- or
    singular values, distinct by assumption)."""
    eye = _eye_like(d, n)
    return (1 - eye) / (d + eye)


def _svd(g, ans, x, full_matrices):
    m, n = x.shape[-2:]
    k = min(m, n)
    if full_matrices:
        raise user_error(NotImplementedError, "{op}: no gradient for "
                         "full_matrices=True with a non-square x (shape "
                         "{shape}); pass full_matrices=False", op=Op("svd"),
                         shape=Shape(x.shape))
    u, s, vh = _unpack(ans, [(m, k), (k,), (k, n)])
    gu, gs, gvh = _unpack(g, [(m, k), (k,), (k, n)])
    v, gv = _mT(vh), _mT(gvh)
    s2 = s * s
    f = _off_diagonal_inverse(S.expand_dims(s2, -2) - S.expand_dims(s2, -1),
                              k)
    j = f * (L.matmul(_mT(u), gu) - L.matmul(_mT(gu), u))
    kk = f * (L.matmul(_mT(v), gv) - L.matmul(_mT(gv), v))
    s_row, s_col = S.expand_dims(s, -2), S.expand_dims(s, -1)
    core = j * s_row + s_col * kk + _eye_like(s, k) * S.expand_dims(gs, -1)
    out = L.matmul(L.matmul(u, core), vh)
    if m > k:
        proj = _eye_like(x, m) - L.matmul(u, _mT(u))
        out = out + L.matmul(L.matmul(proj, gu) / s_row, vh)
    if n > k:
        proj = _eye_like(x, n) - L.matmul(v, _mT(v))
        out = out + L.matmul(u / s_row, L.matmul(_mT(gv), proj))
    return out


def _svdvals(g, x):
    """u @ diag(g) @ vh: svd's rule where only s is used (TensorFlow's
    compute_uv=False gradient)."""
    u, _, vh = D.svd(x, full_matrices=False)
    return L.matmul(u * S.expand_dims(g, -2), vh)


def _eigh(g, ans, x):
    n = x.shape[-1]
    pre = (slice(None),) * (x.ndim - 2)
    w, v = S.getitem(ans, pre + (0,)), S.getitem(ans, pre + (slice(1, None),))
    gw, gv = S.getitem(g, pre + (0,)), S.getitem(g, pre + (slice(1, None),))
    f = _off_diagonal_inverse(S.expand_dims(w, -2) - S.expand_dims(w, -1), n)
    inner = _eye_like(x, n) * S.expand_dims(gw, -1) + f * L.matmul(_mT(v), gv)
    full = L.matmul(L.matmul(v, inner), _mT(v))
    # the kernel reads the lower triangle, as TensorFlow's rule assumes
    return A.tril(full + _mT(full), -1) + _eye_like(x, n) * full


def _qr(g, ans, x, mode):
    m, n = x.shape[-2:]
    if m < n or (mode == "complete" and m != n):
        raise user_error(NotImplementedError, "{op}: a gradient needs rows >= "
                         "columns and mode='reduced' (got shape {shape}, "
                         "mode={mode})", op=Op("qr"), shape=Shape(x.shape),
                         mode=Value(mode))
    q, r = _unpack(ans, [(m, n), (n, n)])
    gq, gr = _unpack(g, [(m, n), (n, n)])
    qdq = L.matmul(_mT(q), gq)
    rdr = L.matmul(r, _mT(gr))
    low = A.tril(qdq - _mT(qdq) + rdr - _mT(rdr))

    def times_r_inv_t(y):
        return _mT(L.solve(r, _mT(y)))
    return (L.matmul(q, gr + times_r_inv_t(low))
            + times_r_inv_t(gq - L.matmul(q, qdq)))


def _solve_triangular_a(g, ans, a, b, lower):
    gb = _solve_triangular_b(g, ans, a, b, lower)
    full = -L.matmul(gb, _mT(ans))
    return A.tril(full) if lower else A.triu(full)


def _solve_triangular_b(g, ans, a, b, lower):
    from pycg.ops.decompositions import solve_triangular
    return solve_triangular(_mT(a), g, lower=not lower)


def _transform_size(z, axes):
    return int(np.prod([z.shape[a] for a in axes]))


defvjp("svd_packed", _svd)
defvjp("_svdvals", lambda g, ans, x: _svdvals(g, x))
defvjp("eigh_packed", _eigh)
defvjp("qr_packed", _qr)
defvjp("solve_triangular", _solve_triangular_a, _solve_triangular_b)
# the DFT matrix is symmetric: each transform's adjoint is the other, scaled
defvjp("_fft", lambda g, ans, z, axes: F._transform("_ifft", g, len(axes))
       * float(_transform_size(z, axes)))
defvjp("_ifft", lambda g, ans, z, axes: F._transform("_fft", g, len(axes))
       * (1.0 / _transform_size(z, axes)))
