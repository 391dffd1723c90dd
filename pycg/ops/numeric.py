"""More elementwise maths (keras.ops numpy/math names): inverse hyperbolic
functions, rounding, float-aware min/max, NaN handling and complex parts.
Most are compositions of differentiable ops; the rest have rules in
rules/numeric.py."""
import math

from pycg import backends
from pycg.ops._machinery.dispatch import (apply, apply_nograd, as_tensor, made_by,
                                          promote, unary)
from pycg.ops._machinery.floats import as_float
from pycg.ops.creation import cast, zeros_like
from pycg.ops.elementwise import (abs, conj, cos, equal, greater, isnan, less,
                                  logaddexp, logical_and,
                                  maximum, minimum, mod, multiply, not_equal,
                                  power,
                                  sin, sqrt, where)
from pycg.ops.manipulation import stack
from pycg.tensor import Tensor, is_float

__all__ = ("absolute", "angle", "arccosh", "arcsinh", "arctanh", "cbrt",
           "conjugate", "copy", "deg2rad", "divide_no_nan", "erfc", "erfinv",
           "exp2", "fabs", "fmax", "fmin", "fmod", "heaviside", "hypot", "i0",
           "ldexp", "logaddexp2", "nan_to_num", "polar", "rad2deg", "sinc", "trunc")


@made_by(unary, float_only=True)
def arccosh(x):
    """Elementwise inverse hyperbolic cosine (NaN below 1 for a real x).

    Returns:
        A tensor of x's shape: x's dtype for a float or complex x, floatx
        (pycg.config.floatx()) for an integer or bool x.
    """


@made_by(unary, float_only=True)
def arcsinh(x):
    """Elementwise inverse hyperbolic sine.

    Returns:
        A tensor of x's shape: x's dtype for a float or complex x, floatx
        (pycg.config.floatx()) for an integer or bool x.
    """


@made_by(unary, float_only=True)
def arctanh(x):
    """Elementwise inverse hyperbolic tangent (+-inf at +-1).

    Returns:
        A tensor of x's shape: x's dtype for a float or complex x, floatx
        (pycg.config.floatx()) for an integer or bool x.
    """


@made_by(unary, float_only=True)
def cbrt(x):
    """Elementwise real cube root (negative for negative x).

    Returns:
        A tensor of x's shape: x's dtype for a float or complex x, floatx
        (pycg.config.floatx()) for an integer or bool x.

    Differs:
        Its gradient at 0 is inf, the derivative's limit (Keras' formula gives
        NaN); a complex x is refused by name.

    Example:
        >>> from pycg import ops
        >>> ops.cbrt([-8.0, 27.0]).numpy().tolist()
        [-2.0, 3.0]
    """


@made_by(unary, float_only=True)
def exp2(x):
    """Elementwise 2 ** x.

    Returns:
        A tensor of x's shape: x's dtype for a float or complex x, floatx
        (pycg.config.floatx()) for an integer or bool x.
    """


@made_by(unary, float_only=True)
def erfc(x):
    """Elementwise complementary error function 1 - erf(x), accurate for large x.

    Returns:
        A tensor of x's shape: x's dtype for a float or complex x, floatx
        (pycg.config.floatx()) for an integer or bool x.
    """


@made_by(unary, float_only=True, real=True)
def erfinv(x):
    """Elementwise inverse error function (+-inf at +-1, NaN outside [-1, 1]);
    real x only.

    Returns:
        A tensor of x's shape: x's dtype for a float or complex x, floatx
        (pycg.config.floatx()) for an integer or bool x.
    """


@made_by(unary, real=True)
def trunc(x):
    """Round towards zero; its gradient is zero.

    Returns:
        A tensor of x's shape and dtype.

    Example:
        >>> from pycg import ops
        >>> ops.trunc([-1.7, 1.7]).numpy().tolist()
        [-1.0, 1.0]
    """


absolute = abs


def fabs(x):
    """|x| as a float (real x only, as NumPy's fabs).

    Returns:
        A tensor of x's shape: x's dtype for a float or complex x, floatx
        (pycg.config.floatx()) for an integer or bool x.
    """
    return abs(as_float(x, "fabs", complex_ok=False))


@made_by(unary, float_only=True)
def i0(x):
    """The modified Bessel function of order 0, differentiable.

    Returns:
        A tensor of x's shape: x's dtype for a float or complex x, floatx
        (pycg.config.floatx()) for an integer or bool x.

    Differs:
        A complex x is refused by name (Keras goes through TensorFlow's real
        kernel).
    """


_i1 = unary("_i1", "i1", float_only=True,
            doc="The modified Bessel function of order 1 (i0's gradient).")


def deg2rad(x):
    """Elementwise degrees to radians: x * pi / 180.

    Returns:
        A tensor of x's shape: x's dtype for a float or complex x, floatx
        (pycg.config.floatx()) for an integer or bool x.
    """
    return as_float(x, "deg2rad") * (math.pi / 180)


def rad2deg(x):
    """Elementwise radians to degrees: x * 180 / pi.

    Returns:
        A tensor of x's shape: x's dtype for a float or complex x, floatx
        (pycg.config.floatx()) for an integer or bool x.
    """
    return as_float(x, "rad2deg") * (180 / math.pi)


def sinc(x):
    """sin(pi x) / (pi x), and 1 at 0.

    Returns:
        A tensor of x's shape: x's dtype for a float or complex x, floatx
        (pycg.config.floatx()) for an integer or bool x.

    Differs:
        Its gradient at 0 is 0, the derivative (Keras' formula gives NaN there).
    """
    x = as_float(x, "sinc")
    zero = equal(x, 0)
    safe = where(zero, 1.0, x) * math.pi
    return where(zero, 1.0, sin(safe) / safe)


def hypot(x1, x2):
    """sqrt(x1**2 + x2**2).

    Returns:
        A tensor of the broadcast shape of x1 and x2, in their promoted float
        dtype (floatx when both are integer or bool, as Keras).

    Differs:
        hypot(-inf, inf) is inf, as NumPy (Keras' scaled formula gives NaN);
        hypot(inf, nan) is NaN here (NumPy and IEEE 754 give inf).
    """
    x1, x2 = promote(as_float(x1, "hypot"), as_float(x2, "hypot"), "hypot")
    if x1.dtype.kind == "c":   # (Keras: of the magnitudes)
        x1, x2 = abs(x1), abs(x2)
    return sqrt(x1 * x1 + x2 * x2)


def fmax(x1, x2):
    """Elementwise maximum that ignores NaN (NaN only if both are).

    Returns:
        A tensor of the broadcast shape of x1 and x2, in their promoted dtype
        (NumPy's promotion; a Python number takes the tensor's dtype).
    """
    x1, x2 = promote(x1, x2, "fmax")
    if not (is_float(x1.dtype) or x1.dtype.kind == "c"):
        return maximum(x1, x2)
    return where(isnan(x1), x2, where(isnan(x2), x1, maximum(x1, x2)))


def fmin(x1, x2):
    """Elementwise minimum that ignores NaN (NaN only if both are).

    Returns:
        A tensor of the broadcast shape of x1 and x2, in their promoted dtype
        (NumPy's promotion; a Python number takes the tensor's dtype).
    """
    x1, x2 = promote(x1, x2, "fmin")
    if not (is_float(x1.dtype) or x1.dtype.kind == "c"):
        return minimum(x1, x2)
    return where(isnan(x1), x2, where(isnan(x2), x1, minimum(x1, x2)))


def fmod(x1, x2):
    """Remainder of x1 / x2 with the sign of x1 (C's fmod).

    Returns:
        A tensor of the broadcast shape of x1 and x2, in their promoted dtype
        (NumPy's promotion; a Python number takes the tensor's dtype).

    Differs:
        The gradient with respect to x2 is -trunc(x1 / x2), the quotient the
        value uses (Keras differentiates another formula).
    """
    x1, x2 = promote(x1, x2, "fmod")
    m = mod(x1, x2)
    wrong_sign = logical_and(not_equal(m, 0),
                             not_equal(less(m, 0), less(x1, 0)))
    return where(wrong_sign, m - x2, m)


def heaviside(x1, x2):
    """0 where x1 < 0, 1 where x1 > 0, x2 where x1 == 0.

    Args:
        x1: The input: where it is 0, x2 is the answer.
        x2: The value at x1 == 0.

    Returns:
        A tensor of the broadcast shape of x1 and x2, in their promoted dtype
        (NumPy's promotion; a Python number takes the tensor's dtype).
    """
    x1, x2 = promote(as_float(x1, "heaviside", complex_ok=False), x2,
                     "heaviside")
    return where(less(x1, 0), 0.0, where(greater(x1, 0), 1.0, x2))


def ldexp(x1, x2):
    """x1 * 2**x2 (x2 integer).

    Args:
        x1: The mantissa.
        x2: The exponent, integer.

    Returns:
        A float tensor of the broadcast shape: x1's float dtype (floatx for an
        integer x1).
    """
    x2 = as_tensor(x2, "ldexp")
    if x2.dtype.kind not in "iu":
        raise TypeError(f"pycg.ops.ldexp: x2 must be an integer tensor, got "
                        f"dtype {x2.dtype}")
    x1 = as_float(x1, "ldexp", complex_ok=False)
    return x1 * power(2.0, cast(x2, x1.dtype))


def logaddexp2(x1, x2):
    """log2(2**x1 + 2**x2).

    Returns:
        A tensor of the broadcast shape of x1 and x2, in their promoted float
        dtype (floatx when both are integer or bool, as Keras).

    Differs:
        At x1 == x2 the gradient is 1/2 to each operand, the derivative.
    """
    x1, x2 = promote(as_float(x1, "logaddexp2", complex_ok=False),
                     as_float(x2, "logaddexp2", complex_ok=False), "logaddexp2")
    ln2 = math.log(2)
    return logaddexp(x1 * ln2, x2 * ln2) * (1 / ln2)


def divide_no_nan(x1, x2):
    """x1 / x2, and 0 where x2 == 0.

    Returns:
        A tensor of the broadcast shape of x1 and x2, in their promoted float
        dtype (floatx when both are integer or bool, as Keras).

    Example:
        >>> from pycg import ops
        >>> ops.divide_no_nan([1.0, 1.0], [2.0, 0.0]).numpy().tolist()
        [0.5, 0.0]
    """
    x1, x2 = promote(as_float(x1, "divide_no_nan"), x2, "divide_no_nan")
    zero = equal(x2, 0)
    return where(zero, 0.0, x1 / where(zero, 1.0, x2))


def nan_to_num(x, nan=0.0, posinf=None, neginf=None):
    """NaN -> `nan`, +inf -> `posinf` (default: the largest float),
    -inf -> `neginf` (default: the most negative float).

    Args:
        nan: The value for NaN.
        posinf: The value for +inf (None: the dtype's largest).
        neginf: The value for -inf (None: the dtype's most negative).

    Returns:
        A tensor of x's shape and dtype.

    Example:
        >>> import math
        >>> from pycg import ops
        >>> x = ops.convert_to_tensor([math.nan, math.inf, 1.0])
        >>> ops.nan_to_num(x, posinf=9.0).numpy().tolist()
        [0.0, 9.0, 1.0]
    """
    x = as_tensor(x, "nan_to_num")
    if not is_float(x.dtype):
        return x
    big = float(backends.finfo(x.dtype).max)
    posinf = big if posinf is None else posinf
    neginf = -big if neginf is None else neginf
    inf = equal(abs(x), math.inf)
    return where(isnan(x), nan, where(inf, where(greater(x, 0), posinf,
                                                 neginf), x))


def copy(x):
    """A tensor with the value of x (gradient passes through).

    Returns:
        A tensor of x's shape and dtype.
    """
    x = as_tensor(x, "copy")
    return x + 0.0 if is_float(x.dtype) else Tensor(x._value)


def _complex_part(op, kernel, x, real_value):
    x = as_tensor(x, op)
    if x.dtype.kind == "c":
        return apply_nograd(getattr(backends.active, kernel), (x,))
    return real_value(x)


# real, imag and conj (with their gradient rules) are in ops/elementwise.py
conjugate = conj


def angle(x):
    """The argument of x: pi where a real x is negative, else 0.

    Returns:
        A real float tensor of x's shape (floatx for an integer or bool x).
    """
    return _complex_part("angle", "angle", x, _real_angle)


def _real_angle(x):
    x = as_float(x, "angle")
    zero = zeros_like(x)
    return where(less(x, 0), zero + math.pi, zero)


def polar(abs_, angle):
    """The complex tensor of magnitude `abs_` and argument `angle`:
    abs_ * (cos(angle) + 1j * sin(angle)), as keras.ops.polar and
    torch.polar (not scipy.linalg.polar, a matrix decomposition).
    Differentiable in both.

    Args:
        abs_: The magnitude: a real Tensor, or anything
            ops.convert_to_tensor takes (a NumPy array, a nested list, a
            Python number).
        angle: The argument in radians: a real Tensor, or anything
            ops.convert_to_tensor takes. Broadcasts against abs_.

    Returns:
        A complex tensor of the broadcast shape of abs_ and angle: its real
        part abs_ * cos(angle), its imaginary part abs_ * sin(angle), each
        as TensorFlow computes it (infinities and signed zeros included);
        complex128 where either input is float64, else complex64 (float16,
        bfloat16, integer and bool inputs are computed in float32).

    Differs:
        keras.ops.polar on TensorFlow refuses integer inputs and mixed float
        widths; pycg takes them as keras.ops on JAX does (integers as
        floatx, the wider float). A complex abs_ or angle is refused.

    Example:
        >>> from pycg import ops
        >>> ops.polar(2.0, 0.0).numpy().item()
        (2+0j)
    """
    r = as_float(abs_, "polar", complex_ok=False)
    t = as_float(angle, "polar", complex_ok=False)
    f = "float64" if "float64" in (r.dtype, t.dtype) else "float32"
    r, t = cast(r, f), cast(t, f)
    return _complex_from_pair(stack([multiply(r, cos(t)), multiply(r, sin(t))]))


def _complex_from_pair(pair):
    """The complex tensor pair[0] + 1j * pair[1], built from its parts
    (no arithmetic: an infinite or signed-zero part stays as it is)."""
    return apply("_complex_from_pair", backends.active.to_complex_pair,
                 (pair,))
