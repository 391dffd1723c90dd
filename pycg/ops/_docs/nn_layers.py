"""pycg.ops docstrings: convolution, pooling, normalisation, attention,
CTC (pycg/ops/convolution.py, pooling.py, spatial.py, normalization.py,
attention.py, ctc.py)."""
from pycg.ops._docs.glossary import Doc

CONV_OUT = ("A tensor (batch, spatial..., filters) (channels_first: "
            "(batch, filters, spatial...)) in the promoted dtype.")
POOLED = ("A tensor of inputs' batch and channels, with the pooled spatial "
          "size, in inputs' dtype.")
NORMED = "A float tensor of x's shape (floatx for an integer or bool x)."
INTS = ("An integer or bool x computes in floatx (Keras on TensorFlow "
        "truncates it to integers); a complex x is refused by name.")
BLOCK_PAD = "The zero padding of each spatial side: an int or (ph, pw)."

DOCS = {
    "conv": Doc(CONV_OUT, inputs="The input (batch, spatial..., channels).",
                kernel="The kernel (spatial..., channels / groups, "
                "filters)."),
    "conv_transpose": Doc(CONV_OUT, inputs="The input (batch, spatial..., "
                          "channels).", kernel="The kernel (spatial..., "
                          "filters, channels).",
                          output_padding="Extra rows and columns added to "
                          "the right of each spatial axis (None: none)."),
    "depthwise_conv": Doc("A tensor (batch, spatial..., channels * "
                          "multiplier) in the promoted dtype.",
                          kernel="The kernel (spatial..., channels, "
                          "multiplier)."),
    "separable_conv": Doc(CONV_OUT, depthwise_kernel="The depthwise kernel "
                          "(spatial..., channels, multiplier).",
                          pointwise_kernel="The 1x1 kernel (1..., channels "
                          "* multiplier, filters)."),
    "max_pool": Doc(POOLED, strides="The step between windows (None: "
                    "pool_size)."),
    "average_pool": Doc(POOLED, strides="The step between windows (None: "
                        "pool_size)."),
    "adaptive_average_pool": Doc(POOLED),
    "adaptive_max_pool": Doc(POOLED),
    "depth_to_space": Doc("A tensor of x's dtype (shape above)."),
    "space_to_depth": Doc("A tensor of x's dtype (shape above)."),
    "unfold": Doc("A tensor (N, C*kH*kW, L) of x's dtype.",
                  padding=BLOCK_PAD),
    "fold": Doc("A tensor (N, C, H, W) of x's dtype.",
                x="The columns, (N, C*kH*kW, L).", padding=BLOCK_PAD),
    "batch_normalization": Doc(NORMED, mean="The mean, 1-d along `axis`.",
                               variance="The variance, 1-d along `axis`.",
                               axis="The axis of x the statistics run "
                               "along.", offset="Added after scaling "
                               "(None: 0).", scale="The factor (None: 1)."),
    "layer_normalization": Doc(NORMED, gamma="The scale (None: 1).",
                               beta="The offset (None: 0).",
                               kwargs="rms_scaling=True (see the summary).",
                               differs=INTS),
    "rms_normalization": Doc(NORMED, scale="The factor, broadcasting "
                             "against x (None: 1).", differs=INTS),
    "normalize": Doc(NORMED, order="The norm's order (2: Euclidean)."),
    "moments": Doc("A pair (mean, variance), x's shape without `axes` (kept "
                   "as length 1 with keepdims).",
                   synchronized="Accepted for keras.ops' signature: pycg "
                   "runs on one device, so it changes nothing."),
    "dot_product_attention": Doc(
        "A tensor of query's shape (batch, T, heads, dim).",
        query="The queries (batch, T, heads, dim).",
        key="The keys (batch, S, kv_heads, dim).",
        value="The values (batch, S, kv_heads, dim).",
        bias="Added to the logits (None: none).",
        mask="A bool mask: True keeps the position (None: all kept).",
        scale="The logits' factor (None: 1 / sqrt(dim)).",
        is_causal="Keep only the positions at or before the query's.",
        flash_attention="Must be None or False: pycg has no flash kernel.",
        attn_logits_soft_cap="If given, the logits become cap * tanh(logits "
        "/ cap)."),
    "ctc_loss": Doc("A float tensor (batch,) of losses.",
                    target="The labels (batch, max_label_length), integers.",
                    output="The logits (batch, time, classes).",
                    target_length="The length of each label sequence.",
                    output_length="The number of valid time steps of each "
                    "entry."),
    "ctc_decode": Doc("A pair (decoded, scores) (shapes above).",
                      inputs="The logits (batch, time, classes).",
                      sequence_lengths="The valid time steps per entry.",
                      strategy="'greedy' (the only one pycg has; "
                      "'beam_search' is refused).",
                      beam_width="Accepted for keras.ops' signature "
                      "(greedy decoding ignores it).",
                      top_paths="Accepted for keras.ops' signature (greedy "
                      "decoding finds one path).",
                      merge_repeated="Merge repeated classes (then drop "
                      "blanks)."),
}
