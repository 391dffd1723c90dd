"""One size guard (pycg/ops/_machinery/allocation.py) runs before any backend
allocates, for every op and draw whose result's size an argument sets: a
tensor that cannot fit is pycg's MemoryError naming the op, the same on
every backend, at once (jaxlib aborted the whole process on zeros((2**31,
2**31)), eye(2**40) and full((2**21,) * 3); TensorFlow's allocator retried
for about 10 s, or wrapped the size around and answered; NumPy said it in
its own words). The table below has one huge case per such op, and a test
fails when an op with a size argument has none."""
import inspect
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import pycg
from pycg import ops
from pycg.ops._machinery import allocation as _allocation
from support import backend_switch

HUGE = 2**40   # (elements: 4 TiB of float32, beyond any machine here)


def x1():
    return ops.convert_to_tensor([1.0, 2.0])


# op -> a call asking for a huge result through its size argument
CASES = {
    "zeros": lambda: ops.zeros((2**31, 2**31)),
    "ones": lambda: ops.ones((HUGE,)),
    "full": lambda: ops.full((2**21,) * 3, 1.0),
    "empty": lambda: ops.empty((HUGE,)),
    "eye": lambda: ops.eye(HUGE),
    "identity": lambda: ops.identity(HUGE),
    "tri": lambda: ops.tri(HUGE),
    "arange": lambda: ops.arange(HUGE),
    "linspace": lambda: ops.linspace(0.0, 1.0, HUGE),
    "logspace": lambda: ops.logspace(0.0, 1.0, HUGE),
    "geomspace": lambda: ops.geomspace(1.0, 2.0, HUGE),
    "meshgrid": lambda: ops.meshgrid(ops.arange(2**20), ops.arange(2**20)),
    "vander": lambda: ops.vander(x1(), HUGE),
    "one_hot": lambda: ops.one_hot([0], HUGE),
    "multi_hot": lambda: ops.multi_hot([0], HUGE),
    "bincount": lambda: ops.bincount(ops.convert_to_tensor([0]),
                                     minlength=HUGE),
    "histogram": lambda: ops.histogram(x1(), bins=HUGE),
    "broadcast_to": lambda: ops.broadcast_to(1.0, (2**31, 2**31)),
    "pad": lambda: ops.pad(x1(), [(0, HUGE)]),
    "tile": lambda: ops.tile(x1(), HUGE),
    "repeat": lambda: ops.repeat(x1(), HUGE),
    "diag": lambda: ops.diag(x1(), k=2**31),
    "diagflat": lambda: ops.diagflat(x1(), k=2**31),
    "scatter": lambda: ops.scatter([[0]], x1()[:1], (HUGE,)),
    "unique": lambda: ops.unique(x1(), size=HUGE),
    "rfft": lambda: ops.rfft(x1(), fft_length=HUGE),
    "irfft": lambda: ops.irfft((x1(), x1()), fft_length=HUGE),
    "stft": lambda: ops.stft(x1(), 2, 1, HUGE),
    "istft": lambda: ops.istft((ops.ones((1, 2)), ops.ones((1, 2))), 2, 1,
                               HUGE),
    "adaptive_average_pool": lambda: ops.adaptive_average_pool(
        ops.ones((1, 2, 2, 1)), HUGE),
    "adaptive_max_pool": lambda: ops.adaptive_max_pool(
        ops.ones((1, 2, 2, 1)), HUGE),
    "fold": lambda: ops.fold(ops.ones((1, 1, 1)), 2**31, 1, stride=2**31),
    **{f"segment_{r}": (lambda r=r: getattr(ops, f"segment_{r}")(
        x1(), ops.convert_to_tensor([0, 0]), num_segments=HUGE))
       for r in ("sum", "max", "min", "prod")},
}
DRAWS = {
    "normal": lambda: pycg.random.normal((HUGE,)),
    "uniform": lambda: pycg.random.uniform((2**31, 2**31)),
    "truncated_normal": lambda: pycg.random.truncated_normal((HUGE,)),
    "randint": lambda: pycg.random.randint((HUGE,), 0, 3),
    "categorical": lambda: pycg.random.categorical([[0.0, 0.0]], HUGE),
    "dropout": lambda: pycg.random.dropout(x1(), 0.5, noise_shape=(HUGE,)),
}
SIZE_ARGUMENTS = {"shape", "N", "M", "n", "num", "num_classes", "minlength",
                  "bins", "repeats", "pad_width", "num_segments",
                  "output_size", "fft_length", "size", "num_samples",
                  "noise_shape"}
# ops with such an argument whose result it does not enlarge
NOT_SIZES = {
    "slice": "its shape is a block of the input",
    "unravel_index": "its shape only describes; nothing of it is made",
    "diff": "n differences shrink the input",
    "digitize": "its bins are an array of edges",
    "reshape": "the input's own elements",
    "unstack": "num splits the input",
    "choose": "n is a tensor of values (R's choose(n, k)), not a size",
    "lchoose": "n is a tensor of values (R's lchoose(n, k)), not a size",
    "polygamma": "n is the derivative's order, not a size",
}


def sizing(module, names):
    out = set()
    for name in names:
        f = getattr(module, name)
        if not callable(f) or isinstance(f, type):
            continue
        if SIZE_ARGUMENTS & set(inspect.signature(f).parameters):
            out.add(name)
    return out


def test_every_op_and_draw_with_a_size_argument_has_a_huge_case():
    ops_sizing = sizing(ops, ops.__all__) - set(NOT_SIZES)
    assert ops_sizing - set(CASES) == set()
    assert sizing(pycg.random, pycg.random.__all__) - set(DRAWS) == set()


def refused(name, call, prefix):
    with pytest.raises(MemoryError, match=(
            rf"^pycg.{prefix}{name}: cannot allocate \d+ bytes \(.*\) for a "
            rf"tensor of shape \(.*\) and dtype \w+: not enough memory "
            rf"\(.* available\)$")):
        call()


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_huge_result_is_refused_by_the_op_before_allocating(
        numpy_or_tf, name):
    refused(name, CASES[name], "ops.")


@pytest.mark.parametrize("name", sorted(DRAWS))
def test_a_huge_draw_is_refused_by_name_before_allocating(numpy_or_tf, name):
    refused(name, DRAWS[name], "random.")


numpy_or_tf = backend_switch.params_fixture(["numpy", "tensorflow"],
                                            "numpy_or_tf")


JAX = r"""
import json, resource, sys, time
resource.setrlimit(resource.RLIMIT_AS, (16 << 30, 16 << 30))
sys.path.insert(0, sys.argv[1])
import pycg
import test_allocation_guard as T
pycg.config.set_backend("jax")
out = {}
for name, call in list(T.CASES.items()) + list(T.DRAWS.items()):
    t = time.perf_counter()
    try:
        call()
        got = "no error"
    except Exception as e:
        got = f"{type(e).__name__}: {e}"
    out[name] = [got, time.perf_counter() - t]
print(json.dumps(out))
"""


def test_jax_refuses_them_all_and_the_process_lives():
    pytest.importorskip("jax")
    here = os.path.dirname(os.path.abspath(__file__))
    run = subprocess.run([sys.executable, "-c", JAX, here],
                         capture_output=True, text=True, timeout=600,
                         env={**os.environ, "JAX_ENABLE_X64": "1"})
    assert run.returncode == 0, run.stderr[-3000:]   # (SIGABRT: -6)
    results = json.loads(run.stdout.strip().splitlines()[-1])
    slowest = max(results.items(), key=lambda kv: kv[1][1])
    print(f"\njax: {len(results)} refusals, slowest {slowest[0]} "
          f"{slowest[1][1]:.3f} s")
    assert set(results) == set(CASES) | set(DRAWS)
    for name, (got, _) in results.items():
        prefix = "random." if name in DRAWS else "ops."
        assert got.startswith(f"MemoryError: pycg.{prefix}{name}: cannot "
                              f"allocate "), (name, got)


# ---- the limit --------------------------------------------------------------
def test_the_guard_uses_what_is_available_and_refuses_before_the_kernel(
        backend, monkeypatch):
    monkeypatch.setattr(_allocation, "SMALL", 0)
    monkeypatch.setattr(_allocation, "limit", lambda nbytes=None: 2**20)
    for make in (lambda: ops.zeros((512, 1024)), lambda: ops.eye(1024),
                 lambda: ops.arange(2**19), lambda: ops.tile(x1(), 2**18),
                 lambda: pycg.random.normal((2**19,))):
        with pytest.raises(MemoryError, match=r"not enough memory \(1 MiB "
                           r"available\)$"):
            make()
    assert ops.zeros((256, 1024)).shape == (256, 1024)   # (1 MiB: fits)


def test_a_dimension_past_int64_is_refused_even_with_no_elements(backend):
    for make, op in ((lambda: ops.zeros((0, 2**64)), "zeros"),
                     (lambda: ops.full((2**63, 0), 1.0), "full")):
        with pytest.raises(ValueError, match=(
                rf"^pycg.ops.{op}: `shape` asks for a dimension of \d+, more "
                rf"than a tensor can have \(2\*\*63 - 1\)$")):
            make()


RLIMIT = r"""
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (6 << 30, 6 << 30))
import pycg
pycg.config.set_backend(sys.argv[1])
try:
    pycg.ops.zeros((2**30, 2))   # (8 GiB of float32: past the 6 GiB limit)
    print("made")
except MemoryError as e:
    print(e)
"""


def test_the_limit_is_the_address_space_limit_when_one_is_set():
    run = subprocess.run([sys.executable, "-c", RLIMIT, "numpy"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.startswith(
        "pycg.ops.zeros: cannot allocate 8589934592 bytes (8 GiB) for a "
        "tensor of shape (1073741824, 2) and dtype float32: not enough memory"
        " ("), run.stdout


# ---- integer ranges and counts past int32 ----------------------------------
def test_arange_past_int32_is_the_same_error_on_every_backend(backend):
    with pytest.raises(OverflowError, match=(
            r"^pycg.ops.arange: 3000000000 does not fit in int32 \(from "
            r"-2147483648 to 2147483647\); pass a wider dtype, such as "
            r"int64$")):
        ops.arange(3_000_000_000, 3_000_000_003)
    # values that fit, with a stop that does not: NumPy's answer
    np.testing.assert_array_equal(ops.arange(0, 2**31, 2**30).numpy(),
                                  np.arange(0, 2**31, 2**30, dtype=np.int32))
    np.testing.assert_array_equal(ops.arange(2**31 - 1, 2**31).numpy(),
                                  [2**31 - 1])


def test_arange_in_int64_gives_the_values_past_int32(backend):
    if backend == "jax" and not pycg.backends.active.float_dtypes:
        pytest.skip("unreachable")
    np.testing.assert_array_equal(
        ops.arange(3_000_000_000, 3_000_000_003, dtype="int64").numpy(),
        np.arange(3_000_000_000, 3_000_000_003))


def test_tensorflows_linspace_counts_past_int32():
    tf = pytest.importorskip("tensorflow")
    from pycg.backends.tensorflow import numpy as kernels
    # (a graph's static shape: no 16 GiB made; TensorFlow's LinSpace said 3)
    graph = tf.function(lambda: kernels.linspace(0.0, 1.0, 2**32 + 3, True,
                                                 np.float32))
    assert graph.get_concrete_function().structured_outputs.shape == \
        (2**32 + 3,)
    for num in range(7):   # (its int64 path, against NumPy)
        for endpoint in (True, False):
            np.testing.assert_array_equal(
                kernels._linspace_int64(0.5, 3.0, num, endpoint).numpy(),
                np.linspace(0.5, 3.0, num, endpoint))


def test_what_cannot_be_read_limits_nothing(monkeypatch):
    # (no /proc/meminfo, as on macOS, or no MemAvailable in an old kernel;
    # no cgroup, no address-space limit)
    monkeypatch.setattr(_allocation, "_meminfo", lambda field, missing:
                        missing)
    monkeypatch.setattr(_allocation, "_cgroup_room",
                        lambda: _allocation.UNKNOWN)
    monkeypatch.setattr(_allocation, "resource", None)
    assert _allocation.limit(2**50) >= 2**50


def test_a_field_meminfo_lacks_is_the_given_default():
    assert _allocation._meminfo("NoSuchField", 7) == 7
