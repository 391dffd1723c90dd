"""Nothing pycg imports comes from the working directory.

Python puts the working directory first on sys.path for `python -c`,
`python -m` and the interactive prompt, and R's reticulate does the same
for the Python it embeds: a `tensorflow.py` (or `numpy.py`, `jax.py`, ...)
there would be imported instead of the installed module, run, and make
pycg fall back to another backend without a word. So every import pycg
makes runs under `guarded()`: while it does, in this thread, a top-level
module is looked up on sys.path less its first entry where that is the
working directory (the same folder later on sys.path, from PYTHONPATH or
an editable install's .pth, is a folder the user installed into and
stays), and one found only in the working directory is not imported at
all.

What runs guarded: `import pycg` (its __init__), every pycg module as it
is first imported (the finder below gives pycg's own modules a loader
that runs them under guarded(), so a module imported late, pycg.r or a
backend, imports what it needs, and all that imports, guarded), and the
imports inside pycg's functions (each in a `with guarded():` block or
through import_module; tests/test_imports_guarded.py checks that). A
module already imported from the working directory before pycg asked for
it is refused by `check_origin`, naming its file.
"""
import os
import sys


def installed_path():
    """sys.path less its first entry where that is the working directory
    (as `python -c`, `-m` and reticulate put it; the same folder further
    on, from PYTHONPATH or a .pth file, was put there on purpose)."""
    path = list(sys.path)
    if path and (path[0] in ("", ".") or _same(path[0], os.getcwd())):
        return path[1:]
    return path


def _same(a, b):
    try:
        return os.path.realpath(a or ".") == os.path.realpath(b or ".")
    except (OSError, ValueError, TypeError):
        return False


# This module's own imports come before its finder: the working directory
# is off sys.path for them (os and sys are loaded when Python starts).
_path = sys.path[:]
sys.path[:] = installed_path()
try:
    import contextlib
    import importlib
    import importlib.machinery
    import threading
finally:
    sys.path[:] = _path
del _path

_state = threading.local()   # .depth: guarded() calls open in this thread
_installing = threading.Lock()


class ShadowedModuleError(ImportError):
    """A module pycg needs was imported from the working directory."""


def import_module(name):
    """importlib.import_module(name) under guarded(), its origin checked."""
    with guarded():
        module = importlib.import_module(name)
    top = name.partition(".")[0]
    if top != "pycg":   # (where pycg itself comes from is the user's choice)
        check_origin(top)
    return module


@contextlib.contextmanager
def guarded():
    """Imports in this thread, while open, skip the working directory."""
    if _FINDER not in sys.meta_path:
        _install()
    _state.depth = getattr(_state, "depth", 0) + 1
    try:
        yield
    finally:
        _state.depth -= 1


def check_origin(name):
    """A ShadowedModuleError if module `name` was imported from the working
    directory (which no import of pycg's reads)."""
    module = sys.modules.get(name)
    where = getattr(module, "__file__", None)
    if not where:
        return
    folder = os.path.dirname(os.path.abspath(where))
    if os.path.basename(where).startswith("__init__."):
        folder = os.path.dirname(folder)   # (a package: the folder above)
    if _same(folder, os.getcwd()) and not any(
            _same(folder, p) for p in installed_path()):
        raise ShadowedModuleError(
            f"pycg: the module {name!r} was imported from the working "
            f"directory ({where}), not from where it is installed; pycg never "
            f"uses modules from the working directory. Rename or remove "
            f"{where} and restart Python (or R)", name=name, path=where)


class _InstalledFirst:
    """A meta path finder, before PathFinder, active under guarded()."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        if path is not None:   # (a submodule: its package's own folders)
            return _own(name, path, target)
        if not getattr(_state, "depth", 0):
            return None
        installed = installed_path()
        spec = importlib.machinery.PathFinder.find_spec(name, installed,
                                                        target)
        if spec is not None:
            return spec
        skipped = sys.path[:len(sys.path) - len(installed)]
        if skipped and importlib.machinery.PathFinder.find_spec(
                name, skipped, target) is not None:
            raise ModuleNotFoundError(
                f"No module named {name!r} where it could be installed (pycg "
                f"does not import {name!r} from the working directory)",
                name=name)
        return None

    @staticmethod
    def invalidate_caches():
        pass


class _GuardedLoader(importlib.machinery.SourceFileLoader):
    """pycg's own modules: their body runs under guarded()."""

    def exec_module(self, module):
        with guarded():
            super().exec_module(module)


def _own(name, path, target):
    """The spec of pycg's submodule `name`, with the guarded loader."""
    if not name.startswith("pycg."):
        return None
    spec = importlib.machinery.PathFinder.find_spec(name, path, target)
    if spec is not None and type(spec.loader) is \
            importlib.machinery.SourceFileLoader:
        spec.loader = _GuardedLoader(spec.loader.name, spec.loader.path)
    return spec


_FINDER = _InstalledFirst


def _install():
    with _installing:
        if _FINDER in sys.meta_path:
            return
        at = next((i for i, f in enumerate(sys.meta_path)
                   if f is importlib.machinery.PathFinder), len(sys.meta_path))
        sys.meta_path.insert(at, _FINDER)
