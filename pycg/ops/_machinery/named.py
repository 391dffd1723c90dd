"""The error contract's last line: an op's error that names neither pycg
nor the op (NumPy's, TensorFlow's or Python's own words, from an argument
that no check in pycg.ops._machinery.arguments foresaw) is raised again with the op's
name in front, as the same class, the original chained as its cause.

Not renamed: an error raised in the user's own code (a function given to
cond, scan, vectorize, ...: a frame outside pycg and the installed
libraries), whose words are the user's. The elementwise ops made by
pycg.ops._machinery.dispatch's factories are not wrapped (their fast path stays one
frame): they call `raise_named` where their kernel fails.
"""
import functools
import os
import sysconfig

_PYCG = os.path.dirname(os.path.dirname(os.path.dirname(__file__)))
_OURS = tuple(os.path.realpath(p) for p in {
    _PYCG,
    *(sysconfig.get_paths()[k] for k in ("stdlib", "purelib", "platlib"))})


def wraps_errors(fn):
    """Does the public op `fn` get the wrapper?"""
    return fn.__module__ != "pycg.ops._machinery.dispatch"


def naming_errors(name, fn):
    """`fn` whose errors name `pycg.ops.<name>`."""
    @functools.wraps(fn)
    def op(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except Exception as e:
            raise_named(name, e)
    return op


def raise_named(name, e):
    """Raise `e`, named after the op `name` where it names neither."""
    renamed = _renamed(name, e)
    if renamed is None:
        raise e
    raise renamed from e


def _in_user_code(tb):
    while tb is not None:
        path = os.path.realpath(tb.tb_frame.f_code.co_filename)
        if not path.startswith(_OURS):
            return True
        tb = tb.tb_next
    return False


def _renamed(name, e):
    text = str(e)
    if "pycg" in text or _in_user_code(e.__traceback__.tb_next):
        return None
    text = f"pycg.ops.{name}: {text or type(e).__name__}"
    try:
        if hasattr(e, "node_def"):   # (TensorFlow's OpError)
            return type(e)(e.node_def, e.op, text)
        return type(e)(text)
    except Exception:   # (a class that takes other arguments, as NumPy's
        pass            # UFuncTypeError: its nearest built-in base)
    base = next(c for c in type(e).__mro__ if c.__module__ == "builtins")
    return base(text)
