"""R values on their way to Python: the one envelope, whichever side began
the call (the R package calling pycg through reticulate, pycg/r/interop.py;
or Python calling R through pycg.r, pycg/r/_bridge.py). R writes it with
as_py() in R/convert.R, whose header holds the rules; reticulate carries it
(R lists to lists, named lists to dicts, scalars to Python scalars) and
`decode` unwraps the marked dicts:

- ``{ARRAY_KEY: bytearray, "shape": [...], "kind": ...}``: an R vector or
  array, read by pycg/r/codec.py into a tensor;
- ``{TUPLE_KEY: [...]}``: tuple();
- ``{DICT_KEY: [names], "values": [...]}``: a named list, a dict (its
  names travel as strings: reticulate would convert a dict key R sends to
  the R session's encoding, and a C-locale R session has only ASCII);
- ``{INDEX_KEY: tensor, "arg": name}``: 1-based positions held in a tensor
  (the R package's as_index()), made 0-based here;
- ``{FUNCTION_KEY: bridged, "signature": params}``: an R function of pycg.r
  (a bridged closure and its formals as data), made by `function`.
"""
import weakref

import pycg
from pycg._errors import Arg, user_error
from pycg.r import codec
from pycg.r.base.na import symbolic
from pycg.tensor import Tensor

ARRAY_KEY = "__pycg_r_array__"
INDEX_KEY = "__pycg_r_index__"
TUPLE_KEY = "__pycg_r_tuple__"
DICT_KEY = "__pycg_r_dict__"
FUNCTION_KEY = "__pycg_r_function__"


def decode(x, function=None):
    """The Python value of the envelope `x`; `function(bridged, params)`
    makes the Python callable of an R function (pycg.r's)."""
    if type(x) is dict:
        if ARRAY_KEY in x:
            return codec.from_r(x[ARRAY_KEY], x["shape"], x["kind"],
                               x.get("dtype"))
        if INDEX_KEY in x:
            return _zero_based(pycg.convert_to_tensor(x[INDEX_KEY]),
                               x.get("arg", "indices"))
        if TUPLE_KEY in x:
            return tuple(decode(v, function) for v in x[TUPLE_KEY])
        if DICT_KEY in x:
            return {k: decode(v, function)
                    for k, v in zip(x[DICT_KEY], x["values"])}
        if FUNCTION_KEY in x and function is not None:
            return function(x[FUNCTION_KEY], x["signature"])
        return {k: decode(v, function) for k, v in x.items()}
    if type(x) is list:
        return [decode(v, function) for v in x]
    if type(x) is tuple:
        return tuple(decode(v, function) for v in x)
    return x


# id(tensor of 1-based positions) -> (weak reference to it, the backend,
# its 0-based tensor): a tensor's value never changes, and a training loop
# passes the same labels on every step
_ZERO_BASED = {}


def _zero_based(index, arg):
    """A tensor of R's 1-based positions as 0-based ones; a position below 1
    (which Python would read from the end) is an error. Made once per
    tensor (not a Variable, whose value changes) and backend."""
    key, backend = id(index), pycg.config.backend()
    hit = _ZERO_BASED.get(key)
    if hit is not None and hit[0]() is index and hit[1] == backend:
        return hit[2]
    out = _subtract_one(index, arg)
    if type(index) is Tensor and not symbolic(out):
        _ZERO_BASED[key] = (
            weakref.ref(index, lambda _, key=key: _ZERO_BASED.pop(key, None)),
            backend, out)
    return out


def _subtract_one(index, arg):
    # (a value's minimum in NumPy, not as an op: this runs for each call of
    # a wrapper taking positions; a constant captured by pycg.function is
    # still a value here)
    low = index.numpy().min() if index.size and not symbolic(index) else 1
    if low < 1:
        raise user_error(IndexError,
                         "{arg} holds {value}: positions are 1-based (1 is "
                         "the first); to leave elements out use x[-i]",
                         arg=Arg(arg), value=low.item())
    return pycg.ops.subtract(index, 1)
