"""What only the torch backend has: devices (torch's default device for
values made from data, the inputs' device for results), torch's dtypes
against pycg's rules (the numpy backend's answers, with NumPy as the
oracle where it has the op), unsigned integers torch cannot compute with,
torch's autograd never recording pycg's kernels, PYCG_BACKEND=torch and
torch missing. The CUDA tests run where torch has CUDA and skip elsewhere
(the "meta" device stands in for a device that is not the CPU)."""
import ast
import os
import re
import subprocess
import sys
import warnings

import numpy as np
import pytest

import pycg
from pycg import ops
from support import backend_switch

torch = pytest.importorskip("torch")   # (the whole file is about torch)
cuda = pytest.mark.skipif(not torch.cuda.is_available(),
                          reason="torch has no CUDA here")


def run_python(code, **env):
    environ = {k: v for k, v in os.environ.items() if k != "PYCG_BACKEND"}
    environ.update(env)
    return subprocess.run([sys.executable, "-c", code], env=environ,
                          capture_output=True, text=True, timeout=120)


torch_backend = backend_switch.fixture("torch")


def on(backend, fn):
    with backend_switch.on(backend):
        return fn()


# ---- installing and choosing the backend ----------------------------------
def test_pycg_backend_torch_is_read_at_import():
    r = run_python("import pycg; print(pycg.config.backend()); "
                   "print(type(pycg.constant(1.0)._value).__module__)",
                   PYCG_BACKEND="torch")
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["torch", "torch"]


def test_the_numpy_backend_does_not_import_torch():
    r = run_python("import sys, pycg; pycg.grad(lambda x: x * x)(3.0); "
                   "print('torch' in sys.modules)", PYCG_BACKEND="numpy")
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["False"]


def test_the_torch_backend_without_torch_says_how_to_install_the_cpu_build():
    r = run_python(
        "import sys; sys.modules['torch'] = None\n"
        "import pycg\n"
        "try:\n"
        "    pycg.config.set_backend('torch')\n"
        "except ModuleNotFoundError as e:\n"
        "    print(e)\n"
        "print(pycg.config.backend())", PYCG_BACKEND="numpy")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("pycg: the 'torch' backend needs PyTorch, "
                               "which is not installed (")
    assert "pip install torch --index-url https://download.pytorch.org/" \
           "whl/cpu (the CPU build" in lines[0]
    assert lines[1] == "numpy"


# ---- devices -----------------------------------------------------------------
MADE_FROM_DATA = {
    "constant": lambda: pycg.constant([1.0, 2.0]),
    "numpy array": lambda: pycg.convert_to_tensor(np.ones(3, np.float32)),
    "bfloat16 array": lambda: pycg.constant(np.ones(2, "bfloat16")),
    "python int": lambda: pycg.constant(3),
    "zeros": lambda: ops.zeros((2, 2)),
    "full": lambda: ops.full((2,), 1.5),
    "eye": lambda: ops.eye(3),
    "arange": lambda: ops.arange(4),
    "linspace": lambda: ops.linspace(0.0, 1.0, 3),
    "variable": lambda: pycg.Variable([1.0]).read(),
}


@pytest.mark.parametrize("make", MADE_FROM_DATA.values(),
                         ids=MADE_FROM_DATA.keys())
def test_values_made_from_data_go_to_torchs_default_device(torch_backend,
                                                           make):
    assert make()._value.device.type == "cpu"
    with torch.device("meta"):
        assert make()._value.device.type == "meta"
    torch.set_default_device("meta")
    try:
        assert make()._value.device.type == "meta"
    finally:
        torch.set_default_device(None)
    assert make()._value.device.type == "cpu"


def test_results_stay_on_their_inputs_device(torch_backend):
    # (a meta tensor has a device, a shape and a dtype but no values)
    x = pycg.convert_to_tensor(torch.ones(2, 3, device="meta"))
    results = [x * 2.0, 1 - x, x + x, ops.exp(x), ops.sum(x, axis=0),
               ops.matmul(x, ops.transpose(x)), ops.where(x > 0, x, 0.5),
               ops.reshape(x, (3, 2)), ops.softmax(x), ops.max(x)]
    assert [r._value.device.type for r in results] == ["meta"] * 10
    g = pycg.grad(lambda x: ops.sum(ops.tanh(x) * x * 3.0))(x)
    assert g._value.device.type == "meta" and g.shape == (2, 3)


@pytest.mark.parametrize("op", [ops.tanh, ops.exp, ops.sigmoid, ops.relu,
                                ops.sqrt, ops.reciprocal, ops.square])
def test_a_gradients_seed_made_on_the_cpu_meets_another_device(
        torch_backend, op):
    # (the seed of a vector target is ones on the default device, the
    # CPU; the fused gradient kernels meet it with the input's device)
    x = pycg.convert_to_tensor(torch.ones(2, 3, device="meta"))
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = op(x)
    assert tape.gradient(y, x)._value.device.type == "meta"


def test_a_cached_python_number_is_on_the_device_of_its_tensor(
        torch_backend):
    cpu = pycg.constant([1.0, 2.0])
    meta = pycg.convert_to_tensor(torch.ones(2, device="meta"))
    for x, where in ((cpu, "cpu"), (meta, "meta"), (cpu, "cpu")):
        assert (x * 2.5)._value.device.type == where
        assert (2.5 * x)._value.device.type == where
    np.testing.assert_array_equal((cpu * 2.5).numpy(), [2.5, 5.0])


@cuda
def test_cuda_values_give_the_cpus_answers_and_stay_on_cuda(torch_backend):
    x = np.array([[0.5, -1.0], [2.0, 3.0]], np.float32)

    def f(x):
        return ops.sum(ops.tanh(x) * ops.exp(x) + ops.matmul(x, x))

    cpu = pycg.value_and_grad(f)(pycg.constant(x))
    with torch.device("cuda"):
        value, grad = pycg.value_and_grad(f)(pycg.constant(x))
        draw = pycg.random.normal((3,), seed=7)
    assert grad._value.device.type == "cuda"
    assert draw._value.device.type == "cuda"
    np.testing.assert_allclose(value.numpy(), cpu[0].numpy(), rtol=1e-5)
    np.testing.assert_allclose(grad.numpy(), cpu[1].numpy(), rtol=1e-5)
    np.testing.assert_array_equal(
        draw.numpy(), on("numpy", lambda: pycg.random.normal((3,), seed=7)
                         ).numpy())


@cuda
def test_a_cuda_variable_trains_on_cuda(torch_backend):
    with torch.device("cuda"):
        w = pycg.Variable([1.0, -2.0])
    opt = pycg.optimizers.SGD(learning_rate=0.5)
    for _ in range(3):
        with pycg.GradientTape() as tape:
            loss = ops.sum(w * w)
        opt.apply_gradients([(tape.gradient(loss, w), w)])
    assert w._value.device.type == "cuda"
    np.testing.assert_allclose(w.numpy(), [0.0, 0.0])   # (w - 0.5 * 2w)


# ---- dtypes: pycg's rules, whatever torch's own promotion ---------------------
DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32",
          "int64", "float16", "bfloat16", "float32", "float64", "complex64",
          "complex128"]
BINARY = ["add", "subtract", "multiply", "divide", "floor_divide", "mod",
          "power", "maximum", "minimum", "equal", "less", "greater_equal",
          "logical_and", "arctan2", "logaddexp", "bitwise_xor"]


def _sample(dtype, seed):
    rng = np.random.default_rng(seed)
    if dtype == "bool":
        return rng.integers(0, 2, 6).astype(bool)
    if np.dtype(dtype).kind in "iu":
        return rng.integers(0 if "u" in dtype else -3, 5, 6).astype(dtype)
    a = rng.uniform(-2, 2, 6)
    if dtype.startswith("complex"):
        a = a + 1j * rng.uniform(-2, 2, 6)
    return a.astype(dtype)


def _answer(fn):
    """(dtype name, values as complex128), or the error's message."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = fn()
    except Exception as e:   # (the kind differs: TypeError, torch's own)
        return str(e)
    a = out.numpy()
    return out.dtype.name, a.astype(np.complex128)


def _both(fn, *args):
    """fn(*args) on the torch backend and on the numpy backend (the
    reference: NumPy under pycg's promotion rules)."""
    return (on("torch", lambda: _answer(lambda: fn(*args))),
            on("numpy", lambda: _answer(lambda: fn(*args))))


def _same(got, want, what):
    """The same dtype and values, or errors on both backends, the torch
    backend's naming the op and no dtype by torch's name."""
    if isinstance(want, str) or isinstance(got, str):
        assert isinstance(want, str) and isinstance(got, str), (what, got,
                                                                want)
        assert got.startswith(f"pycg.ops.{what[0]}: "), (what, got)
        assert not re.search(r"'(Bool|Char|Byte|Short|Int|Long|Half|"
                             r"BFloat16|Float|Double|ComplexFloat|"
                             r"ComplexDouble|UInt\d+)'", got), (what, got)
        return
    assert got[0] == want[0], what
    tight = {"float16": 2e-3, "bfloat16": 2e-2}.get(got[0], 1e-5)
    np.testing.assert_allclose(got[1], want[1], rtol=tight, atol=tight,
                               equal_nan=True, err_msg=str(what))


@pytest.mark.parametrize("name", BINARY)
def test_every_pair_of_dtypes_promotes_and_computes_as_on_numpy(name):
    """Keras' promotion (pycg/ops/_machinery/dispatch.py) decides the dtype, whatever
    torch's own rule (int + float, bools, unsigned, half precisions,
    complex): the torch backend answers as the numpy backend, or raises the
    same kind of error."""
    fn = getattr(ops, name)
    for i, a in enumerate(DTYPES):
        for b in DTYPES[i:]:
            x, y = _sample(a, 1), _sample(b, 2)
            if name in ("floor_divide", "mod", "divide"):
                y = np.where(y == 0, np.ones_like(y), y)
            if name == "power":   # (integers to negative integer powers)
                y = np.abs(y)
            _same(*_both(fn, x, y), (name, a, b))


@pytest.mark.parametrize("number", [2, -3, 0.5, -0.0, 1e10, True],
                         ids=["int", "negative int", "float", "-0.0",
                              "big float", "bool"])
def test_a_python_number_takes_the_tensors_dtype_as_on_numpy(number):
    for dtype in DTYPES:
        x = _sample(dtype, 3)
        for op in (ops.add, ops.multiply, ops.subtract, ops.maximum):
            for args in ((x, number), (number, x)):
                _same(*_both(op, *args), (op.__name__, dtype, number))


def test_an_int_and_an_equal_float_are_two_weak_numbers(torch_backend):
    # (2 == 2.0 in a cache of numbers: the float must still make floatx)
    x = pycg.constant(np.array([1, 2], np.int32))
    f = pycg.constant(np.array([1, 2], np.float16))
    for number, dtype in ((2, "int32"), (2.0, "float32"), (2, "int32")):
        assert (x * number).dtype == dtype and (number + x).dtype == dtype
        assert (f * number).dtype == "float16"
    np.testing.assert_array_equal((x * 2.0).numpy(), [2.0, 4.0])


UNARY = ["abs", "negative", "square", "sign", "sqrt", "exp", "floor", "round",
         "sum", "cumsum", "max", "argmax", "sort", "mean", "conj", "real",
         "isnan", "logical_not", "bitwise_invert", "reciprocal", "tanh"]


@pytest.mark.parametrize("name", UNARY)
def test_every_dtype_through_unary_ops_and_reductions_as_on_numpy(name):
    fn = getattr(ops, name)
    for dtype in DTYPES:
        x = _sample(dtype, 4)
        _same(*_both(fn, x), (name, dtype))


@pytest.mark.parametrize("dtype", ["uint16", "uint32", "uint64"])
def test_unsigned_integers_wrap_sum_and_order_as_numpy(torch_backend, dtype):
    top = np.iinfo(dtype).max
    x = np.array([top, 3, 0, 7], dtype)
    y = np.array([2, 5, 1, 7], dtype)
    with np.errstate(over="ignore"):   # (pycg's sums keep the dtype)
        cases = [(ops.add(x, y), x + y), (ops.subtract(y, x), y - x),
                 (ops.multiply(x, y), x * y),
                 (ops.sum(x), np.sum(x, dtype="uint32" if dtype == "uint16"
                                     else dtype)),   # (Keras' rule)
                 (ops.cumsum(x), np.cumsum(x, dtype=dtype)),
                 (ops.equal(x, y), x == y), (ops.sort(x), np.sort(x)),
                 (x * pycg.constant(y), x * y), (pycg.constant(x) + 1, x + 1)]
        if dtype != "uint64":   # (its top is 2**64 - 1: see the next test)
            cases += [(ops.less(x, y), x < y),
                      (ops.maximum(x, y), np.maximum(x, y)),
                      (ops.floor_divide(x, y), x // y), (ops.mod(x, y), x % y),
                      (ops.where(x > y, x, y), np.where(x > y, x, y)),
                      (ops.max(x), np.max(x)),
                      (ops.argmax(x), np.int32(np.argmax(x)))]
    v = pycg.Variable(x, trainable=False)
    v.assign_add(y)
    v.assign_sub(np.array([1, 1, 1, 1], dtype))
    with np.errstate(over="ignore"):
        cases.append((v.read(), x + y - 1))
    for got, want in cases:
        assert got.dtype == np.asarray(want).dtype, (got, want)
        np.testing.assert_array_equal(got.numpy(), want)


def test_uint64_beyond_int64_is_an_error_where_its_bits_do_not_decide(
        torch_backend):
    big = np.array([2**63 + 5, 1], np.uint64)
    np.testing.assert_array_equal(ops.add(big, big).numpy(), big + big)
    np.testing.assert_array_equal(ops.equal(big, big).numpy(), [True, True])
    np.testing.assert_array_equal(ops.sort(big).numpy(), np.sort(big))
    for op in (lambda: ops.max(big), lambda: ops.less(big, big),
               lambda: ops.floor_divide(big, big)):
        with pytest.raises(TypeError, match=r"of uint64 values of 2\*\*63 "
                           r"and more has no kernel in torch"):
            op()
    small = np.array([2**62, 1], np.uint64)
    np.testing.assert_array_equal(ops.max(small).numpy(), 2**62)


def test_a_dtype_torch_has_not_is_a_type_error_naming_it(torch_backend):
    with pytest.raises(TypeError, match="torch has no dtype float128"):
        pycg.constant(np.ones(2, np.longdouble))


def test_half_precisions_keep_their_dtype_and_numpys_rounding(
        torch_backend):
    for dtype in ("float16", "bfloat16"):
        x = np.array([0.1, 1.7, -2.3, 65504.0], dtype)
        got = pycg.constant(x) * 0.1 + 1
        want = (x * np.asarray(0.1, dtype) + np.asarray(1, dtype))
        assert got.dtype == np.dtype(dtype)
        np.testing.assert_array_equal(got.numpy().astype(np.float32),
                                      want.astype(np.float32))


def test_numpy_arrays_of_any_layout_convert_and_numpy_gives_a_copy(
        torch_backend):
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    ro = a.copy()
    ro.flags.writeable = False
    for arr in (a[:, ::-1], a.T, ro, a.astype(">f4")):
        with warnings.catch_warnings():
            warnings.simplefilter("error")   # (torch warns on read-only)
            t = pycg.constant(arr)
        np.testing.assert_array_equal(t.numpy(), arr)
    t = pycg.constant([1.0, 2.0])
    t.numpy()[0] = 9.0
    np.testing.assert_array_equal(t.numpy(), [1.0, 2.0])


# ---- torch's autograd ----------------------------------------------------------
def test_torchs_autograd_records_none_of_pycgs_kernels(torch_backend):
    @pycg.custom_gradient
    def log1pexp(x):
        e = ops.exp(x)
        return ops.log(1 + e), lambda g: g * (1 - 1 / (1 + e))

    saved = []
    x = pycg.constant([0.5, -1.0, 2.0])
    with torch.enable_grad(), torch.autograd.graph.saved_tensors_hooks(
            lambda t: saved.append(t) or t, lambda t: t):
        value, grad = pycg.value_and_grad(
            lambda x: ops.sum(log1pexp(ops.tanh(x)) * x))(x)
        hess = pycg.hessian(lambda x: ops.sum(ops.sin(x) ** 2))(x)
    assert saved == []
    for t in (value, grad, hess):
        assert not t._value.requires_grad and t._value.grad_fn is None
    want = np.tanh([0.5, -1.0, 2.0])
    slope = (1 / (1 + np.exp(-want))) * (1 - want ** 2) * [0.5, -1.0, 2.0] \
        + np.log1p(np.exp(want))
    np.testing.assert_allclose(grad.numpy(), slope, rtol=1e-5)


def test_a_variable_made_or_assigned_from_a_tensor_that_requires_grad_is_detached(
        torch_backend):
    # (where torch does not record: while it records, such a tensor reaching
    # pycg is an error naming pycg.to_torch, test_to_torch_errors.py)
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    tripled = w * 3
    with torch.no_grad():
        v = pycg.Variable(w)
        v.assign(tripled)
    assert not v._value.requires_grad and v._value.grad_fn is None
    np.testing.assert_array_equal(v.numpy(), [3.0, 6.0])


def test_a_torch_dtype_pycg_has_not_is_a_type_error_naming_it(torch_backend):
    t = pycg.convert_to_tensor(torch.ones(2, dtype=torch.float8_e4m3fn))
    with pytest.raises(TypeError, match="a tensor of torch dtype "
                       "float8_e4m3fn has no NumPy dtype; cast it"):
        ops.exp(t)


def test_autograd_records_names_a_tensor_torch_would_record():
    from pycg.backends.torch.core import autograd_records
    w = torch.ones(2, requires_grad=True)
    assert autograd_records(w)
    assert not autograd_records(torch.ones(2))
    with torch.no_grad():
        assert not autograd_records(w)


@pytest.mark.parametrize("mode", ["no_grad", "inference_mode"])
def test_pycg_gradients_work_inside_torchs_no_grad_modes(torch_backend,
                                                        mode):
    with getattr(torch, mode)():
        g = pycg.grad(lambda x: ops.sum(x * x * 3.0))(pycg.constant([1.0,
                                                                     2.0]))
    np.testing.assert_array_equal(g.numpy(), [6.0, 12.0])
    g = pycg.grad(lambda x: ops.sum(x * 3.0))(pycg.constant([1.0]))
    np.testing.assert_array_equal(g.numpy(), [3.0])   # (after: the cache)


# ---- the rest of pycg on torch ---------------------------------------------------
def test_pycg_function_runs_eagerly_on_torch_and_says_so(torch_backend):
    f = pycg.function(lambda x: x * 2.0)
    with pytest.warns(UserWarning, match="the torch backend has no graphs; "
                      "<lambda> runs eagerly"):
        out = f(pycg.constant([1.0]))
    np.testing.assert_array_equal(out.numpy(), [2.0])


def test_random_draws_are_the_numpy_backends(torch_backend):
    def draws():
        gen = pycg.random.SeedGenerator(3)
        return [pycg.random.normal((4,), seed=5).numpy(),
                pycg.random.uniform((2, 2), seed=gen).numpy(),
                pycg.random.dropout(np.ones(8, np.float32), 0.5,
                                    seed=gen).numpy()]
    for got, want in zip(draws(), on("numpy", draws)):
        np.testing.assert_array_equal(got, want)


def test_a_variable_keeps_its_dtype_and_an_update_is_a_new_tensor(
        torch_backend):
    v = pycg.Variable(np.array([1.0, 2.0], np.float16))
    before = v._value
    v.assign_add([0.5, 0.5])
    v.assign_sub(np.array([1.0, 1.0]))
    np.testing.assert_array_equal(before.numpy(), [1.0, 2.0])
    assert v.dtype == np.float16
    np.testing.assert_array_equal(v.numpy(), [0.5, 1.5])


def test_indexing_with_cached_positions_warns_nothing():
    """Gathers and scatters whose positions pycg caches (read-only NumPy
    arrays) reach torch as writable copies: torch's 'NumPy array is not
    writable' warning reached R users through diag() (the conformance
    suite on torch) and Python users through ops.diag. In a fresh
    interpreter: torch gives that warning once per process."""
    out = run_python(
        "import warnings, numpy as np, pycg\n"
        "from pycg import ops\n"
        "pycg.config.set_backend('torch')\n"
        "warnings.simplefilter('error')\n"
        "x = ops.convert_to_tensor(np.arange(12.0).reshape(3, 4))\n"
        "for _ in range(2):\n"
        "    d = ops.diag(ops.convert_to_tensor(np.arange(9.0).reshape(3, 3)))\n"
        "    t = ops.take(x, np.array([0, 5, 11]))\n"
        "    g = x[np.array([0, 2])]\n"
        "    with pycg.GradientTape() as tape:\n"
        "        tape.watch(x)\n"
        "        y = ops.sum(ops.diagonal(x) * 2.0)\n"
        "    dx = tape.gradient(y, x)\n"
        "print((d.numpy().tolist(), t.numpy().tolist(), g.numpy().tolist(),\n"
        "       dx.numpy().tolist()))\n")
    assert out.returncode == 0, out.stderr[-2000:]
    d, t, g, dx = ast.literal_eval(out.stdout.strip().splitlines()[-1])
    assert d == [0.0, 4.0, 8.0] and t == [0.0, 5.0, 11.0]
    assert g == np.arange(12.0).reshape(3, 4)[[0, 2]].tolist()
    assert dx == (2.0 * np.eye(3, 4)).tolist()


def test_isin_of_complex_numbers_is_numpys(torch_backend):
    """torch.isin has no complex kernel (it raised 'Unsupported input type
    encountered for isin(): ComplexFloat' where the other backends answer,
    which the hostile sweep found); NaN is never in anything, as NumPy's."""
    x = np.array([[1 + 2j, 3 - 1j], [np.nan, 0]], dtype=np.complex64)
    for test in (np.array([3 - 1j, np.nan, 0j], dtype=np.complex64),
                 np.array([1 + 2j], dtype=np.complex128),
                 np.zeros((0,), np.complex64)):
        np.testing.assert_array_equal(ops.isin(x, test).numpy(),
                                      np.isin(x, test))
