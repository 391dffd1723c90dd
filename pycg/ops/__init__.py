"""pycg.ops: differentiable array ops with keras.ops names and signatures.

>>> from pycg import ops
>>> float(ops.logsumexp(ops.convert_to_tensor([0.0, 0.0])))  # log 2
0.6931471...
"""
from pycg import core as _core
from pycg import core_gc as _core_gc
from pycg.custom_gradient import custom_gradient
from pycg.ops import vjps as _vjps
from pycg.ops import _dispatch
from pycg.ops._dispatch import cast
from pycg.ops.creation import (arange, convert_to_numpy,
                               convert_to_tensor, eye, full, full_like,
                               linspace, ones,
                               ones_like, shape, stop_gradient, zeros,
                               zeros_like, _one_hot_flat)
from pycg.ops.elementwise import (abs, add, arccos, arcsin, arctan, arctan2,
                                  ceil, clip, cos, cosh, divide, equal, erf,
                                  floor_divide, mod,
                                  exp, expm1, floor, greater, greater_equal,
                                  isfinite, isnan, less, less_equal, log,
                                  log10, log1p, log2, logaddexp, logical_and,
                                  logical_not, logical_or, maximum, minimum,
                                  multiply, negative, not_equal, power,
                                  reciprocal, round, rsqrt, sign, sin, sinh,
                                  sqrt, square, subtract, tan, tanh,
                                  true_divide, where)
from pycg.ops.linalg import (cholesky, det, dot, einsum, inv, matmul, norm,
                             outer, slogdet, solve, tensordot)
from pycg.ops.nn import (elu, gelu, log_softmax, logsumexp, relu, sigmoid,
                         silu, softmax, softplus)
from pycg.ops.reduction import (argmax, argmin, cumsum, max, mean, min, prod,
                                std, sum, var)
from pycg.ops.manipulation import (broadcast_to, concatenate, expand_dims, flip,
                            getitem, pad, ravel, repeat, reshape, slice,
                            split, squeeze, stack, swapaxes, take,
                            take_along_axis, tile, transpose)
from pycg.ops._operators import install as _install_operators

_core.register_array_ops(ones_like, zeros_like, _vjps.unbroadcast,
                         _dispatch.DIRECT_VJPS)
_core.on_recording.append(_core_gc.recording)
_install_operators()

# the array ops; custom_gradient is here too, as in keras.ops, but is not one
__all__ = sorted(n for n, v in list(globals().items())
                 if not n.startswith("_") and callable(v)
                 and v is not custom_gradient)

