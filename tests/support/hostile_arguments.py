"""Calls of every public op with one hostile argument each (a string, bytes,
a huge or negative int, a float, None, an object, a ragged list, an
object-dtype array, a dict, NaN, a bool), the other arguments ordinary.
tests/test_hostile_fuzz.py asserts that the errors they raise name pycg or
the op."""
import inspect
import re

import numpy as np

from pycg import ops

HOSTILE = {
    "str": "0", "bytes": b"ab", "huge int": 2**70, "negative int": -1,
    "float": 1.5, "None": None, "object": object(),
    "ragged": [[1.0], [2.0, 3.0]],
    "object array": np.array([1.0, "a"], dtype=object),
    "dict": {"a": 1}, "nan": float("nan"), "bool": True,
}

_F = np.arange(1.0, 7.0, dtype="float32").reshape(2, 3) / 7
_SQ = np.array([[2.0, 0.5], [0.5, 3.0]], "float32")
_I = np.array([0, 1], "int32")

# ordinary values by parameter name; any other required one is _F
ORDINARY = {
    "shape": (2, 3), "newshape": (3, 2), "axis": 0, "axis1": 0, "axis2": 1,
    "dtype": "float32", "indices": _I, "segment_ids": _I, "num_classes": 3,
    "N": 2, "n": 2, "k": 1, "start": 0, "stop": 3, "repeats": 2, "kth": 1,
    "indices_or_sections": 2, "source": 0, "destination": 1, "q": 0.5,
    "fill_value": 1.0, "index": 0, "pad_width": 1, "shift": 1,
    "pattern": "a b -> b a", "subscripts": "ij->ji", "bins": _F[0],
    "sorted_sequence": _F[0], "values": _F[0], "condition": _F > 0.3,
    "pred": True, "sequence_length": 2, "sequence_stride": 1,
    "fft_length": 2, "pool_size": 1, "kernel_size": 1, "block_size": 1,
    "output_size": 1, "x_min": 0.0, "x_max": 1.0, "lower": 0, "upper": 1,
    "threshold": 0.5, "max_val": 1.0, "num_segments": 2,
    "condlist": [_F > 0.3], "choicelist": [_F], "xs": [_F, _F],
    "elems": _F, "init": _F[0], "init_val": _F, "loop_vars": (_F,),
    "branches": [lambda v: v], "f": lambda v: v, "fun": lambda v: v,
    "function": lambda v: v, "pyfunc": lambda v: v, "body": lambda v: v,
    "body_fun": lambda i, v: v, "true_fn": lambda: _F,
    "false_fn": lambda: _F, "cond": lambda v: False,
    "primals": (_F,), "tangents": (_F,), "a": _SQ, "b": _SQ,
    "variable": None,
}


# ops whose ordinary call needs more than ORDINARY gives
BASES = {
    "scan": {"f": lambda c, x: (c, x), "init": _F[0], "xs": _F},
    "associative_scan": {"f": lambda a, b: a + b, "elems": _F},
    "switch": {"index": 0, "branches": [lambda: _F]},
    "fori_loop": {"lower": 0, "upper": 2, "body_fun": lambda i, v: v},
    "cholesky": {"x": _SQ}, "inv": {"x": _SQ}, "det": {"x": _SQ},
}
# (fori_loop to 2**70 is a long loop, not an error)
SKIP = {("fori_loop", "upper", "huge int")}


def _public_ops():
    return sorted(n for n in ops.__all__ if callable(getattr(ops, n)))


def _params(fn):
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return []
    return [p for p in sig.parameters.values()
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]


def calls():
    """(op, parameter, hostile label, thunk) for every public op, every
    parameter it names, every hostile value."""
    for name in _public_ops():
        fn = getattr(ops, name)
        params = _params(fn)
        base = {p.name: ORDINARY.get(p.name, _F) for p in params
                if p.default is p.empty}
        base.update(BASES.get(name, {}))
        for p in params:
            for label, bad in HOSTILE.items():
                if (name, p.name, label) in SKIP:
                    continue
                kwargs = dict(base, **{p.name: bad})
                yield name, p.name, label, (
                    lambda fn=fn, kwargs=kwargs: fn(**kwargs))


def named(op, exc):
    """Does the message name pycg or the op?"""
    text = str(exc)
    return "pycg" in text or re.search(rf"\b{re.escape(op)}\b", text) \
        is not None
