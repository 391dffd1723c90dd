"""Every op keras.ops and pycg.ops share, against keras.ops itself (Keras on
TensorFlow) and TensorFlow's GradientTape, at ordinary and edge inputs.

The names come from `dir(keras.ops)`: every op whose required arguments are
one tensor `x` or two tensors `x1, x2` (the elementwise maths, reductions,
activations and logic: most of the namespace) is called with its defaults on
each input kind below, on each pycg backend (numpy, tensorflow, and jax
where JAX is installed: tests/conftest.py's BACKENDS). `sweep()` returns one row per
disagreement: (name, kind, backend, what) where `what` is one of

- "value", "dtype", "shape": both answer, differently;
- "pycg raises": Keras answers, pycg raises (a pycg error is still listed:
  the difference is then deliberate and belongs in the table);
- "pycg answers": Keras raises, pycg answers something other than NumPy's
  function of the same name (where Keras on TensorFlow has no kernel for a
  dtype, pycg answers as NumPy does: README, "Choices where the peers
  differ");
- "gradient": pycg's gradient of sum(real(op(x))) is not TensorFlow's.

tests/support/keras_differences.py lists the deliberate ones, with their reasons;
tests/test_ops_keras_sweep.py fails on any row not listed there and on any
listed row that no longer differs.
"""
import inspect
import os

os.environ["KERAS_BACKEND"] = "tensorflow"

import keras  # noqa: E402
import ml_dtypes  # noqa: E402
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

import pycg  # noqa: E402
from conftest import BACKENDS  # noqa: E402
from pycg import ops  # noqa: E402

F = np.float32
KINDS = {
    "ordinary": (np.array([0.3, -1.2, 2.5, 0.7], F),
                 np.array([1.1, 0.4, -0.6, 2.0], F)),
    "edges": (np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0], F),
              np.array([-0.0, 0.0, 1.0, np.inf, 2.0, np.nan, -np.inf], F)),
    "empty": (np.zeros((0,), F), np.zeros((0,), F)),
    "bfloat16": (np.array([0.3, -1.2, 2.5, 0.7], ml_dtypes.bfloat16),
                 np.array([1.1, 0.4, -0.6, 2.0], ml_dtypes.bfloat16)),
    "complex": (np.array([1 + 2j, -0.5 + 0.1j, 3 - 1j], np.complex64),
                np.array([0.5 - 1j, 2 + 0j, -1 + 1j], np.complex64)),
    "int": (np.array([3, -1, 0, 2], np.int32),
            np.array([1, 2, -3, 2], np.int32)),
    "bool": (np.array([True, False, True]), np.array([True, True, False])),
}
GRADIENT_KINDS = ("ordinary", "edges")
# Ops whose defaults draw at random or whose results are not comparable
# value by value (they are checked elsewhere, by their own tests).
NOT_SWEPT = {"dropout", "random_normal", "image", "shape", "dtype",
             "convert_to_numpy", "convert_to_tensor", "custom_gradient",
             "is_tensor", "cast", "saturate_cast", "eye", "identity",
             "ones", "zeros", "tri", "empty", "full", "arange", "linspace",
             "logspace", "histogram", "unravel_index"}


def names():
    """(name, arity) for every shared op taking `x` or `x1, x2`."""
    out = []
    for name in sorted(dir(keras.ops)):
        if name.startswith("_") or name in NOT_SWEPT or \
                not hasattr(ops, name):
            continue
        try:
            params = inspect.signature(getattr(keras.ops, name)).parameters
        except (TypeError, ValueError):
            continue
        required = [p.name for p in params.values()
                    if p.default is inspect.Parameter.empty
                    and p.kind in (p.POSITIONAL_ONLY,
                                   p.POSITIONAL_OR_KEYWORD)]
        if required == ["x"]:
            out.append((name, 1))
        elif required == ["x1", "x2"]:
            out.append((name, 2))
    return out


def _numpy(v):
    if isinstance(v, (tuple, list)):
        return [_numpy(e) for e in v]
    if isinstance(v, pycg.Tensor):
        return np.asarray(v.numpy())
    return np.asarray(keras.ops.convert_to_numpy(v))


def _called(namespace, name):
    return lambda *a: _numpy(getattr(namespace, name)(*a))


def _run(fn, args):
    try:
        return True, fn(*args)
    except Exception as e:  # noqa: BLE001 (any failure is an answer here)
        return False, e


def _differs(got, want):
    if isinstance(want, list) or isinstance(got, list):
        if not (isinstance(want, list) and isinstance(got, list)) or \
                len(got) != len(want):
            return "shape"
        return next(filter(None, map(_differs, got, want)), None)
    if got.shape != want.shape:
        return "shape"
    if got.dtype != want.dtype:
        return "dtype"
    tol = 1e-2 if want.dtype == ml_dtypes.bfloat16 else 2e-5
    if want.dtype.kind in "fc" or want.dtype == ml_dtypes.bfloat16:
        kind = np.complex128 if want.dtype.kind == "c" else np.float64
        if not np.allclose(got.astype(kind), want.astype(kind), rtol=tol,
                           atol=tol, equal_nan=True):
            return "value"
        same_inf = np.isinf(got.astype(kind)) == np.isinf(want.astype(kind))
        return None if np.all(same_inf) else "value"
    return None if np.array_equal(got, want) else "value"


def _numpy_row(name, args, got):
    """None when pycg's answer is NumPy's (values, and the dtype where NumPy
    keeps the input's) or, for integer and bool inputs, Keras' answer on the
    inputs in floatx (as Keras on JAX); else "pycg answers"."""
    if all(a.dtype.kind in "biu" for a in args):
        ok, want = _run(lambda *a: _numpy(getattr(keras.ops, name)(
            *[x.astype(F) for x in a])), args)
        if ok and _differs(got, want) is None:
            return None
    ok, want = _run(lambda *a: _numpy(getattr(np, name)(*a)), args)
    if not ok:
        return "pycg answers"
    differs = _differs(got, want)
    return None if differs is None or (
        differs == "dtype" and not _differs(got, want.astype(got.dtype))) \
        else "pycg answers"


def _keras_gradient(name, args):
    xs = [tf.constant(a) for a in args]
    with tf.GradientTape() as tape:
        for x in xs:
            tape.watch(x)
        y = getattr(keras.ops, name)(*xs)
        if isinstance(y, (tuple, list)):
            y = y[0]
        total = tf.reduce_sum(tf.cast(tf.math.real(y), tf.float32))
    return [None if g is None else g.numpy() for g in tape.gradient(total, xs)]


def _pycg_gradient(name, args):
    def f(*vs):
        y = getattr(ops, name)(*vs)
        if isinstance(y, (tuple, list)):
            y = y[0]
        return ops.sum(ops.cast(ops.real(y), "float32"))
    return [_numpy(g) for g in
            pycg.grad(f, argnums=tuple(range(len(args))))(*args)]


def _gradient_row(name, args):
    ok, want = _run(_keras_gradient, (name, args))
    if not ok or any(w is None for w in want):
        return None   # Keras has no gradient here: nothing to compare
    ok, got = _run(_pycg_gradient, (name, args))
    if not ok:
        return "gradient"
    return "gradient" if any(_differs(g, w) for g, w in zip(got, want)) \
        else None


def sweep(backends=BACKENDS):
    rows = []
    saved = pycg.config.backend()
    try:
        for name, arity in names():
            for kind, pair in KINDS.items():
                args = pair[:arity]
                ok_k, want = _run(_called(keras.ops, name), args)
                for backend in backends:
                    pycg.config.set_backend(backend)
                    ok_p, got = _run(_called(ops, name), args)
                    what = None
                    if ok_k and not ok_p:
                        what = "pycg raises"
                    elif ok_p and not ok_k:
                        what = _numpy_row(name, args, got)
                    elif ok_k:
                        what = _differs(got, want)
                    if what is None and ok_k and kind in GRADIENT_KINDS:
                        what = _gradient_row(name, args)
                    if what:
                        rows.append((name, kind, backend, what))
    finally:
        pycg.config.set_backend(saved)
    return rows


if __name__ == "__main__":
    import collections
    import sys
    found = sweep()
    print(len(names()), "ops,", len(found), "rows", file=sys.stderr)
    print(collections.Counter(r[3] for r in found), file=sys.stderr)
    for row in found:
        print(*row, sep="\t")
