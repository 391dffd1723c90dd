"""Activations on integer, bool and complex inputs: integers and bools
compute in floatx (Keras' answer on the same numbers as floats; Keras on
TensorFlow has no kernel for them), complex inputs get TensorFlow's answer
where its kernels define one and a pycg error elsewhere, never their real
part in silence."""
import os

os.environ["KERAS_BACKEND"] = "tensorflow"

import keras  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from pycg import ops  # noqa: E402

INTS = np.array([3, -1, 0, 2], np.int32)
BOOLS = np.array([True, False, True])
COMPLEX = np.array([1 + 2j, -0.5 + 0.1j, 3 - 1j], np.complex64)
FLOAT_ACTIVATIONS = ["sigmoid", "softplus", "silu", "gelu", "elu", "selu",
                     "celu", "log_sigmoid", "hard_sigmoid", "softsign",
                     "hard_silu", "leaky_relu", "relu6", "swish"]
REAL_ONLY = ["softplus", "gelu", "elu", "selu", "celu", "log_sigmoid",
             "hard_sigmoid", "hard_silu", "hard_tanh", "leaky_relu", "relu6",
             "softsign", "sparse_sigmoid", "hard_shrink", "soft_shrink",
             "sparse_plus", "relu"]


@pytest.mark.parametrize("name", FLOAT_ACTIVATIONS)
@pytest.mark.parametrize("x", [INTS, BOOLS], ids=["int32", "bool"])
def test_integer_and_bool_inputs_compute_in_floatx(backend, name, x):
    want = keras.ops.convert_to_numpy(
        getattr(keras.ops, name)(x.astype(np.float32)))
    got = getattr(ops, name)(x).numpy()
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("name", REAL_ONLY)
def test_complex_input_to_a_real_activation_is_refused(backend, name):
    with pytest.raises(TypeError, match=rf"pycg\.ops\.{name}: expected a "
                       r"real .*got complex64"):
        getattr(ops, name)(COMPLEX)


@pytest.mark.parametrize("name", ["swish", "tanh_shrink", "squareplus"])
def test_complex_activations_tensorflow_defines_match_it(backend, name):
    want = keras.ops.convert_to_numpy(getattr(keras.ops, name)(COMPLEX))
    got = getattr(ops, name)(COMPLEX).numpy()
    assert got.dtype == np.complex64
    np.testing.assert_allclose(got, want, rtol=1e-5)


def test_relu_of_bool_is_refused_and_of_integers_stays_integer(backend):
    with pytest.raises(TypeError, match=r"pycg\.ops\.relu: expected a real "
                       r"number tensor, got bool"):
        ops.relu(BOOLS)
    got = ops.relu(INTS).numpy()
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got, np.maximum(INTS, 0))
