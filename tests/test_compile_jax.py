"""pycg.function on the jax backend: one jax.jit computation per signature,
tapes, custom rules (every convention), variables (closed over, passed in,
an optimizer's) and random draws inside; checked against eager pycg, plain
JAX with jax.custom_vjp and closed forms."""
import warnings

import numpy as np
import pytest

import pycg
from pycg import ops
from pycg.tensor import structure
from support.log1pexp_case import log1pexp
from test_custom_gradient_conventions import (MARK, dict_style, jax_list_style,
                                              keras_style, named_style,
                                              tf_style, torch_style)
from support import backend_switch

jax = pytest.importorskip("jax")
jnp = jax.numpy


jax_backend = backend_switch.fixture("jax", autouse=True)


def _plain_jax_log1pexp():
    @jax.custom_vjp
    def f(x):
        return jnp.log1p(jnp.exp(x))
    f.defvjp(lambda x: (f(x), jnp.exp(x)),
             lambda e, g: (g * (1 - 1 / (1 + e)),))
    return f


def _loss(x):
    return ops.sum(ops.tanh(log1pexp(x)) * x)


def test_values_and_gradients_equal_eager_pycg_and_plain_jax():
    x = np.linspace(-3, 3, 7).astype(np.float32)
    compiled = pycg.function(pycg.value_and_grad(_loss))
    value, grad = compiled(pycg.constant(x))
    eager_value, eager_grad = pycg.value_and_grad(_loss)(pycg.constant(x))
    jf = _plain_jax_log1pexp()
    jax_value, jax_grad = jax.jit(jax.value_and_grad(
        lambda v: jnp.sum(jnp.tanh(jf(v)) * v)))(jnp.asarray(x))
    np.testing.assert_allclose(value.numpy(), eager_value.numpy(), rtol=1e-6)
    np.testing.assert_allclose(grad.numpy(), eager_grad.numpy(), rtol=1e-6)
    np.testing.assert_allclose(value.numpy(), np.asarray(jax_value),
                               rtol=1e-6)
    np.testing.assert_allclose(grad.numpy(), np.asarray(jax_grad), rtol=1e-5)
    assert compiled.trace_count == 1


def test_the_gradient_matches_float64_finite_differences():
    x = np.array([-1.5, 0.3, 2.0])
    grad = pycg.function(pycg.grad(_loss))(x).numpy()

    def f(v):
        t = np.tanh(np.log1p(np.exp(v)))
        return np.sum(t * v)
    h = 1e-6
    fd = [(f(x + h * e) - f(x - h * e)) / (2 * h) for e in np.eye(3)]
    np.testing.assert_allclose(grad, fd, rtol=1e-6)


@pytest.mark.parametrize("style", [tf_style, keras_style, torch_style,
                                   named_style, jax_list_style, dict_style],
                         ids=lambda f: f.__name__)
def test_every_convention_s_rule_is_used_inside(style):
    f = pycg.custom_gradient(style)

    @pycg.function
    def grads(x, y):
        with pycg.GradientTape() as tape:
            tape.watch([x, y])
            z = f(x, y)
        return tape.gradient(z, [x, y])
    gx, gy = grads(pycg.constant(2.0), pycg.constant(3.0))
    assert (float(gx), float(gy)) == (MARK * 3.0, MARK * 2.0)


def test_a_rule_tripling_the_gradient_gives_three_times_under_function():
    @pycg.custom_gradient
    def tripled(x):
        return x * x, lambda g: 3 * g * 2 * x

    slope = pycg.function(pycg.grad(lambda x: ops.sum(tripled(x))))
    x = np.array([1.0, -2.0], np.float32)
    np.testing.assert_array_equal(slope(x).numpy(), 3 * 2 * x)


def test_a_call_with_the_same_signature_runs_no_python():
    runs = []

    @pycg.function
    def f(x):
        runs.append(1)
        return ops.sum(x * x)
    for v in ([1.0, 2.0], [3.0, 4.0]):
        assert float(f(pycg.constant(v))) == v[0] ** 2 + v[1] ** 2
    f(np.array([3.0, 4.0], np.float32))
    assert f.trace_count == 1 and len(runs) == 1


def test_a_new_shape_or_dtype_or_int_or_float_retraces_an_array_does_not():
    f = pycg.function(lambda x, n=1: ops.sum(x * n))
    f(np.array([1.0, 2.0], np.float32))
    f(np.array([3.0, 4.0], np.float32))
    assert f.trace_count == 1
    assert float(f(2.0)) == 2.0 and float(f(3.0)) == 3.0   # (a Python
    assert f.trace_count == 3                    # float is a value, weakly
    f(np.ones((3, 3), np.float32))                   # typed inside)
    assert f.trace_count == 4
    f(np.ones((3, 3), np.float64))
    assert f.trace_count == 5
    assert float(f(np.ones(2, np.float32), 3)) == 6.0
    assert float(f(np.ones(2, np.float32), 4)) == 8.0
    assert f.trace_count == 7


def test_outputs_keep_their_structure_and_python_values():
    @pycg.function
    def f(x, scale=2.0):
        return {"twice": [x * scale], "label": "ok", "n": x.shape[0]}
    out = f(pycg.constant([1.0, 2.0]))
    assert out["label"] == "ok" and int(out["n"]) == 2
    assert out["twice"][0].numpy().tolist() == [2.0, 4.0]
    out = f(pycg.constant([1.0, 2.0, 3.0]), scale=0.5)
    assert int(out["n"]) == 3 and out["twice"][0].numpy().tolist() == [0.5, 1, 1.5]


def test_a_closed_over_variable_is_read_at_each_call_not_baked_in():
    w = pycg.Variable(np.float32(2.0))
    f = pycg.function(lambda x: x * w)
    assert float(f(3.0)) == 6.0
    w.assign(5.0)
    assert float(f(3.0)) == 15.0
    assert f.trace_count == 2   # the first call found w, then traced with it


def test_assign_inside_writes_back_and_leaves_no_tracer():
    counter = pycg.Variable(np.float32(0.0), trainable=False)

    @pycg.function
    def bump(x):
        counter.assign_add(x)
        return counter.read() * 1.0
    assert [float(bump(1.0)) for _ in range(3)] == [1.0, 2.0, 3.0]
    assert isinstance(counter._value, jax.Array) and float(counter) == 3.0
    assert not isinstance(counter._value, jax.core.Tracer)


def test_variables_passed_as_arguments_trace_once():
    v = pycg.Variable(np.array([1.0, 2.0], np.float32))

    @pycg.function
    def grads(x, variables):
        with pycg.GradientTape() as tape:
            loss = ops.sum(variables[0] * x * x)
        return tape.gradient(loss, variables)
    x = pycg.constant([1.0, 2.0])
    assert grads(x, [v])[0].numpy().tolist() == [1.0, 4.0]
    assert grads.trace_count == 1


@pytest.mark.parametrize("make", [
    lambda: pycg.optimizers.SGD(0.1, momentum=0.9),
    lambda: pycg.optimizers.Adam(0.05)], ids=["sgd_momentum", "adam"])
def test_an_optimizer_step_inside_equals_eager_steps(make):
    x = np.array([[1.0, 2.0], [3.0, -1.0]], np.float32)
    y = np.array([1.0, -1.0], np.float32)

    def model():
        w = pycg.Variable(np.array([0.5, -0.5], np.float32), name="w")
        opt = make()

        def step(x, y):
            with pycg.GradientTape() as tape:
                loss = ops.mean((ops.tanh(log1pexp(ops.matmul(x, w))) - y)
                                ** 2)
            opt.apply_gradients(zip(tape.gradient(loss, [w]), [w]))
            return loss
        return w, opt, step
    w1, opt1, eager = model()
    w2, opt2, step = model()
    compiled = pycg.function(step)
    for _ in range(4):   # (XLA fuses float32 arithmetic: not bitwise)
        np.testing.assert_allclose(compiled(x, y).numpy(), eager(x, y).numpy(),
                                   rtol=1e-5)
    np.testing.assert_allclose(w2.numpy(), w1.numpy(), rtol=1e-5)
    assert int(opt2.iterations) == 4
    for a, b in zip(opt2.variables, opt1.variables):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5)
    assert compiled.trace_count == 2   # the first step made the slots


def test_random_draws_inside_equal_eager_draws():
    def draw(x, gen):
        return x + pycg.random.normal((3,), seed=gen), \
            pycg.random.uniform((2,), seed=7)
    compiled = pycg.function(lambda x: draw(x, g1))
    g1, g2 = pycg.random.SeedGenerator(3), pycg.random.SeedGenerator(3)
    firsts = []
    for _ in range(3):
        (a, u), (b, w) = compiled(1.0), draw(1.0, g2)
        np.testing.assert_array_equal(a.numpy(), b.numpy())
        np.testing.assert_array_equal(u.numpy(), w.numpy())
        firsts.append(a.numpy()[0])
    assert len(set(firsts)) == 3   # the generator moves on at each call
    np.testing.assert_array_equal(g1.state.numpy(), g2.state.numpy())


def test_a_tape_around_a_compiled_function_sees_its_ops():
    w = pycg.Variable(np.float32(1.5))
    f = pycg.function(lambda x: log1pexp(x) * w * x)
    x = pycg.constant(0.8)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pycg.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
    dx, dw = tape.gradient(y, [x, w])
    s = 1 / (1 + np.exp(-0.8))
    assert float(dx) == pytest.approx(1.5 * (np.log1p(np.exp(0.8)) + 0.8 * s),
                                      rel=1e-6)
    assert float(dw) == pytest.approx(0.8 * np.log1p(np.exp(0.8)), rel=1e-6)


# ---- bad input -------------------------------------------------------------
def test_python_control_flow_on_a_traced_value_says_what_to_do():
    @pycg.function
    def branchy(x):
        if x > 0:
            return x
        return -x
    with pytest.raises(TypeError, match=r"a traced tensor was used as "
                       r"bool\(\).*Use ops.where, ops.cond"):
        branchy(pycg.constant(1.0))


def test_an_error_inside_leaves_the_variables_as_they_were():
    w = pycg.Variable(np.float32(1.0))

    @pycg.function
    def f(x):
        w.assign(x * 2)
        raise ValueError("my own error")
    with pytest.raises(ValueError, match="my own error"):
        f(3.0)
    assert float(w) == 1.0 and not isinstance(w._value, jax.core.Tracer)


def test_an_unhashable_argument_is_a_clear_error():
    f = pycg.function(lambda x, opts: x)

    def show(e):
        return str(e.value)
    with pytest.raises(TypeError) as e:
        f(1.0, {"a": object}.keys())
    assert "function(<lambda>): an argument of type dict_keys is neither " \
        "a tensor nor hashable" in show(e)


def test_a_variable_made_from_a_traced_value_is_a_clear_error():
    @pycg.function
    def f(x):
        return pycg.Variable(x * 2).read()
    with pytest.raises(TypeError, match=r"a pycg.Variable was created inside "
                       r"the compiled function from a traced value"):
        f(pycg.constant(1.0))


def test_a_new_variable_at_every_trace_is_a_clear_error():
    @pycg.function
    def f(x):   # (a number no other test made: nothing cached)
        v = pycg.Variable(np.float32(1.2345678))
        return x * v
    with pytest.raises(ValueError, match=r"f creates a new pycg.Variable "
                       r"each time it is traced"):
        f(1.0)


# ---- control flow on traced values -------------------------------------------
def test_cond_on_a_traced_predicate_lowers_to_lax_cond():
    runs = []

    @pycg.function
    def f(x):
        runs.append(1)
        return ops.cond(ops.sum(x) > 0, lambda: x * 2.0, lambda: -x)
    assert f(pycg.constant([1.0, 2.0])).numpy().tolist() == [2.0, 4.0]
    assert f(pycg.constant([-1.0, -2.0])).numpy().tolist() == [1.0, 2.0]
    assert f.trace_count == 1 and len(runs) == 1
    text = jax.jit(lambda v: f._jax._jitted[1]([v], [])[0]).lower(
        jnp.ones(2, jnp.float32)).as_text()
    assert "cond" in text or "case" in text


@pytest.mark.parametrize("x, slope", [(2.0, 3 * 2 * 2.0), (-2.0, 5.0)])
def test_cond_under_a_tape_gives_the_taken_branch_s_rule(x, slope):
    @pycg.custom_gradient
    def tripled_square(v):
        return v * v, lambda g: 3 * g * 2 * v

    @pycg.function
    def grad(v):
        with pycg.GradientTape() as tape:
            tape.watch(v)
            y = ops.cond(v > 0, lambda: tripled_square(v), lambda: 5.0 * v)
        return tape.gradient(y, v)
    assert float(grad(pycg.constant(x))) == slope


def test_switch_on_a_traced_index_clips_it_as_eagerly():
    branches = [lambda v: v + 1.0, lambda v: v * 10.0, lambda v: -v]
    f = pycg.function(lambda i, v: ops.switch(i, branches, v))
    for i in (-3, 0, 1, 2, 7):
        got = f(pycg.constant(i), pycg.constant(2.0))
        assert float(got) == float(ops.switch(i, branches, 2.0))
    assert f.trace_count == 1


def test_while_loop_and_fori_loop_on_traced_values_lower_to_lax():
    @pycg.function
    def doublings(x):
        return ops.while_loop(lambda v, n: v < 100.0,
                              lambda v, n: (v * 2.0, n + 1), (x, 0))

    @pycg.function
    def triangle(n):
        return ops.fori_loop(0, n, lambda i, acc: acc + i, 0)
    for start, (end, count) in ((1.0, (128.0, 7)), (30.0, (120.0, 2)),
                                (200.0, (200.0, 0))):
        v, n = doublings(pycg.constant(start))
        assert (float(v), int(n)) == (end, count)
    assert doublings.trace_count == 1
    assert [int(triangle(pycg.constant(n))) for n in (0, 4, 10)] == \
        [0, 6, 45]
    capped = pycg.function(lambda x: ops.while_loop(
        lambda v: v < 100.0, lambda v: v * 2.0, x, maximum_iterations=3))
    assert float(capped(pycg.constant(1.0))) == 8.0


def test_a_tape_through_a_traced_while_loop_is_a_clear_error():
    @pycg.function
    def grad(x):
        with pycg.GradientTape() as tape:
            tape.watch(x)
            y = ops.while_loop(lambda v: v < 100.0, lambda v: v * 2.0, x)
        return tape.gradient(y, x)
    with pytest.raises(TypeError, match=r"ops.while_loop: a GradientTape "
                       r"records values that flow through this loop.*"
                       r"ops.fori_loop with Python int bounds or ops.scan"):
        grad(pycg.constant(1.0))
    w = pycg.Variable(np.float32(2.0))

    @pycg.function
    def through_a_variable(x):
        with pycg.GradientTape() as tape:
            y = ops.while_loop(lambda v: v < 100.0, lambda v: v * w, x)
        return tape.gradient(y, w)
    with pytest.raises(TypeError, match=r"ops.while_loop: a GradientTape "):
        through_a_variable(pycg.constant(1.0))


def test_scan_and_fori_loop_with_python_bounds_unroll_and_differentiate():
    @pycg.function
    def grad(x):
        with pycg.GradientTape() as tape:
            tape.watch(x)
            y = ops.fori_loop(0, 3, lambda i, v: log1pexp(v), x)
            _, ys = ops.scan(lambda c, xi: (c, c * xi), x, ops.ones(2))
            y = y + ops.sum(ys)
        return tape.gradient(y, x)

    def s(v):
        return 1 / (1 + np.exp(-v))
    x = 0.3
    a = np.log1p(np.exp(x))
    b = np.log1p(np.exp(a))
    want = s(b) * s(a) * s(x) + 2.0
    assert float(grad(pycg.constant(x))) == pytest.approx(want, rel=1e-6)


def test_segment_ids_without_num_segments_inside_is_a_clear_error():
    ids = np.array([0, 0, 1])
    f = pycg.function(lambda d, ids: ops.segment_max(d, ids))
    with pytest.raises(TypeError, match=r"pycg.ops.segment_max: segment_ids "
                       r"has no value yet inside a compiled function.*pass "
                       r"num_segments"):
        f(pycg.constant([1.0, 3.0, 2.0]), pycg.constant(ids))
    g = pycg.function(lambda d, ids: ops.segment_max(d, ids, num_segments=2))
    assert g(pycg.constant([1.0, 3.0, 2.0]), pycg.constant(ids)).numpy(
        ).tolist() == [3.0, 2.0]
    # NumPy ids the function closes over have their value in the trace
    h = pycg.function(lambda d: ops.segment_max(d, ids))
    assert h(pycg.constant([1.0, 3.0, 2.0])).numpy().tolist() == [3.0, 2.0]


def test_a_compiled_function_inside_another_shares_its_variables():
    w = pycg.Variable(np.float32(1.0), trainable=False)

    @pycg.function
    def inner(x):
        w.assign_add(x)
        return w.read() * 2.0

    @pycg.function
    def outer(x):
        return inner(x) + w.read()
    assert [float(outer(1.0)) for _ in range(3)] == [6.0, 9.0, 12.0]
    w.assign(0.0)
    assert float(outer(1.0)) == 3.0 and float(w) == 1.0
    assert not isinstance(w._value, jax.core.Tracer)


def test_positional_keyword_and_optional_arguments():
    def f(x, y=None, scale=2.0):
        out = x * scale if y is None else x * y * scale
        return [out, ops.sum(out)]

    compiled = pycg.function(f)
    x, y = pycg.constant([1.0, 2.0]), pycg.constant([3.0, 4.0])
    for args, kwargs in (((x,), {}), ((x, y), {}), ((x,), {"y": y}),
                         ((x, y), {"scale": 0.5}), ((x,), {})):
        got, want = compiled(*args, **kwargs), f(*args, **kwargs)
        assert type(got) is list and len(got) == 2
        for g, w in zip(got, want):
            np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-6)
    assert compiled.trace_count == 4   # (the last call reuses the first)


def test_second_derivative_through_a_rule_inside():
    curvature = pycg.function(pycg.grad(pycg.grad(log1pexp)))
    s = 1 / (1 + np.exp(-0.7))
    assert float(curvature(0.7)) == pytest.approx(s * (1 - s), rel=1e-6)


def test_a_rule_s_variables_form_inside():
    w = pycg.Variable(np.array([1.0, 2.0]))

    @pycg.custom_gradient
    def f(x):
        def grad(dy, variables=None):
            return MARK * dy * ops.sum(w), [MARK * dy * x * ops.ones_like(w)]
        return x * ops.sum(w), grad

    @pycg.function
    def grads(x):
        with pycg.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        return tape.gradient(y, [x, w])
    gx, gw = grads(pycg.constant(3.0))
    assert float(gx) == MARK * 3 and gw.numpy().tolist() == [MARK * 3] * 2


def test_called_on_jax_tracers_it_says_to_use_to_jax():
    @pycg.custom_gradient
    def tripled(x):
        return x * 1.0, lambda g: 3 * g
    f = pycg.function(lambda x: ops.sum(tripled(x)))
    f.__name__ = "total"
    with pytest.raises(TypeError, match=r"total: this pycg.function was "
                       r"called on a JAX tracer .* convert it with "
                       r"pycg.to_jax\(total\)"):
        jax.grad(lambda v: f(v)._value)(2.0)
    assert float(jax.grad(pycg.to_jax(f))(2.0)) == 3.0
    assert float(jax.jit(pycg.to_jax(f))(2.0)) == 2.0


def test_variables_used_on_another_backend_between_calls_are_found_again():
    w = pycg.Variable(np.float32(2.0))
    f = pycg.function(lambda x: x * w)
    assert float(f(3.0)) == 6.0
    pycg.config.set_backend("numpy")
    w.assign(5.0)   # (w's storage moves to NumPy, and back below)
    pycg.config.set_backend("jax")
    assert float(f(3.0)) == 15.0
    pycg.config.set_backend("numpy")
    w.assign(1.0)
    pycg.config.set_backend("jax")
    assert float(f(3.0)) == 3.0


def _vjp_sample():
    from support import vjp_suite
    return vjp_suite.PARAMS[::20]


@pytest.mark.parametrize("name, case", _vjp_sample())
def test_vjp_cases_compiled_equal_eager(name, case):
    """Every 20th case of the VJP table, tape and gradient inside
    pycg.function, against the same eagerly (all 361 pass this way:
    docs/backend-jax.md)."""
    from support import vjp_suite as T
    arrays = T._arrays(case, seed=0)
    outs, cts, grads = T._pycg_vjp(case, arrays, seed=0)

    @pycg.function
    def step(xs, cts):
        with pycg.GradientTape() as tape:
            tape.watch(xs)
            ys = T._flat(case.fn(*xs))
        return ys, tape.gradient(ys, xs, output_gradients=cts)
    ys, got = step([pycg.constant(a) for a in arrays], cts)
    for y, o in zip(ys, outs):
        np.testing.assert_allclose(y.numpy(), o, rtol=1e-7, atol=1e-9)
    for g, e in zip(got, grads):
        np.testing.assert_allclose(g.numpy(), e, rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("reverse", [False, True])
def test_scan_and_map_on_traced_values_lower_to_lax_scan(reverse):
    def cumulative(xs):
        return ops.scan(lambda c, x: (c + x, c * x), 0.0, xs, reverse=reverse)

    def no_ys(xs):
        return ops.scan(lambda c, x: (c + 2.0 * x, None), 1.0, xs)[0]

    xs = pycg.constant([1.0, 2.0, 3.0, 4.0])
    for fn in (cumulative, no_ys, lambda v: ops.map(lambda x: x * x, v)):
        compiled = pycg.function(fn)
        got, want = compiled(xs), fn(xs)
        for g, w in zip(structure.flatten(got), structure.flatten(want)):
            np.testing.assert_allclose(np.asarray(g), np.asarray(w))
    text = jax.jit(lambda v: compiled._jax._jitted[1]([v], [])[0]).lower(
        jnp.ones(4, jnp.float32)).as_text()
    assert "while" in text   # (lax.scan's loop, not 4 unrolled steps)


def test_numbers_and_numpy_results_come_back_as_tensors_as_from_tf_function():
    x = pycg.constant([1.0, 2.0])
    for fn, dtype, value in (
            (lambda x: np.ones(2, np.float32), "float32", [1.0, 1.0]),
            (lambda x: 1.5, "float32", 1.5), (lambda x: 6, "int32", 6),
            (lambda x: np.float32(2.0), "float32", 2.0),
            (lambda x: (x, 2.5)[1], "float32", 2.5)):
        got = pycg.function(fn)(x)
        assert type(got) is pycg.Tensor and got.dtype == dtype
        assert got.numpy().tolist() == value
    label, n = pycg.function(lambda x: ("hi", x.shape[0]))(x)
    assert label == "hi" and type(n) is pycg.Tensor and int(n) == 2


def test_a_draw_inside_without_jax_s_cpu_platform_is_a_clear_error(
        monkeypatch):
    real = jax.devices

    def devices(backend=None):
        if backend == "cpu":
            raise RuntimeError("Unknown backend cpu")
        return real(backend)
    gen = pycg.random.SeedGenerator(1)
    f = pycg.function(lambda x: x + pycg.random.normal((2,), seed=gen))
    monkeypatch.setattr(jax, "devices", devices)
    with pytest.raises(RuntimeError, match=r"needs JAX's cpu platform.*"
                       r"JAX_PLATFORMS=cuda,cpu"):
        f(1.0)
