"""pycg/r/base/semantics.py and the R-facing arithmetic built on it, against base
R itself: an Rscript run (base R only, no pycg) computes the oracle, bit
for bit where R's answer is exact (R's %%, %/%, round(), signif()), and the
shape rules are base R's (arithmetic.c). The R package's conformance suite
(tests/testthat/test-conformance-*.R) compares the whole surface; these pin
the Python half on every backend."""
import subprocess
import warnings

import numpy as np
import pytest

import pycg
from pycg.r import codec
from pycg.r.base import arith, rmath, semantics as rs, summary
from support.r_bridge_helpers import require_r

X = [5.5, -5.5, 7.0, -7.0, 0.3, 1e-300, 2.675, 5.015, 0.15, -0.15, 1e20,
     0.0, -0.0, float("inf"), float("-inf"), 3.0]
Y = [0.1, -0.1, 3.0, -0.7, 0.7, float("inf"), 2.0, 0.0]

ORACLE = r"""
x <- c(%s); y <- c(%s)
g <- expand.grid(x = x, y = y)
hex <- function(v) paste(sprintf("%%a", v), collapse = " ")
r_round <- unlist(lapply(c(0, 1, 2, -1, 3), function(d) round(x, d)))
r_signif <- unlist(lapply(c(1, 2, 6), function(d) signif(x, d)))
cat(hex(suppressWarnings(g$x %%%% g$y)), "\n",
    hex(g$x %%/%% g$y), "\n", hex(r_round), "\n", hex(r_signif), "\n",
    hex(g$x ^ g$y), "\n", sep = "")
"""


def _r_float(text):
    return [float.fromhex(t) if t not in ("NA", "NaN") else float("nan")
            for t in text.split()]


@pytest.fixture(scope="module")
def oracle():
    require_r()
    code = ORACLE % (", ".join(map(repr, X)).replace("inf", "Inf"),
                     ", ".join(map(repr, Y)).replace("inf", "Inf"))
    out = subprocess.run(["Rscript", "-e", code], stdout=subprocess.PIPE,
                         text=True, check=True).stdout.splitlines()
    return dict(zip(["mod", "idiv", "round", "signif", "pow"],
                    map(_r_float, out)))


def _grid():
    g = np.array([(x, y) for y in Y for x in X])   # expand.grid's order
    return (pycg.convert_to_tensor(g[:, 0].copy()),
            pycg.convert_to_tensor(g[:, 1].copy()))


def _same_bits(got, want):
    got = np.asarray(got, dtype=np.float64)
    want = np.asarray(want, dtype=np.float64)
    both_nan = np.isnan(got) & np.isnan(want)
    assert np.array_equal(np.isnan(got), np.isnan(want)), (got, want)
    assert np.array_equal(got[~both_nan], want[~both_nan]), \
        [(g, w) for g, w in zip(got, want) if not (g == w or g != g)]


def test_mod_and_integer_division_are_base_r_bit_for_bit(backend, oracle):
    x, y = _grid()
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        mod = np.asarray(rs.quiet(arith.r_mod)(x, y))
    assert {str(w.message) for w in seen} == {
        "probable complete loss of accuracy in modulus"}   # as R, at 1e20
    # where R warns so, its long-double remainder has no correct digit left
    # (pycg's is the exact remainder): only the warning is compared there
    with np.errstate(all="ignore"):
        q = np.asarray(x) / np.asarray(y)
    lost = np.isfinite(q) & (np.abs(q) * arith.C_EPS > 1)
    _same_bits(mod[~lost], np.array(oracle["mod"])[~lost])
    _same_bits(np.asarray(arith.r_floor_divide(x, y)), oracle["idiv"])


def test_round_and_signif_are_base_r_bit_for_bit(backend, oracle):
    x = pycg.convert_to_tensor(np.array(X))
    got = [np.asarray(rmath.r_round(x, d)) for d in (0, 1, 2, -1, 3)]
    _same_bits(np.concatenate(got), oracle["round"])
    got = [np.asarray(rmath.r_signif(x, d)) for d in (1, 2, 6)]
    _same_bits(np.concatenate(got), oracle["signif"])


def test_power_is_base_r_at_its_special_values(backend, oracle):
    x, y = _grid()
    got = np.asarray(arith.r_pow(x, y))
    want = np.array(oracle["pow"])
    assert np.array_equal(np.isnan(got), np.isnan(want))
    ok = ~np.isnan(want)
    np.testing.assert_allclose(got[ok], want[ok], rtol=1e-15)


@pytest.mark.parametrize("a, b, shape, warning", [
    ((2, 3), 3, (2, 3), None),
    ((2, 3), 4, (2, 3), rs.NOT_MULTIPLE),
    ((2, 2), 6, "dims [product 4] do not match", rs.NOT_MULTIPLE),
    ((2, 3), 2, (2, 3), None),
    ((2, 3), 5, (2, 3), rs.NOT_MULTIPLE),
    ((4,), 3, (4,), rs.NOT_MULTIPLE),
    ((0, 3), 2, (0, 3), None),
    ((2, 3), 0, (0,), None),
    ((1, 1), 2, (2,), rs.ARRAY_OF_ONE.format("array-vector")),
    ((1, 4), (4, 1), "non-conformable arrays", None),
    ((2, 3), (2, 3), (2, 3), None),
])
def test_shapes_follow_base_r(a, b, shape, warning):
    e1 = pycg.convert_to_tensor(np.zeros(a))
    e2 = pycg.convert_to_tensor(np.zeros(b if isinstance(b, tuple) else
                                         (b,)))
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        if isinstance(shape, str):
            with pytest.raises(rs.BaseRError, match=shape.replace("[", r"\[")):
                rs.layout(e1, e2, what="+")
        else:
            assert rs.layout(e1, e2, what="+") == shape
    assert [str(w.message) for w in seen] == ([warning] if warning else [])


def test_a_recycled_operand_gets_the_sum_of_its_positions(backend):
    m = np.arange(1.0, 7.0).reshape(2, 3)            # R's matrix(., 2)
    x = pycg.convert_to_tensor(m)
    v = pycg.convert_to_tensor(np.array([10.0, 20.0, 30.0, 40.0, 50.0]))
    w = np.arange(6.0).reshape(2, 3) + 1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # 6 is not a multiple of 5
        with pycg.GradientTape() as tape:
            tape.watch([x, v])
            out = arith.operator("*", x, v)
            loss = pycg.ops.sum(pycg.ops.multiply(out, w))
    gx, gv = tape.gradient(loss, [x, v])
    order = np.arange(6)                       # column-major positions
    vals = np.array([10.0, 20.0, 30.0, 40.0, 50.0])[order % 5]
    rec = vals.reshape(3, 2).T                 # laid out as R's matrix
    np.testing.assert_allclose(np.asarray(out), m * rec)
    np.testing.assert_allclose(np.asarray(gx), w * rec)
    want_v = np.zeros(5)
    np.add.at(want_v, order % 5, (w * m).T.reshape(-1))
    np.testing.assert_allclose(np.asarray(gv), want_v)


def test_integer_overflow_is_na_with_rs_warning(backend):
    big = pycg.convert_to_tensor(np.array([2**31 - 1, 5], np.int32))
    with pytest.warns(RuntimeWarning, match="^NAs produced by integer "
                      "overflow$"):
        out = arith.operator("+", big, 1)
    assert out.dtype == "int32"
    assert list(np.asarray(out)) == [rs.INT_NA, 6]
    zero = arith.operator("%/%", big, False)   # by FALSE: NA, as base R
    assert list(np.asarray(zero)) == [rs.INT_NA, rs.INT_NA]
    total = summary.summary("sum", [big], [None], False)
    assert total.dtype == "float64" and float(total) == 2**31 + 4


def test_r_na_crosses_as_a_quiet_nan_with_its_payload():
    r_na = (0x7FF00000000007A2).to_bytes(8, "little")  # R's NA_real_
    t = codec.from_r(r_na + np.float64(1.0).tobytes(), [2], "double")
    bits = np.asarray(t).view(np.uint64)
    assert bits[0] & 0xFFFFFFFF == 1954 and bits[0] & (1 << 51)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.sum(np.asarray(t))                   # a quiet NaN: no warning
    data, _, _ = codec.to_r(t)
    assert int.from_bytes(bytes(data[:4]), "little") == 1954
    assert list(rs.is_na(t)) == [True, False]
