"""The embedded R session behind pycg.r: starting it, the lock, the exit.

rpy2 embeds R in this process and reticulate, loaded in that R, attaches to
this very interpreter. Two facts about that pair shape everything here:

* The GC abort. rpy2 releases the GIL around every call into R. With
  reticulate 1.25 to 1.30 (Debian's 1.28 among them) R's garbage collector
  finalizes Python objects without taking the GIL, so once Python objects
  live in R, any R evaluation through plain rpy2 calls may abort the process
  ("Fatal Python error ... GIL is released"). A call into R made by calling a
  reticulate-wrapped R function from Python holds the GIL all along, and the
  collector is then safe. So rpy2 is used only to start R and to run one
  start-up expression; that expression hands Python a reticulate-wrapped
  dispatcher (pycg/_r_bridge.R), and every later call into R goes through
  it, or through R functions it returned, wrapped the same way.

* The exit abort. rpy2 registers `endr` with atexit; it runs R's exit
  finalizers and a last garbage collection with the GIL released, so once
  reticulate has started it aborts the interpreter at exit with
  "PyThreadState_Get: the function must be called with the GIL held" (and
  current reticulate, from 1.43, hangs there instead). The start-up removes
  that handler and registers `_end_session`, which runs, through the
  dispatcher and so with the GIL held, the parts of R's shutdown that matter
  outside the process: `.Last`, closing graphics devices, removing R's
  session temporary directory. R's exit finalizers are not run: the process
  is ending, and the memory they would free goes with it. Python then
  finalizes as usual, with its own exit status.

R is single-threaded: `LOCK` serialises every call into R, from any thread.
"""
import atexit
import os
import sys
import threading

LOCK = threading.RLock()
_BRIDGE_R = os.path.join(os.path.dirname(__file__), "_r_bridge.R")
_INSTALL_HINT = (
    "pycg.r needs R and the Python package rpy2 (pip install 'pycg[r]'); "
    "in a checkout of pycg, `make test` installs both")

_received = []


def receive(dispatcher):
    """Called once from R at start-up with the bridged dispatcher."""
    _received.append(dispatcher)


def dispatcher():
    """The bridged R dispatcher, starting R on first use."""
    if not _received:
        with LOCK:
            if not _received:
                _start()
    return _received[0]


def _start():
    try:
        import rpy2.rinterface as ri
        import rpy2.rinterface_lib.embedded as embedded
    except ImportError as e:
        raise ImportError(f"{_INSTALL_HINT} ({e})") from e
    ld_path = os.environ.get("LD_LIBRARY_PATH")
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
        ri.evalr(_start_up_code())
    except embedded.RRuntimeError as e:
        raise ImportError(f"pycg.r could not start: {e}\n{_INSTALL_HINT}, "
                          f"and the R package with R CMD INSTALL -l "
                          f"{_venv_r_library()} <pycg checkout>") from e
    finally:  # reticulate's start-up resets both for the process it embeds
        sys.argv[:], sys.path[:] = argv, path
    if not _received:
        raise ImportError("pycg.r: R started but did not hand over the "
                          "bridge; is reticulate installed in R?")


def _set_env(name, value):
    if value is None:
        os.environ.pop(name, None)
    else:
        os.environ[name] = value


def _venv_r_library():
    return os.path.join(sys.prefix, "lib", "R")


def _start_up_code():
    # Everything before env$start() runs while no Python object lives in R,
    # so R's collector is still harmless; gc() leaves the heap room enough
    # that start() (which attaches Python) triggers no collection.
    return f"""local({{
      lib <- {_r_string(_venv_r_library())}
      r_libs <- strsplit(Sys.getenv("R_LIBS"), .Platform$path.sep)[[1L]]
      if (dir.exists(lib)) .libPaths(c(r_libs, lib, .libPaths()))
      loadNamespace("reticulate")
      suppressPackageStartupMessages(library(pycg))
      env <- new.env(parent = baseenv())
      sys.source({_r_string(_BRIDGE_R)}, envir = env, keep.source = FALSE)
      invisible(gc())
      env$start()
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
        from pycg._r_convert import encode_call
        _received[0](*encode_call(("exit",), {}))
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
