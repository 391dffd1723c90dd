"""pycg.ops docstrings: control flow, transforms, einops and updates
(pycg/ops/control_flow.py, transforms.py, einops.py, updates.py)."""
from pycg.ops._docs.glossary import Doc

TRACED = ("Eagerly a Python loop or branch; inside pycg.function, "
          "TensorFlow's own control flow, differentiable through "
          "TensorFlow's gradient.")
SEGMENTS = "A tensor (num_segments, *data.shape[1:]) of data's dtype."
UPDATED = "A tensor of inputs' shape and dtype."

DOCS = {
    "cond": Doc("What the branch taken returns.",
                pred="A bool scalar (tensor or Python bool).",
                true_fn="A function of no arguments, called when pred holds.",
                false_fn="A function of no arguments, called otherwise.",
                differs=TRACED),
    "switch": Doc("What the branch taken returns.",
                  index="Which branch, an int (clipped to the valid range).",
                  branches="A sequence of functions of the operands.",
                  differs=TRACED),
    "while_loop": Doc("The final loop variables, in loop_vars' structure.",
                      cond="A function of the loop variables: keep going "
                      "while it is true.",
                      body="A function of the loop variables returning new "
                      "ones.", loop_vars="The initial loop variables (a "
                      "tensor, tuple or list).",
                      maximum_iterations="Stop after this many iterations "
                      "(None: no limit).", differs=TRACED),
    "fori_loop": Doc("The final value.", lower="The first i, an int.",
                     upper="The end of the range, excluded.",
                     body_fun="A function (i, val) -> val.",
                     init_val="The initial value (any structure of "
                     "tensors).", differs=TRACED),
    "scan": Doc("A pair (carry, ys): the final carry and the stacked ys.",
                f="A function (carry, x) -> (carry, y).",
                init="The initial carry.",
                xs="The tensors scanned over their leading axis (None: "
                "length steps with x None).",
                length="The number of steps when xs is None.",
                unroll="Accepted for keras.ops' signature (no effect: the "
                "answer is the same).", differs=TRACED),
    "associative_scan": Doc("Tensors of elems' structure and shapes.",
                            f="An associative function (a, b) of two "
                            "batches of elements.",
                            elems="The tensors (or structure of tensors) to "
                            "scan."),
    "map": Doc("The results stacked along a new leading axis.",
               f="A function of one slice.",
               xs="The tensor (or structure of tensors) to map over."),
    "vectorized_map": Doc("The results stacked along a new leading axis.",
                          function="A function of one slice.",
                          elements="The tensor (or structure) to map over.",
                          differs="The slices run one after another "
                          "(TensorFlow's vectorized_map batches them)."),
    "vectorize": Doc("A function: the vectorized pyfunc.",
                     pyfunc="The function of scalars (or of blocks, with "
                     "signature).", excluded="Positions or names of "
                     "arguments passed through unchanged.",
                     signature="A NumPy gufunc signature such as "
                     "'(n),(n)->()' (None: elementwise)."),
    "jvp": Doc("A pair (outputs, tangent outputs), or a triple with aux.",
               fun="The function of the primals.",
               primals="The point: a tuple or list of inputs.",
               tangents="The direction: one tangent per primal.",
               has_aux="fun returns (output, aux); aux is passed back "
               "undifferentiated.",
               differs="Computed as the derivative of a VJP (no forward "
               "rules), so it runs through custom gradients too (JAX "
               "refuses jvp of a custom_vjp function)."),
    "rearrange": Doc("A tensor of tensor's dtype with the axes the pattern "
                     "names on its right side.",
                     tensor="The input tensor.",
                     pattern="An einops pattern, 'b h w -> h (b w)'.",
                     axes_lengths="The lengths of axes that the pattern "
                     "splits, by name (w1=2)."),
    "scatter": Doc("A tensor of `shape` and values' dtype.",
                   indices="The coordinates: (n, len(shape)) ints (or "
                   "fewer columns, for whole slices).",
                   values="What to add at each row of indices."),
    "scatter_update": Doc(UPDATED, indices="The coordinates to update: "
                          "(n, rank) ints.", updates="The new values, one "
                          "per row of indices.",
                          reduction="None (replace), 'add', 'mul', 'max' "
                          "or 'min'."),
    "slice_update": Doc(UPDATED, updates="The block to write."),
    "saturate_cast": Doc("A tensor of x's shape in `dtype`.",
                         dtype="The dtype to convert to."),
    "segment_sum": Doc(SEGMENTS),
    "segment_max": Doc(SEGMENTS),
    "segment_min": Doc(SEGMENTS),
    "segment_prod": Doc(SEGMENTS),
}
