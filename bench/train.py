"""Training-loop speed per step (issue 14): one full-batch Adam step of a
small MLP classifier, pycg against Keras and a TensorFlow custom loop.

Model: 20 inputs, 64 tanh units, 3 logits; loss: mean sparse softmax
cross-entropy; batch 512, float32, Adam(learning_rate=1e-3); data and
initial weights from a fixed NumPy seed, the same for every row. A step
is forward + gradient + the optimizer's update. Rows:

- pycg eager, numpy and tensorflow backends: GradientTape, then
  pycg.optimizers.Adam.apply;
- pycg.function: the same step compiled into one tf.function;
- Keras train_on_batch: one compiled Keras step per call;
- Keras fit: model.fit over 200 full batches in one epoch, per step;
- TF custom loop: tf.GradientTape + keras.optimizers.Adam in tf.function.

Before timing, every row runs 5 steps from the same weights and its loss
must match the TF custom loop's (a check, not timed). The rows are timed
interleaved (bench._timing.measure), medians; prints a Markdown table.

With --model cnn, the same rows train the small convolutional network of
bench/cnn.py (conv, max and average pooling) instead of the MLP.

    PYTHONPATH=$PWD .venv/bin/python bench/train.py [--budget SECONDS]
                                                    [--model mlp|cnn]
"""
import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from bench._peers import on_backend, tf  # noqa: E402
from bench._timing import measure, warm_up  # noqa: E402

import keras  # noqa: E402
import numpy as np  # noqa: E402

import pycg  # noqa: E402
from pycg import ops  # noqa: E402

BATCH, SIZES, LR, FIT_STEPS = 512, (20, 64, 3), 1e-3, 200


def data(seed=0):
    rng = np.random.default_rng(seed)
    n_in, n_hidden, n_out = SIZES
    x = rng.normal(size=(BATCH, n_in)).astype(np.float32)
    y = rng.integers(0, n_out, BATCH).astype(np.int32)
    params = [
        rng.normal(0, n_in ** -0.5, (n_in, n_hidden)).astype(np.float32),
        np.zeros(n_hidden, np.float32),
        rng.normal(0, n_hidden ** -0.5, (n_hidden, n_out)).astype(np.float32),
        np.zeros(n_out, np.float32),
    ]
    return x, y, params


# ---- pycg -------------------------------------------------------------------
def _pycg_step(x, y, params):
    variables = [pycg.Variable(p) for p in params]
    opt = pycg.optimizers.Adam(learning_rate=LR)
    opt.build(variables)

    def step():
        w1, b1, w2, b2 = variables
        with pycg.GradientTape() as tape:
            logits = ops.matmul(ops.tanh(ops.matmul(x, w1) + b1), w2) + b2
            loss = ops.mean(ops.sparse_categorical_crossentropy(
                y, logits, from_logits=True))
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
    model = keras.Sequential([keras.Input((SIZES[0],)),
                              keras.layers.Dense(SIZES[1], activation="tanh"),
                              keras.layers.Dense(SIZES[2])])
    model.set_weights(params)
    model.compile(optimizer=keras.optimizers.Adam(learning_rate=LR),
                  loss=keras.losses.SparseCategoricalCrossentropy(
                      from_logits=True))
    return model


def keras_train_on_batch(x, y, params):
    model = _keras_model(params)
    return lambda: model.train_on_batch(x, y)


def keras_fit(x, y, params):
    """One call runs FIT_STEPS full-batch steps (one epoch over the batch
    repeated); its time is divided by FIT_STEPS."""
    model = _keras_model(params)
    xs, ys = np.tile(x, (FIT_STEPS, 1)), np.tile(y, FIT_STEPS)

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
        w1, b1, w2, b2 = variables
        with tf.GradientTape() as tape:
            logits = tf.matmul(tf.tanh(tf.matmul(x, w1) + b1), w2) + b2
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
    f"Keras fit ({FIT_STEPS} full batches per call)": (keras_fit,
                                                        FIT_STEPS),
    "TF custom loop (GradientTape + tf.function)": (tf_custom_loop, 1),
}
REFERENCE = "TF custom loop (GradientTape + tf.function)"


def check(rows, x, y, params, steps=5):
    """Each step-per-call row's loss after `steps` steps, against the TF
    custom loop's: the rows do the same work."""
    losses = {}
    for name, (make, per_call) in rows.items():
        if per_call != 1:
            continue
        step = make(x, y, params)
        for _ in range(steps + 1):
            loss = step()
        losses[name] = float(np.asarray(loss))
    ref = losses[REFERENCE]
    for name, loss in losses.items():
        if abs(loss - ref) > 1e-4 * max(1.0, abs(ref)):
            raise AssertionError(f"{name}: loss {loss} after {steps} steps, "
                                 f"the TF custom loop's is {ref}")
    return ref


def table(model="mlp", budget=2.0):
    """The Markdown lines of the training-step table for `model` ('mlp' or
    'cnn'), `budget` seconds of timing per row; raises AssertionError where
    a row's loss differs from the TF custom loop's."""
    if model == "cnn":
        from bench import cnn
        rows, (x, y, params) = cnn.ROWS, cnn.data()
        what = ("CNN conv8-maxpool-conv16-avgpool-dense10 on 8x8 synthetic "
                f"digits, batch {cnn.BATCH}")
    else:
        rows, (x, y, params) = ROWS, data()
        what = f"MLP {'-'.join(map(str, SIZES))}, batch {BATCH}"
    ref = check(rows, x, y, params)
    fns = {}
    for name, (make, _) in rows.items():
        fn = make(x, y, params)
        first, estimate, _ = warm_up(fn, budget)
        fns[name] = (first, estimate, fn)
    timings = measure(fns, budget=budget, min_rounds=7, max_rounds=15)
    per_step = {name: timings[name].median / rows[name][1] for name in rows}
    keras_step = per_step["Keras train_on_batch"]
    onednn = os.environ.get("TF_ENABLE_ONEDNN_OPTS", "unset")
    lines = [f"{what}, float32, Adam; loss after 6 steps {ref:.6f} on every "
             f"row; tensorflow {tf.__version__}, keras {keras.__version__}, "
             f"TF_ENABLE_ONEDNN_OPTS={onednn}", "",
             "| row | us per step (median) | spread | CPU us (calling "
             "thread) | x TF custom loop | x Keras train_on_batch |",
             "|---|---:|---:|---:|---:|---:|"]
    for name, t in per_step.items():
        tm, n = timings[name], rows[name][1]
        lines.append(f"| {name} | {t * 1e6:.0f} | {tm.low / n * 1e6:.0f}-"
                     f"{tm.high / n * 1e6:.0f} | {tm.cpu / n * 1e6:.0f} | "
                     f"{t / per_step[REFERENCE]:.2f} | "
                     f"{t / keras_step:.2f} |")
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--budget", type=float, default=2.0,
                        help="seconds of timing per row")
    parser.add_argument("--model", choices=("mlp", "cnn"), default="mlp")
    args = parser.parse_args()
    try:
        lines = table(args.model, args.budget)
    except AssertionError as e:
        raise SystemExit(str(e)) from None
    print("\n".join(lines))


if __name__ == "__main__":
    main()
