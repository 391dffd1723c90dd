"""The embedded R session behind pycg.r: starting it, the lock, the exit.

rpy2 embeds R in this process and reticulate, loaded in that R, attaches to
this very interpreter. Two facts about that pair shape everything here:

* The GC abort. rpy2 releases the GIL around every call into R. With
  reticulate 1.25 to 1.30 (Debian's 1.28 among them) R's garbage collector
  finalizes Python objects without taking the GIL, so once Python objects
  live in R, any R evaluation through plain rpy2 calls may abort the process
  ("Fatal Python error ... GIL is released"). A call into R made by calling a
  reticulate-wrapped R function from Python holds the GIL all along, and the
  collector is then safe. So rpy2 is used only to start R and to parse one
  start-up expression, which is evaluated holding the GIL (through ctypes)
  and hands Python a reticulate-wrapped dispatcher (R/bridge.R in the R
  package); every later call into R goes through it, or through R functions
  it returned, wrapped the same way.

* The exit abort. rpy2 registers `endr` with atexit; it runs R's exit
  finalizers and a last garbage collection with the GIL released, so once
  reticulate has started it aborts the interpreter at exit with
  "PyThreadState_Get: the function must be called with the GIL held"
  (current reticulate, from 1.43, is reported to hang there instead). The
  start-up removes that handler and registers `_end_session`, which runs,
  through a bridged R function and so with the GIL held, the parts of R's
  shutdown that matter
  outside the process: `.Last`, closing graphics devices, removing R's
  session temporary directory. R's exit finalizers are not run: the process
  is ending, and the memory they would free goes with it. Python then
  finalizes as usual, with its own exit status.

R is single-threaded: `LOCK` serialises every call into R, from any thread.
Importing this module starts nothing; the first `dispatcher()` call does.
"""
import atexit
import os
import sys
import threading

from pycg.r import _interrupts

LOCK = threading.RLock()
_INSTALL_HINT = (
    "pycg.r needs R with the R packages reticulate and pycg, and the Python "
    "package rpy2 (pip install 'pycg-autodiff[r]'); in a checkout of pycg, `make "
    "test` installs them all (rpy2 and R versions that work together: "
    "docs/troubleshooting.md)")

_received = []  # [dispatcher, exit], handed over by R at start-up
HOSTING_R = False  # True once this Python has embedded R (pycg.r)


def receive(dispatcher, at_exit):
    """Called once from R at start-up with two bridged R functions: the
    dispatcher, and the one `_end_session` calls."""
    _received[:] = [dispatcher, at_exit]


def dispatcher():
    """The bridged R dispatcher, starting R on first use."""
    if not _received:
        with LOCK:
            if not _received:
                _start()
    return _received[0]


def _start():
    global HOSTING_R
    if "rpytools" in sys.modules:  # reticulate's helpers: R hosts us
        raise RuntimeError(
            "pycg.r: this Python runs inside R (through reticulate), and R "
            "cannot be embedded a second time; call the R functions from R, "
            "or use pycg.r from a Python process started on its own")
    try:
        import rpy2.rinterface as ri
        import rpy2.rinterface_lib.embedded as embedded
    except ImportError as e:
        raise ImportError(f"{_INSTALL_HINT} ({e})") from e
    ld_path = os.environ.get("LD_LIBRARY_PATH")
    HOSTING_R = True
    ri.initr_simple()
    # rpy2 puts R's library folders (Debian's among them) first for every
    # program this process starts: a Python started then would load the
    # system's libpython instead of its own
    _set_env("LD_LIBRARY_PATH", ld_path)
    # from here on, never R_gc under rpy2's hands: see the module docstring
    atexit.unregister(embedded.endr)
    atexit.register(_end_session)
    argv, path = sys.argv[:], sys.path[:]
    try:
        error = _eval_holding_the_gil(ri, _start_up_code())
    finally:  # reticulate's start-up resets both for the process it embeds
        sys.argv[:], sys.path[:] = argv, path
    if error:
        raise ImportError(f"pycg.r could not start R: {error}\n"
                          f"{_INSTALL_HINT} (the R package alone: R CMD "
                          f"INSTALL -l {_venv_r_library()} <pycg checkout>)")
    if not _received:
        raise ImportError(f"pycg.r: R started but did not hand over the "
                          f"bridge. {_INSTALL_HINT}")
    _prompt_interrupts()
    _interrupts.install(_libr())


def _libr():
    """R's shared library, through ctypes.PyDLL (calls keep the GIL)."""
    import ctypes
    import platform

    from rpy2 import situation
    from rpy2.rinterface_lib import openrlib

    return ctypes.PyDLL(situation.get_rlib_path(openrlib.R_HOME,
                                                platform.system()))


def _prompt_interrupts():
    """R looks at a pending interrupt when its select() wakes up; the
    signal may land on another of this process's threads, and then a
    Sys.sleep(3) in R code called from Python wakes once, after 3 s. Waking
    every 0.1 s (R_wait_usec, unless set) makes Ctrl-C prompt there too."""
    import ctypes
    wait = ctypes.c_int.in_dll(_libr(), "R_wait_usec")
    if wait.value <= 0:
        wait.value = 100_000


def _eval_holding_the_gil(ri, code):
    """Evaluate R code in R's global environment without releasing the GIL
    (rpy2's calls release it; a ctypes.PyDLL call does not), so that the
    start-up, which attaches Python to R, is safe from the GC abort too.
    Returns R's error message, or None."""
    import ctypes

    from rpy2.rinterface_lib import openrlib

    lib = _libr()
    lib.R_tryEvalSilent.restype = ctypes.c_void_p
    lib.R_tryEvalSilent.argtypes = [ctypes.c_void_p, ctypes.c_void_p,
                                    ctypes.POINTER(ctypes.c_int)]
    lib.R_curErrorBuf.restype = ctypes.c_char_p

    def address(sexp):
        return int(openrlib.ffi.cast("uintptr_t", sexp.__sexp__._cdata))

    expr = ri.parse(code)  # kept alive (and so protected) by rpy2
    failed = ctypes.c_int(0)
    for i in range(len(expr)):
        lib.R_tryEvalSilent(address(expr[i]), address(ri.globalenv),
                            ctypes.byref(failed))
        if failed.value:
            return lib.R_curErrorBuf().decode(errors="replace").strip()
    return None


def _set_env(name, value):
    if value is None:
        os.environ.pop(name, None)
    else:
        os.environ[name] = value


def _venv_r_library():
    return os.path.join(sys.prefix, "lib", "R")


def _start_up_code():
    return f"""local({{
      lib <- {_r_string(_venv_r_library())}
      r_libs <- strsplit(Sys.getenv("R_LIBS"), .Platform$path.sep)[[1L]]
      if (dir.exists(lib)) .libPaths(c(r_libs, lib, .libPaths()))
      loadNamespace("reticulate")
      suppressPackageStartupMessages(library(pycg))
      pycg:::bridge_start()
    }})"""


def _r_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _end_session():
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass
    if not _received or not LOCK.acquire(timeout=10):
        return  # a thread is stuck in R: leave R as it is
    try:
        _received[1](None)  # a call with no arguments, see R/bridge.R
        _stop_event_callback()
    except Exception:
        pass
    finally:
        LOCK.release()


def _stop_event_callback():
    """reticulate polls R for events from a thread of its own, through
    Python's pending calls; R would then call rpy2's event callback while
    Python tears rpy2's modules down."""
    from rpy2.rinterface_lib import openrlib
    openrlib.rlib.ptr_R_ProcessEvents = openrlib.ffi.NULL
