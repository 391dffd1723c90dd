"""pycg.ops docstrings: creating tensors and converting to and from them
(pycg/ops/creation.py, pycg/ops/constructors.py)."""
from pycg.ops._docs.elementwise import _ex
from pycg.ops._docs.glossary import Doc

FILLED = ("A tensor of `shape` in `dtype` (None: floatx, "
          "pycg.config.floatx()).")
LIKE = "A tensor of x's shape in `dtype` (None: x's dtype)."
LIKE_DTYPE = "The result's dtype. None: x's dtype."
WINDOW = "A 1-d floatx tensor of x points (empty for 0, [1.0] for 1)."
POINTS = "The window's length M, a non-negative int."
SPACED = ("A tensor of `num` values along `axis` (more axes for array "
          "endpoints), in `dtype` (None: floatx).")

DOCS = {
    "zeros": Doc(FILLED, summary="A tensor of zeros.",
                 example=_ex("ops.zeros((2,)).numpy().tolist()",
                             "[0.0, 0.0]")),
    "ones": Doc(FILLED, summary="A tensor of ones."),
    "full": Doc("A tensor of `shape` in `dtype` (None: fill_value's dtype).",
                summary="A tensor whose every element is fill_value."),
    "zeros_like": Doc(LIKE, dtype=LIKE_DTYPE, summary="Zeros in x's shape."),
    "ones_like": Doc(LIKE, dtype=LIKE_DTYPE, summary="Ones in x's shape."),
    "full_like": Doc(LIKE, dtype=LIKE_DTYPE, summary="fill_value in x's "
                     "shape."),
    "empty": Doc(FILLED),
    "empty_like": Doc(LIKE, dtype=LIKE_DTYPE, summary="A tensor of x's shape "
                      "(zeros: values are never left uninitialised)."),
    "eye": Doc("A 2-d tensor (N, M) in `dtype` (None: floatx).",
               summary="A matrix with ones on the k-th diagonal, zeros "
               "elsewhere."),
    "identity": Doc("A 2-d tensor (n, n) in `dtype` (None: floatx).",
                    n="The number of rows and columns.",
                    summary="The n x n identity matrix."),
    "tri": Doc("A 2-d tensor (N, M) in `dtype` (None: floatx)."),
    "arange": Doc("A 1-d tensor, int32 for int arguments, else floatx (or "
                  "`dtype`).",
                  summary="Evenly spaced values in [start, stop) by step "
                  "(with one argument: [0, start)).",
                  start="The first value (or, alone, the stop with start "
                  "0).", stop="The end, excluded (None: see start).",
                  step="The spacing.",
                  example=_ex("ops.arange(3).numpy().tolist()",
                              "[0, 1, 2]")),
    "linspace": Doc(SPACED + " With retstep, a pair (values, step).",
                    retstep="Also return the spacing."),
    "logspace": Doc(SPACED, base="The base of the powers.",
                    start="base ** start is the first value.",
                    stop="base ** stop is the last value."),
    "geomspace": Doc(SPACED),
    "array": Doc("A Tensor.", summary="A tensor from x (as "
                 "convert_to_tensor: Python floats become floatx, arrays "
                 "keep their dtype)."),
    "convert_to_tensor": Doc("A Tensor (x itself when it is one, of that "
                             "dtype).",
                             sparse="Must be None or False: pycg tensors "
                             "are dense.",
                             ragged="Must be None or False: pycg tensors "
                             "are dense.",
                             example=_ex("ops.convert_to_tensor([1, 2])"
                                         ".dtype.name", "'int32'")),
    "convert_to_numpy": Doc("A NumPy array (a copy; a 0-d array for a "
                            "scalar)."),
    "shape": Doc("A tuple of ints.",
                 example=_ex("ops.shape(ops.zeros((2, 3)))", "(2, 3)")),
    "stop_gradient": Doc("A tensor equal to `variable`, a constant to every "
                         "tape.", variable="The value whose gradient is cut "
                         "(any tensor, not only a Variable: keras.ops' name)."
                         ),
    "meshgrid": Doc("A list of tensors, one per input, each of the grid's "
                    "shape.", x="The 1-d coordinate vectors.",
                    indexing="'xy' (the first two axes swapped, Cartesian) "
                    "or 'ij' (matrix)."),
    "unravel_index": Doc("A tuple of int32 tensors, one per axis of shape.",
                         indices="Flat (row-major) indices."),
    "vander": Doc("A 2-d tensor (len(x), N).",
                  x="The 1-d input.", N="The number of columns (None: "
                  "len(x)).", increasing="Powers increase left to right "
                  "(else decrease).",
                  differs="Its gradient at 0 is the derivative (Keras' "
                  "formula gives NaN); a bool x counts in int32."),
    "bartlett": Doc(WINDOW, x=POINTS, summary="The Bartlett (triangular) "
                    "window of x points (np.bartlett)."),
    "blackman": Doc(WINDOW, x=POINTS, summary="The Blackman window of x "
                    "points (np.blackman)."),
    "hamming": Doc(WINDOW, x=POINTS, summary="The Hamming window of x "
                   "points (np.hamming)."),
    "hanning": Doc(WINDOW, x=POINTS, summary="The Hann window of x points "
                   "(np.hanning)."),
    "kaiser": Doc(WINDOW, x=POINTS, summary="The Kaiser window of x points "
                  "(np.kaiser).", beta="The shape parameter (0: a box; "
                  "larger: narrower)."),
}
