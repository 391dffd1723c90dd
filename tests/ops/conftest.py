"""The op topics' files: each shared suite of tests/support/op_suites.py
parametrizes its tests by its topic's share of its table, after the
backend fixture (ids as [backend-case]); and every test here answers to the
keyword op_topic_file, so that `make test-backends` picks out of these
files only the VJP suite's finite-difference cases on torch, beside whole
other files: -k "torch and (TestVjp and finite_differences or not
op_topic_file)"."""
import pytest


@pytest.hookimpl(trylast=True)
def pytest_generate_tests(metafunc):
    if metafunc.cls is not None and hasattr(metafunc.cls, "parametrize"):
        metafunc.cls().parametrize(metafunc)


def pytest_itemcollected(item):
    item.extra_keyword_matches.add("op_topic_file")
