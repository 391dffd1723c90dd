"""Where pycg.ops and keras.ops (on TensorFlow) give different answers, as
found by tests/support/keras_sweep.py: each row is "name/kind/what", on
every pycg backend (numpy, tensorflow, jax, torch), or "name/kind/what@backend" on
one. tests/test_ops_keras_sweep.py fails on a row listed in neither table
and on a listed row that no longer differs, so the tables stay the truth.

CHOSEN: deliberate, each with its reason; docs/keras-differences.md is
generated from it (tools/keras_differences.py) and the README's "Choices
where the peers differ" points there.

OPEN: found and not yet fixed (defects, or a choice not yet made); each one
is a bug report, not a choice. Fixing one removes its row.
"""

CHOSEN = {
    "NaN sorts last and is what argmax/argmin find, as in NumPy and JAX; "
    "TensorFlow's sort and arg extrema place NaN by position, so Keras' "
    "order there is no order":
        ["argmax/edges/value", "argmin/edges/value", "argsort/edges/value",
         "sort/edges/value", "unique/edges/value"],
    "IEEE 754 and NumPy at infinities, where Keras' formulas differ: "
    "hypot(-inf, inf) is inf, isclose(-inf, inf) is False, nextafter(inf, 1) "
    "is the largest float, nancumsum and nancumprod carry an inf":
        ["hypot/edges/value", "isclose/edges/value", "nextafter/edges/value",
         "nancumsum/edges/value", "nancumprod/edges/value"],
    "a NaN in the input makes sparsemax NaN, as in NumPy and JAX (Keras on "
    "TensorFlow takes the max past the NaN)":
        ["sparsemax/edges/value"],
    "the derivative, or its one-sided limit, where Keras' gradient "
    "differentiates its own formula into NaN or another value: celu at 0 "
    "is 1 (Keras 2), sinc at 0 is 0, cbrt at 0 is inf, logaddexp(0, 0) "
    "splits 1/2 and 1/2, vander at 0, fmod by the quotient its value uses":
        ["celu/edges/gradient", "sinc/edges/gradient", "cbrt/edges/gradient",
         "logaddexp/edges/gradient", "logaddexp2/edges/gradient",
         "vander/edges/gradient", "fmod/edges/gradient",
         "fmod/ordinary/gradient", "hard_swish/edges/gradient@numpy",
         "hard_silu/edges/gradient@numpy", "hard_swish/edges/gradient@jax",
         "hard_silu/edges/gradient@jax", "hard_swish/edges/gradient@torch",
         "hard_silu/edges/gradient@torch"],
    "integer and bool inputs of activations and normalizations compute in "
    "floatx (Keras on TensorFlow truncates relu6, soft_shrink and the "
    "normalizations of integers to integers); vander of bools counts in "
    "int32 (NumPy: integers)":
        ["relu6/int/dtype", "soft_shrink/int/dtype", "soft_shrink/bool/dtype",
         "layer_normalization/int/dtype", "layer_normalization/bool/dtype",
         "rms_normalization/int/dtype", "rms_normalization/bool/dtype",
         "sparsemax/bool/pycg answers", "vander/bool/dtype"],
    "a complex input is refused by name where the op has no complex meaning "
    "(Keras answers by comparing or truncating real parts, or through "
    "TensorFlow's principal branch)":
        ["hard_shrink/complex/pycg raises", "soft_shrink/complex/pycg raises",
         "sparse_plus/complex/pycg raises", "isneginf/complex/pycg raises",
         "isposinf/complex/pycg raises", "signbit/complex/pycg raises",
         "i0/complex/pycg raises", "cbrt/complex/pycg raises",
         "nextafter/complex/pycg raises", "bincount/complex/pycg raises",
         "correlate/complex/pycg raises",
         "layer_normalization/complex/pycg raises",
         "rms_normalization/complex/pycg raises"],
    "NumPy's dtype: var and norm of complex numbers are real; nanmean of "
    "complex numbers keeps the imaginary part (Keras drops it)":
        ["var/complex/dtype", "norm/complex/dtype", "nanmean/complex/dtype"],
    "the max, min or median over nothing has no value: a pycg error naming "
    "the op (Keras' max raises too; its nanmax answers nan, ptp -inf)":
        ["nanmax/empty/pycg raises", "nanmin/empty/pycg raises",
         "nanmedian/empty/pycg raises", "ptp/empty/pycg raises"],
    "NumPy's shape rules: fliplr needs two dimensions, stack one tensor":
        ["fliplr/empty/pycg raises", "stack/empty/pycg raises"],
    "Keras cannot read back its own bfloat16 result here (convert_to_numpy "
    "fails); pycg answers in bfloat16":
        ["norm/bfloat16/pycg answers", "logsumexp/bfloat16/pycg answers"],
    "view of bools reinterprets their bytes as NumPy's x.view() does "
    "(TensorFlow's bitcast has no bool)":
        ["view/bool/pycg answers"],
    "where Keras on TensorFlow has no kernel, both backends answer as the "
    "peers that have one: softmax, log_softmax and logsumexp of complex "
    "numbers as scipy.special's; view_as_real of bools as NumPy's real and "
    "imag read them (the bools, and False)":
        ["softmax/complex/pycg answers", "log_softmax/complex/pycg answers",
         "logsumexp/complex/pycg answers", "view_as_real/bool/pycg answers"],
}

OPEN = {
    "elu and selu at NaN: TensorFlow's EluGrad/SeluGrad pass the upstream "
    "(1, 1.0507), pycg gives 0":
        ["elu/edges/gradient", "selu/edges/gradient"],
    "softsign at +-inf: pycg's gradient is NaN, the derivative's limit 0":
        ["softsign/edges/gradient"],
    "the backends disagree at -inf (hard_silu, hard_swish: 0 on numpy, "
    "jax and torch, NaN on tensorflow) and at +-inf (i0: inf on numpy, NaN on "
    "tensorflow and jax)":
        ["hard_silu/edges/gradient@tensorflow",
         "hard_swish/edges/gradient@tensorflow", "i0/edges/gradient@numpy"],
    "nextafter's gradient with respect to x1 is 0; the derivative is 1":
        ["nextafter/ordinary/gradient"],
    "nextafter of integers and bools: float64/float16 values on numpy and "
    "torch, an error on tensorflow (Keras: floatx)":
        ["nextafter/int/dtype@numpy", "nextafter/bool/dtype@numpy",
         "nextafter/int/dtype@torch", "nextafter/bool/dtype@torch",
         "nextafter/int/pycg raises@tensorflow",
         "nextafter/bool/pycg raises@tensorflow"],
    "bfloat16: nextafter, logaddexp and logaddexp2 fail on tensorflow; "
    "floor_divide's value on numpy; rfft and nan_to_num change the dtype":
        ["nextafter/bfloat16/pycg raises@tensorflow",
         "logaddexp/bfloat16/pycg raises@tensorflow",
         "logaddexp2/bfloat16/pycg raises@tensorflow",
         "floor_divide/bfloat16/value@numpy", "rfft/bfloat16/dtype",
         "nan_to_num/bfloat16/dtype"],
    "empty inputs: bincount and sparsemax refuse what Keras answers ([])":
        ["bincount/empty/pycg raises", "sparsemax/empty/pycg raises"],
    "bincount: negative values answer (NumPy and Keras refuse), bools "
    "refused (Keras counts them)":
        ["bincount/int/pycg answers", "bincount/bool/pycg raises"],
}

# Keras' own answer here depends on the CPU: with oneDNN (TensorFlow's
# default on AVX-512 CPUs) softmax at NaN is NaN only where the NaN is and
# correlate of empty inputs raises (oneDNN's convolution refuses them);
# without it both answer as pycg does on every CPU. Listed or not, these
# rows pass.
ONEDNN = {
    "Keras on TensorFlow answers as pycg without oneDNN and differently "
    "with it":
        ["softmax/edges/value", "correlate/empty/pycg answers"],
}


def rows(table, backends=("numpy", "tensorflow", "jax", "torch")):
    """The table's rows as (name, kind, backend, what) tuples, on the
    backends given (a row without "@backend" is on each of them)."""
    out = set()
    for entries in table.values():
        for entry in entries:
            spec, _, backend = entry.partition("@")
            name, kind, what = spec.split("/")
            for b in ((backend,) if backend else backends):
                if b in backends:
                    out.add((name, kind, b, what))
    return out
