"""Every op pycg.ops shares with keras.ops, against Keras itself at
ordinary and edge inputs on every backend (tests/support/keras_sweep.py): every
difference is listed, as chosen or as open, in tests/support/keras_differences.py,
and the page generated from that table is current."""
import importlib.util
import os

from conftest import BACKENDS
from support.keras_differences import CHOSEN, ONEDNN, OPEN, rows
from support.keras_sweep import names, sweep

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_every_difference_from_keras_ops_is_listed():
    assert len(names()) > 200   # (the sweep reaches most of keras.ops)
    found = set(sweep(BACKENDS)) - rows(ONEDNN)   # (these depend on the CPU)
    chosen, open_ = rows(CHOSEN, BACKENDS), rows(OPEN, BACKENDS)
    assert not chosen & open_
    assert sorted(found - chosen - open_) == [], "differences not listed"
    assert sorted((chosen | open_) - found) == [], "listed, no longer found"


def test_the_differences_page_is_generated_from_the_table():
    spec = importlib.util.spec_from_file_location(
        "keras_differences_tool",
        os.path.join(ROOT, "tools", "keras_differences.py"))
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    with open(tool.PAGE) as f:
        assert f.read() == tool.render()
