"""Shapes with dimensions unknown while TensorFlow traces.

A tf.function with input_signature [None, k], or Keras calling a layer on a
symbolic batch, gives tensors whose static shape has None entries. The ops
below stand a dynamic size (a backend scalar read from the value) in for
each None, so reshape, broadcast_to and the gradient rules that rebuild a
shape work on such tensors; where the shape is known nothing changes.
"""
import numpy as np

from pycg import backends
from pycg._errors import Axis, Op, Position, Shape, user_error
from pycg.ops._machinery.dispatch import apply, cast
from pycg.tensor import Tensor


def known(shape):
    return None not in tuple(shape)


def shape_of(x):
    """x.shape, with a backend scalar for each dimension unknown statically:
    a shape reshape and broadcast_to accept."""
    shape = x.shape
    if known(shape):
        return shape
    return [n if n is not None else backends.active.dynamic_dim(x._value, i)
            for i, n in enumerate(shape)]


_STATIC = (int, float, np.number, str, bytes)


def is_static(shape):
    """False when `shape` is a list or tuple with a size unknown statically
    (None, or a scalar read from a value while TensorFlow traces); anything
    else is static, and the op checks it (pycg.ops._machinery.arguments)."""
    if not isinstance(shape, (list, tuple)):
        return True
    return all(isinstance(n, _STATIC) or n is not None and
               not hasattr(n, "dtype") for n in shape)


def size_of(x, axes):
    """The number of elements over `axes` (None: all) as a Python int, or a
    scalar tensor of x's dtype when one of those dimensions is unknown."""
    shape = shape_of(x)
    dims = [shape[a] for a in (range(x.ndim) if axes is None else axes)]
    if all(isinstance(n, int) for n in dims):
        n = 1
        for d in dims:
            n *= d
        return n
    n = Tensor(dims[0]) if not isinstance(dims[0], int) else dims[0]
    for d in dims[1:]:
        n = n * (Tensor(d) if not isinstance(d, int) else d)
    return cast(n, x.dtype)


def unknown_error(op, x, why=""):
    """The error of an op that needs every dimension of x known."""
    return user_error(ValueError, "{op}: needs every dimension of its input "
                      "known when TensorFlow traces, got shape {shape} (None: "
                      "unknown); give the input a full shape (a tf.function "
                      "input_signature without None, in Keras batches of one "
                      "size with drop_remainder=True){why}", op=Op(op),
                      shape=Shape(x.shape), why=why)


def broadcast(x, shape):
    return apply("broadcast_to", backends.active.broadcast_to, (x,),
                 {"shape": list(shape)})


def slice_axis(x, axis, start, size):
    """x[..., start:start + size, ...] on `axis`; start and size may be
    dynamic (its gradient pads back, the pad's gradient slices)."""
    return apply("_slice_axis", backends.active.slice_axis, (x,),
                 {"axis": axis, "start": start, "size": size})


def pad_axis(x, axis, before, after):
    return apply("_pad_axis", backends.active.pad_axis, (x,),
                 {"axis": axis, "before": before, "after": after})


def sum_to(g, x):
    """g summed down to x's shape, over the axes on which x was broadcast;
    with unknown dimensions, decided when the graph runs."""
    return apply("_sum_to", backends.active.sum_to, (g,),
                 {"shape": shape_of(x)})


_INDEX = ("; with unknown dimensions, index with ints, ':', None, ... and "
          "slices of step 1 on the known dimensions only")


def getitem(x, index):
    """x[index] for basic indices (ints, slices of step 1, None, Ellipsis)
    when some dimension of x is unknown: slices on the known axes (ints and
    ``:`` on the unknown ones), then one reshape. Anything else needs every
    dimension known (a static gather) and says so."""
    parts = list(index) if isinstance(index, tuple) else [index]
    basic = (int, np.integer, slice, type(None), type(Ellipsis))
    if not all(isinstance(p, basic) and not isinstance(p, bool)
               for p in parts) or parts.count(Ellipsis) > 1:
        raise unknown_error("getitem", x, _INDEX)
    if Ellipsis in parts:
        at = parts.index(Ellipsis)
        fill = x.ndim - (len(parts) - 1 - parts.count(None))
        parts[at:at + 1] = [slice(None)] * fill
    parts += [slice(None)] * (x.ndim - len(parts) + parts.count(None))
    shape, out, axis = shape_of(x), [], 0
    for p in parts:
        if p is None:
            out.append(1)
            continue
        n = x.shape[axis]
        if isinstance(p, slice) and p == slice(None):
            out.append(shape[axis])
        elif n is None or isinstance(p, slice) and p.step not in (None, 1):
            raise unknown_error("getitem", x, _INDEX)
        elif isinstance(p, slice):
            start, stop, _ = p.indices(n)
            x = slice_axis(x, axis, start, max(stop - start, 0))
            out.append(max(stop - start, 0))
        else:
            if not -n <= p < n:
                raise user_error(IndexError, "{op}: index {p} is out of "
                                 "bounds for axis {axis} of size {n}",
                                 op=Op("getitem"), p=Position(int(p)),
                                 axis=Axis(axis), n=n)
            x = slice_axis(x, axis, int(p) % n, 1)
        axis += 1
    return apply("reshape", backends.active.reshape, (x,), {"shape": out})
