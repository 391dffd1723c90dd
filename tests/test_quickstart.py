"""docs/python-quickstart.md runs: every ```python block, in order, in one
namespace, on each backend (jax with its 64-bit mode on, as the page says),
in a fresh interpreter per backend (the page starts R through pycg.r, which
must own its process).

A block whose first line is ``# raises: <ExceptionName>`` must raise an
exception of that class (or a subclass); any other block must not raise.
"""
import os
import re
import subprocess
import sys
import traceback

import pytest

from support.r_bridge_helpers import r_env, require_r

DOC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))), "docs", "python-quickstart.md")
BLOCK = re.compile(r"^```python[ \t]*\n(.*?)^```[ \t]*$", re.S | re.M)
RAISES = re.compile(r"#\s*raises:\s*([A-Za-z_][A-Za-z0-9_.]*)\s*$")


def python_blocks(text):
    """(line number, code) of each ```python block of a Markdown text."""
    return [(text.count("\n", 0, m.start()) + 2, m.group(1))
            for m in BLOCK.finditer(text)]


def expected_error(code):
    """The exception name a block is marked to raise, or None."""
    m = RAISES.match(code.split("\n", 1)[0].strip())
    return m.group(1) if m else None


def run_blocks(text, name="<doc>"):
    """Execute the blocks in one namespace; raise AssertionError naming the
    first block that fails (or that does not fail when marked to)."""
    namespace = {"__name__": "__quickstart__"}
    blocks = python_blocks(text)
    if not blocks:
        raise AssertionError(f"{name}: no ```python blocks found")
    for line, code in blocks:
        where = f"{name}, the block at line {line}"
        wanted = expected_error(code)
        try:
            exec(compile(code, f"{name}:{line}", "exec"), namespace)
        except Exception as e:  # noqa: BLE001 - reported with the block
            names = {c.__name__ for c in type(e).__mro__}
            if wanted is None or wanted.rsplit(".", 1)[-1] not in names:
                raise AssertionError(
                    f"{where} raised {type(e).__name__}: {e}"
                    + (f" (marked to raise {wanted})" if wanted else "")
                    + "\n" + traceback.format_exc()) from None
        else:
            if wanted is not None:
                raise AssertionError(f"{where} is marked `# raises: "
                                     f"{wanted}` but raised nothing")
    return len(blocks)


@pytest.mark.parametrize("backend", ["numpy", "tensorflow", "jax"])
def test_every_quickstart_block_runs(backend):
    require_r()
    if backend != "numpy":
        pytest.importorskip(backend)
    env = r_env()
    env["PYCG_BACKEND"] = backend
    if backend == "jax":   # (as the page says: its fits are float64)
        env["JAX_ENABLE_X64"] = "1"
    proc = subprocess.run([sys.executable, __file__, DOC], env=env,
                          cwd=os.path.dirname(DOC), stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-6000:]
    assert f"backend {backend}:" in proc.stdout, proc.stdout[-2000:]


def test_a_block_marked_to_raise_must_raise():
    doc = "```python\n# raises: ValueError\nx = 1\n```\n"
    with pytest.raises(AssertionError, match=r"line 2 is marked `# raises: "
                       r"ValueError` but raised nothing"):
        run_blocks(doc)


def test_a_failing_block_is_named_by_its_line():
    doc = "text\n\n```python\nx = 1\n```\n\n```python\ny = x + z\n```\n"
    with pytest.raises(AssertionError, match=r"block at line 8 raised "
                       r"NameError: name 'z' is not defined"):
        run_blocks(doc)


def test_blocks_share_one_namespace_and_marked_errors_pass():
    doc = ("```python\nx = 2\n```\n```python\n# raises: ZeroDivisionError\n"
           "x / 0\n```\n```python\nassert x == 2\n```\n")
    assert run_blocks(doc) == 3


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as f:
        n = run_blocks(f.read(), os.path.basename(sys.argv[1]))
    import pycg
    print(f"backend {pycg.config.backend()}: all {n} blocks ran")
