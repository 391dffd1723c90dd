"""pycg.ops docstrings: linear algebra (pycg/ops/linalg.py,
pycg/ops/decompositions.py)."""
from pycg.ops._docs.elementwise import _ex
from pycg.ops._docs.glossary import Doc

MATRIX = ("The matrix (or a batch of matrices in the last two axes): a "
          "Tensor, or anything ops.convert_to_tensor takes.")
SQUARE = "A tensor of x's shape and dtype."
BATCH = "A tensor of x's batch shape (the last two axes reduced)."
PRODUCT = "A tensor in the promoted dtype of x1 and x2 (shape below)."

DOCS = {
    "matmul": Doc(PRODUCT + " int8 operands give int32, as Keras.",
                  example=_ex("ops.matmul([[1.0, 2.0]], [[3.0], [4.0]])"
                              ".numpy().tolist()", "[[11.0]]")),
    "dot": Doc(PRODUCT),
    "tensordot": Doc(PRODUCT, axes="An int N (the last N axes of x1 with "
                     "the first N of x2) or a pair of axis lists."),
    "inner": Doc(PRODUCT),
    "outer": Doc("A 2-d tensor (x1.size, x2.size) in the promoted dtype."),
    "vdot": Doc("A 0-d tensor in the promoted dtype (x1 conjugated when "
                "complex)."),
    "kron": Doc(PRODUCT),
    "cross": Doc(PRODUCT, axisa="The axis of x1 holding the vectors.",
                 axisb="The axis of x2 holding the vectors.",
                 axisc="The axis of the result holding the vectors.",
                 axis="If given, overrides axisa, axisb and axisc."),
    "einsum": Doc("A tensor in the operands' promoted dtype, of the shape "
                  "the output subscripts name.",
                  subscripts="The subscripts, as np.einsum ('ij,jk->ik').",
                  operands="The tensors, one per comma-separated term.",
                  example=_ex("ops.einsum('ij->j', [[1.0, 2.0], [3.0, 4.0]])"
                              ".numpy().tolist()", "[4.0, 6.0]")),
    "det": Doc(BATCH, x=MATRIX),
    "inv": Doc(SQUARE, x=MATRIX),
    "slogdet": Doc("A pair (sign, logabsdet), each of x's batch shape.",
                   x=MATRIX),
    "logdet": Doc(BATCH, x=MATRIX),
    "solve": Doc("A tensor of b's shape: the solution x.",
                 a="The square matrix (or batch)."),
    "solve_triangular": Doc("A tensor of b's shape: the solution x.",
                            a="The triangular matrix (or batch)."),
    "lstsq": Doc("A tensor (n, k) (or (n,) for 1-d b): the solution.",
                 a="The (m, n) matrix.", b="The right-hand side, (m,) or "
                 "(m, k)."),
    "cholesky": Doc(SQUARE, x="The symmetric positive-definite matrix (or "
                    "batch)."),
    "cholesky_inverse": Doc(SQUARE, x="The triangular Cholesky factor (or "
                            "batch)."),
    "eig": Doc("A pair (w, v): complex eigenvalues (..., n) and eigenvectors "
               "(..., n, n) in columns.", x=MATRIX),
    "eigh": Doc("A pair (w, v): eigenvalues (..., n), eigenvectors "
                "(..., n, n) in columns.", x=MATRIX),
    "qr": Doc("A pair (q, r) ('reduced': q (m, k), r (k, n) with k = min(m, "
              "n); 'complete': q (m, m), r (m, n)).", x=MATRIX,
              mode="'reduced' or 'complete'."),
    "svd": Doc("A tuple (u, s, vh), or s alone when not compute_uv; s "
               "descending.", x=MATRIX,
               full_matrices="u and vh square (else reduced to min(m, n)).",
               compute_uv="Return u and vh too (else s alone)."),
    "lu_factor": Doc("A pair (lu, pivots): the packed factors (x's shape) "
                     "and int32 pivots.", x=MATRIX),
    "pinv": Doc("A tensor (..., n, m): the pseudo-inverse.", x=MATRIX),
    "matrix_rank": Doc("An int32 tensor of x's batch shape.", x=MATRIX,
                       tol="The threshold (None: see the summary)."),
    "norm": Doc("A real float tensor: x's shape without the reduced axes "
                "(kept as length 1 with keepdims).",
                ord="The norm's order (see the summary; None: 2-norm / "
                "Frobenius).",
                differs="The norm of a complex x is real, as NumPy; a "
                "bfloat16 x answers in bfloat16 (Keras cannot read its own "
                "result back); ord=2, -2 or 'nuc' with keepdims and the two "
                "axes in descending order keeps them as NumPy (Keras "
                "fails). Their gradient is TensorFlow's: u @ diag(g) @ vh, "
                "finite where singular values repeat or vanish."),
    "cdist": Doc("A tensor (rows of x, rows of y) of distances.",
                 x="The first set of points, (m, d).",
                 y="The second set of points, (n, d)."),
}
