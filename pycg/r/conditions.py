"""R conditions as Python exceptions and warnings, one family for both
directions of the border.

- `RError`: an error signalled by R code that Python ran. pycg.r raises it
  when an R function called from Python fails (public: ``pycg.r.RError``).
- `RCallbackError`, an `RError`: the error came from an R function that
  pycg called back while running Python code on R's behalf (a gradient rule,
  a function under ``pycg_grad()`` or an optimizer, from the R package or
  through pycg.r). When R started the call, R signals the original error
  again once Python has unwound; ``except pycg.r.RError`` catches it too.
- `RCallbackInterrupt`: an interrupt or time limit taken in such an R
  callback, a KeyboardInterrupt (never caught by ``except Exception``).
- `RWarning`: a warning signalled by R code that Python ran.
"""
from collections.abc import Iterable


class RError(RuntimeError):
    """An error signalled by R code called through pycg.r; `classes` holds
    the R condition's classes.

    Args:
        message: R's message.
        classes: The R condition's classes (``"simpleError"``, ...).
    """

    def __init__(self, message: str, classes: Iterable[str] = ()) -> None:
        super().__init__(message)
        self.classes = tuple(classes)


class RCallbackError(RError):
    """An error in an R function that pycg called back (a gradient rule, a
    function being differentiated or optimised); R re-signals the original
    when R started the call.

    Args:
        message: R's message, after where it happened ("in the gradient of
            f: ...").
        classes: The R condition's classes (``"simpleError"``, ...).
    """


class RCallbackInterrupt(KeyboardInterrupt):
    """An interrupt or time limit taken in an R function that pycg called
    back: Python unwinds (tapes exit), then R re-signals it at the top. A
    KeyboardInterrupt, so that a Python caller's `except Exception` (pycg.r,
    a training loop) never swallows it."""


class RWarning(UserWarning):
    """A warning signalled by R code called through pycg.r."""
