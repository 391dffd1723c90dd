"""pycg: custom gradients in every published convention, with a tape-based
autodiff (reverse and forward mode) on the kernels of its backends (`numpy`,
`tensorflow`, `jax` and `torch`).

help(pycg.custom_gradient) shows the calling conventions it accepts;
help(pycg.conventions), those and the choices pycg makes where TensorFlow,
Keras, JAX, NumPy and R differ; help(pycg.ops.<name>) an op's arguments,
result and differences.
"""
# Nothing of this import comes from the working directory (pycg/_imports.py)
from pycg import _imports
from pycg import backends as _backends
from pycg import config, conventions, debug, ops
from pycg.check import check_gradients
from pycg.custom.decorator import custom_gradient
from pycg.api.custom_jvp import custom_jvp
from pycg.api.forward import jacfwd, jvp
from pycg.api.functional import (grad, hessian, jacobian, jacrev,
                                 value_and_grad, vjp)
from pycg.ops import stop_gradient
from pycg.custom.signature import with_signature
from pycg.api.tape import GradientTape
from pycg.tensor import Tensor, Variable, constant, convert_to_tensor
from pycg import optimize, optimizers, random
from pycg.saving import load_variables, save_variables
from pycg.interop.tensorflow import to_tensorflow
from pycg.interop.jax import to_jax
from pycg.interop.torch import to_torch
from pycg.interop.keras import to_keras

_backends.set_default_backend()

__version__ = "0.9.0"

# TensorFlow's dtype names, usable wherever pycg takes a dtype (`bool` stays
# out of __all__, so that `from pycg import *` keeps Python's bool).
_DTYPES = ("bfloat16", "float16", "float32", "float64", "complex64",
          "complex128", "int8", "int16", "int32", "int64", "uint8", "uint16",
          "uint32", "uint64", "bool")
(bfloat16, float16, float32, float64, complex64, complex128, int8, int16,
 int32, int64, uint8, uint16, uint32, uint64, bool) = _DTYPES

__all__ = [
    "GradientTape", "Tensor", "Variable", "check_gradients", "config",
    "constant", "conventions", "convert_to_tensor", "custom_gradient",
    "custom_jvp",
    "debug", "function",
    "grad", "hessian", "jacfwd", "jacobian", "jacrev", "jvp", "load_variables",
    "ops", "optimize", "optimizers", "random", "save_variables",
    "stop_gradient", "to_jax", "to_keras", "to_tensorflow", "to_torch",
    "value_and_grad",
    "vjp",
    "with_signature", "__version__",
    *(_name for _name in _DTYPES if _name != "bool")]


def __getattr__(name):
    if name == "r":
        return _imports.import_module("pycg.r")
    if name == "function":   # (kept once loaded, so pdoc finds it too)
        global function
        from pycg.compile import function
        return function
    where = (f"; the ops live in pycg.ops: use pycg.ops.{name}"
             if name in ops.__all__ else "")
    raise AttributeError(f"module 'pycg' has no attribute {name!r}{where}")


def __dir__():
    # the public names, not the internal modules imported along the way
    return sorted(set(__all__) | {"bool", "r"} |
                  {n for n in globals() if n.startswith("__")})
