"""The CNN rows of bench/train.py: one full-batch Adam step of a small
convolutional classifier on 8x8 images of digits.

No image set ships with this environment (scikit-learn, whose 8x8 digits
the issue names, is not installed, and Keras' datasets download), so the
images are made here, bundle-free: the ten digits of a 3x5 bitmap font,
each drawn at a random offset in an 8x8 frame, scaled up 1.5x (nearest),
with a random stroke intensity and Gaussian noise; fixed seed.

Model (Keras layers, channels last, float32): Conv2D(8, 3, 'same', relu),
MaxPooling2D(2), Conv2D(16, 3, 'same', relu), AveragePooling2D(2),
Flatten, Dense(10); loss: mean sparse softmax cross-entropy; batch 512.
"""
import keras
import numpy as np

import pycg
from bench._peers import on_backend, tf
from pycg import ops

BATCH, LR, FIT_STEPS = 512, 1e-3, 50
FONT = ["111101101101111", "010110010010111", "111001111100111",
        "111001111001111", "101101111001001", "111100111001111",
        "111100111101111", "111001010010010", "111101111101111",
        "111101111001111"]


def _image(digit, rng):
    glyph = np.array([int(c) for c in FONT[digit]], float).reshape(5, 3)
    glyph = glyph.repeat(3, 0).repeat(3, 1)[::2, ::2]   # 8x5
    frame = np.zeros((8, 8))
    left = rng.integers(0, 4)
    frame[:, left:left + glyph.shape[1]] = glyph * rng.uniform(0.6, 1.0)
    return frame + rng.normal(0, 0.15, (8, 8))


def data(seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 10, BATCH).astype(np.int32)
    x = np.stack([_image(d, rng) for d in y])[..., None].astype(np.float32)
    shapes = [(3, 3, 1, 8), (8,), (3, 3, 8, 16), (16,), (64, 10), (10,)]
    params = [(rng.normal(0, np.prod(s[:-1]) ** -0.5, s) if len(s) > 1
               else np.zeros(s)).astype(np.float32) for s in shapes]
    return x, y, params


# ---- pycg -------------------------------------------------------------------
def _logits(x, k1, b1, k2, b2, w, b):
    h = ops.relu(ops.conv(x, k1, padding="same") + b1)
    h = ops.max_pool(h, 2)
    h = ops.relu(ops.conv(h, k2, padding="same") + b2)
    h = ops.average_pool(h, 2)
    return ops.matmul(ops.reshape(h, (h.shape[0], -1)), w) + b


def _pycg_step(x, y, params):
    variables = [pycg.Variable(p) for p in params]
    opt = pycg.optimizers.Adam(learning_rate=LR)
    opt.build(variables)

    def step():
        with pycg.GradientTape() as tape:
            loss = ops.mean(ops.sparse_categorical_crossentropy(
                y, _logits(x, *variables), from_logits=True))
        opt.apply(tape.gradient(loss, variables), variables)
        return loss
    return step


def pycg_eager(backend):
    def make(x, y, params):
        pycg.config.set_backend(backend)
        step = _pycg_step(pycg.constant(x), pycg.constant(y), params)
        return on_backend(backend, step)
    return make


def pycg_compiled(x, y, params):
    pycg.config.set_backend("tensorflow")
    step = pycg.function(_pycg_step(pycg.constant(x), pycg.constant(y),
                                    params))
    return on_backend("tensorflow", step)


# ---- Keras and TensorFlow ---------------------------------------------------
def _keras_model(params):
    layers = keras.layers
    model = keras.Sequential([
        keras.Input((8, 8, 1)),
        layers.Conv2D(8, 3, padding="same", activation="relu"),
        layers.MaxPooling2D(2),
        layers.Conv2D(16, 3, padding="same", activation="relu"),
        layers.AveragePooling2D(2), layers.Flatten(), layers.Dense(10)])
    model.set_weights(params)
    model.compile(optimizer=keras.optimizers.Adam(learning_rate=LR),
                  loss=keras.losses.SparseCategoricalCrossentropy(
                      from_logits=True))
    return model


def keras_train_on_batch(x, y, params):
    model = _keras_model(params)
    return lambda: model.train_on_batch(x, y)


def keras_fit(x, y, params):
    """One call runs FIT_STEPS full-batch steps; its time is divided by
    FIT_STEPS."""
    model = _keras_model(params)
    xs, ys = np.tile(x, (FIT_STEPS, 1, 1, 1)), np.tile(y, FIT_STEPS)

    def run():
        hist = model.fit(xs, ys, batch_size=BATCH, epochs=1, shuffle=False,
                         verbose=0)
        return hist.history["loss"][-1]
    return run


def tf_custom_loop(x, y, params):
    variables = [tf.Variable(p) for p in params]
    opt = keras.optimizers.Adam(learning_rate=LR)
    opt.build(variables)
    x, y = tf.constant(x), tf.constant(y)

    @tf.function
    def step():
        k1, b1, k2, b2, w, b = variables
        with tf.GradientTape() as tape:
            h = tf.nn.relu(tf.nn.conv2d(x, k1, 1, "SAME") + b1)
            h = tf.nn.max_pool2d(h, 2, 2, "VALID")
            h = tf.nn.relu(tf.nn.conv2d(h, k2, 1, "SAME") + b2)
            h = tf.nn.avg_pool2d(h, 2, 2, "VALID")
            logits = tf.matmul(tf.reshape(h, (BATCH, -1)), w) + b
            loss = tf.reduce_mean(
                tf.nn.sparse_softmax_cross_entropy_with_logits(y, logits))
        opt.apply_gradients(zip(tape.gradient(loss, variables), variables))
        return loss
    return step


ROWS = {
    "pycg eager, numpy backend": (pycg_eager("numpy"), 1),
    "pycg eager, tensorflow backend": (pycg_eager("tensorflow"), 1),
    "pycg.function (tensorflow)": (pycg_compiled, 1),
    "Keras train_on_batch": (keras_train_on_batch, 1),
    f"Keras fit ({FIT_STEPS} full batches per call)": (keras_fit, FIT_STEPS),
    "TF custom loop (GradientTape + tf.function)": (tf_custom_loop, 1),
}
