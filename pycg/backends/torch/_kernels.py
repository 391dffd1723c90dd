"""The kernels of the topic files (numpy, math, nn, linalg, _edges) as the
torch package exports them: each run again where torch refuses its
operands (_fallbacks.py). Each kernel is defined, under its name, in its
topic file; here it is only wrapped."""
from pycg.backends.torch import _edges, _fallbacks
from pycg.backends.torch import linalg as _linalg
from pycg.backends.torch import math as _math
from pycg.backends.torch import nn as _nn
from pycg.backends.torch import numpy as _numpy

# The topic files' kernels as the package exports them. Unary float kernels
# on the hot path stay as they are (the ops give them one float operand),
# the hot kernels of two operands get a wrapper of fixed arity, the others
# through(). The package's `from _kernels import *` asks __getattr__ for
# each name of __all__, so each wrapped kernel is bound there by that import.
_AS_THEY_ARE = frozenset(("exp", "log", "tanh", "sigmoid", "sqrt"))
_BINARY = frozenset(("add", "subtract", "multiply", "divide", "tanh_grad",
                     "sigmoid_grad", "relu_grad", "sqrt_grad", "rsqrt_grad",
                     "reciprocal_grad"))
_TOPICS = (_numpy, _math, _nn, _linalg, _edges)
__all__ = tuple(dict.fromkeys(k for t in _TOPICS for k in t.__all__))


def _wrapped(k, v):
    if k in _AS_THEY_ARE or not callable(v):
        return v
    return (_fallbacks.binary if k in _BINARY else _fallbacks.through)(k, v)


def __getattr__(name):
    for topic in reversed(_TOPICS):   # (the last file that binds it)
        if name in topic.__all__:
            return _wrapped(name, getattr(topic, name))
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
