"""A hyper-parameter is checked as the dtype it is used in holds it
(floatx, float32 by default), not only as the float64 it arrived in:
1e39 is inf in float32, 1e-50 is 0 (epsilon=1e-50 divides by 0), a
subnormal is flushed to 0 by TensorFlow's and XLA's kernels, and
1 - 1e-10 is 1.0 (beta_1 < 1 no longer). Generated, like
test_optimizers_hyper_parameters.py, from every optimizer's and
schedule's signature."""
import math
import re

import numpy as np
import pytest
from test_optimizers_hyper_parameters import (LISTS, OPTIMIZERS, SCHEDULES,
                                              make, parameters)

import pycg
from pycg.optimizers import _checks

FLOAT32_MAX = 3.4028234663852886e38      # (2 - 2**-23) * 2**127
FLOAT32_TINY = 2.0 ** -126               # its smallest normal number
TINY_SHOWN = "1.1754944e-38"             # (as NumPy prints a float32)


def _numeric(cls):
    return [p.name for p in parameters(cls)
            if p.name in _checks.RANGES or p.name in _checks.POSITIVE]


def _who(cls):
    return ("optimizers." if cls in OPTIMIZERS else
            "optimizers.schedules.") + cls.__name__


def _high(name):
    return math.inf if name in _checks.POSITIVE else _checks.RANGES[name][1]


def _arg(name, value):
    return {name: [value] if name in LISTS else value}


def _refused(cls, name, value, stored, after=""):
    with pytest.raises(ValueError, match=(
            rf"^pycg\.{re.escape(_who(cls))}: `{name}` must be .*, got "
            rf"{re.escape(repr(value))}, which is {re.escape(stored)} in "
            rf"float32, the dtype it is used in \(pycg\.config\.floatx\(\)\)"
            rf"{re.escape(after)}$")):
        make(cls, **_arg(name, value))


UNBOUNDED = [(c, n) for c in OPTIMIZERS + SCHEDULES for n in _numeric(c)
             if _high(n) == math.inf]
OPEN_AT_ONE = [(c, n) for c in OPTIMIZERS + SCHEDULES for n in _numeric(c)
               if n in _checks.RANGES and _checks.RANGES[n][1:] == (1, False)]
NONZERO_LOW = [(c, n) for c in OPTIMIZERS + SCHEDULES for n in _numeric(c)]


def _ids(cases):
    return [f"{c.__name__}-{n}" for c, n in cases]


def test_the_cases_cover_the_issues_parameters():
    names = {(c.__name__, n) for c, n in UNBOUNDED}
    assert {("SGD", "learning_rate"), ("SGD", "weight_decay"),
            ("Adam", "epsilon"), ("RMSprop", "epsilon")} <= names
    assert ("Adam", "beta_1") in {(c.__name__, n) for c, n in OPEN_AT_ONE}


@pytest.mark.parametrize("cls, name", UNBOUNDED, ids=_ids(UNBOUNDED))
def test_a_value_past_float32s_largest_is_refused(cls, name):
    _refused(cls, name, 1e39, "inf")


@pytest.mark.parametrize("cls, name", UNBOUNDED, ids=_ids(UNBOUNDED))
def test_float32s_largest_value_is_taken(cls, name):
    make(cls, **_arg(name, FLOAT32_MAX))


@pytest.mark.parametrize("cls, name", OPEN_AT_ONE, ids=_ids(OPEN_AT_ONE))
def test_a_value_below_one_that_float32_rounds_to_one_is_refused(cls, name):
    _refused(cls, name, 1 - 1e-10, "1.0")


@pytest.mark.parametrize("cls, name", NONZERO_LOW, ids=_ids(NONZERO_LOW))
@pytest.mark.parametrize("value, stored", [(1e-50, "0.0"), (1e-40, "1e-40")])
def test_a_nonzero_value_below_float32s_smallest_normal_is_refused(
        cls, name, value, stored):
    _refused(cls, name, value, stored, f"; a nonzero value must be at least "
             f"{TINY_SHOWN}, float32's smallest normal number")


@pytest.mark.parametrize("cls, name", NONZERO_LOW, ids=_ids(NONZERO_LOW))
def test_float32s_smallest_normal_is_taken(cls, name):
    make(cls, **_arg(name, FLOAT32_TINY))


def test_setting_the_learning_rate_is_checked_in_its_dtype():
    opt = pycg.optimizers.SGD(learning_rate=0.1)
    with pytest.raises(ValueError, match=r"^pycg\.optimizers\.SGD: "
                       r"`learning_rate` must be a finite float >= 0, a "
                       r"pycg\.optimizers\.schedules\.LearningRateSchedule or "
                       r"a callable, got 1e\+300, which is inf in float32, "
                       r"the dtype it is used in \(pycg\.config\.floatx\(\)\)$"):
        opt.learning_rate = 1e300
    assert float(opt.learning_rate) == pytest.approx(0.1)


def test_float64_floatx_takes_what_float32_cannot():
    previous = pycg.config.floatx()
    pycg.config.set_floatx("float64")
    try:
        opt = pycg.optimizers.Adam(learning_rate=1e39, epsilon=1e-50)
        assert float(opt.learning_rate) == 1e39
    finally:
        pycg.config.set_floatx(previous)


def test_the_issues_first_steps_stay_finite_or_are_refused(backend):
    w = pycg.Variable(np.array([1.0, -2.0], "float32"))
    for make_one in (lambda: pycg.optimizers.SGD(learning_rate=1e39),
                     lambda: pycg.optimizers.Adam(epsilon=1e-50),
                     lambda: pycg.optimizers.RMSprop(epsilon=1e-50),
                     lambda: pycg.optimizers.SGD(weight_decay=1e300)):
        with pytest.raises(ValueError, match="the dtype it is used in"):
            make_one()
    assert w.numpy().tolist() == [1.0, -2.0]
