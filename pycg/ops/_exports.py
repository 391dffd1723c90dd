"""The ops as `pycg.ops` exports them: each topic module's `__all__` (every
module of this package but the private ones and the rules), an op that
dispatch's factories did not make wrapped so that its errors name it
(`_machinery/named.py`). `pycg/ops/__init__.py`'s
`from pycg.ops._exports import *` asks `__getattr__` below for each name
of `__all__`, so each op is bound in `pycg.ops` by that import, once; the
op itself is defined, under its name, in its topic file."""
import importlib
import os
import pkgutil

from pycg.ops._machinery.named import naming_errors, wraps_errors

_TOPICS = tuple(
    importlib.import_module(f"pycg.ops.{m.name}")
    for m in pkgutil.iter_modules([os.path.dirname(__file__)])
    if not m.name.startswith("_") and m.name != "rules")
__all__ = tuple(sorted(n for t in _TOPICS for n in t.__all__))


def __getattr__(name):
    for topic in reversed(_TOPICS):   # (the last topic that exports it)
        if name in topic.__all__:
            fn = getattr(topic, name)
            return naming_errors(name, fn) if wraps_errors(fn) else fn
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
