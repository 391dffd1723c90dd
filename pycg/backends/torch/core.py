"""The torch backend's value types and dtypes, conversion, Python numbers
as scalars of a value's dtype, variables and host calls.

Devices: a value made from data (a NumPy array, a Python number, a
creation op, a random draw) goes where torch puts a new tensor, its
default device (`torch.set_default_device`, or `with torch.device(...)`);
a kernel's result stays on its inputs' device.

pycg's own tape does the autodiff: pycg's values never require grad, so
torch's autograd records none of these kernels. `autograd_records(value)`
is the one test of a torch tensor that torch's autograd would record
through (a user's tensor that requires grad, while grad mode is on).

dtypes are NumPy's on the pycg side (`dtype_of`). torch 2.x stores uint16,
uint32 and uint64 but has almost no kernels for them: the kernels compute
them through signed dtypes (_fallbacks.py). A dtype torch cannot hold
(longdouble) is a TypeError naming it.
"""
import contextlib
import operator

import numpy as np
import torch

from pycg.backends import EXTRA_FLOATS as _EXTRA_FLOATS
from pycg.backends.torch import _fallbacks
from pycg.backends.torch._bridge import bridged  # noqa: F401  (a kernel)
from pycg.backends.torch._bridge import refuse_recorded as _refuse
from pycg.backends import kernels as _kernels

_PAIRS = [(np.dtype(n), getattr(torch, t)) for n, t in (
    ("bool", "bool"), ("int8", "int8"), ("uint8", "uint8"),
    ("int16", "int16"), ("int32", "int32"), ("int64", "int64"),
    ("float16", "float16"), ("float32", "float32"), ("float64", "float64"),
    ("complex64", "complex64"), ("complex128", "complex128"),
    ("uint16", "uint16"), ("uint32", "uint32"), ("uint64", "uint64"))] + [
    (np.dtype(d), torch.bfloat16) for d in _EXTRA_FLOATS]
_TORCH_DTYPES = dict(_PAIRS)            # NumPy dtype -> torch dtype
_NUMPY_DTYPES = {t: n for n, t in _PAIRS}   # torch dtype -> NumPy dtype
_BFLOAT16 = _EXTRA_FLOATS[0] if _EXTRA_FLOATS else None

float_dtypes = (torch.float16, torch.bfloat16, torch.float32, torch.float64)
complex_dtypes = (torch.complex64, torch.complex128)
_FLOATS = frozenset(float_dtypes)
_INEXACT = frozenset(float_dtypes + complex_dtypes)

types = frozenset((torch.Tensor,))
float_types = frozenset()   # (a tensor's type says nothing of its dtype)
weak_caches = {}
dtype_key = operator.attrgetter("dtype")


def owns(value):
    """Whether `value` is a torch tensor: the question pycg asks of each
    value it converts, so a tensor torch's autograd records through is
    refused here (`autograd_records`), outside pycg.to_torch's border."""
    if type(value) is torch.Tensor or isinstance(value, torch.Tensor):
        if value.requires_grad:
            _refuse(value)
        return True
    return False


def autograd_records(value):
    """Whether torch's autograd would record an op on `value`: a torch
    tensor that requires grad, while torch's grad mode is on (the test a
    bridge from torch's autograd to pycg's tape makes at its border)."""
    return value.requires_grad and torch.is_grad_enabled()


def _torch_dtype(dtype):
    """The torch dtype of a NumPy dtype (or name, or torch dtype), or a
    TypeError for one torch cannot compute with."""
    if isinstance(dtype, torch.dtype):
        return dtype
    t = _TORCH_DTYPES.get(dtype)
    if t is None:
        t = _TORCH_DTYPES.get(np.dtype(dtype))
    if t is None:
        raise TypeError(f"pycg (torch backend): torch has no dtype "
                        f"{np.dtype(dtype).name}; cast to one it has, or use "
                        f"the numpy backend")
    return t


def dtype_of(x):
    try:
        return _NUMPY_DTYPES[x.dtype]
    except KeyError:   # (a torch tensor passed in: float8, complex32, ...)
        raise TypeError(f"pycg (torch backend): a tensor of torch dtype "
                        f"{str(x.dtype).replace('torch.', '')} has no NumPy "
                        f"dtype; cast it to one pycg has (float32, bfloat16, "
                        f"int64, complex64, ...)") from None


def _device_now():
    """Where torch puts a new tensor now, its default device, or None for
    the CPU. A default device other than the CPU (set_default_device, or
    `with torch.device(...)`) is a torch function mode on torch's stack:
    with none there, no question to torch.get_default_device() (~3 us)."""
    if not _mode_stack():
        return None
    place = torch.get_default_device()
    return None if place.type == "cpu" else place


def _allocating(kernel):
    """kernel, its allocation failures a MemoryError (torch's CPU allocator
    raises a bare RuntimeError "... can't allocate memory ...")."""
    def run(*args):
        try:
            return kernel(*args)
        except RuntimeError as e:
            if "allocate memory" not in str(e) and \
                    "not enough memory" not in str(e):
                raise
            raise MemoryError(str(e)) from None
    run.__name__ = kernel.__name__
    run.__doc__ = kernel.__doc__
    return run


# ---- conversion ---------------------------------------------------------
def _from_numpy(a, place=None):
    """A NumPy array as a tensor (shared with `a` where torch can, as the
    numpy backend shares it), on `place` or the default device."""
    if not a.dtype.isnative:
        a = a.astype(a.dtype.newbyteorder("="))
    dt = _torch_dtype(a.dtype)
    if not a.flags.writeable or any(s < 0 for s in a.strides):
        a = a.copy()   # (torch shares only writable, forward strides)
    if dt is torch.bfloat16:
        t = torch.from_numpy(a.view(np.int16)).view(torch.bfloat16)
        return t.to(place or _device_now() or _CPU)
    return torch.as_tensor(a, device=place)


def convert(value, dtype=None):
    if owns(value):
        return value if dtype is None else cast(value, dtype)
    return _from_numpy(np.asarray(value, dtype=dtype))


def own(value):
    """A user's array or tensor as a tensor that shares no memory with it
    (its owner may write to it later)."""
    if owns(value):
        return value.clone()
    return _from_numpy(np.array(value))


def cast(x, dtype):
    dt = _torch_dtype(dtype)
    return x if x.dtype is dt else x.to(dt)


def to_numpy(x):
    """A NumPy copy of x (torch shares a CPU tensor's memory)."""
    t = x.detach().resolve_conj().resolve_neg()
    if t.dtype is torch.bfloat16:
        return t.view(torch.int16).cpu().numpy().copy().view(_BFLOAT16)
    if t.device.type != "cpu":
        return t.cpu().numpy()
    return t.numpy().copy()


def stop_gradient(x):
    return x


# ---- Python numbers as scalars ----------------------------------------------
_scalars = {}


def _cached(number, dt, place):
    """`number` as a 0-d tensor of torch dtype dt on `place` (None: the
    CPU), rounded as NumPy rounds it (an int that does not fit is NumPy's
    OverflowError)."""
    key = (number, type(number), dt, place) if number else \
        (repr(number), dt, place)
    c = _scalars.get(key)
    if c is None:
        n = _NUMPY_DTYPES[dt]
        c = _from_numpy(np.asarray(n.type(number), dtype=n), place or _CPU)
        if len(_scalars) > 4096:
            _scalars.clear()
        _scalars[key] = c
    return c


_CPU = torch.device("cpu")
_mode_stack = torch._C._len_torch_function_stack


def scalar(value, dtype):
    return _cached(value, _torch_dtype(dtype), _device_now())


def _place(x):
    """x's device where it is not the CPU (the key of cached scalars)."""
    return None if x.is_cpu else x.device


def scalar_like(number, x):
    """`number` as a scalar of x's dtype, on x's device (weakly typed)."""
    return _cached(number, x.dtype, _place(x))


# float dtype -> {nonzero Python number: its 0-d CPU tensor}: weak_scalar's
# hot case, two lookups (an int and a float share a key only when equal, and
# then give the same float scalar; zero is never a key: -0.0 == 0; integer
# dtypes are never cached here, where 2 and 2.0 must differ)
_weak = {dt: {} for dt in float_dtypes}


def weak_scalar(number, x):
    """scalar_like(number, x) where a Python int or float `number` needs no
    promotion next to x (this backend's value; an int, or x floating); else
    None (the op promotes)."""
    if type(x) is not torch.Tensor:
        return None
    dt = x.dtype
    cpu = x.is_cpu
    weak = _weak.get(dt)
    if weak is None:
        if dt is torch.bool or type(number) is float:
            return None
    elif cpu and number:
        c = weak.get(number)
        if c is not None:
            return c
    try:
        c = _cached(number, dt, None if cpu else x.device)
    except OverflowError:   # (the op says which number and dtype)
        return None
    if weak is not None and cpu and number:
        if len(weak) > 4096:
            weak.clear()
        weak[number] = c
    return c


def inexact(x):
    """x (a value of this backend) is floating or complex."""
    return x.dtype in _INEXACT


def grad_like(g, x):
    """g can stand as x's gradient as it is: one type, one floating dtype,
    one shape (else the caller checks and converts)."""
    return type(g) is type(x) and g.dtype is x.dtype and \
        g.dtype in _FLOATS and g.shape == x.shape


# ---- variables: storage that assign() replaces ---------------------------
def variable(value):
    """A copy that torch's autograd never records (a tensor that requires
    grad is detached first)."""
    return convert(value).detach().clone()


def read(store):
    return store


def assign(store, value):
    return convert(value).detach().to(store.device, store.dtype, copy=True)


_add = _fallbacks.binary("add", torch.add)   # (unsigned dtypes, devices)
_subtract = _fallbacks.binary("subtract", torch.subtract)


def assign_add(store, delta):
    return _add(store, delta).to(store.dtype)


def assign_sub(store, delta):
    return _subtract(store, delta).to(store.dtype)


def read_and_add(store, delta):
    """(the value before, the store after adding `delta`); the caller holds
    the lock that makes the two one step."""
    return store, assign_add(store, delta)


# ---- host calls: a NumPy function of concrete values ----------------------
def host_call(fn, args, dtype, shape):
    """fn on NumPy copies of args; its result on the first argument's
    device that is not the CPU, else on the default device (a draw's seed
    state lives on the CPU)."""
    place = next((a.device for a in args if owns(a) and not a.is_cpu),
                 None)
    out = fn(*[to_numpy(a) if owns(a) else np.asarray(a) for a in args])
    return _from_numpy(np.asarray(out), place)


def outside_graph():
    """A context where new variables are created eagerly (no graphs here)."""
    return contextlib.nullcontext()


__all__ = _kernels(globals())   # (this file's kernels: see backends.kernels)
