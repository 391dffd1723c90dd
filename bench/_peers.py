"""The frameworks in the race: pycg and TensorFlow always, the others when
installed (bench/setup_peers.sh installs them)."""
import importlib
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import numpy as np  # noqa: E402
import pycg  # noqa: E402
import tensorflow as tf  # noqa: E402


def _optional(name):
    if os.environ.get("PYCG_BENCH_NO_PEERS"):   # bench.memory's subprocesses
        return None
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


jax = _optional("jax")
torch = _optional("torch")
autograd = _optional("autograd")


def pycg_function():
    """pycg.function (issue 7), or None where this pycg has none yet."""
    try:
        return pycg.function
    except (AttributeError, ImportError):
        return None


def on_backend(backend, step, *args):
    """step(*args) on a pycg backend. Rows are timed interleaved, so each
    call selects its backend (about a microsecond per call)."""
    def call():
        pycg.config.set_backend(backend)
        return step(*args)
    return call


def versions():
    out = {"pycg": pycg.__version__, "numpy": np.__version__,
           "tensorflow": tf.__version__}
    for name, mod in (("jax", jax), ("torch", torch),
                      ("autograd", autograd)):
        out[name] = _version(name, mod)
    if jax is not None:
        out["jaxlib"] = _version("jaxlib", _optional("jaxlib"))
    return out


def _version(name, mod):
    if mod is None:
        return "not installed"
    v = getattr(mod, "__version__", None)
    if v is None:
        from importlib.metadata import PackageNotFoundError, version
        try:
            v = version(name)
        except PackageNotFoundError:
            v = "unknown"
    return v


def missing():
    """Names of the optional peers that are not installed."""
    return [n for n, m in (("jax", jax), ("torch", torch),
                           ("autograd", autograd)) if m is None]


def to_numpy(value):
    """A framework's result (or a list of them) as float64 NumPy arrays."""
    if isinstance(value, (list, tuple)):
        return [to_numpy(v) for v in value]
    if torch is not None and isinstance(value, torch.Tensor):
        value = value.detach().numpy()
    return np.asarray(value, dtype=np.float64)
