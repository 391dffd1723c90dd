"""What one parameter name means across pycg.ops, so that `axis` reads
the same in every op's Args: an op's docstring gives Args only for the
parameters whose meaning is its own, and `docs.compose` adds the others
from here, in signature order."""

TENSOR = "a Tensor, or anything ops.convert_to_tensor takes (a NumPy array, "
TENSOR += "a nested list, a Python number)."

ARGS = {
    "x": "The input: " + TENSOR,
    "x1": "The first operand: " + TENSOR,
    "x2": "The second operand: " + TENSOR + " Broadcasts against x1.",
    "y": "The second operand: " + TENSOR + " Broadcasts against x.",
    "a": "The matrix (or batch of matrices): " + TENSOR,
    "b": "The right-hand side: " + TENSOR,
    "xs": "A sequence (list or tuple) of tensors.",
    "inputs": "The input: " + TENSOR,
    "axis": "The axis (or tuple of axes) to work along; negative counts "
            "from the last. None: every axis (the flattened tensor).",
    "axes": "The axes to work along; negative counts from the last.",
    # (ops whose axis is one int, or one int with None for the flattened
    # tensor, read these instead; see AXIS_ONE and AXIS_ONE_OR_FLAT)
    "axis:one": "The axis, an int; negative counts from the last.",
    "axis:one_or_flat": "The axis, an int; negative counts from the last. "
                        "None: the flattened tensor.",
    "axis1": "The first axis of the plane (negative counts from the last).",
    "axis2": "The second axis of the plane (negative counts from the last).",
    "keepdims": "Keep each reduced axis as an axis of length 1, so the "
                "result broadcasts against the input.",
    "dtype": "The result's dtype, a name ('float32', pycg.float32) or a "
             "NumPy dtype. None: the inputs' dtype, or floatx "
             "(pycg.config.floatx()) for Python floats.",
    "shape": "A shape: a tuple of non-negative ints (an int for 1-d).",
    "k": "The diagonal: 0 the main one, > 0 above it, < 0 below it.",
    "offset": "The diagonal: 0 the main one, > 0 above it, < 0 below it.",
    "data_format": "'channels_last' (batch, spatial..., channels) or "
                   "'channels_first' (batch, channels, spatial...). None: "
                   "'channels_last', as Keras' default.",
    "padding": "'valid' (no padding: windows inside the input) or 'same' "
               "(zero padding so the output has ceil(size / stride) "
               "positions).",
    "strides": "The step between windows, an int or one per spatial axis.",
    "dilation_rate": "The spacing between kernel taps, an int or one per "
                     "spatial axis.",
    "pool_size": "The window's size, an int or one per spatial axis.",
    "kernel": "The kernel tensor (layout below).",
    "sorted": "Whether the result comes sorted (segment_*: whether "
              "segment_ids are already sorted, a promise that lets a "
              "backend go faster; the answer is the same).",
    "indices_or_sections": "An int N (N equal sections; the axis must "
                           "divide) or a sorted list of split points.",
    "start": "The first value (or an array of first values).",
    "stop": "The last value, included when `endpoint` (or an array).",
    "num": "How many values.",
    "endpoint": "Whether `stop` is the last value (else excluded).",
    "epsilon": "Added to the variance (or norm) before dividing, for "
               "stability. None: Keras' default for the op.",
    "target": "The true labels.",
    "output": "The predictions (probabilities, or logits with "
              "from_logits=True).",
    "from_logits": "Whether `output` holds logits (unnormalised) rather than "
                   "probabilities.",
    "sparse": "Must be False: pycg tensors are dense (True is refused "
              "with an error).",
    "fft_length": "The transform's length (the signal is cut or "
                  "zero-padded to it).",
    "sequence_length": "The frame (window) length in samples.",
    "sequence_stride": "The hop between frames in samples.",
    "window": "The window: 'hann', 'hamming', None (a box) or a 1-d tensor "
              "of length sequence_length.",
    "center": "Whether x is padded so frame t is centred on sample t * "
              "sequence_stride (reflect padding).",
    "q": "The quantiles (or percentiles), a number or a 1-d tensor.",
    "method": "How a quantile between two data points is found: 'linear', "
              "'lower', 'higher', 'midpoint' or 'nearest' (NumPy's).",
    "data": "The values to reduce; its first axis is segmented.",
    "segment_ids": "The segment (an int) of each row of data, 1-d, as long "
                   "as data's first axis.",
    "num_segments": "The number of segments. None: max(segment_ids) + 1.",
    "indices": "The indices: " + TENSOR,
    "fill_value": "The value every element takes.",
    "mode": "The op's mode (one of the names below).",
    "upper": "Whether the triangular factor is upper (else lower).",
    "rtol": "The relative tolerance.",
    "atol": "The absolute tolerance.",
    "equal_nan": "Whether two NaNs count as close.",
    "threshold": "The threshold.",
    "alpha": "The slope (scale) of the negative part.",
    "n": "How many (see the summary).",
    "M": "The number of columns. None: as many as rows (N).",
    "N": "The number of rows.",
    "lower": "Whether `a` is lower triangular (else upper).",
    "f": "A Python function of tensors.",
    "operands": "The arguments passed to the chosen function.",
    "reverse": "Whether to run from the last element to the first.",
    "weights": "Per-element weights: " + TENSOR,
    "scale": "A factor (see the summary); None: 1.",
    "mask_index": "The class index of the blank label.",
    "block_size": "The block's side length b.",
    "output_size": "The output's spatial size: an int or one per spatial "
                   "axis.",
    "kernel_size": "The block's size (kh, kw), or an int for both.",
    "dilation": "The spacing between block elements: an int or (dh, dw).",
    "stride": "The step between blocks: an int or (sh, sw).",
    "index": "Which one (an int or an int tensor).",
    "length": "The output's length; None: as the input gives.",
    "beta": "The shape parameter (see the summary).",
    "kwargs": "Keras' other keyword arguments (see the summary; unknown "
              "ones are refused).",
    "rcond": "Singular values below rcond times the largest count as zero. "
             "None: max(m, n) times the dtype's eps.",
    "initial": "A value the result starts from (None: none).",
    "num_classes": "The number of classes (the length of the new axis).",
    "repeats": "How many times (an int, or one per element / axis).",
    "values": "The values: " + TENSOR,
    "updates": "The new values: " + TENSOR,
    "start_indices": "The block's first index along each axis, ints.",
    "key": "An index: ints, slices, None, Ellipsis, int or bool tensors "
           "(NumPy's rules).",
    "bins": "The bins (see the summary).",
}

AXIS_ONE = frozenset(
    "linspace logspace geomspace diff trapezoid stack split array_split "
    "unstack softmax log_softmax glu sparsemax normalize layer_normalization "
    "rms_normalization categorical_crossentropy sparse_categorical_crossentropy "
    "one_hot multi_hot batch_normalization associative_scan argpartition "
    "concatenate".split())
AXIS_ONE_OR_FLAT = frozenset(
    "argmax argmin nanargmax nanargmin cumsum cumprod nancumsum nancumprod "
    "sort argsort take take_along_axis repeat append unique".split())


def arg_text(op, param):
    """The glossary's text for `param` of the op `op`."""
    if param == "axis" and op in AXIS_ONE:
        return ARGS["axis:one"]
    if param == "axis" and op in AXIS_ONE_OR_FLAT:
        return ARGS["axis:one_or_flat"]
    return ARGS[param]
