"""The JAX extension API pycg.to_jax's forward mode registers its linear
map with (pycg/interop/_jax_linear_call.py): pinned here, so that a JAX
that moves it fails by name; and the map's own contract (forward value,
transpose by the given function, batching, jvp in its residuals)
against closed forms."""
import numpy as np
import pytest

jax = pytest.importorskip("jax")
jnp = jax.numpy

from pycg.interop import _jax_linear_call as lc  # noqa: E402


def test_the_jax_extension_api_pycg_registers_with_is_there():
    from jax.extend.core import Primitive
    from jax.interpreters import ad, batching, mlir
    assert callable(Primitive)
    for table in (ad.primitive_jvps, ad.primitive_transposes,
                  batching.primitive_batchers):
        assert hasattr(table, "__setitem__")
    assert callable(ad.is_undefined_primal) and isinstance(ad.Zero, type)
    assert callable(mlir.register_lowering) and callable(mlir.lower_fun)
    lc._jax_api()   # (its own check, which names what is missing)


def test_a_missing_api_is_a_clear_error(monkeypatch):
    from jax.interpreters import ad
    monkeypatch.delattr(ad, "primitive_transposes")
    with pytest.raises(RuntimeError, match=r"pycg.to_jax: this JAX .* "
                       r"lacks part of .*primitive_transposes"):
        lc._jax_api()


# forward(r, t) = r t; its declared transpose 7 r ct (deliberately not the
# true transpose r ct: reverse mode must call the one given)
def _forward(r, t):
    return [r * t]


def _transpose(r, ct):
    return [7.0 * r * ct]


def _map(r, t):
    r, t = jnp.asarray(r), jnp.asarray(t)
    out = jnp.result_type(r, t)
    return lc.linear(_forward, _transpose, [r], [t],
                     [(jnp.broadcast_shapes(r.shape, t.shape), out)])[0]


def test_value_transpose_and_transpose_of_transpose():
    assert float(_map(2.0, 3.0)) == 6.0
    (ct,) = jax.linear_transpose(lambda t: _map(2.0, t), 1.0)(1.0)
    assert float(ct) == 14.0
    assert float(jax.grad(lambda t: _map(2.0, t))(5.0)) == 14.0
    assert float(jax.jit(jax.grad(lambda t: _map(2.0, t)))(5.0)) == 14.0


def test_batched_residuals_and_linear_inputs():
    r, t = jnp.array([1.0, 2.0, 3.0]), jnp.array([4.0, 5.0, 6.0])
    np.testing.assert_array_equal(jax.vmap(_map)(r, t), r * t)
    np.testing.assert_array_equal(jax.vmap(_map, (0, None))(r, 2.0), 2 * r)
    np.testing.assert_array_equal(
        jax.vmap(jax.grad(_map, 1), (0, None))(r, 2.0), 7 * r)
    np.testing.assert_array_equal(
        jax.vmap(jax.grad(_map, 1), (None, 0))(2.0, t), [14.0] * 3)


def test_jvp_in_the_residuals_is_the_map_s_own_derivative():
    # d/dr (r t) = t; the transpose side: d/dr (7 r ct) = 7 ct
    assert float(jax.jvp(lambda r: _map(r, 3.0), (2.0,), (1.0,))[1]) == 3.0
    g = jax.grad(lambda r: jax.grad(lambda t: _map(r, t))(5.0))(2.0)
    assert float(g) == 7.0


def test_threads_making_the_primitive_at_once_get_one():
    import subprocess
    import sys
    code = (
        "import threading\nimport jax\n"
        "from pycg.interop import _jax_linear_call as lc\n"
        "got, go = [], threading.Barrier(8)\n"
        "def first():\n"
        "    go.wait()\n"
        "    got.append(lc._primitive())\n"
        "ts = [threading.Thread(target=first) for _ in range(8)]\n"
        "[t.start() for t in ts]; [t.join() for t in ts]\n"
        "assert len(got) == 8 and len({id(p) for p in got}) == 1\n"
        "assert lc._PRIMITIVE == [got[0]]\n"
        "print('one')\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0 and run.stdout.strip() == "one", run.stderr
