"""Every convolution and pooling configuration pycg's ops accept (data
formats, paddings, strides, dilations, groups, output paddings, 1 to 3
spatial dimensions), as data, and a check of pycg's value and gradients for
each against tests/support/conv_reference.py on both backends.

Run as a script (tests/test_cpu_portability.py does, once with oneDNN off
and once on, since TensorFlow reads TF_ENABLE_ONEDNN_OPTS at import): prints
one JSON line, {"checked": n, "failures": [...]}.
"""
import itertools
import json
import pathlib
import sys

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import conv_reference as ref  # noqa: E402

RNG = np.random.default_rng(22)
FORMATS = ("channels_last", "channels_first")


def _x(d, c, fmt, n=7):
    spatial = (n, n - 1, n - 2)[:d]
    shape = (2, *spatial, c) if fmt == "channels_last" else (2, c, *spatial)
    return RNG.standard_normal(shape)


def _conv_cases():
    for d, fmt, padding, (s, dil), groups in itertools.product(
            (1, 2, 3), FORMATS, ("valid", "same"), ((1, 1), (2, 1), (1, 2)),
            (1, 2)):
        if d == 3 and (groups == 2 or dil == 2):
            continue   # keep the 3-D cases few: they are the slow ones
        k = RNG.standard_normal((3, 2, 2)[:d] + (4 // groups, 6))
        yield ("conv", (_x(d, 4, fmt), k),
               dict(strides=s, padding=padding, data_format=fmt,
                    dilation_rate=dil))


def _depthwise_cases():
    for d, fmt, padding, (s, dil) in itertools.product(
            (1, 2), FORMATS, ("valid", "same"), ((1, 1), (2, 1), (1, 2))):
        kw = dict(strides=s, padding=padding, data_format=fmt,
                  dilation_rate=dil)
        dk = RNG.standard_normal((3, 2)[:d] + (3, 2))
        yield "depthwise_conv", (_x(d, 3, fmt), dk), kw
        pk = RNG.standard_normal((1,) * d + (6, 4))
        yield "separable_conv", (_x(d, 3, fmt), dk, pk), kw


def _transpose_cases():
    for d, fmt, padding, (s, dil), extra in itertools.product(
            (1, 2), FORMATS, ("valid", "same"), ((1, 1), (2, 1), (1, 2)),
            (None, 1)):
        if extra is not None and s == 1:
            continue   # Keras: output_padding must be below the stride
        k = RNG.standard_normal((3, 2)[:d] + (5, 4))
        yield ("conv_transpose", (_x(d, 4, fmt, n=5), k),
               dict(strides=s, padding=padding, output_padding=extra,
                    data_format=fmt, dilation_rate=dil))


def _pool_cases():
    for name, d, fmt, padding, s in itertools.product(
            ("max_pool", "average_pool"), (1, 2, 3), FORMATS,
            ("valid", "same"), (None, 1, 2)):
        yield (name, (_x(d, 3, fmt), (3, 2, 2)[:d]),
               dict(strides=s, padding=padding, data_format=fmt))


def cases():
    return [*_conv_cases(), *_depthwise_cases(), *_transpose_cases(),
            *_pool_cases()]


def _pycg_value_and_grads(pycg, name, args, kw, w, dtype):
    xs = [pycg.constant(a.astype(dtype)) if isinstance(a, np.ndarray) else a
          for a in args]
    arrays = [a for a in xs if isinstance(a, pycg.Tensor)]
    with pycg.GradientTape() as tape:
        tape.watch(arrays)
        y = getattr(pycg.ops, name)(*xs, **kw)
        loss = pycg.ops.sum(y * w.astype(dtype))
    return y.numpy(), [g.numpy() for g in tape.gradient(loss, arrays)]


def _expected_directional(name, args, kw, w, i, direction):
    """<dL/d args[i], direction> for L = sum(w * f(args)). Every op here but
    max_pool is linear in each argument, so this is L with args[i] replaced
    by the direction; for max_pool, a central difference (exact while no
    window's maximum changes, as with distinct random values)."""
    f = getattr(ref, name)
    if name != "max_pool":
        moved = list(args)
        moved[i] = direction
        return float(np.sum(w * f(*moved, **kw)))
    h = 1e-6
    up = float(np.sum(w * f(args[0] + h * direction, *args[1:], **kw)))
    down = float(np.sum(w * f(args[0] - h * direction, *args[1:], **kw)))
    return (up - down) / (2 * h)


def check(pycg, backend, name, args, kw, dtype):
    """Failures (strings) of pycg's value and gradients for one case."""
    want = getattr(ref, name)(*args, **kw)
    w = RNG.standard_normal(want.shape)
    tol = dict(rtol=1e-9, atol=1e-9) if dtype == "float64" else \
        dict(rtol=2e-4, atol=2e-4)
    label = f"{backend} {dtype} {name} {kw}"
    try:
        got, grads = _pycg_value_and_grads(pycg, name, args, kw, w, dtype)
    except Exception as exc:   # a kernel this CPU refuses, say
        return [f"{label}: raised {type(exc).__name__}: {exc}"]
    out = []
    if got.shape != want.shape or not np.allclose(got, want, **tol):
        out.append(f"{label}: value differs from the NumPy reference")
    wrt = range(1 if name.endswith("pool") else len(args))
    for i in wrt:
        direction = RNG.standard_normal(args[i].shape)
        expect = _expected_directional(name, args, kw, w, i, direction)
        if not np.isclose(np.sum(grads[i] * direction), expect,
                          rtol=tol["rtol"] * 10, atol=tol["atol"] * 10):
            out.append(f"{label}: gradient of argument {i} differs")
    return out


def planned(every=1):
    """(case index, dtype) of the checks one backend makes: every case in
    float64, every fourth also in float32; with every=n, the cases of every
    n-th index only (an even sample)."""
    return [(i, dtype) for i in range(0, len(cases()), every)
            for dtype in ("float64",) + (("float32",) if i % 4 == 0 else ())]


def main():
    import pycg
    failures, checked = [], 0
    args = sys.argv[1:]
    every = 1
    if "--every" in args:   # python conv_configurations.py jax --every 5
        k = args.index("--every")
        every, args = int(args[k + 1]), args[:k] + args[k + 2:]
    backends = args or ("numpy", "tensorflow")
    if "jax" in backends:   # (the float64 cases need JAX's 64-bit mode)
        import jax
        jax.config.update("jax_enable_x64", True)
    for backend in backends:
        pycg.config.set_backend(backend)
        grid = cases()
        for i, dtype in planned(every):
            name, case_args, kw = grid[i]
            failures += check(pycg, backend, name, case_args, kw, dtype)
            checked += 1
    print(json.dumps({"checked": checked, "failures": failures}))


if __name__ == "__main__":
    main()
