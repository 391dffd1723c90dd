"""pycg.ops docstrings: NumPy's further elementwise math
(pycg/ops/numeric.py)."""
from pycg.ops._docs.elementwise import BROADCAST, FLOAT, FLOAT2, SAME, _ex
from pycg.ops._docs.glossary import Doc

DOCS = {
    "angle": Doc("A real float tensor of x's shape (floatx for an integer or "
                 "bool x)."),
    "arccosh": Doc(FLOAT, summary="Elementwise inverse hyperbolic cosine "
                   "(NaN below 1 for a real x)."),
    "arcsinh": Doc(FLOAT, summary="Elementwise inverse hyperbolic sine."),
    "arctanh": Doc(FLOAT, summary="Elementwise inverse hyperbolic tangent "
                   "(+-inf at +-1)."),
    "cbrt": Doc(FLOAT, summary="Elementwise real cube root (negative for "
                "negative x).",
                differs="Its gradient at 0 is inf, the derivative's limit "
                "(Keras' formula gives NaN); a complex x is refused by "
                "name.",
                example=_ex("ops.cbrt([-8.0, 27.0]).numpy().tolist()",
                            "[-2.0, 3.0]")),
    "copy": Doc(SAME),
    "deg2rad": Doc(FLOAT, summary="Elementwise degrees to radians: x * pi / "
                   "180."),
    "divide_no_nan": Doc(FLOAT2, example=_ex(
        "ops.divide_no_nan([1.0, 1.0], [2.0, 0.0]).numpy().tolist()",
        "[0.5, 0.0]")),
    "erfc": Doc(FLOAT, summary="Elementwise complementary error function "
                "1 - erf(x), accurate for large x."),
    "erfinv": Doc(FLOAT, summary="Elementwise inverse error function "
                  "(+-inf at +-1, NaN outside [-1, 1]); real x only."),
    "exp2": Doc(FLOAT, summary="Elementwise 2 ** x."),
    "fabs": Doc(FLOAT),
    "fmax": Doc(BROADCAST),
    "fmin": Doc(BROADCAST),
    "fmod": Doc(BROADCAST, differs="The gradient with respect to x2 is "
                "-trunc(x1 / x2), the quotient the value uses (Keras "
                "differentiates another formula)."),
    "heaviside": Doc(BROADCAST, x1="The input: where it is 0, x2 is the "
                     "answer.", x2="The value at x1 == 0."),
    "hypot": Doc(FLOAT2, differs="hypot(-inf, inf) is inf, as NumPy (Keras' "
                 "scaled formula gives NaN); hypot(inf, nan) is NaN here "
                 "(NumPy and IEEE 754 give inf)."),
    "i0": Doc(FLOAT, differs="A complex x is refused by name (Keras goes "
              "through TensorFlow's real kernel)."),
    "ldexp": Doc("A float tensor of the broadcast shape: x1's float dtype "
                 "(floatx for an integer x1).", x1="The mantissa.",
                 x2="The exponent, integer."),
    "logaddexp2": Doc(FLOAT2, differs="At x1 == x2 the gradient is 1/2 to "
                      "each operand, the derivative."),
    "nan_to_num": Doc(SAME, nan="The value for NaN.", posinf="The value for "
                      "+inf (None: the dtype's largest).", neginf="The "
                      "value for -inf (None: the dtype's most negative)."),
    "rad2deg": Doc(FLOAT, summary="Elementwise radians to degrees: x * 180 / "
                   "pi."),
    "sinc": Doc(FLOAT, differs="Its gradient at 0 is 0, the derivative "
                "(Keras' formula gives NaN there)."),
    "trunc": Doc(SAME, example=_ex("ops.trunc([-1.7, 1.7]).numpy().tolist()",
                                   "[-1.0, 1.0]")),
}
