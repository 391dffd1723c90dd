"""VJPs on backend values (see pycg.core.recorder.register_array_ops):
for some unary rules, the same gradient without Tensors, used by the
backward loop while nothing records."""
from pycg import backends
from pycg.backends import FLOAT_DTYPES
from pycg.ops.rules.elementwise import reached as _reached_rule
from pycg.tensor import Tensor


# Each is its rule in pycg.ops.rules with the kernel that rule's op runs, in
# the same order (so the same bits); None where the value is not the active
# backend's (a tape recorded before a backend switch: the rule converts).
def _tanh_vjp(g, ans, x):
    K = backends.active
    return K.tanh_grad(ans, g) if type(ans) in K.types else None


def _sigmoid_vjp(g, ans, x):
    K = backends.active
    return K.sigmoid_grad(ans, g) if type(ans) in K.types else None


def _exp_vjp(g, ans, x):
    K = backends.active    # (complex: the rule conjugates)
    return K.multiply(g, ans) if type(ans) in K.types and \
        ans.dtype in FLOAT_DTYPES else None


def _relu_vjp(g, ans, x):
    K = backends.active
    return K.relu_grad(g, x) if type(x) in K.types else None


DIRECT_VJPS = {"tanh": _tanh_vjp, "sigmoid": _sigmoid_vjp, "exp": _exp_vjp,
               "relu": _relu_vjp}


def reached(g, ans, gx):
    """rules.elementwise.reached (strong zeros) on the backend's values, for
    the backward loop while nothing records."""
    K = backends.active
    gv, av, v = g._value, ans._value, gx._value
    if type(gv) in K.types and type(av) in K.types and type(v) in K.types:
        dead = K.logical_and(K.equal(gv, K.scalar_like(0, gv)), K.isnan(av))
        return Tensor(K.where(dead, K.scalar_like(0, v), v))
    return _reached_rule(g, ans, gx)
