"""Importing TensorFlow without its start-up log lines.

TensorFlow 2.21 logs at import, from C++, before anything can configure it:
absl's "All log messages before absl::InitializeLog() is called are written
to STDERR", the oneDNN notice (port.cc) and the CPU-feature notice
(cpu_feature_guard.cc), once per shared library that links absl.
`TF_CPP_MIN_LOG_LEVEL=3` hides only the last; the oneDNN notice goes through
absl's own logger, which reads no environment variable, and only
`TF_ENABLE_ONEDNN_OPTS=0` stops it, at the price of different kernels and
numbers. So pycg sets `TF_CPP_MIN_LOG_LEVEL=3` unless the user has set it,
sends file descriptor 2 to a temporary file while TensorFlow is imported,
and writes back every line that is not such a C++ log record. One thread
at a time does this (a lock): a second thread's redirect would save the
first's temporary file as its standard error, and put it back for good.

`PYCG_TF_LOGS=1` turns all of this off: TensorFlow is imported as is and
logs as it pleases (with the user's `TF_CPP_MIN_LOG_LEVEL`, if any).
"""
import importlib
import os
import re
import sys
import tempfile
import threading

# An absl / glog record: severity letter, date, time, thread, file:line].
_RECORD = re.compile(
    rb"^[IWE]\d{4} \d\d:\d\d:\d+\.\d+\s+\d+ [\w.\-/]+:\d+\] ")
_NOISE = (
    b"WARNING: All log messages before absl::InitializeLog() is called",
    b"To enable the following instructions:",  # cpu_feature_guard's 2nd line
)
_REDIRECT = threading.RLock()   # (reentrant: an import inside the import)


def logs_wanted():
    return os.environ.get("PYCG_TF_LOGS", "") not in ("", "0")


def import_tensorflow():
    """`import tensorflow`, quietly unless PYCG_TF_LOGS=1 (see above)."""
    if "tensorflow" in sys.modules or logs_wanted():
        return importlib.import_module("tensorflow")
    with _REDIRECT:
        if "tensorflow" in sys.modules:   # (another thread imported it)
            return importlib.import_module("tensorflow")
        return _import_quietly()


def _import_quietly():
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    try:
        saved = os.dup(2)
    except OSError:  # no standard error to redirect
        return importlib.import_module("tensorflow")
    with tempfile.TemporaryFile() as captured:
        _flush()
        try:
            os.dup2(captured.fileno(), 2)
            return importlib.import_module("tensorflow")
        finally:
            _flush()
            os.dup2(saved, 2)
            os.close(saved)
            captured.seek(0)
            kept = _without_startup_logs(captured.read())
            if kept:
                os.write(2, kept)


def _flush():
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (AttributeError, OSError, ValueError):
            pass


def _without_startup_logs(text):
    lines = text.splitlines(keepends=True)
    return b"".join(line for line in lines if not _RECORD.match(line)
                    and not line.startswith(_NOISE))
