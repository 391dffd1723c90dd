"""pycg.ops docstrings: reductions, cumulative ops and statistics
(pycg/ops/reduction.py, pycg/ops/statistics.py)."""
from pycg.ops._docs.elementwise import _ex
from pycg.ops._docs.glossary import Doc

REDUCED = ("A tensor: x's shape without the reduced axes (kept as length 1 "
           "with keepdims), in x's dtype.")
FLOAT = ("A float tensor: x's shape without the reduced axes (kept as "
         "length 1 with keepdims); floatx for an integer or bool x.")
INDEX = ("An int32 tensor of 0-based indices: x's shape without `axis` "
         "(kept as length 1 with keepdims); not differentiable.")
CUMULATIVE = ("A tensor of x's shape (1-d when axis is None), in `dtype` "
              "when given.")
NAN_EMPTY = ("Over an all-NaN or empty slice the answer is NaN; over an "
             "empty axis pycg raises an error naming the op (Keras' nanmax "
             "answers nan, its ptp -inf).")

DOCS = {
    "sum": Doc("A tensor: x's shape without the reduced axes (kept as length "
               "1 with keepdims); int32 (uint32) for bool and narrow integer "
               "x, else x's dtype.",
               example=_ex("ops.sum([[1.0, 2.0], [3.0, 4.0]], axis=0).numpy()"
                           ".tolist()", "[4.0, 6.0]")),
    "prod": Doc("A tensor as sum's: x's reduced shape, narrow integers and "
                "bools in 32 bits."),
    "mean": Doc(FLOAT, example=_ex("float(ops.mean([1.0, 2.0, 6.0]))",
                                   "3.0")),
    "std": Doc(FLOAT),
    "var": Doc("A real float tensor: x's reduced shape (float32 for "
               "complex64).",
               differs="The variance of a complex x is real, as NumPy "
               "(Keras keeps the complex dtype)."),
    "max": Doc(REDUCED, initial="A lower bound of the answer (None: none)."
               " Needed over an empty axis."),
    "min": Doc(REDUCED, initial="An upper bound of the answer (None: none). "
               "Needed over an empty axis."),
    "amax": Doc(REDUCED, summary="The maximum over `axis` (max without "
                "`initial`); ties share the gradient equally."),
    "amin": Doc(REDUCED, summary="The minimum over `axis` (min without "
                "`initial`); ties share the gradient equally."),
    "argmax": Doc(INDEX, differs="A NaN is what argmax finds (the first "
                  "one), as NumPy and JAX (TensorFlow picks by position)."),
    "argmin": Doc(INDEX, differs="A NaN is what argmin finds (the first "
                  "one), as NumPy and JAX (TensorFlow picks by position)."),
    "cumsum": Doc(CUMULATIVE, example=_ex("ops.cumsum([1, 2, 3]).numpy()"
                                          ".tolist()", "[1, 3, 6]")),
    "cumprod": Doc(CUMULATIVE),
    "average": Doc(FLOAT, weights="The weights: x's shape, or 1-d along "
                   "`axis`. None: the plain mean."),
    "corrcoef": Doc("A (rows, rows) float tensor of correlations."),
    "correlate": Doc("A 1-d tensor, its length set by `mode`.",
                     x1="The first 1-d signal.", x2="The second 1-d signal."
                     , mode="'valid' (only full overlaps), 'same' (x1's "
                     "length) or 'full' (every overlap).",
                     differs="A complex input is refused by name."),
    "diff": Doc("A tensor one (n) shorter along `axis`.",
                a="The input: " + "a Tensor or anything ops."
                "convert_to_tensor takes.",
                n="How many times to take the difference."),
    "nanargmax": Doc(INDEX),
    "nanargmin": Doc(INDEX, summary="argmin ignoring NaNs (-1 where a slice "
                     "is all NaN)."),
    "nancumsum": Doc(CUMULATIVE, summary="Cumulative sum along `axis` with "
                     "NaNs counted as 0.",
                     differs="An inf in x is carried on, as NumPy (Keras "
                     "loses it)."),
    "nancumprod": Doc(CUMULATIVE, summary="Cumulative product along `axis` "
                      "with NaNs counted as 1.",
                      differs="An inf in x is carried on, as NumPy (Keras "
                      "loses it)."),
    "nanmax": Doc(REDUCED, summary="The maximum over `axis`, ignoring NaNs.",
                  differs=NAN_EMPTY),
    "nanmin": Doc(REDUCED, summary="The minimum over `axis`, ignoring NaNs.",
                  differs=NAN_EMPTY),
    "nanmean": Doc(FLOAT, differs="The mean of a complex x keeps its "
                   "imaginary part, as NumPy (Keras drops it)."),
    "nanprod": Doc(REDUCED, summary="The product over `axis` with NaNs "
                   "counted as 1."),
    "nansum": Doc(REDUCED, summary="The sum over `axis` with NaNs counted as "
                  "0."),
    "nanstd": Doc(FLOAT, summary="The population standard deviation over "
                  "`axis`, ignoring NaNs."),
    "nanvar": Doc(FLOAT),
    "ptp": Doc(REDUCED, differs=NAN_EMPTY),
    "trapezoid": Doc("A float tensor: y's shape without `axis`.",
                     y="The values to integrate.",
                     x="The sample points (None: spaced by dx).",
                     dx="The spacing of the samples when x is None."),
}
