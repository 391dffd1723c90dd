"""What a kernel does where torch refuses its operands (the error path
only: nothing is checked before a kernel runs).

- uint16, uint32 and uint64: torch 2.x stores them but has almost no
  kernels for them (add, comparisons, sums raise NotImplementedError). The
  kernel runs again on the values cast to the signed dtype that holds them
  (uint16 in int32, uint32 and uint64 in int64), and a result in that
  signed dtype is cast back, wrapping as NumPy's unsigned arithmetic wraps
  (torch's casts wrap). uint64 values of 2**63 and more do not fit int64:
  where one meets a kernel whose answer depends on more than the bits
  modulo 2**64 (an order, a division, a float), that is a TypeError naming
  the dtype, never a wrong answer.
- Operands on two devices, the CPU and one other (a value made on the
  default device, the CPU, meeting a CUDA input): the kernel runs again
  with them all on the other device, so results stay on the inputs'
  device. Two devices that are not the CPU stay torch's error.
- A dtype torch has no kernel for: a TypeError with torch's names of
  dtypes ('ComplexFloat') in pycg's (complex64)."""
import re

import torch

SIGNED = {torch.uint16: torch.int32, torch.uint32: torch.int64,
          torch.uint64: torch.int64}
# kernels whose uint64 answer, computed in int64, has the right bits
_BITS = frozenset((
    "add", "subtract", "multiply", "negative", "square", "power", "abs",
    "sum", "prod", "cumsum", "cumprod", "matmul", "einsum", "where",
    "scatter_flat", "gather_flat", "bitwise_and", "bitwise_or",
    "bitwise_xor", "bitwise_invert", "left_shift", "equal", "not_equal",
    "concatenate", "pad", "broadcast_to", "reshape", "transpose", "isin",
    "full", "conj", "real", "round", "trunc"))
# kernels whose results are indices or counts, never the input's dtype
_INDICES = frozenset(("argmax", "argmin", "argsort", "top_k_indices",
                      "searchsorted", "bincount"))


def _signed(value, back):
    if type(value) is torch.Tensor:
        signed = SIGNED.get(value.dtype)
        if signed is None:
            return value
        back.setdefault(signed, value.dtype)
        return value.to(signed)
    if type(value) in (list, tuple):
        return type(value)(_signed(v, back) for v in value)
    return value


def _unsigned(out, back):
    if type(out) is torch.Tensor:
        dtype = back.get(out.dtype)
        return out if dtype is None else out.to(dtype)
    if type(out) in (list, tuple):
        return type(out)(_unsigned(o, back) for o in out)
    return out


def _too_wide(name, args, back):
    """A TypeError where a uint64 value of 2**63 or more meets a kernel
    whose answer the int64 bits do not give."""
    if torch.uint64 not in back.values() or name in _BITS:
        return
    for v in args:
        if type(v) is torch.Tensor and v.dtype is torch.uint64 and \
                bool((v.to(torch.int64) < 0).any()):
            raise TypeError(
                f"pycg (torch backend): {name} of uint64 values of 2**63 "
                f"and more has no kernel in torch (pycg computes unsigned "
                f"integers through int64); cast to float64, or use the "
                f"numpy backend")


def _devices(value, found):
    if type(value) is torch.Tensor:
        found.add(value.device)
    elif type(value) in (list, tuple):
        for v in value:
            _devices(v, found)
    return found


def _moved(value, place):
    if type(value) is torch.Tensor:
        return value.to(place)
    if type(value) in (list, tuple):
        return type(value)(_moved(v, place) for v in value)
    return value


def _run(name, kernel, args, kwargs):
    """kernel on args cast to signed dtypes and on one device, or None where
    neither changes anything (then the caller's error stands)."""
    back = {}
    cast = _signed(args, back)
    places = _devices(cast, set())
    others = {p for p in places if p.type != "cpu"}
    move = len(places) > 1 and len(others) == 1
    if not back and not move:
        return None
    _too_wide(name, args, back)
    if move:
        cast = _moved(cast, others.pop())
    out = kernel(*cast, **kwargs)
    return out if name in _INDICES or not back else _unsigned(out, back)


# torch's names of dtypes in its messages -> NumPy's (pycg's)
_NAMES = {"Bool": "bool", "Char": "int8", "Byte": "uint8", "Short": "int16",
          "Int": "int32", "Long": "int64", "Half": "float16",
          "BFloat16": "bfloat16", "Float": "float32", "Double": "float64",
          "ComplexFloat": "complex64", "ComplexDouble": "complex128",
          "UInt16": "uint16", "UInt32": "uint32", "UInt64": "uint64"}
_QUOTED = re.compile(r"'(" + "|".join(_NAMES) + r")'")


def _refused(e):
    """torch's refusal of a dtype (a NotImplementedError, or a message
    naming a dtype torch's way) as a TypeError in pycg's dtype names, as
    NumPy's; any other error as it is."""
    message = str(e)
    if not isinstance(e, NotImplementedError) and not _QUOTED.search(message):
        return e
    return TypeError(_QUOTED.sub(lambda m: _NAMES[m.group(1)], message))


def _again(e, name, kernel, args, kwargs):
    """The answer of kernel run again after torch refused it with `e`, or
    that refusal (a dtype's: a TypeError)."""
    out = _run(name, kernel, args, kwargs)
    if out is None:
        raise _refused(e) from None
    return out


def _named(run, name, kernel):
    run.__name__ = run.__qualname__ = name
    run.__doc__ = kernel.__doc__
    return run


def through(name, kernel):
    """kernel, run again where torch refuses its operands (unsigned
    dtypes, two devices); torch's refusal of a dtype a TypeError."""
    def run(*args, **kwargs):
        try:
            return kernel(*args, **kwargs)
        except (NotImplementedError, RuntimeError) as e:
            return _again(e, name, kernel, args, kwargs)
    return _named(run, name, kernel)


def binary(name, kernel):
    """through() for a hot kernel of two operands (no packing of *args)."""
    def run(x, y):
        try:
            return kernel(x, y)
        except (NotImplementedError, RuntimeError) as e:
            return _again(e, name, kernel, (x, y), {})
    return _named(run, name, kernel)
