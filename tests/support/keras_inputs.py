"""Inputs and comparison helpers shared by the tests of pycg.ops against
keras.ops (tests/test_ops_keras_*.py). Keras runs on its TensorFlow
backend."""
import os

os.environ["KERAS_BACKEND"] = "tensorflow"

import keras  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import pycg  # noqa: E402

RNG = np.random.default_rng(7)
X = RNG.standard_normal((3, 4)).astype("float32")
V = RNG.standard_normal(5).astype("float32")
W = RNG.standard_normal(5).astype("float32")
X3 = RNG.standard_normal((2, 3, 4)).astype("float32")
SQ = (RNG.standard_normal((3, 3)) + 3 * np.eye(3)).astype("float32")
SYM = (SQ + SQ.T).astype("float32")
SPD = (SQ @ SQ.T).astype("float32")
TALL = RNG.standard_normal((4, 3)).astype("float32")
POS = RNG.uniform(0.5, 2.0, (3, 4)).astype("float32")
UNIT = RNG.uniform(-0.9, 0.9, (3, 4)).astype("float32")
BIG = RNG.uniform(1.1, 3.0, (3, 4)).astype("float32")
NANS = np.array([[1.0, np.nan, 3.0, -2.0], [np.nan, np.nan, 0.5, 4.0],
                 [2.0, 1.0, np.inf, -np.inf]], "float32")
INFS = np.array([1.0, np.inf, -np.inf, np.nan, 0.0, -0.0], "float32")
I = np.array([[3, 0, 2, 5], [1, 1, 4, 0], [6, 2, 0, 3]], "int32")  # noqa: E741 (I and J: the integer inputs)
J = np.array([[1, 2, 3, 4], [4, 3, 2, 1], [2, 2, 2, 2]], "int32")
B = I > 1
IDS = np.array([0, 0, 2, 1, 2], "int32")
TIES = np.array([[1.0, 3.0, 3.0, 0.0], [2.0, 2.0, 2.0, 2.0]], "float32")
SIG = RNG.standard_normal(32).astype("float32")


def c(name, *args, **kwargs):
    return pytest.param(name, args, kwargs, id=f"{name}-{len(args)}-" +
                        ",".join(sorted(kwargs)))


def as_numpy(v):
    if isinstance(v, (tuple, list)):
        return [as_numpy(e) for e in v]
    return np.asarray(keras.ops.convert_to_numpy(v) if not isinstance(
        v, pycg.Tensor) else v.numpy())


def compare(name, got, want):
    if isinstance(want, (tuple, list)):
        assert isinstance(got, (tuple, list)) and len(got) == len(want), name
        for g, w in zip(got, want):
            compare(name, g, w)
        return
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, f"{name}: shape {got.shape} != " \
        f"{want.shape}"
    assert got.dtype == want.dtype, \
        f"{name}: dtype {got.dtype} where Keras gives {want.dtype}"
    np.testing.assert_allclose(got.astype(np.float64),
                               want.astype(np.float64), rtol=2e-5,
                               atol=2e-5, equal_nan=True, err_msg=name)
