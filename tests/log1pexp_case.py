"""log(1 + exp(x)) with the custom gradient of the README and TensorFlow's
custom_gradient guide, shared by the tests that need a custom op."""
import pycg
from pycg import ops


@pycg.custom_gradient
def log1pexp(x):
    e = ops.exp(x)

    def grad(upstream):
        return upstream * (1 - 1 / (1 + e))
    return ops.log(1 + e), grad
