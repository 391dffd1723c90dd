"""pycg.to_jax's tangent rule: the tangents of f's outputs as a linear map
with its own transpose (_jax_linear_call), so that JAX's forward mode
(jax.jvp, jax.linearize, jax.jacfwd) gets J @ t from pycg's forward mode
(pycg.jvp: a rule's VJP transposed, _bridge.jvp), and JAX's reverse mode
(jax.grad, jax.vjp), which transposes that map, gets pycg's VJP with the
user's rule exactly as it stands (_bridge.vjp), a rule that is not linear
in its upstream gradient included (the README's clipping rule).

Both maps run f again, from the call's inputs and the first values of the
variables f touched (the residuals: _jax_state replays them), on pycg's
jax backend, so JAX differentiates them in turn: second derivatives
(jax.hessian = jacfwd of jacrev, jacfwd of grad, grad of grad) follow the
rule's own derivative."""
import numpy as np

from pycg import backends
from pycg.api.tape import GradientTape
from pycg.interop import _bridge
from pycg.interop import _jax_state as _state
from pycg.interop._jax_linear_call import linear
from pycg.tensor import Tensor, is_differentiable, is_float


def tangents(call, xs, ts, outs, initial):
    """The tangents of f's outputs `outs` (its output leaves) for the
    tangents `ts` of the call's inputs `xs`; `initial`: the first values of
    the variables f touched."""
    jax = call.jax
    moving = [i for i, (x, t) in enumerate(zip(xs, ts))
              if floating(x) and not _float0(t, jax)]
    floats = [i for i, o in enumerate(outs) if floating(o)]
    touts = [zero_tangent(o, jax) for o in outs]
    if not moving or not floats:
        return touts
    maps = _Maps(call, len(xs), moving, floats)
    res = [jax.numpy.asarray(x) for x in xs] + list(initial)
    lin = [_as_dtype(ts[i], xs[i], jax) for i in moving]
    shapes = [(jax.numpy.shape(outs[i]), jax.numpy.result_type(outs[i]))
              for i in floats]
    for i, t in zip(floats, linear(maps.forward, maps.transpose, res, lin,
                                   shapes)):
        touts[i] = t
    return touts


def _run(call, xs, initial, tape=None):
    watch = _state.watch(call.jax, dict(zip(map(id, call.stores), initial)))
    try:
        return call.run(list(xs), tape, watch)
    finally:
        watch.restore()


class _Maps:
    """The two maps over (residuals..., linear...): `forward` the tangents
    of f's floating outputs from the moving inputs' tangents (pycg.jvp),
    `transpose` the moving inputs' cotangents from the floating outputs'
    (pycg's VJP, the rule itself)."""

    def __init__(self, call, n, moving, floats):
        self.call, self.n, self.moving, self.floats = call, n, moving, floats

    def _split(self, args, n_lin):
        """(the inputs, the variables' first values, the linear part)."""
        n, k = self.n, len(args) - n_lin
        args = [self.call.jax.numpy.asarray(a) for a in args]
        return list(args[:n]), list(args[n:k]), list(args[k:])

    def forward(self, *args):
        xs, initial, lin = self._split(args, len(self.moving))
        call, jax = self.call, self.call.jax
        with backends.using("jax"):
            watch = _state.watch(jax, dict(zip(map(id, call.stores),
                                               initial)))

            def flat(*moved):
                full = list(xs)
                for i, v in zip(self.moving, moved):
                    full[i] = v
                return call.run(full, None, watch)[1]
            try:
                outs, touts = _bridge.jvp(
                    flat, [Tensor(xs[i]) for i in self.moving],
                    [Tensor(t) for t in lin])
            finally:
                watch.restore()
            return [_value_or_zeros(touts[i], outs[i], jax)
                    for i in self.floats]

    def transpose(self, *args):
        xs, initial, cts = self._split(args, len(self.floats))
        call, jax = self.call, self.call.jax
        with backends.using("jax"):
            tape = GradientTape(persistent=True)
            ins, outs = _run(call, xs, initial, tape)
            ups = [Tensor(jax.numpy.zeros(o.shape, o.dtype)) for o in outs]
            for i, c in zip(self.floats, cts):   # (JAX's transpose of a
                # complex map is pycg's VJP, TensorFlow's convention,
                # conjugated on the way in and out)
                ups[i] = Tensor(jax.numpy.conj(jax.numpy.asarray(
                    c, outs[i].dtype)))
            gs = _bridge.vjp(tape, outs, ins, ups)
            return [jax.numpy.conj(_value_or_zeros(gs[i], ins[i], jax))
                    for i in self.moving]


def _value_or_zeros(t, like, jax):
    if t is None:
        return jax.numpy.zeros(like.shape, like.dtype)
    return jax.numpy.asarray(t._value, like.dtype)


def floating(x):
    """Whether a leaf has tangents: a float or complex array or number."""
    return is_differentiable(np.dtype(x.dtype)) if hasattr(x, "dtype") \
        else isinstance(x, (float, complex))


def _float0(t, jax):
    return getattr(t, "dtype", None) == jax.dtypes.float0


def _as_dtype(t, x, jax):
    return jax.numpy.asarray(t, dtype=jax.numpy.asarray(x).dtype)


def zero_tangent(v, jax):
    """The zero tangent of a primal output `v` (float0 where integral)."""
    v = jax.numpy.asarray(v)
    if is_float(v.dtype) or v.dtype.kind == "c":
        return jax.numpy.zeros_like(v)
    return np.zeros(v.shape, jax.dtypes.float0)
