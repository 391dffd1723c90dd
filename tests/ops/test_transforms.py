"""The tests of pycg/ops/transforms.py (the shared tables' suites:
tests/support/op_suites.py)."""
import keras
import numpy as np

from pycg import ops
from support.keras_inputs import POS, V, X, as_numpy, compare
from support.op_suites import Vjp, for_topic

TestVjp = for_topic("transforms", Vjp)


def test_jvp_matches_keras(backend):
    def f(a, b):
        return ops.sin(a) * b

    def kf(a, b):
        return keras.ops.sin(a) * b
    out, dout = ops.jvp(f, (X, POS), (POS, X))
    kx, kp = keras.ops.convert_to_tensor(X), keras.ops.convert_to_tensor(POS)
    kout, kdout = keras.ops.jvp(kf, (kx, kp), (kp, kx))
    compare("jvp", as_numpy([out, dout]), as_numpy([kout, kdout]))


def test_jvp_returns_aux(backend):
    out, dout, aux = ops.jvp(lambda a: (ops.exp(a), "aux"), (V,),
                             (np.ones_like(V),), has_aux=True)
    assert aux == "aux"
    np.testing.assert_allclose(dout.numpy(), np.exp(V), rtol=1e-6)


def test_vectorize_elementwise_matches_numpy(backend):
    # (Keras' TensorFlow backend has no vectorize: NumPy is the reference)
    got = ops.vectorize(lambda a, b: a * b + 1)(X, V[:4])
    want = np.vectorize(lambda a, b: a * b + 1)(X, V[:4])
    compare("vectorize", as_numpy(got), want)


def test_vectorize_with_a_signature_matches_numpy(backend):
    dot = ops.vectorize(lambda a, b: ops.sum(a * b), signature="(n),(n)->()")
    want = np.vectorize(lambda a, b: np.sum(a * b),
                        signature="(n),(n)->()")(X, POS[:1])
    compare("vectorize", as_numpy(dot(X, POS[:1])), want)
