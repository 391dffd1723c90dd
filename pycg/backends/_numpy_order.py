"""NumPy's order of complex numbers, for the backends whose framework has
none or another (jax, torch: their _edges.py): by real part, then
imaginary part; a comparison with NaN is False, NaN wins maximum and
minimum, arg extrema find the first NaN, sorting puts NaN last. The logic
is written once here; a backend makes an Order of the few array
operations whose spelling differs (astype or to, expand_dims or
unsqueeze) and binds each kernel by its name in its _edges.py."""


class Order:
    """The kernels of NumPy's complex order over a backend's arrays. xp: the
    module (where, isnan, amax, any and argmax, with
    NumPy's axis and keepdims); is_complex(x); cast(x, dtype) and its int8
    and int32 dtypes; expand(x, axis) (expand_dims), permute(x, axes)
    (transpose), take(x, index, axis) (take_along_axis); `topics`, the
    backend's numpy.py and math.py, whose kernels of these names answer
    for real operands; refuse_empty: an arg extremum of nothing raises
    ValueError (as NumPy)."""

    NAMES = ("greater", "greater_equal", "less", "less_equal", "maximum",
             "minimum", "argmax", "argmin", "max", "min", "argsort")

    def __init__(self, xp, is_complex, cast, ints, moves, topics,
                 refuse_empty=False):
        self.xp, self.is_complex, self.cast = xp, is_complex, cast
        self.int8, self.int32 = ints
        self.expand, self.permute, self.take = moves
        numpy, math = topics
        (self.real_argmax, self.real_argmin, self.real_max, self.real_min,
         self.real_maximum, self.real_minimum) = (getattr(numpy, k) for k in (
             "argmax", "argmin", "max", "min", "maximum", "minimum"))
        self.real_argsort = math.argsort
        self._numpy = numpy
        self.refuse_empty = refuse_empty

    def kernels(self):
        """The kernels of NAMES, in its order."""
        compare = [self.compare(getattr(self._numpy, k), a_b, or_equal)
                   for k, a_b, or_equal in (
                       ("greater", True, False), ("greater_equal", True, True),
                       ("less", False, False), ("less_equal", False, True))]
        return (*compare, self.maximum, self.minimum, self.argmax,
                self.argmin, self.max, self.min, self.argsort)

    def _complex(self, *xs):
        return any(self.is_complex(x) for x in xs)

    def _after(self, a, b, or_equal):
        """a > b (a >= b) in NumPy's order of complex numbers; NaN: never."""
        ra, ia, rb, ib = a.real, a.imag, b.real, b.imag
        second = ia >= ib if or_equal else ia > ib
        after = (ra > rb) | ((ra == rb) & second)
        return after & ~(self.xp.isnan(a) | self.xp.isnan(b))

    def compare(self, real_kernel, a_b, or_equal):
        """greater (a_b, not or_equal) ... less_equal, of real_kernel's
        answer for real operands."""
        def kernel(x1, x2):
            if not self._complex(x1, x2):
                return real_kernel(x1, x2)
            a, b = (x1, x2) if a_b else (x2, x1)
            return self._after(a, b, or_equal)
        kernel.__name__ = real_kernel.__name__
        return kernel

    def _pick(self, a, b, a_wins):
        """a where a_wins, else b; a NaN wins (NumPy's maximum and minimum)."""
        where, isnan = self.xp.where, self.xp.isnan
        out = where(a_wins, a, b)
        out = where(isnan(b), b, out)
        return where(isnan(a), a, out)

    def maximum(self, x1, x2):
        if not self._complex(x1, x2):
            return self.real_maximum(x1, x2)
        return self._pick(x1, x2, self._after(x1, x2, True))

    def minimum(self, x1, x2):
        if not self._complex(x1, x2):
            return self.real_minimum(x1, x2)
        return self._pick(x1, x2, self._after(x2, x1, True))

    # ---- extrema and sorting ------------------------------------------------
    def _complex_argmax(self, x, axis):
        """The first index of the largest real part, and among those of the
        largest imaginary part; the first NaN where there is one."""
        xp, re, im = self.xp, x.real, x.imag
        top = re == xp.amax(re, axis=axis, keepdims=True)
        best = xp.amax(xp.where(top, im, -float("inf")), axis=axis,
                       keepdims=True)
        out = self._first(top & (im == best), axis)
        nan = xp.isnan(x)
        return xp.where(xp.any(nan, axis=axis), self._first(nan, axis), out)

    def _first(self, mask, axis):
        index = self.xp.argmax(self.cast(mask, self.int8), axis=axis)
        return self.cast(index, self.int32)

    def _arg_extremum(self, x, axis, keepdims):
        if self.refuse_empty and 0 in x.shape:
            raise ValueError("attempt to get argmax of an empty sequence")
        if axis is None:
            out = self._complex_argmax(x.reshape(-1), 0)
            return out.reshape((1,) * x.ndim) if keepdims else out
        out = self._complex_argmax(x, axis)
        return self.expand(out, axis) if keepdims else out

    def argmax(self, x, axis=None, keepdims=False):
        if not self._complex(x):
            return self.real_argmax(x, axis, keepdims)
        return self._arg_extremum(x, axis, keepdims)

    def argmin(self, x, axis=None, keepdims=False):
        if not self._complex(x):
            return self.real_argmin(x, axis, keepdims)
        # (by parts: -x's max; -1 * x would make inf * 0 a NaN)
        return self._arg_extremum(-x, axis, keepdims)

    def _complex_extremum(self, arg, x, axis, keepdims):
        """The element at arg's index over the axes (an int, a tuple or
        None): those axes moved last and merged into one."""
        axes = range(x.ndim) if axis is None else [
            a % x.ndim for a in (axis if isinstance(axis, (tuple, list))
                                 else (axis,))]
        kept = [a for a in range(x.ndim) if a not in axes]
        moved = self.permute(x, kept + list(axes))
        rows = moved.reshape(tuple(moved.shape[:len(kept)]) + (-1,))
        index = self.expand(arg(rows, -1), -1)
        out = self.take(rows, index, -1)[..., 0]
        for a in sorted(axes) if keepdims else ():
            out = self.expand(out, a)
        return out

    def max(self, x, axis=None, keepdims=False):
        if not self._complex(x):
            return self.real_max(x, axis, keepdims)
        return self._complex_extremum(self.argmax, x, axis, keepdims)

    def min(self, x, axis=None, keepdims=False):
        if not self._complex(x):
            return self.real_min(x, axis, keepdims)
        return self._complex_extremum(self.argmin, x, axis, keepdims)

    def argsort(self, x, axis):
        if not self._complex(x):
            return self.real_argsort(x, axis)
        # NumPy's: [R + Rj, R + nanj, nan + Rj, nan + nanj], each by real
        # part, then imaginary part: three stable sorts, the last key first
        re, im = x.real, x.imag
        isnan = self.xp.isnan
        nan_kind = self.cast(isnan(im), self.int8) + \
            2 * self.cast(isnan(re), self.int8)
        order = self.real_argsort(im, axis)
        for key in (re, nan_kind):
            step = self.real_argsort(self.take(key, order, axis), axis)
            order = self.take(order, step, axis)
        return order
