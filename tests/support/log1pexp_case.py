"""log(1 + exp(x)) with the custom gradient of the README and TensorFlow's
custom_gradient guide, shared by the tests (and bench/bench_pycg_r.py) that
need a custom op: `log1pexp` in Python, `R_LOG1PEXP` the same rule in R
(keras3's example, through `op_custom_gradient`) for `pycg.r.function`;
and `triple_gradient`, the identity whose rule triples the gradient (the
bridges' tests)."""
import pycg
from pycg import ops


@pycg.custom_gradient
def log1pexp(x):
    e = ops.exp(x)

    def grad(upstream):
        return upstream * (1 - 1 / (1 + e))
    return ops.log(1 + e), grad


@pycg.custom_gradient
def triple_gradient(x):
    """The identity, whose rule triples the gradient."""
    return x + 0.0, lambda upstream: 3 * upstream


R_LOG1PEXP = """
op_custom_gradient(function(x) {
  e <- op_exp(x)
  grad <- function(..., upstream = NULL) {
    upstream <- upstream %||% ..1
    op_multiply(upstream, 1.0 - 1.0 / op_add(1, e))
  }
  tuple(op_log(1 + e), grad)
})"""
