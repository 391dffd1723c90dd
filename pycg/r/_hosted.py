"""Settings for a Python that the R package started (through reticulate),
applied once when pycg/r/interop.py is imported there; never when Python
hosts R (pycg.r), where Python's own settings stand.

* floatx is float64: R's numbers are doubles, so `op_exp(1)` and
  `op_exp(c(1, 1))[1]` agree (an R number beside a float32 tensor is still
  weak and keeps float32). `config_set_floatx()` in R changes it.
* Python warnings are collected, not printed: the interop call that raised
  them hands them to R with its result, and R signals each with warning().
  Each is reported every time it happens, as R does (Python's default
  reports one once per place in the code); deprecation notices stay off,
  and so do NumPy's "invalid value encountered" from pycg's kernels (the
  numpy backend is as silent as TensorFlow's there, as in Python).
* TensorFlow's "triggered tf.function retracing" log lines are dropped: each
  pycg_function() in R is its own tf.function, so they are expected there.
"""
import logging
import sys
import warnings

from pycg import config
from pycg._errors import facts_of
from pycg.r import _session

pending = []  # messages of the warnings raised during the current call
active = False  # True once apply() took effect


def collect(message, category, filename, lineno, file=None, line=None):
    # (a warning made by pycg._errors.user_error: its template and facts,
    # which R renders in its terms; any other, its text)
    pending.append(facts_of(message) or f"{message}")


def reinstall():
    """Collect warnings again after a library (absl's logging, say)
    replaced warnings.showwarning; interop calls it after each call."""
    if warnings.showwarning is not collect:
        warnings.showwarning = collect


class _NoRetracing(logging.Filter):
    def filter(self, record):
        return "retracing" not in record.getMessage()


def apply():
    """Apply the settings when R started this Python; True if it did."""
    if _session.HOSTING_R or "rpytools" not in sys.modules:
        return False
    global active
    active = True
    config.set_floatx("float64")
    warnings.showwarning = collect
    warnings.simplefilter("always")
    for quiet in (DeprecationWarning, PendingDeprecationWarning,
                  ImportWarning, ResourceWarning):
        warnings.simplefilter("ignore", quiet)
    # (and the numpy backend's kernels stay as silent as TensorFlow's, as
    # pycg/backends/numpy/__init__.py makes them: "always" came first)
    warnings.filterwarnings("ignore", message=r".*encountered in",
                            category=RuntimeWarning, module=r"pycg\.")
    logging.getLogger("tensorflow").addFilter(_NoRetracing())
    return True
