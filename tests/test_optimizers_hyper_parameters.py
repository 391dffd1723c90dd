"""Every hyper-parameter of every optimizer and schedule is checked when it
is made, by name, from one table of ranges (pycg/optimizers/_checks.py):
NaN, inf, -inf, a negative number and a number past the range are refused
(each would turn the weights into inf or NaN at the first step, or is
nonsense), generated from the classes' signatures, so that a new optimizer
or parameter is covered as soon as it exists; the ends of every range train
to finite weights."""
import inspect
import math
import re

import numpy as np
import pytest

import pycg
from pycg.optimizers import _checks, schedules

OPTIMIZERS = [c for c in vars(pycg.optimizers).values()
              if isinstance(c, type) and issubclass(c, pycg.optimizers.Optimizer)
              and c is not pycg.optimizers.Optimizer]
SCHEDULES = [c for c in vars(schedules).values()
             if isinstance(c, type) and
             issubclass(c, schedules.LearningRateSchedule) and
             c is not schedules.LearningRateSchedule]
# the arguments a schedule cannot be made without
REQUIRED = {"initial_learning_rate": 0.1, "decay_steps": 10,
            "decay_rate": 0.5, "boundaries": [10], "values": [0.1, 0.01]}
LISTS = ("boundaries", "values")


def parameters(cls):
    return [p for p in inspect.signature(cls).parameters.values()
            if p.kind is not p.VAR_KEYWORD]


def make(cls, **given):
    args = {p.name: REQUIRED[p.name] for p in parameters(cls)
            if p.default is p.empty}
    args.update(given)
    if "boundaries" in given:
        args["values"] = [0.1] * (len(given["boundaries"]) + 1)
    if "values" in given:
        args["boundaries"] = list(range(1, len(given["values"])))
    return cls(**args)


def bad_values(name):
    """(value, what the message says arrived) the parameter must refuse."""
    if name in _checks.FLAGS:
        return [math.nan, "yes", 2, None]
    if name == "name":
        return [math.nan, 3]
    if name in _checks.POSITIVE:
        return [math.nan, math.inf, -math.inf, -1.0, 0, "10"]
    low, high, closed = _checks.RANGES[name]   # (a KeyError: add a range)
    past = [] if high == math.inf else [high + 0.5 if closed else high]
    bad = [math.nan, math.inf, -math.inf, -1.0, "0.1", True] + past
    return [[v] for v in bad] if name in LISTS else bad


CASES = [(cls, p.name, v) for cls in OPTIMIZERS + SCHEDULES
         for p in parameters(cls) for v in bad_values(p.name)]


def test_every_parameter_has_a_range_or_a_kind():
    known = set(_checks.RANGES) | set(_checks.FLAGS) | set(
        _checks.POSITIVE) | {"name"}
    missing = [(c.__name__, p.name) for c in OPTIMIZERS + SCHEDULES
               for p in parameters(c) if p.name not in known]
    assert missing == []
    assert len(OPTIMIZERS) >= 5 and len(SCHEDULES) >= 3


@pytest.mark.parametrize("cls, name, value", CASES,
                         ids=[f"{c.__name__}-{n}-{v!r}" for c, n, v in CASES])
def test_a_bad_hyper_parameter_is_refused_by_name(cls, name, value):
    who = ("optimizers." if cls in OPTIMIZERS else "optimizers.schedules.") \
        + cls.__name__
    shown = value[0] if isinstance(value, list) else value
    with pytest.raises(ValueError, match=(
            rf"^pycg.{re.escape(who)}: `{name}` must be .*, got "
            rf"{re.escape(repr(shown))}$")):
        make(cls, **{name: value})


def test_the_issues_values_are_refused():
    opts = pycg.optimizers
    for make_one, arg in [(lambda: opts.SGD(learning_rate=math.inf),
                           "learning_rate"),
                          (lambda: opts.Adam(beta_1=math.nan), "beta_1"),
                          (lambda: opts.Adam(beta_2=math.inf), "beta_2"),
                          (lambda: opts.Adam(epsilon=math.nan), "epsilon"),
                          (lambda: opts.RMSprop(rho=math.nan), "rho"),
                          (lambda: opts.Adagrad(initial_accumulator_value=-1),
                           "initial_accumulator_value")]:
        with pytest.raises(ValueError, match=f"`{arg}` must be"):
            make_one()


def test_setting_the_learning_rate_is_checked_too():
    opt = pycg.optimizers.SGD(learning_rate=0.1)
    with pytest.raises(ValueError, match=r"^pycg.optimizers.SGD: "
                       r"`learning_rate` must be a finite float >= 0, a "
                       r"pycg.optimizers.schedules.LearningRateSchedule or a "
                       r"callable, got inf$"):
        opt.learning_rate = math.inf
    assert float(opt.learning_rate) == pytest.approx(0.1)


def ends(name):
    """The ends of a parameter's range (just inside an open end)."""
    if name in _checks.POSITIVE:
        return [1e-6, 1e6]
    low, high, closed = _checks.RANGES[name]
    return [low, 1e6 if high == math.inf else high if closed else 0.999999]


END_CASES = [(cls, p.name, v) for cls in OPTIMIZERS
             for p in parameters(cls)
             if p.name in _checks.RANGES for v in ends(p.name)]


@pytest.mark.parametrize("cls, name, value", END_CASES,
                         ids=[f"{c.__name__}-{n}-{v}" for c, n, v in END_CASES])
def test_the_ends_of_every_range_train_to_finite_weights(cls, name, value):
    if name == "learning_rate" and value > 1:
        value = 1.0   # (a huge step is finite but leaves float32)
    w = pycg.Variable(np.array([1.0, -2.0]), name="w")
    opt = cls(**{name: value})
    for g in ([0.5, -0.25], [0.125, 1.0]):
        opt.apply([pycg.constant(np.array(g))], [w])
    assert np.isfinite(w.numpy()).all(), (cls.__name__, name, value)


@pytest.mark.parametrize("cls", SCHEDULES, ids=lambda c: c.__name__)
def test_the_ends_of_every_schedule_range_give_finite_rates(cls):
    for p in parameters(cls):
        if p.name in LISTS or p.name not in _checks.RANGES and \
                p.name not in _checks.POSITIVE:
            continue
        for value in ends(p.name):
            lr = make(cls, **{p.name: value})
            rates = [float(lr(step)) for step in (0, 5, 50)]
            assert all(map(math.isfinite, rates)), (p.name, value, rates)
