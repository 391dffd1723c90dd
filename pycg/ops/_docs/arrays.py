"""pycg.ops docstrings: reshaping, joining, splitting, indexing
(pycg/ops/manipulation.py, pycg/ops/arrays.py)."""
from pycg.ops._docs.elementwise import _ex
from pycg.ops._docs.glossary import Doc

SAME_ELEMENTS = "A tensor of x's dtype holding x's elements (shape below)."
JOINED = "A tensor in the promoted dtype of the inputs (shape below)."
PARTS = "A list of tensors of x's dtype, the sections in order."
DIAGONAL = "A tensor of x's shape and dtype."
SPLIT_AXIS = ("An int N (N equal sections) or a sorted list of split "
              "points.")

DOCS = {
    "reshape": Doc(SAME_ELEMENTS, newshape="The new shape (a tuple of ints, "
                   "one of them may be -1: inferred).",
                   example=_ex("ops.reshape(ops.arange(6), (2, -1)).shape",
                               "(2, 3)")),
    "ravel": Doc("A 1-d tensor of x's elements (row-major).",
                 summary="x flattened to 1-d, in row-major order."),
    "broadcast_to": Doc("A tensor of `shape` and x's dtype."),
    "expand_dims": Doc("A tensor of x's dtype with one more axis.",
                       axis="Where the new axis goes (or a tuple of "
                       "places)."),
    "squeeze": Doc(SAME_ELEMENTS, axis="The length-1 axes to remove (None: "
                   "all)."),
    "transpose": Doc(SAME_ELEMENTS, axes="The new order of the axes (None: "
                     "reversed)."),
    "swapaxes": Doc(SAME_ELEMENTS, summary="x with axes axis1 and axis2 "
                    "swapped."),
    "moveaxis": Doc(SAME_ELEMENTS, source="The axes to move (an int or a "
                    "sequence).", destination="Their new positions, as many "
                    "as source."),
    "flip": Doc("A tensor of x's shape and dtype."),
    "fliplr": Doc("A tensor of x's shape and dtype.",
                  summary="x with its axis 1 reversed (left-right).",
                  differs="x needs two axes, as NumPy."),
    "flipud": Doc("A tensor of x's shape and dtype.",
                  summary="x with its axis 0 reversed (up-down)."),
    "rot90": Doc(SAME_ELEMENTS, array="The input tensor (2-d or more).",
                 k="How many quarter turns (negative: clockwise).",
                 axes="The plane, two axes."),
    "roll": Doc("A tensor of x's shape and dtype.",
                shift="How far (an int, or one per axis)."),
    "concatenate": Doc(JOINED, example=_ex(
        "ops.concatenate([ops.ones((1, 2)), ops.zeros((1, 2))]).shape",
        "(2, 2)")),
    "stack": Doc(JOINED, x="The tensors to stack, all of one shape.",
                 differs="An empty sequence is refused, as NumPy."),
    "append": Doc(JOINED),
    "hstack": Doc(JOINED),
    "vstack": Doc(JOINED),
    "dstack": Doc(JOINED),
    "split": Doc(PARTS),
    "array_split": Doc(PARTS, indices_or_sections="An int N (N sections, "
                       "the first ones longer when the axis does not "
                       "divide) or a sorted list of split points."),
    "hsplit": Doc(PARTS, indices_or_sections=SPLIT_AXIS,
                  summary="split along axis 1 (axis 0 for a 1-d x)."),
    "vsplit": Doc(PARTS, indices_or_sections=SPLIT_AXIS,
                  summary="split along axis 0."),
    "dsplit": Doc(PARTS, indices_or_sections=SPLIT_AXIS,
                  summary="split along axis 2."),
    "unstack": Doc("A list of tensors, x's shape without `axis`.",
                   num="The length of `axis` (None: read from x)."),
    "repeat": Doc("A tensor of x's dtype (1-d when axis is None)."),
    "tile": Doc("A tensor of x's dtype, each axis times its repeats."),
    "pad": Doc("A tensor of x's dtype, each axis longer by its padding.",
               pad_width="(before, after) per axis, or one pair / int for "
               "all.", mode="'constant', 'reflect', 'symmetric', 'edge', "
               "'wrap' ... as np.pad.", constant_values="The value for "
               "mode='constant' (None: 0)."),
    "take": Doc("A tensor of x's dtype: the indices' shape in place of "
                "`axis`."),
    "take_along_axis": Doc("A tensor of x's dtype of the broadcast shape."),
    "getitem": Doc("A tensor of x's dtype, the selected elements.",
                   index="The index: ints, slices, None, Ellipsis, int or "
                   "bool tensors (NumPy's rules)."),
    "get_item": Doc("A tensor of x's dtype, the selected elements."),
    "slice": Doc("A tensor of `shape` and the input's dtype.",
                 shape="The block's shape."),
    "select": Doc("A tensor in the choices' promoted dtype, of their "
                  "broadcast shape.",
                  condlist="A list of bool tensors.",
                  choicelist="A list of tensors, one per condition.",
                  default="The value where no condition holds."),
    "diag": Doc("A 1-d tensor (x 2-d) or a 2-d tensor (x 1-d) of x's "
                "dtype."),
    "diagflat": Doc("A 2-d tensor of x's dtype."),
    "diagonal": Doc("A tensor of x's dtype: x without axis1 and axis2, the "
                    "diagonal last."),
    "trace": Doc("A tensor of x's dtype without axis1 and axis2."),
    "tril": Doc(DIAGONAL),
    "triu": Doc(DIAGONAL),
}
