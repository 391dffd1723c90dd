"""Ported from HIPS autograd: HIPS/autograd, tests/ (test_core.py,
test_wrappers.py, test_jacobian.py, test_dict.py, test_tuple.py,
test_list.py, test_complex.py, test_binary_ops.py, test_scalar_ops.py).
Each test names its origin file and test. autograd's oracle is its own
check_grads (first and second derivatives against central differences);
`check_grads` below does the same in float64, and complex inputs follow
pycg's (TensorFlow's) convention dL/dx + i dL/dy."""
import itertools
from functools import partial

import numpy as np
import pytest

import pycg
from pycg import ops

ORIGIN = "HIPS/autograd tests/"
EPS = 1e-6


def close(a, b, tol=1e-5):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=tol,
                               atol=tol)


def _numeric_grad(f, args, i):
    """Central differences of scalar f in argument i (real or complex)."""
    x = np.asarray(args[i], dtype=np.result_type(args[i], np.float64))
    g = np.zeros_like(x)
    for k in np.ndindex(x.shape):
        for unit in ((1.0, 1j) if np.iscomplexobj(x) else (1.0,)):
            up, dn = x.copy(), x.copy()
            up[k] += EPS * unit
            dn[k] -= EPS * unit
            a = list(args)
            a[i] = up
            b = list(args)
            b[i] = dn
            g[k] += unit * (float(f(*a)) - float(f(*b))) / (2 * EPS)
    return g


def check_grads(f, *args, order=2):
    """autograd.test_util.check_grads: pycg.grad of f in every argument,
    and (order 2) of the sum of each gradient, against differences."""
    args = [np.asarray(a, dtype=np.result_type(a, np.float64)) for a in args]
    for i in range(len(args)):
        got = pycg.grad(f, argnums=i)(*args)
        close(got, _numeric_grad(f, args, i), 1e-4)
        if order > 1:
            df = lambda *a, i=i: ops.sum(  # noqa: E731
                ops.real(pycg.grad(f, argnums=i)(*a)))
            check_grads(df, *args, order=order - 1)


def _scalar(x):
    return ops.sum(x)


# ---- test_core.py ------------------------------------------------------------
BINARY = {"add": lambda x, y: x + y, "sub": lambda x, y: x - y,
          "div": lambda x, y: x / y, "mul": lambda x, y: x * y,
          "pow": lambda x, y: x ** y, "mod": lambda x, y: x % y}


@pytest.mark.parametrize("name", sorted(BINARY))
def test_core_binary(backend, name):
    """test_core.py: test_add, test_sub, test_div, test_mul, test_pow,
    test_mod (check_binary_func at 0.7, 1.8)"""
    check_grads(BINARY[name], 0.7, 1.8, order=1)


@pytest.mark.parametrize("op", ["==", "!=", "<=", ">=", "<", ">"])
def test_core_comparisons_have_no_gradient(backend, op):
    """test_core.py: test_eq, test_neq, test_leq, test_geq, test_lt, test_gt
    (autograd gives zero with a warning; pycg's comparisons are boolean, so
    a loss through them has a zero gradient)"""
    f = eval(f"lambda x, y: ops.cast(x {op} y, 'float64') * 1.0")
    close(pycg.grad(f, argnums=(0, 1))(0.7, 1.8), (0.0, 0.0))


# ---- test_binary_ops.py ------------------------------------------------------
def _arg_pairs():
    rng = np.random.RandomState(1)
    scalar, vector = 2.0, rng.randn(6)
    mat, mat2 = rng.randn(7, 6), rng.randn(1, 6)
    return list(itertools.product([scalar, vector, mat, mat2], repeat=2))


PAIRS = _arg_pairs()
IDS = [f"{np.shape(a)}x{np.shape(b)}" for a, b in PAIRS]


@pytest.mark.parametrize("a,b", PAIRS, ids=IDS)
@pytest.mark.parametrize("name", ["mul", "add", "sub"])
def test_binary_ops(backend, name, a, b):
    """test_binary_ops.py: test_mul, test_add, test_sub (every pair of
    scalar, vector and matrix shapes, with broadcasting)"""
    f = lambda x, y, op=BINARY[name]: _scalar(op(x, y))  # noqa: E731
    check_grads(f, a, b, order=1)
    for i in (0, 1):
        d = lambda x, y, i=i: _scalar(pycg.grad(f, argnums=i)(x, y))  # noqa
        check_grads(d, a, b, order=1)


@pytest.mark.parametrize("a,b", PAIRS, ids=IDS)
def test_binary_div(backend, a, b):
    """test_binary_ops.py: test_div (arguments kept away from zero)"""
    gap = lambda x: np.sqrt(np.asarray(x) ** 2 + 0.5)  # noqa: E731
    check_grads(lambda x, y: _scalar(x / y), gap(a), gap(b), order=2)


@pytest.mark.parametrize("a,b", PAIRS, ids=IDS)
def test_binary_pow(backend, a, b):
    """test_binary_ops.py: test_pow (positive base, rounded exponent)"""
    check_grads(lambda x, y: _scalar(x ** y), np.abs(a) + 1.1,
                np.round(b), order=1)


# ---- test_scalar_ops.py -----------------------------------------------------
SCALAR = {"abs": (ops.abs, [1.1, -1.1]), "sin": (ops.sin, [0.4]),
          "sign": (ops.sign, [1.1, -1.1]), "exp": (ops.exp, [0.4]),
          "log": (ops.log, [0.6]), "neg": (lambda x: -x, [0.4]),
          "cos": (ops.cos, [0.4]), "tan": (ops.tan, [0.4]),
          "cosh": (ops.cosh, [0.4]), "sinh": (ops.sinh, [0.4]),
          "tanh": (ops.tanh, [0.4])}


@pytest.mark.parametrize("name", sorted(SCALAR))
def test_scalar_ops(backend, name):
    """test_scalar_ops.py: test_abs, test_sin, test_sign, test_exp,
    test_log, test_neg, test_cos, test_tan, test_cosh, test_sinh, test_tanh
    (3 * op(x), first and second derivatives)"""
    op, points = SCALAR[name]
    for x in points:
        check_grads(lambda v, op=op: 3.0 * op(v), x, order=2)


# ---- test_tuple.py, test_list.py ---------------------------------------------
@pytest.mark.parametrize("container", [tuple, list])
def test_container_getter(backend, container):
    """test_tuple.py / test_list.py: test_getter"""
    rng = np.random.RandomState(0)
    args = container([rng.randn(5, 6), rng.randn(4, 3), rng.randn(2, 4)])

    def fun(c):
        return ops.sum(c[0]) + ops.sum(c[1]) + ops.sum(c[1])
    g = pycg.grad(fun)(args)
    assert isinstance(g, container)
    close(g[0], np.ones((5, 6)))
    close(g[1], 2 * np.ones((4, 3)))
    close(g[2], np.zeros((2, 4)))


@pytest.mark.parametrize("container", [tuple, list])
def test_container_grads(backend, container):
    """test_tuple.py / test_list.py: test_grads (second order)"""
    rng = np.random.RandomState(0)
    args = container([rng.randn(5, 6), rng.randn(4, 3)])

    def fun(c):
        return ops.sum(ops.sin(c[0])) + ops.sum(ops.cos(c[1]))

    def d_fun(c):
        g = pycg.grad(fun)(c)
        return (ops.sum(g[0]) + ops.sum(ops.sin(g[0])) +
                ops.sum(ops.sin(g[1])))
    gg = pycg.grad(d_fun)(args)
    c1 = np.cos(args[0])
    close(gg[0], -np.sin(args[0]) * (1 + np.cos(c1)))
    close(gg[1], np.cos(-np.sin(args[1])) * -np.cos(args[1]))


def test_nested_higher_order(backend):
    """test_tuple.py: test_nested_higher_order (the same x in both slots of
    a tuple argument; three orders)"""
    def outer_fun(x):
        g = pycg.grad(lambda y: y[0] * y[1])((x, x))
        return ops.sum(ops.sin(ops.stack(list(g))))
    # outer = 2 sin x, so its derivatives are 2 cos x, -2 sin x, -2 cos x
    close(outer_fun(5.0), 2 * np.sin(5.0))
    check_grads(outer_fun, 5.0, order=1)
    close(pycg.grad(outer_fun)(10.0), 2 * np.cos(10.0))
    close(pycg.grad(pycg.grad(outer_fun))(10.0), -2 * np.sin(10.0))
    close(pycg.grad(pycg.grad(pycg.grad(outer_fun)))(10.0),
          -2 * np.cos(10.0))


# ---- test_wrappers.py --------------------------------------------------------
def test_return_both(backend):
    """test_wrappers.py: test_return_both"""
    fun = lambda x: 3.0 * x ** 3.2  # noqa: E731
    f, d = pycg.value_and_grad(fun)(1.7)
    close(f, 3.0 * 1.7 ** 3.2)
    close(d, pycg.grad(fun)(1.7))
    close(d, 3.0 * 3.2 * 1.7 ** 2.2)


def test_value_and_grad(backend):
    """test_wrappers.py: test_value_and_grad"""
    x = np.random.RandomState(1).randn(5)
    v, g = pycg.value_and_grad(lambda x: ops.sum(ops.sin(x) ** 2))(x)
    close(v, np.sum(np.sin(x) ** 2))
    close(g, 2 * np.sin(x) * np.cos(x))


def test_hessian(backend):
    """test_wrappers.py: test_hessian"""
    rng = np.random.RandomState(1)
    h, x = rng.randn(5, 5), rng.randn(5)
    close(pycg.hessian(lambda x: ops.dot(ops.dot(x, h), x))(x), h + h.T)


def test_multigrad(backend):
    """test_wrappers.py: test_multigrad (argnums=[3, 1], keyword args)"""
    def complicated_fun(a, b, c, d, e, f=1.1, g=9.0):
        return a + ops.sin(b) + ops.cosh(c) + ops.cos(d) + ops.tan(e) + f + g
    exact = pycg.grad(complicated_fun, argnums=(3, 1))(
        0.5, -0.3, 0.2, -1.1, 0.7, f=0.6, g=-0.1)
    close(exact, (-np.sin(-1.1), np.cos(-0.3)))


def test_multigrad_onearg(backend):
    """test_wrappers.py: test_multigrad_onearg"""
    rng = np.random.RandomState(1)
    a, b = rng.randn(3), rng.randn(3)
    g = pycg.grad(lambda x, y: ops.sum(x + ops.sin(y)), argnums=(0, 1))(a, b)
    packed = pycg.grad(lambda xy: ops.sum(xy[0] + ops.sin(xy[1])))((a, b))
    close(g[0], packed[0])
    close(g[1], np.cos(b))


def test_elementwise_grad(backend):
    """test_wrappers.py: test_elementwise_grad (as grad of the sum)"""
    a = np.random.RandomState(1).randn(10)
    g = pycg.grad(lambda a: ops.sum(a + ops.sin(a) + ops.cosh(a)))(a)
    close(g, 1 + np.cos(a) + np.sinh(a))


def test_elementwise_grad_multiple_args(backend):
    """test_wrappers.py: test_elementwise_grad_multiple_args"""
    b = np.random.RandomState(1).randn(10)
    g = pycg.grad(lambda a, b: ops.sum(a + ops.sin(a) + ops.cosh(b)),
                  argnums=1)(0.9, b)
    close(g, np.sinh(b))


@pytest.mark.parametrize("shape", [(5,), (5, 4), (5, 4, 3)])
def test_hessian_tensor_product(backend, shape):
    """test_wrappers.py: test_hessian_vector_product,
    test_hessian_matrix_product, test_hessian_tensor_product"""
    rng = np.random.RandomState(1)
    a, v = rng.randn(*shape), rng.randn(*shape)
    f = lambda a: ops.sum(ops.sin(a))  # noqa: E731
    h = pycg.hessian(f)(a).numpy()
    hv = np.tensordot(h, v, axes=len(shape))
    close(hv, -np.sin(a) * v)
    _, hvp = pycg.jvp(pycg.grad(f), (a,), (v,))
    close(hvp, hv)


@pytest.mark.parametrize("vshape", [(5,), (5, 4)])
def test_vector_jacobian_product(backend, vshape):
    """test_wrappers.py: test_vector_jacobian_product,
    test_matrix_jacobian_product (np.roll written with concatenate)"""
    rng = np.random.RandomState(1)
    a, v = rng.randn(*vshape), rng.randn(*vshape)

    def fun(a):
        s = ops.sin(a)
        flat = ops.reshape(s, (-1,))
        rolled = ops.concatenate([flat[-1:], flat[:-1]])
        return ops.reshape(rolled, a.shape)
    j = pycg.jacobian(fun)(a).numpy()
    _, vjp = pycg.vjp(fun, a)
    close(vjp(v)[0], np.tensordot(v, j, axes=len(vshape)))
    expected = np.cos(a) * np.roll(v, -1)
    close(vjp(v)[0], expected)


def test_partial(backend):
    """test_wrappers.py: test_partial"""
    g = pycg.grad(partial(lambda x, y: x * y, y=1.0))(2.0)
    close(g, 1.0)


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_dtypes(backend, dtype):
    """test_wrappers.py: test_dtypes: the gradient keeps the input's dtype"""
    y = np.random.RandomState(1).randn(10, 10).astype(dtype)
    assert pycg.grad(lambda x: ops.sum(x ** 2))(y).dtype == dtype


# ---- test_jacobian.py --------------------------------------------------------
def test_jacobian_against_grad(backend):
    """test_jacobian.py: test_jacobian_against_grad"""
    a = np.random.RandomState(1).randn(1, 3)
    fun = lambda x: ops.sum(ops.sin(x), axis=1, keepdims=True)  # noqa: E731
    close(pycg.jacobian(fun)(a).numpy().reshape(1, 3), np.cos(a))
    close(pycg.grad(lambda x: ops.sum(fun(x)))(a), np.cos(a))


def test_jacobian_scalar_to_vector(backend):
    """test_jacobian.py: test_jacobian_scalar_to_vector"""
    val = 0.7
    j = pycg.jacobian(lambda x: ops.stack([x, x ** 2, x ** 3]))(val)
    close(j, [1.0, 2 * val, 3 * val ** 2])


def test_jacobian_against_stacked_grads(backend):
    """test_jacobian.py: test_jacobian_against_stacked_grads"""
    scalar_funs = [
        lambda x: ops.sum(x ** 3),
        lambda x: ops.prod(ops.sin(x) + ops.sin(x)),
        lambda x: pycg.grad(lambda y: ops.exp(y) * ops.tanh(x[0]))(x[1]),
    ]
    x = np.random.RandomState(1).randn(5)
    jac = pycg.jacobian(lambda x: ops.stack([f(x) for f in scalar_funs]))(x)
    grads = [pycg.grad(f)(x) for f in scalar_funs]
    close(jac, np.vstack([g.numpy() for g in grads]))
    # closed forms of the three rows
    s = 2 * np.sin(x)
    row2 = np.array([np.prod(np.delete(s, k)) * 2 * np.cos(x[k])
                     for k in range(5)])
    row3 = np.zeros(5)
    row3[0] = np.exp(x[1]) * (1 - np.tanh(x[0]) ** 2)
    row3[1] = np.exp(x[1]) * np.tanh(x[0])
    close(jac, np.vstack([3 * x ** 2, row2, row3]))


def test_jacobian_higher_order(backend):
    """test_jacobian.py: test_jacobian_higher_order"""
    def fun(x):
        return ops.sin(ops.outer(x, x)) + ops.cos(ops.dot(x, x))
    x = np.random.RandomState(1).randn(2)
    assert pycg.jacobian(fun)(x).shape == (2, 2, 2)
    assert pycg.jacobian(pycg.jacobian(fun))(x).shape == (2, 2, 2, 2)
    check_grads(lambda x: ops.sum(ops.sin(pycg.jacobian(fun)(x))), x,
                order=1)


# ---- test_dict.py ------------------------------------------------------------
def _input_dict():
    rng = np.random.RandomState(0)
    return {"item_1": rng.randn(5, 6), "item_2": rng.randn(4, 3),
            "item_X": rng.randn(2, 4)}


def test_dict_getter(backend):
    """test_dict.py: test_getter"""
    def fun(d):
        return ops.sum(d["item_1"]) + 2 * ops.sum(d["item_2"])
    r = pycg.grad(fun)(_input_dict())
    close(r["item_1"], np.ones((5, 6)))
    close(r["item_2"], 2 * np.ones((4, 3)))
    close(r["item_X"], np.zeros((2, 4)))


def test_dict_grads(backend):
    """test_dict.py: test_grads (second order through a dict)"""
    def fun(d):
        return ops.sum(ops.sin(d["item_1"])) + ops.sum(ops.cos(d["item_2"]))

    def d_fun(d):
        g = pycg.grad(fun)(d)
        return (ops.sum(g["item_1"]) + ops.sum(ops.sin(g["item_1"])) +
                ops.sum(ops.sin(g["item_2"])))
    d = _input_dict()
    g = pycg.grad(fun)(d)
    close(g["item_1"], np.cos(d["item_1"]))
    close(g["item_2"], -np.sin(d["item_2"]))
    gg = pycg.grad(d_fun)(d)
    c1 = np.cos(d["item_1"])
    close(gg["item_1"], -np.sin(d["item_1"]) * (1 + np.cos(c1)))
    s2 = -np.sin(d["item_2"])
    close(gg["item_2"], np.cos(s2) * -np.cos(d["item_2"]))


def test_dict_iter(backend):
    """test_dict.py: test_iter / test_items_values_keys"""
    def fun(d):
        a = b = 0.0
        for i, k in enumerate(sorted(d)):
            a = a + ops.sum(ops.sin(d[k])) * (i + 1.0)
            b = b + ops.sum(ops.cos(d[k]))
        return a + b
    d = _input_dict()
    g = pycg.grad(fun)(d)
    for i, k in enumerate(sorted(d)):
        close(g[k], np.cos(d[k]) * (i + 1.0) - np.sin(d[k]))


@pytest.mark.parametrize("d", [{"item_1": 3.0}, {"item_2": 4.0}, {}],
                         ids=["present", "other", "empty"])
def test_dict_get(backend, d):
    """test_dict.py: test_get"""
    def fun(d, x):
        return d.get("item_1", x) ** 2
    gd, gx = pycg.grad(fun, argnums=(0, 1))(d, 2.0)
    if "item_1" in d:
        close([gd["item_1"], gx], [6.0, 0.0])
    else:
        close(gx, 4.0)


def test_dict_output(backend):
    """test_dict.py: test_make_dict (a dict output, reverse mode)"""
    j = pycg.jacobian(lambda x: {"a": x, "b": x * 2.0})(1.0)
    close([j["a"], j["b"]], [1.0, 2.0])


# ---- test_complex.py ---------------------------------------------------------
def test_real_type(backend):
    """test_complex.py: test_real_type"""
    df = pycg.grad(lambda x: ops.sum(ops.real(x)))
    assert not np.iscomplexobj(df(2.0).numpy())
    assert np.iscomplexobj(df(np.complex128(1.0j)).numpy())


def test_angle_complex(backend):
    """test_complex.py: test_angle_complex (angle = arctan2(imag, real))"""
    z = np.complex128(0.4 + 0.7j)
    check_grads(lambda x: ops.arctan2(ops.imag(x), ops.real(x)), z, order=1)


def test_abs_real(backend):
    """test_complex.py: test_abs_real"""
    check_grads(lambda x: ops.abs(x), 1.1)
    check_grads(lambda x: ops.abs(x), 2.1)


def test_abs_complex(backend):
    """test_complex.py: test_abs_complex"""
    check_grads(lambda x: ops.abs(x), np.complex128(1.1 + 1.2j), order=1)
    check_grads(lambda x: ops.abs(x), np.complex128(1.1 + 1.3j), order=1)
