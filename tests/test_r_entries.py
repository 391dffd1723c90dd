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
R_CODE = "\n".join(p.read_text() for p in sorted((ROOT / "R").glob("*.R")))
# the first argument of core_call(...) or of py_call()/py_apply() of
# interop()$call_core, when it is a string
CALLED = re.compile(r'(?:\bcore_call\(|\$call_core,)\s*(?:c\(list\()?"([^"]+)"')
# the first argument of core_call(...) when it is not a string
FORWARDED = re.compile(r'\bcore_call\(\s*([A-Za-z_.][A-Za-z0-9_.]*)\s*[,)]')
# a name of the R package's own entries, wherever it stands
OWN = re.compile(r'"(r\.[A-Za-z_]+\.[A-Za-z0-9_]+)"')


def test_every_name_r_calls_python_by_is_in_the_table():
    called = set(CALLED.findall(R_CODE)) | set(OWN.findall(R_CODE))
    assert len(called) > 40   # (the patterns still find R's calls)
    assert called - set(entries.ENTRIES) == set()


def test_every_entry_is_named_in_r():
    unused = [name for name in entries.ENTRIES
              if f'"{name}"' not in R_CODE]
    assert unused == []


def test_no_name_is_put_together_at_run_time():
    # the two helpers that pass a name on, each given only literal names
    # (special_pair("r.special.beta"), framework_function(f, ..., "to_jax"))
    assert set(FORWARDED.findall(R_CODE)) == {"entry", "python"}
    assert not re.search(r'paste0?\(\s*"r\.', R_CODE)
    given = set(re.findall(r'special_pair\("([^"]+)"\)', R_CODE)) | set(
        re.findall(r'framework_function\([^"]*?"([^"]+)"', R_CODE))
    assert given == {"r.special.beta", "r.special.lbeta", "to_tensorflow",
                     "to_jax", "to_keras", "to_torch"}


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
