"""R inside Python: call R functions, pycg's R API among them, on the same
tape as Python code.

rpy2 embeds R in this process and reticulate, inside that R, attaches to this
interpreter, so an R function receives the very tensors Python passed (not
copies), the ops it applies are recorded on the Python tape that is
recording, and an R ``op_custom_gradient`` rule works inside a Python
`GradientTape` and under `pycg.grad`. The R package ``pycg`` is attached to
the embedded R on first use (from ``R_LIBS``, ``<venv>/lib/R`` or R's own
libraries), so R code can use ``op_*``, ``op_custom_gradient``, ``tuple``
and the rest without ``library(pycg)``.

>>> import pycg, pycg.r
>>> log1pexp = pycg.r.function('''
...   op_custom_gradient(function(x) {
...     e <- op_exp(x)
...     grad <- function(..., upstream = NULL) {
...       upstream <- upstream %||% ..1
...       op_multiply(upstream, 1.0 - 1.0 / op_add(1, e))
...     }
...     tuple(op_log(1 + e), grad)
...   })''')
>>> float(pycg.grad(log1pexp)(pycg.constant(100.0)))
1.0
>>> pycg.r.call("toupper", "r inside python")
'R INSIDE PYTHON'

Values cross by these rules. Python -> R: tensors and other Python objects
by reference; numbers, strings and None as R scalars; NumPy arrays of
numbers, booleans or complex numbers as R vectors (1-d) and arrays of the
same shape and elements (an array of strings is refused: pass a list); lists
and tuples as R lists, dicts as named lists; Python callables as R
functions. R -> Python, by the same rules as the arguments of the R
package's ops: a length-1 number (double, integer, logical or complex)
becomes a Python number (NA_real_ nan), as reticulate's r_to_py() does;
other vectors and arrays pycg tensors (a 2 x 3 R matrix is a (2, 3) tensor
with the same elements); strings str (a character vector a list of str);
unnamed lists list, lists with every element named (each name once) dict,
tuple() tuple; functions `RFunction`; NULL None; Python objects themselves.
Integer and logical NA, NA strings, lists named in part or with a repeated
name, data frames and environments raise `RError` (R's message says why).
An R error raises `RError` with R's message (`RCallbackError`, one of them,
when it comes from an R function that pycg called back, e.g. a gradient
rule), an R warning is issued as an `RWarning`; a Python exception raised by
a callback inside R comes out as itself.

R's ``q()`` and ``quit()`` would end this Python process at once (its
atexit handlers skipped, files it has not flushed lost). In the R that
pycg.r embeds they raise `RError` instead, naming the R function that called
them (``leave: q() was called inside an R function run by pycg.r, ...``):
an R function ends with a value, or with ``stop()``.

Calls from several threads are serialised (R is single-threaded). After
pycg.r has started R, call R only through pycg.r, not through rpy2 directly:
why, and how the process still exits cleanly, is told in
pycg/r/_session.py. Importing pycg.r starts nothing: R starts on the first
call. The package also holds the Python half of the R package
(pycg/r/interop.py, which R reaches through reticulate, and base R's
meaning on tensors, pycg/r/base/), and the one array codec both directions
share (pycg/r/codec.py).
"""
import os
from typing import Any

from pycg.r import _session
from pycg.r._bridge import RFunction, invoke
from pycg.r.conditions import RCallbackError, RError, RWarning

__all__ = ["RCallbackError", "RError", "RFunction", "RWarning", "call", "eval",
           "function", "source"]


def _dispatch(op, *args):
    return invoke(_session.dispatcher(), (op,) + args, {})


def eval(code: str) -> Any:
    """The value of R code (the last expression's), converted to Python;
    the code runs in R's global environment.

    Args:
        code: R code, a string (several expressions allowed).

    Returns:
        The last expression's value, converted by the rules above.

    Example:
    >>> import pycg.r
    >>> pycg.r.eval("matrix(1:6, nrow = 2)").shape
    (2, 3)
    """
    return _dispatch("eval", _text(code, "eval"))


def function(code: str) -> RFunction:
    """An R function from R code whose value is a function.

    Args:
        code: R code, a string, whose value is a function.

    Returns:
        An `RFunction`, callable from Python (and usable as a custom
        gradient's rule).

    Example:
    >>> import pycg, pycg.r
    >>> square = pycg.r.function("function(x) x * x")
    >>> float(square(pycg.constant(3.0)))
    9.0
    """
    fn = _dispatch("eval", _text(code, "function"))
    if not isinstance(fn, RFunction):
        raise TypeError(f"pycg.r.function: the R code must evaluate to a "
                        f"function, got {type(fn).__name__}; wrap it as "
                        f"function(...) {{ ... }}")
    return fn


def call(name: str, *args: Any, **kwargs: Any) -> Any:
    """Call the R function `name` (``"sum"``, ``"pkg::fun"``, or one defined
    in R's global environment) with `args` and `kwargs`.

    Args:
        name: The R function's name, a string.
        *args: Its positional arguments (converted by the rules above).
        **kwargs: Its named arguments.

    Returns:
        The R function's value, converted to Python.

    Example:
    >>> import pycg.r
    >>> float(pycg.r.call("sum", 1, 2, 3))
    6.0
    """
    return _lookup(_text(name, "call"))(*args, **kwargs)


def source(path: str | os.PathLike[str]) -> dict[str, RFunction]:
    """Run an R file and return the functions it defines, by name, as a
    dict of `RFunction`s. The file runs in an environment of its own (its
    parent R's global one), like a Python module.

    Args:
        path: The R file's path (a str or os.PathLike).

    Returns:
        A dict: name -> `RFunction`, one per function the file defines.
    """
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise FileNotFoundError(f"pycg.r.source: no such R file: {path}")
    funs = _dispatch("source", os.path.abspath(path)) or {}
    for name, fn in funs.items():
        fn.__name__ = fn.__qualname__ = name
    return funs


def _lookup(name):
    fn = _dispatch("lookup", name)
    fn.__name__ = fn.__qualname__ = name
    return fn


def _text(code, caller):
    if not isinstance(code, str):
        raise TypeError(f"pycg.r.{caller}: expected a string of R code, got "
                        f"{type(code).__name__}")
    return code
