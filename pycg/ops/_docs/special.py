"""pycg.ops docstrings: the gamma family, beta and binomial coefficients
(pycg/ops/special.py)."""
from pycg.ops._docs.elementwise import _ex
from pycg.ops._docs.glossary import Doc

REAL = ("A tensor of x's shape: x's dtype for a float x, floatx "
        "(pycg.config.floatx()) for an integer or bool x; a complex x is "
        "refused, as TensorFlow refuses it.")
REAL2 = ("A tensor of the broadcast shape of the two arguments, in their "
         "promoted float dtype (floatx when both are integer or bool); "
         "complex arguments are refused.")
_A = "The first argument (a tensor or anything convert_to_tensor takes)."
_B = "The second argument; broadcasts against a."
_N = "The top of the coefficient, any real number (a tensor or number)."
_K = ("The bottom of the coefficient, rounded to a whole number as R rounds "
      "it; broadcasts against n. Its gradient is zero.")

DOCS = {
    "lgamma": Doc(REAL, summary="Elementwise log |gamma(x)| (TensorFlow's "
                  "lgamma): inf at 0, the negative integers and +-inf; its "
                  "gradient is digamma(x).",
                  example=_ex("round(float(ops.lgamma(10.0)), 6)  # log(9!)",
                              "12.801827")),
    "digamma": Doc(REAL, summary="Elementwise digamma function, the "
                   "derivative of lgamma: NaN at 0, the negative integers "
                   "and -inf, as TensorFlow's; its gradient is "
                   "polygamma(1, x).",
                   example=_ex("round(float(ops.digamma(1.0)), 6)  # -Euler",
                               "-0.577216")),
    "polygamma": Doc(REAL, n="The order of the derivative of digamma, a "
                     "whole number from 0 to 170 (a Python int, or a whole float or "
                     "one-element tensor); 1 is the trigamma function.",
                     differs="n is one whole number for the whole tensor "
                     "(TensorFlow's polygamma takes a tensor of orders and "
                     "gives NaN for a negative or fractional one; here "
                     "that is a ValueError). At the poles (0, the negative "
                     "integers, -inf) inf for odd n and NaN for even n, as "
                     "TensorFlow's."),
    "gamma": Doc(REAL, summary="Elementwise gamma function (SciPy's and "
                 "JAX's gamma; TensorFlow has none): inf at +0 and inf, "
                 "-inf at -0, NaN at the negative integers and -inf, 0 "
                 "below -171.6 where it underflows; its gradient is "
                 "gamma(x) digamma(x).",
                 example=_ex("float(ops.gamma(5.0))", "24.0")),
    "lbeta": Doc(REAL2, a=_A, b=_B, differs="Two arguments, as SciPy's "
                 "betaln and R's lbeta (TensorFlow's tf.math.lbeta takes "
                 "one tensor and reduces its last axis). For a, b > 0 R's "
                 "algorithm (accurate when an argument is large); "
                 "elsewhere lgamma(a) + lgamma(b) - lgamma(a + b), inf "
                 "where a or b is 0 and NaN where one is a negative integer "
                 "(R gives NaN for any negative argument: its lbeta() on "
                 "tensors does too).",
                 example=_ex("round(float(ops.lbeta(2.0, 3.0)), 6)  # log 1/12",
                             "-2.484907")),
    "beta": Doc(REAL2, a=_A, b=_B, differs="For a, b > 0 as R's beta; "
                "elsewhere the sign of the gammas times exp(lbeta(a, b)) "
                "(SciPy gives a finite limit at some negative integers, "
                "here NaN, as JAX and R).",
                example=_ex("round(float(ops.beta(2.0, 3.0)), 6)  # 1/12",
                            "0.083333")),
    "choose": Doc(REAL2, n=_N, k=_K, differs="No keras.ops, TensorFlow or "
                  "JAX peer; R's choose(), value for value (products below "
                  "k = 30, whole results rounded where n is whole, "
                  "(-1)^k choose(k - n - 1, k) for a negative n); "
                  "scipy.special.binom agrees for whole k and continues "
                  "through gamma for a fractional k, which R rounds.",
                  example=_ex("ops.choose([5.0, 5.0, -2.0], [2.0, 7.0, 3.0])"
                              ".numpy().tolist()", "[10.0, 0.0, -4.0]")),
    "lchoose": Doc(REAL2, n=_N, k=_K, differs="No keras.ops, TensorFlow or "
                   "JAX peer; R's lchoose(), value for value (-inf where "
                   "choose(n, k) is 0).",
                   example=_ex("round(float(ops.lchoose(50.0, 25.0)), 6)",
                               "32.470558")),
}
