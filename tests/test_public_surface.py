"""What `import pycg` shows a user coming from TensorFlow: public names in
dir() and __all__ (no internal modules), TensorFlow's dtype names usable as
dtype arguments, `help(pycg.custom_gradient)` with the convention tables,
and ops asked for at the top level pointing at pycg.ops."""
import inspect
import pydoc
import types

import numpy as np
import pytest

import pycg
from pycg import ops

DTYPES = ["bfloat16", "float16", "float32", "float64", "complex64",
          "complex128", "int8", "int16", "int32", "int64", "uint8", "uint16",
          "uint32", "uint64", "bool"]


def test_function_is_public():
    assert "function" in pycg.__all__ and "function" in dir(pycg)


def test_dir_lists_no_internal_module():
    import pycg.compile  # noqa: F401  (an internal module, now attached)
    public = set(pycg.__all__)
    modules = {n for n in dir(pycg) if isinstance(
        getattr(pycg, n), types.ModuleType)}
    assert modules <= public | {"r"}, modules - public
    for internal in ("core", "custom", "api", "interop", "tensor",
                     "backends", "compile"):
        assert internal not in dir(pycg)


def test_every_name_in_all_exists():
    assert [n for n in pycg.__all__ if not hasattr(pycg, n)] == []


@pytest.mark.parametrize("name", DTYPES)
def test_tensorflow_dtype_names_work_as_dtype_arguments(backend, name):
    dtype = getattr(pycg, name)
    assert ops.zeros((2,), dtype=dtype).dtype.name == name
    assert ops.cast(ops.ones((2,)), dtype).dtype.name == name
    assert pycg.constant([1, 0], dtype).dtype.name == name


def test_bool_stays_out_of_star_import():
    assert "bool" not in pycg.__all__ and "float32" in pycg.__all__


def test_an_op_asked_for_on_pycg_points_at_pycg_ops():
    with pytest.raises(AttributeError, match=r"module 'pycg' has no "
                       r"attribute 'exp'; the ops live in pycg.ops: use "
                       r"pycg.ops.exp"):
        pycg.exp   # noqa: B018
    with pytest.raises(AttributeError, match=r"attribute 'nonsense'$"):
        pycg.nonsense   # noqa: B018


def test_help_of_custom_gradient_shows_the_convention_tables():
    text = pydoc.render_doc(pycg.custom_gradient, renderer=pydoc.plaintext)
    assert "grad_fn's signature" in text and "pycg calls it as" in text
    assert "grad_fn(*inputs, upstream=dy)" in text
    assert "grad_fn returns" in text and "read as" in text


def test_float32_name_equals_the_tensor_dtype():
    assert pycg.constant(1.0).dtype == pycg.float32
    assert np.dtype(pycg.float32) == np.float32


# Every statement of what pycg is names its backends: tests/test_docs_claims.py


# pycg.to_torch is annotated by the change that owns pycg/interop/torch.py
UNANNOTATED_ELSEWHERE = {"to_torch"}


def test_every_public_function_of_pycg_is_annotated():
    missing = {}
    for name in sorted(set(pycg.__all__) - UNANNOTATED_ELSEWHERE):
        fn = getattr(pycg, name)
        if not isinstance(fn, types.FunctionType):
            continue
        fn = inspect.unwrap(fn)
        lacks = [p for p in inspect.signature(fn).parameters
                 if p not in fn.__annotations__]
        lacks += [] if "return" in fn.__annotations__ else ["return"]
        if lacks:
            missing[name] = lacks
    assert missing == {}
