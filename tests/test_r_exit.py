"""A process that used pycg.r ends cleanly: its own exit status, no abort.

Each test runs a fresh interpreter, since an abort at exit (rpy2's end-of-R
handler) or in R's garbage collector (reticulate 1.25-1.30 freeing Python
objects without the GIL) would take the test process down with it."""
import os
import re

from support.r_bridge_helpers import require_r, run_python

MANY_OBJECTS = """
import pycg, pycg.r
pycg.config.set_backend("numpy")
freed = [0]

class Tracked:
    def __del__(self):
        freed[0] += 1

step = pycg.r.function('''function(x, i, make) {
  held <- make()                                # a Python object R owns
  junk <- reticulate::r_to_py(list(i, "r"))     # one reticulate makes
  op_add(x, i)                                  # a tensor made from R
}''')
x = pycg.constant(0.0)
for i in range(20000):
    y = step(x, i, Tracked)
pycg.r.eval("invisible(gc())")
print("objects", 20000, "last", float(y), "freed by R", freed[0] > 10000,
      flush=True)
"""


def test_20000_r_side_objects_then_a_clean_exit():
    require_r()
    status, out = run_python(MANY_OBJECTS)
    assert status == 0, out
    assert "objects 20000 last 19999.0 freed by R True" in out, out
    assert not re.search(r"Fatal|Abort|GIL|Segmentation", out), out


def test_the_exit_status_is_the_programs_own():
    require_r()
    status, out = run_python("""
        import sys
        import pycg.r
        pycg.r.eval("x <- lapply(1:1000, function(i) "
                    "reticulate::py_eval('[1]'))")
        print("leaving", flush=True)
        sys.exit(3)
    """)
    assert status == 3, out
    assert "leaving" in out and "Fatal" not in out, out


def test_the_temporary_directory_of_r_is_removed_at_exit():
    require_r()
    status, out = run_python("""
        import pycg.r
        print("tempdir", pycg.r.eval("tempdir()"), flush=True)
    """)
    assert status == 0, out
    tempdir = re.search(r"tempdir (\S+)", out).group(1)
    assert not os.path.exists(tempdir), out


def test_output_printed_by_r_and_python_before_exit_is_kept():
    require_r()
    status, out = run_python("""
        import pycg.r
        pycg.r.eval("cat('from R\\\\n')")
        print("from Python", end="")
    """)
    assert status == 0, out
    assert "from R" in out and out.rstrip().endswith("from Python"), out


QUITTING = """
import atexit
import pycg.r
atexit.register(lambda: print("atexit ran", flush=True))
unflushed = open({path!r}, "w")
unflushed.write("written before q()")
for name, code in [("leave", "function() {{ q(); 1 }}"),
                   ("leave_with_3",
                    "function() {{ quit(save = 'no', status = 3); 1 }}"),
                   ("leave_by_base", "function() {{ base::q('no'); 1 }}")]:
    pycg.r.eval(f"{{name}} <- {{code}}")
    try:
        pycg.r.call(name)
    except pycg.r.RError as e:
        print("RError", e, flush=True)
print("still running", float(pycg.r.eval("1 + 1")), flush=True)
"""


def test_q_in_an_r_function_is_an_error_naming_it_not_the_end(tmp_path):
    require_r()
    path = tmp_path / "unflushed.txt"
    status, out = run_python(QUITTING.format(path=str(path)))
    assert status == 0, out
    for name, what in [("leave", "q"), ("leave_with_3", "quit"),
                       ("leave_by_base", "q")]:
        assert (f"RError {name}: {what}() was called inside an R function "
                f"run by pycg.r, where it would end the Python process at "
                f"once (no atexit handlers, unflushed files lost); return a "
                f"value, or stop() with a message, instead") in out, out
    assert "still running 2.0" in out and "atexit ran" in out, out
    assert path.read_text() == "written before q()", out
