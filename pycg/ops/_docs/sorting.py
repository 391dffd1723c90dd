"""pycg.ops docstrings: sorting, order statistics and searching
(pycg/ops/sorting.py, pycg/ops/searching.py)."""
from pycg.ops._docs.elementwise import _ex
from pycg.ops._docs.glossary import Doc

NAN_LAST = ("NaN sorts last, as NumPy and JAX (TensorFlow's sort places "
            "NaN by position).")
QUANTILE = ("A float tensor: q's shape followed by x's shape without the "
            "reduced axes (kept as length 1 with keepdims).")
MEDIAN = ("A float tensor: x's shape without the reduced axes (kept as "
          "length 1 with keepdims).")

DOCS = {
    "sort": Doc("A tensor of x's shape and dtype (1-d when axis is None).",
                differs=NAN_LAST),
    "argsort": Doc("An int32 tensor of x's shape; not differentiable.",
                   differs=NAN_LAST),
    "argpartition": Doc("An int32 tensor of x's shape; not differentiable.",
                        kth="The element (index in sorted order) to "
                        "partition around."),
    "top_k": Doc("A tuple (values, indices): x's shape with the last axis "
                 "k long; indices int32.",
                 k="How many of the largest entries.",
                 sorted="Whether the k come largest first (pycg always "
                 "sorts them)."),
    "in_top_k": Doc("A bool tensor, one per row; not differentiable.",
                    targets="The target class of each row, integers.",
                    predictions="The scores, (rows, classes).",
                    k="How many of the largest scores count."),
    "median": Doc(MEDIAN),
    "nanmedian": Doc(MEDIAN, summary="The median along `axis` ignoring NaNs "
                     "(NaN where a slice is all NaN).",
                     differs="Over an empty axis pycg raises an error naming "
                     "the op."),
    "quantile": Doc(QUANTILE),
    "nanquantile": Doc(QUANTILE),
    "percentile": Doc(QUANTILE, q="The percentiles, in [0, 100]: a number "
                      "or a 1-d tensor.",
                      example=_ex("float(ops.percentile([1.0, 2.0, 3.0], "
                                  "50))", "2.0")),
    "nanpercentile": Doc(QUANTILE, summary="percentile ignoring NaNs (NaN "
                         "where a slice is all NaN).", q="The percentiles, "
                         "in [0, 100]: a number or a 1-d tensor."),
    "bincount": Doc("A 1-d tensor of length max(max(x) + 1, minlength): int32 "
                    "counts, or the weights' dtype.",
                    x="The values: a 1-d tensor of non-negative integers.",
                    weights="One weight per element of x (None: counts).",
                    minlength="The result's least length.",
                    differs="A complex input is refused by name.",
                    example=_ex("ops.bincount([0, 1, 1, 3]).numpy().tolist()",
                                "[1, 2, 0, 1]")),
    "digitize": Doc("An int32 tensor of x's shape; not differentiable.",
                    bins="The bin edges: a 1-d increasing tensor."),
    "histogram": Doc("A tuple (counts, bin_edges): int32 counts of length "
                     "bins, bins + 1 float edges; not differentiable.",
                     bins="The number of equal bins.",
                     range="(low, high), the interval the bins cover. None: "
                     "x's min and max."),
    "searchsorted": Doc("An int32 tensor of values' shape; not "
                        "differentiable.",
                        sorted_sequence="The 1-d ascending sequence.",
                        values="The values to place.",
                        side="'left' (the first valid index) or 'right' "
                        "(the last)."),
    "unique": Doc("The sorted unique values (1-d, or slices along axis); "
                  "with any return_* asked, a tuple of them followed by the "
                  "first indices, the inverse and the counts (int32), as "
                  "asked.",
                  sorted="Accepted for keras.ops' signature; the values "
                  "always come sorted.",
                  return_index="Also return the index of each value's first "
                  "occurrence.",
                  return_inverse="Also return, for each element of x, the "
                  "index of its value.",
                  return_counts="Also return how often each value occurs.",
                  size="A fixed length for the result (padded with "
                  "fill_value, or cut). None: as many as there are.",
                  fill_value="The padding when size is longer (None: the "
                  "smallest value).",
                  differs=NAN_LAST),
}
