"""Inputs whose gradient keeps the floating dtype its rule gave, instead of
being cast to the input's (check_gradient): set by a border whose framework
casts gradients by its own setting. pycg.to_torch sets it for a torch leaf
whose ``grad_dtype`` is not its dtype (None, or another dtype): torch's
engine then casts, or not, as it does for an autograd.Function."""
import contextlib
import threading

_local = threading.local()   # .ids: the ids of such inputs, in this thread


@contextlib.contextmanager
def keeping(tensors):
    """Inside: a rule's gradient for one of `tensors` keeps its dtype."""
    outer = getattr(_local, "ids", frozenset())
    _local.ids = outer | {t._id for t in tensors}
    try:
        yield
    finally:
        _local.ids = outer


def kept(x):
    """Whether the gradient of input x keeps its rule's dtype."""
    ids = getattr(_local, "ids", None)
    return bool(ids) and x._id in ids
