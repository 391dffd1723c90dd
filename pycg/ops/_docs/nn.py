"""pycg.ops docstrings: activations and losses (pycg/ops/nn.py,
pycg/ops/activations.py, pycg/ops/losses.py)."""
from pycg.ops._docs.elementwise import _ex
from pycg.ops._docs.glossary import Doc

COMPLEX_SOFT = ("Complex x is answered on both backends as "
                "scipy.special does (Keras on TensorFlow has no complex "
                "kernel).")

ACT = ("A tensor of x's shape: x's float dtype, floatx for an integer or "
       "bool x.")
FLOATX_INTS = ("An integer or bool x computes in floatx (Keras on "
               "TensorFlow truncates it to integers).")
NO_COMPLEX = "A complex x is refused by name (it has no order)."
AXIS = "The axis to normalise along (negative counts from the last)."
LOSS = "A float tensor: the loss per entry (target's shape without `axis`)."

DOCS = {
    "relu": Doc("A tensor of x's shape and dtype.",
                example=_ex("ops.relu([-1.0, 2.0]).numpy().tolist()",
                            "[0.0, 2.0]")),
    "relu6": Doc(ACT, differs=FLOATX_INTS),
    "sigmoid": Doc(ACT, example=_ex("float(ops.sigmoid(0.0))", "0.5")),
    "softplus": Doc(ACT),
    "silu": Doc(ACT),
    "swish": Doc(ACT),
    "elu": Doc(ACT, alpha="The value elu approaches as x -> -inf is "
               "-alpha."),
    "celu": Doc(ACT, alpha="The scale of the negative part (> 0).",
                differs="Its gradient at 0 is 1, the derivative (Keras' "
                "formula gives another value)."),
    "selu": Doc(ACT),
    "gelu": Doc(ACT, approximate="Use the tanh approximation (else the "
                "exact erf form)."),
    "glu": Doc("A tensor of x's shape with `axis` halved.",
               axis="The axis to halve (its length must be even)."),
    "hard_sigmoid": Doc(ACT),
    "hard_silu": Doc(ACT, differs="Its gradient at the kinks is the "
                     "one-sided derivative on the numpy backend (Keras' "
                     "formula gives another value)."),
    "hard_swish": Doc(ACT, differs="Its gradient at the kinks is the "
                      "one-sided derivative on the numpy backend (Keras' "
                      "formula gives another value)."),
    "hard_tanh": Doc(ACT),
    "hard_shrink": Doc(ACT, threshold="The half-width of the band set to "
                       "0.", differs=NO_COMPLEX),
    "soft_shrink": Doc(ACT, threshold="The amount x is moved towards 0.",
                       differs=FLOATX_INTS + " " + NO_COMPLEX),
    "tanh_shrink": Doc(ACT),
    "leaky_relu": Doc(ACT, negative_slope="The slope for x <= 0."),
    "log_sigmoid": Doc(ACT),
    "softsign": Doc(ACT),
    "sparse_plus": Doc(ACT, differs=NO_COMPLEX),
    "sparse_sigmoid": Doc(ACT),
    "squareplus": Doc(ACT, b="The smoothness (b = 0: relu)."),
    "threshold": Doc(ACT, threshold="The threshold: x is kept above it.",
                     default_value="The value where x <= threshold."),
    "sparsemax": Doc("A float tensor of x's shape (floatx for integer or "
                     "bool x), summing to 1 along axis.", axis=AXIS,
                     differs="A NaN in x makes the result NaN, as NumPy "
                     "and JAX (Keras on TensorFlow takes the max past it); "
                     "a bool x is answered in floatx."),
    "softmax": Doc(ACT + " Sums to 1 along axis.", axis=AXIS,
                   differs=COMPLEX_SOFT,
                   example=_ex("ops.softmax([0.0, 0.0]).numpy().tolist()",
                               "[0.5, 0.5]")),
    "log_softmax": Doc(ACT, axis=AXIS, differs=COMPLEX_SOFT),
    "logsumexp": Doc("A float tensor: x's shape without the reduced axes "
                     "(kept as length 1 with keepdims).",
                     differs="A bfloat16 x answers in bfloat16 (Keras "
                     "cannot read its own result back). " + COMPLEX_SOFT),
    "binary_crossentropy": Doc("A float tensor of the broadcast shape of "
                               "target and output."),
    "categorical_crossentropy": Doc(LOSS, target="The true class "
                                    "probabilities, output's shape.",
                                    axis="The class axis."),
    "sparse_categorical_crossentropy": Doc(LOSS, target="The true class of "
                                           "each entry, integers.",
                                           axis="The class axis of output."),
    "one_hot": Doc("A tensor with a new axis of num_classes, in `dtype` "
                   "(None: floatx).", x="The integer labels.",
                   axis="Where the new class axis goes."),
    "multi_hot": Doc("A tensor (rows, num_classes) in `dtype` (None: "
                     "floatx).", inputs="The integer labels, one row per "
                     "sample.", num_classes="The number of classes.",
                     axis="Where the class axis goes."),
    "psnr": Doc("A 0-d float tensor, in decibels.",
                x1="The first image.", x2="The second image, x1's shape.",
                max_val="The largest possible pixel value."),
}
