"""What the R package may call in Python (pycg/r/entries.py), held against
what R/*.R calls: every name R passes to core_call() is in the table, every
entry is named in R/, each resolves to a function, no name is put together
at run time, and a name not in the table is refused with the name in the
message."""
import functools
import pathlib
import re

import pytest

import pycg
from pycg.r import entries, interop

ROOT = pathlib.Path(__file__).resolve().parents[1]
# R/*.R without comments (a `#` that starts a line or follows a space)
R_CODE = "\n".join(re.sub(r"(^|\s)#.*", "", line) for p in sorted(
    (ROOT / "R").glob("*.R")) for line in p.read_text().splitlines())
# every mention of the door: core_call(...), do.call(core_call, ...),
# py_call()/py_apply() of interop()$call_core; group 1 its first argument
MENTION = re.compile(r'(?:\bcore_call\(|do\.call\(core_call,\s*c\(list\(|'
                     r'interop\(\)\$call_core,\s*)\s*("[^"]*"|[\w.]+)')
DOOR = ".name"   # core_call()'s own argument, in its body (R/calls.R)
# the variables the helpers that pass a name on give core_call(), and
# where R gives those helpers their (literal) names
FORWARDERS = {
    "entry": r'(?:special_pair|new_optimizer)\(\s*"([^"]+)"',
    "python": r'framework_function\([^"]*?"([^"]+)"',
    "args": r'args <- c\(list\("([^"]+)"',
}


def _names_r_calls():
    """{name}: the literal names R/ passes to core_call(), directly or
    through a forwarding helper."""
    found = set()
    for first in MENTION.findall(R_CODE):
        if first.startswith('"'):
            found.add(first.strip('"'))
        elif first != DOOR:
            assert first in FORWARDERS, \
                f"core_call() given {first}: a name put together at run time?"
    for pattern in FORWARDERS.values():
        given = re.findall(pattern, R_CODE)
        assert given, pattern
        found.update(given)
    return found


def test_every_mention_of_the_door_in_r_is_one_the_patterns_read():
    mentions = len(re.findall(r"\bcore_call\b|\$call_core\b", R_CODE))
    defined = len(re.findall(r"\bcore_call <- function|"
                             r"call_core = interop\$call_core", R_CODE))
    assert mentions > 60 and len(MENTION.findall(R_CODE)) == mentions - defined


def test_every_name_r_calls_python_by_is_in_the_table():
    called = _names_r_calls()
    assert len(called) > 60   # (the patterns still find R's calls)
    assert called - set(entries.ENTRIES) == set()


def test_every_entry_is_named_in_r():
    assert set(entries.ENTRIES) - _names_r_calls() == set()


def test_no_name_is_put_together_at_run_time():
    assert not re.search(r'paste0?\(\s*"(r|optimizers)\.', R_CODE)
    forwarded = {m for m in MENTION.findall(R_CODE) if not m.startswith('"')}
    assert forwarded == set(FORWARDERS) | {DOOR}


@pytest.mark.parametrize("name", sorted(entries.ENTRIES))
def test_each_entry_is_the_function_its_name_says(name):
    fn = entries.lookup(name)
    assert callable(fn)
    if name.startswith("r."):   # the R package's own: r.<module>.<function>
        _, topic, function = name.split(".")
        assert fn.__module__ in (f"pycg.r.{topic}", f"pycg.r.base.{topic}")
        assert fn.__name__ == function
    else:                       # pycg's public API, by its path
        assert fn is functools.reduce(getattr, name.split("."), pycg)


@pytest.mark.parametrize("name", ["r.linalg.no_such_function",
                                  "core.recorder.is_recording", "os.system",
                                  "", None])
def test_a_name_not_in_the_table_is_refused_naming_it(name):
    out = interop.call_core(name, 1)
    assert isinstance(out, interop.Failure) and out.type == "LookupError"
    assert f"the R package called {name!r}, which is not among the " \
           f"Python functions it may call (pycg/r/entries.py)" in out.message


def test_an_entry_called_from_r_gives_its_function_s_value():
    x = pycg.constant([[1.0, 2.0], [3.0, 4.0]], dtype="float64")
    out = interop.call_core("r.square.det", x)
    assert float(out) == pytest.approx(1.0 * 4.0 - 2.0 * 3.0, rel=1e-12)
    assert interop.call_core("config.backend") == pycg.config.backend()


def test_the_functions_r_holds_are_interop_s_own():
    held = re.findall(r"^\s+(\w+) = interop\$(\w+),?$", R_CODE, re.M)
    assert len(held) > 20 and all(a == b for a, b in held)
    assert [n for _, n in held if not callable(getattr(interop, n, None))] \
        == []
