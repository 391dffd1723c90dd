"""Kernel backends: array kernels only, no gradients.

`active` is the backend module that ops dispatch to; `set_backend` swaps it
for every thread (`switch`: pycg.config.set_backend's, refused while another
thread runs pycg's code); `using` sets one for the calling thread only, for
the length of a call (pycg.to_torch, to_jax, to_tensorflow).
"""
import os
import sys
import threading
import types

from pycg import _imports
from pycg._errors import Api, Value, user_error
from pycg.backends._tf_import import import_tensorflow

NAMES = ("tensorflow", "numpy", "jax", "torch")
# what a backend needs installed, and how (the numpy backend needs nothing)
_NEEDS = {"tensorflow": ("TensorFlow", "pip install tensorflow-cpu (or "
                          "tensorflow)"),
          "jax": ("JAX", "pip install 'pycg-autodiff[jax]' (or jax)"),
          "torch": ("PyTorch", "pip install torch --index-url "
                    "https://download.pytorch.org/whl/cpu (the CPU build; "
                    "or 'pycg-autodiff[torch]', which on Linux pulls the "
                    "CUDA build)")}
# A backend is a package pycg/backends/<name>/ with the same topic files as
# the others (docs/architecture.md) and the same kernel names, apart from
# these, which a backend may offer (the ops check for them, or call them
# only on their own backend): a hook run at each switch, fused kernels,
# the fallbacks of binary kernels that lack a dtype (bools, complex
# numbers), the bridge to TensorFlow's autodiff, the jax backend's watch
# on variables for pycg.function, the torch backend's test of a tensor
# torch's autograd records and pycg.to_torch's border, and keeping or lending
# the memory of a NumPy array (pycg.r's codec: adopt(), numpy_view()).
OPTIONAL = frozenset((
    "activate", "log_softmax", "edge_add", "edge_maximum", "edge_minimum",
    "edge_multiply", "edge_greater", "edge_greater_equal", "edge_less",
    "edge_less_equal", "tf_tensor", "foreign", "tensorflow_differentiates",
    "watching", "watcher", "moved_away", "moves", "autograd_records",
    "bridged", "adopt", "numpy_view"))
active: types.ModuleType = None  # type: ignore[assignment]  (set on first use)
# dtype objects of every loaded backend that are floating (added as each
# backend loads, so `dtype in FLOAT_DTYPES` is one hash lookup)
FLOAT_DTYPES = set()
COMPLEX_DTYPES = set()   # likewise the complex ones
try:   # NumPy dtypes that are floating though NumPy's kind says "V"
    import ml_dtypes
    EXTRA_FLOATS = (ml_dtypes.bfloat16,)
    finfo = ml_dtypes.finfo   # (np.finfo, and bfloat16's)
except ImportError:   # (a NumPy-only install: no bfloat16 there)
    import numpy as _np
    EXTRA_FLOATS, finfo = (), _np.finfo


def kernels(namespace):
    """A topic file's `__all__`, from its `globals()` at its end: its public
    names but the modules it imports. Its backend's package face
    star-imports the topic files, so each kernel is bound in the file that
    defines it and nowhere else (tests/test_backend_layout.py)."""
    return tuple(k for k, v in namespace.items() if not k.startswith("_")
                 and not isinstance(v, types.ModuleType))


_loaded = {}   # name -> module (import_module costs ~3 us a call)


def load(name):
    module = _loaded.get(name)
    if module is not None and sys.modules.get(module.__name__) is module:
        return module
    if name not in NAMES:
        raise ValueError(
            f"pycg: unknown backend {name!r}; valid backends are "
            + ", ".join(repr(n) for n in NAMES))
    try:
        module = _imports.import_module(f"pycg.backends.{name}")
        _imports.check_origin(name)   # (tensorflow, jax: pycg's or none)
    except ModuleNotFoundError as e:
        if e.name != name:
            raise
        what, how = _NEEDS[name]
        raise ModuleNotFoundError(
            f"pycg: the {name!r} backend needs {what}, which is not "
            f"installed ({e}; installing it: docs/troubleshooting.md); "
            f"{how}, or use the 'numpy' backend",
            name=name) from None
    FLOAT_DTYPES.update(module.float_dtypes)
    COMPLEX_DTYPES.update(module.complex_dtypes)
    _loaded[name] = module
    return module


def set_backend(name):
    global active
    active = load(name)
    if hasattr(active, "activate"):
        active.activate()
    return active


# ---- a backend for one thread's call, a switch for all ------------------
# `active` stays a plain module global (the ops read it at every call); only
# while some thread runs inside `using` does this module's class become
# _Using, whose `active` is that thread's backend, else the global one; and
# while `switch` runs, _Switching, whose readers in other threads wait for
# it (`_settle`, under _users_lock, picks the class).
_thread = threading.local()   # .module: this thread's backend in `using`
_users = {}   # a token per call inside `using`, under _users_lock
_users_lock = threading.Lock()
_switch_lock = threading.Lock()   # one switch at a time
_switching = []   # [(the switching thread's ident, done Event)] in a switch
_PLAIN = type(sys.modules[__name__])   # (this module's own class)


class _Using(_PLAIN):
    @property
    def active(self):
        module = getattr(_thread, "module", None)
        return module if module is not None else self.__dict__["active"]

    @active.setter
    def active(self, module):
        self.__dict__["active"] = module


class _Switching(_Using):
    @property
    def active(self):
        module = getattr(_thread, "module", None)
        if module is not None:
            return module
        for by, done in _switching[:1]:
            if by != threading.get_ident():
                done.wait()
        return self.__dict__["active"]

    @active.setter
    def active(self, module):
        self.__dict__["active"] = module


def _settle():
    """This module's class for what runs now (under _users_lock); set only
    where it changes (a module's class set again costs the interpreter's
    caches of its attributes)."""
    module = sys.modules[__name__]
    cls = _Switching if _switching else _Using if _users else _PLAIN
    if module.__class__ is not cls:
        module.__class__ = cls


def switch(name):
    """set_backend(name) for every thread, as one step: refused while
    another thread runs pycg's code (an op, a gradient, a bridge's call,
    which read the backend more than once), and meanwhile the backend's
    readers in other threads wait, so that none reads the old backend
    and then the new one within a call."""
    module = load(name)
    with _switch_lock:
        if active is module:
            return module
        _switching.append((threading.get_ident(), threading.Event()))
        try:
            with _users_lock:
                _settle()
            busy = _computing()
            if busy:
                raise user_error(
                    RuntimeError, "{api}({name}): another thread is running "
                    "pycg's code ({threads}) on the {old} backend; the "
                    "backend is one for the whole process, as Keras' is, so "
                    "it can only switch while no other thread is inside a "
                    "pycg call. Switch it before starting the threads or "
                    "after they finish, or give one thread's calls their own "
                    "backend with pycg.to_torch, to_jax or to_tensorflow",
                    api=Api("config.set_backend"), name=Value(name),
                    threads=", ".join(busy), old=Value(getattr(
                        active, "__dict__", {}).get("name", "default")))
            return set_backend(name)
        finally:
            _, done = _switching.pop()
            with _users_lock:
                _settle()
            done.set()


def _computing():
    """The names of the other threads whose stack runs pycg's code now."""
    me, names = threading.get_ident(), {
        t.ident: t.name for t in threading.enumerate()}
    return sorted(repr(names.get(ident, str(ident)))
                  for ident, frame in sys._current_frames().items()
                  if ident != me and _imports.pycg_on_stack(frame))


class using:
    """``with using(name):`` the calling thread's pycg runs on backend
    `name`, whatever the global backend (set_backend); other threads keep
    theirs. Whole against Ctrl-C: what it changes is read first and put
    back as it was; the threads inside are a table of tokens, not a count
    (as pycg.core.gc_policy's)."""

    __slots__ = ("module", "outer", "token")

    def __init__(self, name):
        self.module = load(name)
        self.outer = getattr(_thread, "module", None)
        self.token = None

    def __enter__(self):
        module = self.module
        if (self.outer or active) is module:
            return module
        try:
            self.token = object()
            with _users_lock:
                _users[self.token] = True
                _settle()
            _thread.module = module
            if hasattr(module, "activate"):
                module.activate()
            return module
        except BaseException:
            self._leave()
            raise

    def __exit__(self, *exc):
        try:
            self._leave()
        except BaseException:
            self._leave()
            raise
        return False

    def _leave(self):
        if self.token is None:
            return
        _thread.module = self.outer
        with _users_lock:
            _users.pop(self.token, None)
            _settle()


def from_environment():
    """The backend the environment variable PYCG_BACKEND names (None: unset
    or empty), or a ValueError naming the variable, what it may hold and
    what it holds."""
    env = os.environ.get("PYCG_BACKEND")
    if env and env not in NAMES:
        raise user_error(
            ValueError, "pycg: the environment variable PYCG_BACKEND is "
            "{value}; expected one of {names}, or unset (then 'tensorflow' "
            "where TensorFlow imports, else 'numpy')", value=Value(env),
            names=", ".join(repr(n) for n in NAMES))
    return env or None


def default_name():
    env = from_environment()
    if env:
        return env
    try:
        import_tensorflow()
        _imports.check_origin("tensorflow")
    except _imports.ShadowedModuleError:
        raise   # (never the numpy backend in silence)
    except ImportError:
        return "numpy"
    return "tensorflow"


class _Pending(types.ModuleType):
    """Stands in for the default backend until an op first reads it.

    `import pycg` then costs no `import tensorflow` (2 s): scripts that never
    touch an op, `--help` screens and the R package's start-up stay fast.
    The first attribute read chooses and loads the backend (`default_name`)
    and puts it in `active`, so every later read is the module itself.
    """

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        if active is self:
            set_backend(default_name())
        return getattr(active, attr)


def set_default_backend():
    """At `import pycg`: the backend PYCG_BACKEND names, loaded now (a bad
    name or a missing TensorFlow fails at import, as before), or the
    default, loaded at first use."""
    global active
    env = from_environment()
    if env:
        try:
            set_backend(env)
        except ModuleNotFoundError as e:
            raise ModuleNotFoundError(f"{e} (the environment variable "
                                      f"PYCG_BACKEND is {env!r})",
                                      name=e.name) from None
    elif sys.modules.get("tensorflow") is not None:
        set_backend("tensorflow")   # already paid for: no reason to wait
    else:
        active = _Pending("pycg.backends (not yet loaded)")


def for_value(value):
    """The backend module whose array type `value` is."""
    np_backend = load("numpy")
    if np_backend.owns(value):
        return np_backend
    for name in ("jax", "torch"):   # (never imports one for a question)
        module = _loaded.get(name)
        if module is not None and module.owns(value):
            return module
    return load("tensorflow")


numpy = load("numpy")  # always there, cheap: `backends.numpy` (tensor.py)
