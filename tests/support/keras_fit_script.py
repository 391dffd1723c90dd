"""Run in a fresh interpreter per Keras backend (KERAS_BACKEND is read at
Keras' import) by tests/test_to_keras.py: one SGD step of a model whose
layer uses a pycg rule that triples the gradient, beside the same model
without it; then model.fit, save and load; then one SGD step through a
pycg rule that draws a dropout mask. Prints one JSON line."""
import json
import os
import sys
import tempfile

import keras
import numpy as np

import pycg

pycg.config.set_backend(keras.backend.backend())


@pycg.custom_gradient
def triple_gradient(x):
    return x + 0.0, lambda upstream: 3 * upstream


@keras.saving.register_keras_serializable(package="pycg_test")
class TripleGradient(keras.layers.Layer):
    def call(self, x):
        return pycg.to_keras(triple_gradient)(x)


def model(rule):
    inputs = keras.Input((2,))
    dense = keras.layers.Dense(1, use_bias=False, kernel_initializer="ones")
    out = dense(inputs)
    m = keras.Model(inputs, TripleGradient()(out) if rule else out)
    m.compile(optimizer=keras.optimizers.SGD(0.25), loss="mse")
    return m


x = np.array([[1.0, 2.0]], "float32")
y = np.array([[0.0]], "float32")
moves = []
for rule in (False, True):
    m = model(rule)
    before = np.array(m.get_weights()[0])
    m.fit(x, y, epochs=1, batch_size=1, verbose=0)
    moves.append((np.array(m.get_weights()[0]) - before).ravel().tolist())

rng = np.random.default_rng(0)
m = model(True)
history = m.fit(rng.standard_normal((64, 2)).astype("float32"),
                rng.standard_normal((64, 1)).astype("float32") * 0.1,
                epochs=3, batch_size=16, verbose=0)
path = os.path.join(tempfile.mkdtemp(), "m.keras")
m.save(path)
loaded = keras.models.load_model(path)
# dropout in a rule: out = dense(1) = ones(8) dropped at rate 0.5 (kept
# entries scaled to 2), mse against 0, so d loss / d kernel[0, j] is
# 2 / 8 * s_j * s'_j, with s the forward's mask and s' the backward's
gen = pycg.random.SeedGenerator(11)
inputs = keras.Input((1,))
dense = keras.layers.Dense(8, use_bias=False, kernel_initializer="ones")
dropped = keras.layers.Lambda(pycg.to_keras(
    lambda v: pycg.random.dropout(v, 0.5, seed=gen)))(dense(inputs))
drop_model = keras.Model(inputs, dropped)
drop_model.compile(optimizer=keras.optimizers.SGD(0.25), loss="mse")
before = np.array(drop_model.get_weights()[0])
drop_model.fit(np.ones((1, 1), "float32"), np.zeros((1, 8), "float32"),
               epochs=1, batch_size=1, verbose=0)
dropout = {"moves": (np.array(drop_model.get_weights()[0]) -
                     before).ravel().tolist(),
           "state": gen.state.numpy().tolist()}

print(json.dumps({
    "dropout": dropout,
    "backend": keras.backend.backend(), "moves": moves,
    "losses": history.history["loss"],
    "same_after_load": bool(np.array_equal(m.predict(x, verbose=0),
                                           loaded.predict(x, verbose=0))),
    "weights": np.array(m.get_weights()[0]).ravel().tolist(),
    "loaded_weights": np.array(loaded.get_weights()[0]).ravel().tolist()}))
sys.stdout.flush()
