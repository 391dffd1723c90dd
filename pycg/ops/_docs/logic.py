"""pycg.ops docstrings: logic, bitwise ops and questions about a tensor
(pycg/ops/logic.py)."""
from pycg.ops._docs.elementwise import COMPARE, _ex
from pycg.ops._docs.glossary import Doc

BOOL = "A bool tensor of x's shape; not differentiable."
BITS = ("An integer (or bool) tensor of the broadcast shape of x and y in "
        "their promoted dtype; not differentiable.")
REDUCED = ("A bool tensor: x's shape without the reduced axes (kept as "
           "length 1 with keepdims); not differentiable.")

DOCS = {
    "all": Doc(REDUCED, example=_ex("ops.all([[True, False], [True, True]], "
                                    "axis=1).numpy().tolist()",
                                    "[False, True]")),
    "any": Doc(REDUCED),
    "allclose": Doc("A 0-d bool tensor; not differentiable.",
                    differs="Infinities are close only to themselves "
                    "(isclose(-inf, inf) is False, as NumPy)."),
    "isclose": Doc("A bool tensor of the broadcast shape; not "
                   "differentiable.",
                   differs="isclose(-inf, inf) is False, as IEEE 754 and "
                   "NumPy (Keras' formula answers True)."),
    "bitwise_and": Doc(BITS),
    "bitwise_or": Doc(BITS),
    "bitwise_xor": Doc(BITS),
    "bitwise_left_shift": Doc(BITS, y="The shift, in bits (non-negative)."),
    "bitwise_right_shift": Doc(BITS, y="The shift, in bits (non-negative)."),
    "left_shift": Doc(BITS, y="The shift, in bits (non-negative)."),
    "right_shift": Doc(BITS, y="The shift, in bits (non-negative)."),
    "bitwise_invert": Doc("An integer (or bool) tensor of x's shape and "
                          "dtype; not differentiable.",
                          summary="Elementwise bitwise NOT of an integer or "
                          "bool tensor (~x); bitwise_not is the same op."),
    "bitwise_not": Doc("An integer (or bool) tensor of x's shape and dtype; "
                       "not differentiable.",
                       summary="Elementwise bitwise NOT of an integer or "
                       "bool tensor (~x)."),
    "count_nonzero": Doc("An int32 tensor: x's shape without the counted "
                         "axes."),
    "dtype": Doc("A str: the dtype's name.",
                 example=_ex("ops.dtype(ops.ones((2,)))", "'float32'")),
    "gcd": Doc("An integer tensor of the broadcast shape; not "
               "differentiable."),
    "lcm": Doc("An integer tensor of the broadcast shape; not "
               "differentiable."),
    "is_tensor": Doc("A Python bool.",
                     differs="A NumPy array or a TensorFlow tensor is not a "
                     "pycg tensor: False."),
    "isin": Doc("A bool tensor of x1's shape; not differentiable.",
                x2="The values to look for (any shape; flattened).",
                assume_unique="Accepted for NumPy's signature; the answer "
                "is the same either way.",
                invert="Answer True where x1's element is NOT in x2."),
    "isinf": Doc(BOOL, summary="Elementwise: True where x is +inf or -inf."),
    "isneginf": Doc(BOOL, summary="Elementwise: True where x is -inf.",
                    differs="A complex x is refused by name."),
    "isposinf": Doc(BOOL, summary="Elementwise: True where x is +inf.",
                    differs="A complex x is refused by name."),
    "isreal": Doc(BOOL),
    "logical_xor": Doc(COMPARE, summary="Elementwise x1 xor x2, each number "
                       "taken as its truth (nonzero is True)."),
    "ndim": Doc("A Python int.", summary="The number of axes of x (0 for a "
                "scalar).",
                example=_ex("ops.ndim(ops.ones((2, 3)))", "2")),
    "nextafter": Doc("A float tensor of the broadcast shape.",
                     differs="nextafter(inf, 1) is the largest float (IEEE "
                     "754, NumPy); a complex input is refused by name."),
    "signbit": Doc(BOOL, summary="Elementwise: True where x's sign bit is "
                   "set (negative numbers, -0.0 and -NaN).",
                   differs="A complex x is refused by name."),
    "size": Doc("A 0-d int32 tensor.",
                differs="A tensor, as keras.ops (NumPy's size is an int)."),
    "view": Doc("A tensor of `dtype` holding x's bytes.",
                dtype="The dtype to read the bytes as (None: x's own).",
                differs="A bool x is read as its bytes, as NumPy's "
                "x.view() (TensorFlow's bitcast has no bool)."),
}
