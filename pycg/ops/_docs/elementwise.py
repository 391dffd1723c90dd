"""pycg.ops docstrings: elementwise arithmetic, powers, logarithms,
trigonometry, comparisons (pycg/ops/elementwise.py)."""
from pycg.ops._docs.glossary import Doc

SAME = "A tensor of x's shape and dtype."
FLOAT = ("A tensor of x's shape: x's dtype for a float or complex x, "
         "floatx (pycg.config.floatx()) for an integer or bool x.")
BROADCAST = ("A tensor of the broadcast shape of x1 and x2, in their "
             "promoted dtype (NumPy's promotion; a Python number takes the "
             "tensor's dtype).")
FLOAT2 = ("A tensor of the broadcast shape of x1 and x2, in their promoted "
          "float dtype (floatx when both are integer or bool, as Keras).")
COMPARE = ("A bool tensor of the broadcast shape of x1 and x2; not "
           "differentiable.")
ZERO_GRAD = "Its gradient is zero (a step function)."


def _ex(call, out):
    return f">>> from pycg import ops\n>>> {call}\n{out}"


DOCS = {
    "abs": Doc(SAME, differs="Complex x gives its real modulus (NumPy's).",
               example=_ex("ops.abs([-1.5, 2.0]).numpy().tolist()",
                           "[1.5, 2.0]")),
    "negative": Doc(SAME, summary="Elementwise -x."),
    "sqrt": Doc(FLOAT, summary="Elementwise square root (NaN below 0 for a "
                "real x).",
                example=_ex("ops.sqrt([4.0, 9.0]).numpy().tolist()",
                            "[2.0, 3.0]")),
    "rsqrt": Doc(FLOAT, summary="Elementwise 1 / sqrt(x)."),
    "square": Doc("A tensor of x's shape and dtype (int32 for a bool x)."),
    "reciprocal": Doc(FLOAT, summary="Elementwise 1 / x."),
    "exp": Doc(FLOAT, summary="Elementwise e ** x.",
               example=_ex("float(ops.exp(0.0))", "1.0")),
    "expm1": Doc(FLOAT, summary="Elementwise exp(x) - 1, accurate for x "
                 "near 0."),
    "log": Doc(FLOAT, summary="Elementwise natural logarithm (-inf at 0, NaN "
               "below 0 for a real x).",
               example=_ex("float(ops.log(1.0))", "0.0")),
    "log1p": Doc(FLOAT, summary="Elementwise log(1 + x), accurate for x "
                 "near 0."),
    "log2": Doc(FLOAT, summary="Elementwise base-2 logarithm."),
    "log10": Doc(FLOAT, summary="Elementwise base-10 logarithm."),
    "sin": Doc(FLOAT, summary="Elementwise sine (x in radians)."),
    "cos": Doc(FLOAT, summary="Elementwise cosine (x in radians)."),
    "tan": Doc(FLOAT, summary="Elementwise tangent (x in radians)."),
    "arcsin": Doc(FLOAT, summary="Elementwise inverse sine, in [-pi/2, "
                  "pi/2]."),
    "arccos": Doc(FLOAT, summary="Elementwise inverse cosine, in [0, pi]."),
    "arctan": Doc(FLOAT, summary="Elementwise inverse tangent, in (-pi/2, "
                  "pi/2)."),
    "sinh": Doc(FLOAT, summary="Elementwise hyperbolic sine."),
    "cosh": Doc(FLOAT, summary="Elementwise hyperbolic cosine."),
    "tanh": Doc(FLOAT, summary="Elementwise hyperbolic tangent."),
    "erf": Doc(FLOAT, summary="Elementwise Gauss error function."),
    "sign": Doc(SAME, differs="For an unsigned integer x: 0 or 1."),
    "floor": Doc(FLOAT),
    "ceil": Doc(FLOAT),
    "real": Doc("A real tensor of x's shape (float32 for complex64, float64 "
                "for complex128)."),
    "imag": Doc("A real tensor of x's shape (float32 for complex64, float64 "
                "for complex128)."),
    "conj": Doc(SAME),
    "add": Doc(BROADCAST, summary="Elementwise x1 + x2 (NumPy broadcasting)."
               , example=_ex("ops.add([1, 2], 3).numpy().tolist()",
                             "[4, 5]")),
    "subtract": Doc(BROADCAST, summary="Elementwise x1 - x2 (NumPy "
                    "broadcasting)."),
    "multiply": Doc(BROADCAST, summary="Elementwise x1 * x2 (NumPy "
                    "broadcasting)."),
    "divide": Doc(FLOAT2, summary="Elementwise true division x1 / x2 (NumPy "
                  "broadcasting); true_divide is the same op.",
                  differs="Two integer or bool operands give floatx, as "
                  "Keras (NumPy and TensorFlow give float64).",
                  example=_ex("y = ops.divide(1, 4)\n>>> float(y), y.dtype.name",
                              "(0.25, 'float32')")),
    "power": Doc(BROADCAST, summary="Elementwise x1 ** x2 (NumPy "
                 "broadcasting)."),
    "mod": Doc(BROADCAST, summary="Elementwise remainder of x1 / x2 with the "
               "sign of x2 (Python's %, np.mod); its gradient with respect "
               "to x1 is 1."),
    "floor_divide": Doc(BROADCAST, summary="Elementwise floor(x1 / x2) "
                        "(Python's //); its gradient is zero."),
    "maximum": Doc(BROADCAST, summary="Elementwise larger of x1 and x2 (NaN "
                   "if either is); at a tie the gradient is split equally."),
    "minimum": Doc(BROADCAST, summary="Elementwise smaller of x1 and x2 "
                   "(NaN if either is); at a tie the gradient is split "
                   "equally."),
    "arctan2": Doc(FLOAT2, summary="Elementwise angle of the point (x2, x1): "
                   "arctan(x1 / x2) in the right quadrant, in [-pi, pi]."),
    "logaddexp": Doc(FLOAT2, summary="Elementwise log(exp(x1) + exp(x2)), "
                     "without overflow.",
                     differs="At x1 == x2 the gradient is 1/2 to each "
                     "operand, the derivative (Keras' formula gives "
                     "another value there)."),
    "equal": Doc(COMPARE, summary="Elementwise x1 == x2 (NumPy "
                 "broadcasting)."),
    "not_equal": Doc(COMPARE, summary="Elementwise x1 != x2 (NumPy "
                     "broadcasting)."),
    "less": Doc(COMPARE, summary="Elementwise x1 < x2 (NumPy broadcasting)."),
    "less_equal": Doc(COMPARE, summary="Elementwise x1 <= x2 (NumPy "
                      "broadcasting)."),
    "greater": Doc(COMPARE, summary="Elementwise x1 > x2 (NumPy "
                   "broadcasting)."),
    "greater_equal": Doc(COMPARE, summary="Elementwise x1 >= x2 (NumPy "
                         "broadcasting)."),
    "cast": Doc("A tensor of x's shape in `dtype`.",
                dtype="The dtype to convert to (a name, pycg.float32 or a "
                "NumPy dtype).",
                example=_ex("ops.cast([1.7, -1.7], 'int32').numpy().tolist()"
                            , "[1, -1]")),
    "clip": Doc(SAME, x_min="The lower bound (a number or a tensor that "
                "broadcasts against x).", x_max="The upper bound (a number "
                "or a tensor that broadcasts against x).",
                example=_ex("ops.clip([-2.0, 0.5, 3.0], -1.0, 1.0).numpy()"
                            ".tolist()", "[-1.0, 0.5, 1.0]")),
    "isfinite": Doc("A bool tensor of x's shape; not differentiable.",
                    summary="Elementwise: True where x is neither infinite "
                    "nor NaN."),
    "isnan": Doc("A bool tensor of x's shape; not differentiable.",
                 summary="Elementwise: True where x is NaN."),
    "logical_and": Doc(COMPARE, summary="Elementwise x1 and x2, each "
                       "number taken as its truth (nonzero is True)."),
    "logical_or": Doc(COMPARE, summary="Elementwise x1 or x2, each number "
                      "taken as its truth (nonzero is True)."),
    "logical_not": Doc("A bool tensor of x's shape; not differentiable.",
                       summary="Elementwise not x (nonzero is True)."),
    "nonzero": Doc("A tuple of int32 tensors, one per axis of x, the "
                   "coordinates of each nonzero element in row-major order."
                   ),
    "round": Doc(SAME, decimals="The number of decimals to keep (negative: "
                 "rounds to tens, hundreds, ...).",
                 example=_ex("ops.round([0.5, 1.5, 2.5]).numpy().tolist()",
                             "[0.0, 2.0, 2.0]")),
    "where": Doc("With x1 and x2: a tensor of the broadcast shape of "
                 "condition, x1 and x2, in their promoted dtype. With "
                 "condition alone: nonzero(condition).",
                 condition="A bool tensor (a number is taken as its "
                 "truth).", x1="The value where condition is True.",
                 x2="The value where condition is False.",
                 example=_ex("ops.where([True, False], 1.0, -1.0).numpy()"
                             ".tolist()", "[1.0, -1.0]")),
}
