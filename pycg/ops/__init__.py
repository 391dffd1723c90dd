"""pycg.ops: differentiable array ops with keras.ops names and signatures.

>>> from pycg import ops
>>> float(ops.logsumexp(ops.convert_to_tensor([0.0, 0.0])))  # log 2
0.6931471...
"""
from pycg import backends as _backends
from pycg.core import recorder as _core
from pycg.core import gc_policy as _core_gc
from pycg.custom.decorator import custom_gradient
from pycg.ops._machinery.dispatch import cast, register_stack as _register_stack
from pycg.ops.creation import (arange, convert_to_numpy,
                               convert_to_tensor, eye, full, full_like,
                               linspace, ones,
                               ones_like, shape, stop_gradient, zeros,
                               zeros_like, _one_hot_flat)
from pycg.ops.elementwise import (abs, add, arccos, arcsin, arctan, arctan2,
                                  ceil, clip, conj, cos, cosh, divide, equal, erf,
                                  floor_divide, mod,
                                  exp, expm1, floor, greater, greater_equal,
                                  imag, real,
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
                            getitem, pad, ravel, reshape, slice,
                            squeeze, stack, swapaxes, take,
                            take_along_axis, transpose, _copy)
from pycg.ops.tiling import repeat, tile
# ---- NumPy-namespace, math and linalg ops ----
from pycg.ops.arrays import (append, array_split, diag, diagflat, diagonal,
                             dsplit, dstack, fliplr, flipud, get_item, hsplit,
                             hstack, moveaxis, roll, rot90, select, split,
                             trace,
                             tril, triu, unstack, vsplit, vstack)
from pycg.ops.constructors import (array, bartlett, blackman, empty,
                                   empty_like, geomspace, hamming, hanning,
                                   identity, kaiser, logspace, meshgrid, tri,
                                   unravel_index, vander)
from pycg.ops.decompositions import (cdist, cholesky_inverse, cross, eig,
                                     eigh, inner, kron, logdet, lstsq,
                                     lu_factor, matrix_rank, pinv, qr,
                                     solve_triangular, svd, vdot)
from pycg.ops.einops import rearrange
from pycg.ops.logic import (all, allclose, any, bitwise_and, bitwise_invert,
                            bitwise_left_shift, bitwise_not, bitwise_or,
                            bitwise_right_shift, bitwise_xor, count_nonzero,
                            dtype, gcd, is_tensor, isclose, isin, isinf,
                            isneginf, isposinf, isreal, lcm, left_shift,
                            logical_xor, ndim, nextafter, nonzero,
                            right_shift, signbit, size, view)
from pycg.ops.numeric import (absolute, angle, arccosh, arcsinh, arctanh,
                              cbrt, conjugate, copy, deg2rad,
                              divide_no_nan, erfc, erfinv, exp2, fabs, fmax,
                              fmin, fmod, heaviside, hypot, i0, ldexp,
                              logaddexp2, nan_to_num, rad2deg, sinc,
                              trunc)
from pycg.ops.sorting import (argpartition, argsort, in_top_k, median,
                              nanmedian, nanpercentile, nanquantile,
                              percentile, quantile, sort, top_k)
from pycg.ops.searching import (bincount, digitize, histogram, searchsorted,
                                unique)
from pycg.ops.special import (beta, choose, digamma, gamma, lbeta, lchoose,
                              lgamma, polygamma)
from pycg.ops.spectral import (extract_sequences, fft, fft2, ifft2,
                               irfft, istft, rfft, stft, view_as_complex,
                               view_as_real)
from pycg.ops.statistics import (amax, amin, average, corrcoef, correlate,
                                 cumprod, diff, nanargmax, nanargmin,
                                 nancumprod, nancumsum, nanmax, nanmean,
                                 nanmin, nanprod, nanstd, nansum, nanvar, ptp,
                                 trapezoid)
from pycg.ops.transforms import jvp, vectorize
from pycg.ops.updates import (saturate_cast, scatter, scatter_update,
                              segment_max, segment_min, segment_prod,
                              segment_sum, slice_update)
# ---- keras.ops nn and core ops ----
from pycg.ops.activations import (celu, glu, hard_shrink, hard_sigmoid,
                                  hard_silu, hard_swish, hard_tanh,
                                  leaky_relu, log_sigmoid, relu6, selu,
                                  soft_shrink, softsign, sparse_plus,
                                  sparse_sigmoid, sparsemax, squareplus,
                                  swish, tanh_shrink, threshold)
from pycg.ops.attention import dot_product_attention
from pycg.ops.control_flow import (associative_scan, cond, fori_loop, map,
                                   scan, switch, vectorized_map, while_loop)
from pycg.ops.convolution import (conv, conv_transpose, depthwise_conv,
                                  separable_conv)
from pycg.ops.ctc import ctc_decode, ctc_loss
from pycg.ops.losses import (binary_crossentropy, categorical_crossentropy,
                             multi_hot, one_hot, psnr,
                             sparse_categorical_crossentropy)
from pycg.ops.normalization import (batch_normalization, layer_normalization,
                                    moments, normalize, rms_normalization)
from pycg.ops.pooling import average_pool, max_pool
from pycg.ops.spatial import (adaptive_average_pool, adaptive_max_pool,
                              depth_to_space, fold, space_to_depth, unfold)
from pycg.ops._machinery.operators import install as _install_operators
from pycg.ops._machinery.named import naming_errors as _naming_errors
from pycg.ops._machinery.named import wraps_errors as _wraps_errors
from pycg.ops import _docs
from pycg.ops import rules as _rules
from pycg.ops.rules import direct as _direct, manipulation as _shape_rules

_core.register_array_ops(ones_like, zeros_like, _shape_rules.unbroadcast,
                         _direct.DIRECT_VJPS,
                         _backends.load("numpy").float_types)
_core.on_recording.append(_core_gc.recording)
_register_stack(stack)
_install_operators()

# the array ops; custom_gradient is here too, as in keras.ops, but is not one
__all__ = sorted(n for n, v in list(globals().items())
                 if not n.startswith("_") and callable(v)
                 and v is not custom_gradient)
globals().update({n: _naming_errors(n, globals()[n]) for n in __all__
                  if _wraps_errors(globals()[n])})
_docs.attach(globals(), __all__)

