"""The VJP table covers every op: a case (tests/support/vjp_suite.py's
CASES, from every tests/support/vjp_cases_*.py) for each rule in the VJP
table (RULES) and each public differentiable op of pycg.ops, and a test
file for each case's topic, tests/ops/test_<topic>.py, whose TestVjp runs
it against finite differences and TensorFlow's GradientTape."""
import importlib
import pathlib

from pycg import ops
from pycg.ops._machinery.dispatch import RULES
from pycg.ops import rules as _rules
from support.op_topics import topic_of, without_a_file
from support.vjp_suite import CASES, SECOND_ORDER

# every topic's rules (pycg/ops/rules/<topic>.py) list its ops without a
# gradient
NON_DIFFERENTIABLE = tuple(
    name for path in sorted(pathlib.Path(_rules.__file__).parent.glob(
        "[!_]*.py"))
    for name in getattr(importlib.import_module(
        f"pycg.ops.rules.{path.stem}"), "NON_DIFFERENTIABLE", ()))


def _public_ops():
    return {n for n in ops.__all__ if callable(getattr(ops, n))}


# ---- the table covers every op ----------------------------------------------
def test_every_rule_and_public_op_has_a_case():
    needed = set(RULES) | (_public_ops() - set(NON_DIFFERENTIABLE))
    missing = sorted(needed - set(CASES))
    assert not missing, f"ops without a VJP test case: {missing}"


def test_every_case_names_a_rule_or_public_op():
    stale = sorted(set(CASES) - set(RULES) - _public_ops())
    assert not stale, f"test cases for ops that do not exist: {stale}"


def test_non_differentiable_ops_are_public_and_have_no_rule():
    names = set(NON_DIFFERENTIABLE)
    assert names <= _public_ops()
    assert not names & set(RULES)


def test_every_case_runs_in_the_file_of_its_topic():
    homeless = without_a_file(set(CASES) | set(SECOND_ORDER),
                              "Vjp")
    assert not homeless, (
        f"VJP cases whose topic has no tests/ops/test_<topic>.py: "
        f"{[(n, topic_of(n)) for n in homeless]}")
