"""Nothing pycg imports comes from the working directory.

Python puts the working directory first on sys.path for `python -c`,
`python -m` and the interactive prompt, and R's reticulate does the same
for the Python it embeds: a `tensorflow.py` (or `numpy.py`, `cProfile.py`,
...) there would be imported instead of the installed module, run, and
make pycg fall back to another backend without a word, or run inside a
framework that imports it lazily.

So every import that pycg causes skips the working directory: a top-level
module imported while pycg's code is on the importing thread's stack (an
import of pycg's own, `import pycg` included, and any import the
frameworks pycg calls make meanwhile: torch's compiler machinery reached
through ``torch.compiler.disable``, JAX's and TensorFlow's lazy modules, in
a bridge's forward, in the backward the framework calls back later, on any
thread) is looked up on sys.path less its first entry where that is the
working directory (the same folder later on sys.path, from PYTHONPATH or
an editable install's .pth, is a folder the user installed into and
stays), and one found only in the working directory is not imported at
all. The user's own imports stay Python's: one made by code of `__main__`
or of a module from the working directory (the user's `f`, called by a
bridge, importing a helper module beside it) finds what Python finds.

A module already imported from the working directory before pycg asked for
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
    import importlib
    import importlib.machinery
finally:
    sys.path[:] = _path
del _path


class ShadowedModuleError(ImportError):
    """A module pycg needs was imported from the working directory."""


def import_module(name):
    """importlib.import_module(name), its origin checked."""
    module = importlib.import_module(name)
    top = name.partition(".")[0]
    if top != "pycg":   # (where pycg itself comes from is the user's choice)
        check_origin(top)
    return module


def check_origin(name):
    """A ShadowedModuleError if module `name` was imported from the working
    directory (which no import of pycg's reads)."""
    where = _in_working_directory(sys.modules.get(name))
    if where:
        raise ShadowedModuleError(
            f"pycg: the module {name!r} was imported from the working "
            f"directory ({where}), not from where it is installed; pycg never "
            f"uses modules from the working directory. Rename or remove "
            f"{where} and restart Python (or R)", name=name, path=where)


def _in_working_directory(module):
    """The file of `module` where it was imported from the working
    directory (and not also from a folder on installed_path()), else
    None."""
    where = getattr(module, "__file__", None)
    if not where or not isinstance(where, str):
        return None
    folder = os.path.dirname(os.path.abspath(where))
    if os.path.basename(where).startswith("__init__."):
        folder = os.path.dirname(folder)   # (a package: the folder above)
    if _same(folder, os.getcwd()) and not any(
            _same(folder, p) for p in installed_path()):
        return where
    return None


# ---- whose import is it? ----------------------------------------------------
# The frames of the import machinery (importlib, this module) import on
# someone's behalf: the first frame past them is the importer.
_MACHINERY = ("importlib", "_frozen_importlib", "_frozen_importlib_external")


def _is_machinery(name):
    return name == __name__ or name.partition(".")[0] in _MACHINERY


def _module_of(frame):
    g = frame.f_globals
    spec = g.get("__spec__")   # (`python -m pycg`: __main__ is pycg's)
    name = getattr(spec, "name", None) or g.get("__name__")
    return name if isinstance(name, str) else ""


def _is_pycg(name):
    return name == "pycg" or name.startswith("pycg.")


def _is_users(name):
    """Code of `__main__` (a script, `python -c`, the prompt, reticulate's
    py_run_string) or of a module the user imported from the working
    directory."""
    if name == "__main__":
        return True
    top = name.partition(".")[0]
    return bool(top) and not _is_pycg(top) and \
        _in_working_directory(sys.modules.get(top)) is not None


def caused_by_pycg():
    """Whether the import under way in this thread is pycg's to guard:
    pycg's code is on the stack, and the importer is not the user's own
    code."""
    frame = sys._getframe(1)
    while frame is not None and _is_machinery(_module_of(frame)):
        frame = frame.f_back
    if frame is None or _is_users(_module_of(frame)):
        return False
    return pycg_on_stack(frame)


def pycg_on_stack(frame):
    """Whether `frame` or a frame it was called from runs pycg's code."""
    while frame is not None:
        if _is_pycg(_module_of(frame)):
            return True
        frame = frame.f_back
    return False


class _InstalledFirst:
    """A meta path finder, before PathFinder: top-level imports that pycg
    causes (caused_by_pycg) skip the working directory."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        if path is not None or not caused_by_pycg():
            return None   # (a submodule: its package's own folders)
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


def _install():
    if _InstalledFirst in sys.meta_path:   # (this module imported again)
        return
    at = next((i for i, f in enumerate(sys.meta_path)
               if f is importlib.machinery.PathFinder), len(sys.meta_path))
    sys.meta_path.insert(at, _InstalledFirst)


_install()
# (what the user imported before pycg, from there: refused before pycg uses it)
for _name in ("numpy", "ml_dtypes", "tensorflow", "jax"):
    check_origin(_name)
del _name
