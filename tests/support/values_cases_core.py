"""Forward-value cases of the core ops against NumPy (name -> (pycg thunk,
NumPy thunk); thunks so tensors are made under the backend of the test),
merged with every other tests/support/values_cases_*.py into the table of
tests/support/values_suite.py; each runs in tests/ops/test_<topic>.py."""
import math

import numpy as np

import pycg
from pycg import ops

RNG = np.random.default_rng(0)
X = RNG.standard_normal((2, 3))
Y = RNG.standard_normal((3,))
P = RNG.uniform(0.5, 2.0, (2, 3))
U = RNG.uniform(-0.9, 0.9, (2, 3))
STEPS = np.array([[-2.5, -1.5, -0.6], [0.5, 1.4, 2.5]])
M = RNG.standard_normal((3, 3)) + 3 * np.eye(3)
SPD = M @ M.T
B = RNG.standard_normal((3, 2))
COND = X > 0
_erf = np.vectorize(math.erf)


def t(a):
    return pycg.constant(a)


def unary(name, ref, a=X):
    return (lambda: getattr(ops, name)(t(a)), lambda: ref(a))


def binary(name, ref, a=X, b=Y):
    return (lambda: getattr(ops, name)(t(a), t(b)), lambda: ref(a, b))


def np_sigmoid(x):
    return 1 / (1 + np.exp(-x))


def np_softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def np_logsumexp(x, axis=None):
    return np.log(np.sum(np.exp(x), axis=axis))


def np_gelu_tanh(x):
    return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi)
                                  * (x + 0.044715 * x ** 3)))


# name -> (pycg thunk, NumPy thunk); thunks so tensors are made under the
# backend of the test.
VALUES = {
    "abs": unary("abs", np.abs),
    "negative": unary("negative", np.negative),
    "sqrt": unary("sqrt", np.sqrt, P),
    "rsqrt": unary("rsqrt", lambda a: 1 / np.sqrt(a), P),
    "square": unary("square", np.square),
    "reciprocal": unary("reciprocal", np.reciprocal, P),
    "exp": unary("exp", np.exp),
    "expm1": unary("expm1", np.expm1),
    "log": unary("log", np.log, P),
    "log1p": unary("log1p", np.log1p, P),
    "log2": unary("log2", np.log2, P),
    "log10": unary("log10", np.log10, P),
    "sin": unary("sin", np.sin),
    "cos": unary("cos", np.cos),
    "tan": unary("tan", np.tan, U),
    "arcsin": unary("arcsin", np.arcsin, U),
    "arccos": unary("arccos", np.arccos, U),
    "arctan": unary("arctan", np.arctan),
    "sinh": unary("sinh", np.sinh),
    "cosh": unary("cosh", np.cosh),
    "tanh": unary("tanh", np.tanh),
    "erf": unary("erf", _erf),
    "sigmoid": unary("sigmoid", np_sigmoid),
    "softplus": unary("softplus", lambda a: np.log1p(np.exp(a))),
    "relu": unary("relu", lambda a: np.maximum(a, 0)),
    "silu": unary("silu", lambda a: a * np_sigmoid(a)),
    "gelu": unary("gelu", np_gelu_tanh),
    "elu": unary("elu", lambda a: np.where(a > 0, a, np.expm1(a))),
    "softmax": unary("softmax", np_softmax),
    "log_softmax": unary("log_softmax", lambda a: np.log(np_softmax(a))),
    "logsumexp": unary("logsumexp", np_logsumexp),
    "sign": unary("sign", np.sign, STEPS),
    "floor": unary("floor", np.floor, STEPS),
    "ceil": unary("ceil", np.ceil, STEPS),
    "round": unary("round", np.round, STEPS),
    "isnan": unary("isnan", np.isnan, np.array([1.0, np.nan, np.inf])),
    "isfinite": unary("isfinite", np.isfinite,
                      np.array([1.0, np.nan, -np.inf])),
    "logical_not": unary("logical_not", np.logical_not, COND),
    "add": binary("add", np.add),
    "subtract": binary("subtract", np.subtract),
    "multiply": binary("multiply", np.multiply),
    "divide": binary("divide", np.divide, b=P[0]),
    "true_divide": binary("true_divide", np.true_divide, b=P[0]),
    "power": binary("power", np.power, P, Y),
    "mod": binary("mod", np.mod, b=P[0]),
    "floor_divide": binary("floor_divide", np.floor_divide, b=P[0]),
    "maximum": binary("maximum", np.maximum),
    "minimum": binary("minimum", np.minimum),
    "arctan2": binary("arctan2", np.arctan2),
    "logaddexp": binary("logaddexp", np.logaddexp),
    "equal": binary("equal", np.equal, STEPS, np.array([-2.5, 0.0, -0.6])),
    "not_equal": binary("not_equal", np.not_equal, STEPS,
                        np.array([-2.5, 0.0, -0.6])),
    "less": binary("less", np.less),
    "less_equal": binary("less_equal", np.less_equal, STEPS, STEPS[0]),
    "greater": binary("greater", np.greater),
    "greater_equal": binary("greater_equal", np.greater_equal, STEPS,
                            STEPS[1]),
    "logical_and": binary("logical_and", np.logical_and, COND, COND[::-1]),
    "logical_or": binary("logical_or", np.logical_or, COND, COND[::-1]),
    "clip": (lambda: ops.clip(t(X), -0.5, 0.5), lambda: np.clip(X, -0.5, 0.5)),
    "where": (lambda: ops.where(t(COND), t(X), t(Y)),
              lambda: np.where(COND, X, Y)),
    "sum": (lambda: ops.sum(t(X), axis=1), lambda: np.sum(X, axis=1)),
    "mean": (lambda: ops.mean(t(X), axis=0, keepdims=True),
             lambda: np.mean(X, axis=0, keepdims=True)),
    "prod": (lambda: ops.prod(t(X)), lambda: np.prod(X)),
    "max": (lambda: ops.max(t(X), axis=-1), lambda: np.max(X, axis=-1)),
    "min": (lambda: ops.min(t(X)), lambda: np.min(X)),
    "var": (lambda: ops.var(t(X), axis=1), lambda: np.var(X, axis=1)),
    "std": (lambda: ops.std(t(X)), lambda: np.std(X)),
    "cumsum": (lambda: ops.cumsum(t(X), axis=1),
               lambda: np.cumsum(X, axis=1)),
    "argmax": (lambda: ops.argmax(t(X), axis=1),
               lambda: np.argmax(X, axis=1)),
    "argmin": (lambda: ops.argmin(t(X)), lambda: np.argmin(X)),
    "real": unary("real", np.real),
    "imag": unary("imag", np.imag),
    "conj": unary("conj", np.conj),
    "reshape": (lambda: ops.reshape(t(X), (3, -1)),
                lambda: np.reshape(X, (3, -1))),
    "ravel": unary("ravel", np.ravel),
    "transpose": unary("transpose", np.transpose),
    "swapaxes": (lambda: ops.swapaxes(t(X), 0, 1),
                 lambda: np.swapaxes(X, 0, 1)),
    "expand_dims": (lambda: ops.expand_dims(t(X), -1),
                    lambda: np.expand_dims(X, -1)),
    "squeeze": (lambda: ops.squeeze(t(X[:1])), lambda: np.squeeze(X[:1])),
    "broadcast_to": (lambda: ops.broadcast_to(t(Y), (2, 3)),
                     lambda: np.broadcast_to(Y, (2, 3))),
    "concatenate": (lambda: ops.concatenate([t(X), t(X[:1])], axis=0),
                    lambda: np.concatenate([X, X[:1]], axis=0)),
    "stack": (lambda: ops.stack([t(X), t(P)], axis=-1),
              lambda: np.stack([X, P], axis=-1)),
    "split": (lambda: ops.split(t(X), [1, 2], axis=1),
              lambda: np.split(X, [1, 2], axis=1)),
    "tile": (lambda: ops.tile(t(X), (2, 2)), lambda: np.tile(X, (2, 2))),
    "repeat": (lambda: ops.repeat(t(X), [1, 3], axis=0),
               lambda: np.repeat(X, [1, 3], axis=0)),
    "take": (lambda: ops.take(t(X), [[2, 0]], axis=1),
             lambda: np.take(X, [[2, 0]], axis=1)),
    "take_along_axis": (
        lambda: ops.take_along_axis(t(X), np.array([[2], [0]]), axis=1),
        lambda: np.take_along_axis(X, np.array([[2], [0]]), axis=1)),
    "slice": (lambda: ops.slice(t(X), (0, 1), (2, 2)), lambda: X[0:2, 1:3]),
    "flip": (lambda: ops.flip(t(X), axis=0), lambda: np.flip(X, axis=0)),
    "pad": (lambda: ops.pad(t(X), ((0, 1), (2, 0)), constant_values=3.0),
            lambda: np.pad(X, ((0, 1), (2, 0)), constant_values=3.0)),
    "getitem": (lambda: t(X)[::-1, [0, 2, 2]], lambda: X[::-1, [0, 2, 2]]),
    "matmul": binary("matmul", np.matmul, X, B),
    "dot": binary("dot", np.dot, X, Y),
    "tensordot": (lambda: ops.tensordot(t(X), t(B), axes=1),
                  lambda: np.tensordot(X, B, axes=1)),
    "einsum": (lambda: ops.einsum("ij,jk->ki", t(X), t(B)),
               lambda: np.einsum("ij,jk->ki", X, B)),
    "outer": binary("outer", np.outer, Y, Y[:2]),
    "norm": (lambda: ops.norm(t(X), ord=np.inf),
             lambda: np.linalg.norm(X, ord=np.inf)),
    "cholesky": unary("cholesky", np.linalg.cholesky, SPD),
    "inv": unary("inv", np.linalg.inv, M),
    "det": unary("det", np.linalg.det, M),
    "solve": binary("solve", np.linalg.solve, M, B),
    "slogdet": unary("slogdet", lambda a: tuple(np.linalg.slogdet(a)), -M),
    "cast": (lambda: ops.cast(t(STEPS), "int32"),
             lambda: STEPS.astype(np.int32)),
    "convert_to_tensor": (lambda: ops.convert_to_tensor([[1, 2], [3, 4]]),
                          lambda: np.array([[1, 2], [3, 4]])),
    "convert_to_numpy": unary("convert_to_numpy", np.asarray),
    "shape": (lambda: ops.shape(t(X)), lambda: X.shape),
    "stop_gradient": unary("stop_gradient", np.asarray),
    "zeros": (lambda: ops.zeros((2, 1)), lambda: np.zeros((2, 1))),
    "ones": (lambda: ops.ones(3, dtype="int32"), lambda: np.ones(3)),
    "full": (lambda: ops.full((2, 2), 7.5), lambda: np.full((2, 2), 7.5)),
    "zeros_like": unary("zeros_like", np.zeros_like),
    "ones_like": unary("ones_like", np.ones_like),
    "full_like": (lambda: ops.full_like(t(X), -1.0),
                  lambda: np.full_like(X, -1.0)),
    "eye": (lambda: ops.eye(3, 4, k=1), lambda: np.eye(3, 4, k=1)),
    "arange": (lambda: ops.arange(1, 10, 3), lambda: np.arange(1, 10, 3)),
    "linspace": (lambda: ops.linspace(0, 1, 5), lambda: np.linspace(0, 1, 5)),
}
