"""Run under KERAS_BACKEND=torch by tests/test_to_keras_torch.py (Keras
reads its backend at import): the same small model trained by model.fit
twice, its hidden activation a pycg rule through pycg.to_keras and then the
same rule written with keras.ops.custom_gradient; a Dense kernel passed to
a pycg function as a Keras variable trains too. Prints one JSON line."""
import json
import sys

import keras
import numpy as np
from keras import ops as kops

import pycg
from pycg import ops



@pycg.custom_gradient
def softplus(x):
    e = ops.exp(x)
    return ops.log(1 + e), lambda upstream: upstream * (1 - 1 / (1 + e))


@kops.custom_gradient
def keras_softplus(x):
    e = kops.exp(x)

    def grad(*args, upstream=None):
        if upstream is None:
            (upstream,) = args
        return upstream * (1 - 1 / (1 + e))
    return kops.log(1 + e), grad


class Scale(keras.layers.Layer):
    """y = x * w, w a Keras variable handed to the pycg function."""

    def __init__(self, through_pycg, **kwargs):
        super().__init__(**kwargs)
        self.through_pycg = through_pycg

    def build(self, shape):
        self.w = self.add_weight(shape=(shape[-1],), initializer="ones")

    def call(self, x):
        if self.through_pycg:
            return pycg.to_keras(lambda x, w: x * w)(x, self.w)
        return x * self.w


def trained(through_pycg):
    keras.utils.set_random_seed(0)
    act = pycg.to_keras(softplus) if through_pycg else keras_softplus
    inputs = keras.Input((6,))
    hidden = keras.layers.Dense(16)(inputs)
    hidden = Scale(through_pycg)(keras.layers.Lambda(act)(hidden))
    m = keras.Model(inputs, keras.layers.Dense(1)(hidden))
    m.compile(optimizer=keras.optimizers.Adam(0.01), loss="mse")
    rng = np.random.default_rng(1)
    x = rng.standard_normal((64, 6)).astype("float32")
    y = np.sin(x.sum(1, keepdims=True)).astype("float32")
    history = m.fit(x, y, epochs=4, batch_size=16, verbose=0)
    return [np.asarray(w) for w in m.get_weights()], history.history["loss"]


def main():
    pycg.config.set_backend("torch")
    (pycg_weights, pycg_loss), (keras_weights, keras_loss) = (
        trained(True), trained(False))
    print(json.dumps({
        "backend": keras.backend.backend(),
        "shapes": [list(w.shape) for w in pycg_weights],
        "max_difference": max(float(np.max(np.abs(a - b)))
                              for a, b in zip(pycg_weights, keras_weights)),
        "moved": float(np.max(np.abs(pycg_weights[2] - 1.0))),
        "losses": [pycg_loss, keras_loss]}))
    sys.stdout.flush()


if __name__ == "__main__":   # (pytest's doctest collection imports it)
    main()
