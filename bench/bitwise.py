"""Numpy-backend results, saved and compared bit for bit across revisions.

    .venv/bin/python bench/bitwise.py --save before.npz     # on one revision
    .venv/bin/python bench/bitwise.py --compare before.npz  # on another

The cases run the paths that a refactoring of the hot paths moves: the
built-in unary rules (their direct VJPs on NumPy scalars and arrays, under
nested tapes), Python numbers beside tensors (both sides, every dtype
family), and custom_gradient called every way (positional, keyword,
several parameters, structures, defaults, variable reads, each grad_fn
convention, higher order). Exits non-zero where any output differs in a bit
(dtype, shape or value).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402

import pycg  # noqa: E402
from pycg import ops  # noqa: E402


def _grad(f, *xs):
    with pycg.GradientTape(persistent=True) as tape:
        for x in xs:
            tape.watch(x)
        y = f(*xs)
    return [y] + list(tape.gradient(y, list(xs)))


@pycg.custom_gradient
def log1pexp(x):
    e = ops.exp(x)

    def grad(upstream):
        return upstream * (1 - 1 / (1 + e))
    return ops.log(1 + e), grad


@pycg.custom_gradient
def mul2(x, y):
    def grad(upstream):
        return upstream * y * 3.0, upstream * x
    return x * y, grad


@pycg.custom_gradient
def with_default(x, scale=2):
    def grad(upstream):
        return upstream * scale * 1.5
    return x * scale, grad


@pycg.custom_gradient
def keras_style(x, y):
    def grad(*args, upstream=None):
        return upstream * args[1], upstream * args[0] + 1.0
    return x * y, grad


@pycg.custom_gradient
def pair_out(x):
    def grad(d1, d2):
        return d1 * 2.0 + d2 * 0.5
    return (x * 2.0, x * 0.5 + 1.0), grad


@pycg.custom_gradient
def dict_in(d):
    def grad(upstream):
        return {"a": upstream * d["b"], "b": upstream * d["a"] * 2.0}
    return d["a"] * d["b"], grad


def variable_op(v):
    @pycg.custom_gradient
    def f(x):
        def grad(upstream, variables=None):
            return upstream * v * 1.25, [upstream * x]
        return x * v, grad
    return f


def cases():
    out = {}
    f32 = [np.float32(0.3), np.array([-1.5, 0.2, 2.0], np.float32),
           np.float64(-0.7), np.array([[0.1, -0.3], [1.2, 0.4]], np.float64)]
    for i, v in enumerate(f32):
        for name in ("tanh", "sigmoid", "exp", "relu", "log1p", "sin"):
            op = getattr(ops, name)
            out[f"unary_{name}_{i}"] = _grad(op, pycg.constant(v))
            out[f"unary2_{name}_{i}"] = _second(op, pycg.constant(v))
    numbers = [2, -3, 0, 0.5, 1e-3, 7.0]
    tensors = [np.float32(1.5), np.array([1, 2, 3], np.int32),
               np.array([True, False]), np.array([0.25, 4.0], np.float16),
               np.float64(3.0), np.array([2, 5], np.int64),
               np.array([1.5, -2.0], np.float32)]
    for i, t in enumerate(tensors):
        for j, n in enumerate(numbers):
            for name in ("add", "subtract", "multiply", "divide", "power",
                         "maximum"):
                op = getattr(ops, name)
                key = f"num_{name}_{i}_{j}"
                try:
                    out[key + "_r"] = [op(pycg.constant(t), n)]
                    out[key + "_l"] = [op(n, pycg.constant(t))]
                except Exception as e:  # noqa: BLE001 (the error is a result)
                    out[key + "_err"] = [np.array(type(e).__name__)]
            x = pycg.constant(t)
            for k, fn in enumerate((lambda a, n=n: a + n,
                                    lambda a, n=n: n - a,
                                    lambda a, n=n: a * n,
                                    lambda a, n=n: n / a,
                                    lambda a: a ** 2, lambda a: 2 ** a)):
                try:
                    out[f"dunder_{i}_{j}_{k}"] = [fn(x)]
                except Exception as e:  # noqa: BLE001
                    out[f"dunder_{i}_{j}_{k}_err"] = [
                        np.array(type(e).__name__)]
            if np.asarray(t).dtype.kind == "f":
                out[f"numgrad_{i}_{j}"] = _grad(
                    lambda a, n=n: 3 * a * n + (n - a) / (1.5 + a * a), x)
    x = pycg.constant(np.array([0.3, -1.1, 2.5], np.float32))
    y = pycg.constant(np.array([1.2, 0.7, -0.4], np.float32))
    s = pycg.constant(np.float32(0.8))
    v = pycg.Variable(np.array([0.5, 2.0, -1.0], np.float32))
    out["cg_positional"] = _grad(log1pexp, x)
    out["cg_keyword"] = _grad(lambda a: log1pexp(x=a), x)
    out["cg_scalar"] = _grad(log1pexp, s)
    out["cg_chain"] = _grad(lambda a: log1pexp(ops.tanh(log1pexp(a))), s)
    out["cg_two"] = _grad(mul2, x, y)
    out["cg_two_kw"] = _grad(lambda a, b: mul2(y=b, x=a), x, y)
    out["cg_default"] = _grad(with_default, x)
    out["cg_default_given"] = _grad(lambda a: with_default(a, 3), x)
    out["cg_keras"] = _grad(keras_style, x, y)
    out["cg_pair"] = _grad(lambda a: ops.sum(pair_out(a)[0] *
                                             pair_out(a)[1]), x)
    out["cg_dict"] = _grad(lambda a, b: dict_in({"a": a, "b": b}), x, y)
    out["cg_number_arg"] = [log1pexp(0.5), mul2(np.float32(2.0), 1.5)]
    f = variable_op(v)
    with pycg.GradientTape() as tape:
        r = ops.sum(f(x))
    out["cg_variable"] = [r] + list(tape.gradient(r, [v]))
    out["cg_second"] = _second(log1pexp, x)
    out["cg_second_two"] = _second(lambda a: mul2(a, log1pexp(a)), x)
    out["fn_grad"] = [pycg.grad(lambda a: ops.sum(log1pexp(a) * a))(x)]
    out["fn_hessian"] = [pycg.hessian(
        lambda a: ops.sum(ops.tanh(a) * log1pexp(a)))(x)]
    out["nograd"] = [log1pexp(x), mul2(x, y), with_default(x=x)]
    return out


def _second(f, x):
    with pycg.GradientTape() as outer:
        outer.watch(x)
        with pycg.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        g = inner.gradient(y, x)
    return [y, g, outer.gradient(g, x)]


def flat(results):
    arrays = {}
    for key, values in results.items():
        for i, value in enumerate(values):
            a = np.asarray(value.numpy() if hasattr(value, "numpy")
                           else value)
            arrays[f"{key}.{i}"] = a
    return arrays


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--save")
    g.add_argument("--compare")
    args = p.parse_args(argv)
    pycg.config.set_backend("numpy")
    arrays = flat(cases())
    if args.save:
        np.savez(args.save, **arrays)
        print(f"saved {len(arrays)} arrays to {args.save}")
        return
    before = dict(np.load(args.compare))
    bad = sorted(set(before) ^ set(arrays))
    for k in sorted(set(before) & set(arrays)):
        a, b = before[k], arrays[k]
        if a.dtype != b.dtype or a.shape != b.shape or \
                a.tobytes() != b.tobytes():
            bad.append(k)
    print(f"{len(arrays)} arrays, {len(bad)} differ" +
          (": " + ", ".join(bad[:20]) if bad else " (bit-identical)"))
    if bad:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
