"""pycg.function: trace a pycg function, tapes and custom gradients
included, into one TensorFlow graph (tensorflow backend) or one jax.jit
computation (jax backend, pycg/compile/jax_jit.py).

Tracing runs `f` once per *input signature* (the shapes and dtypes of the
tensor arguments, and the values of the other arguments); later calls with
the same signature run the graph without Python (tensor arguments: without
tf.function's dispatch either, pycg/compile/concrete_calls.py). A new shape, dtype or
non-tensor argument value traces again: `trace_count` says how often that
happened. NumPy arrays and scalars passed in become tensors, so a new
value does not retrace. Python floats, ints, bools, strings and None stay
Python values, as tf.function keeps them: each new value retraces, and a
Python float keeps its weak type inside (float16 x * 0.1 is float16 and
float64 x * 0.1 multiplies by the double 0.1, as eagerly; a float made a
float32 tensor would give float32, or round 0.1). Values are compared by
type and bits: True, 1 and 1.0 are three values, 0.0 and -0.0 two, and a
NaN is one (tf.function alone takes True, 1 and 1.0 for one another).
"""
import functools
import itertools
import threading
import types
import warnings
import weakref
from collections.abc import Callable
from typing import Any

import numpy as np

from pycg import backends
from pycg.tensor import structure
from pycg.compile.state import call_frames, enter_call, leave_call
from pycg.compile.trace_values import Literal, counted, retrace_advice, tracing
from pycg.core.recorder import state
from pycg.custom.signature import with_signature
from pycg.tensor import Tensor, Variable, convert_to_tensor, is_float


_LEARNING = threading.Lock()


def function(f: Callable[..., Any] | None = None, *, jit_compile: bool = False,
             reduce_retracing: bool = False) -> Any:
    """Compile `f` into a TensorFlow graph (tensorflow backend), as
    tf.function, or into one jax.jit computation (jax backend); usable as
    ``@pycg.function`` or ``@pycg.function(...)``.

    Args:
        f: The function of tensors to compile (None: return a decorator
            with the options below).
        jit_compile: Compile the graph with XLA (tf.function's
            jit_compile; the jax backend always compiles with XLA).
        reduce_retracing: Trace once for inputs of any shape where it can
            (tf.function's reduce_retracing; the jax backend traces each
            shape, as jax.jit).

    Returns:
        A callable with f's name and docstring; its ``trace_count`` counts
        the traces.

    Differs:
        Unlike tf.function and jax.jit, the compiled function can be
        differentiated from outside (pycg.grad of it runs f eagerly on the
        tape). On the jax backend, unlike jax.jit, the variables f reads or
        assigns (closed over, passed in, or made by an optimizer on its
        first step) are inputs of the computation, and those assigned are
        written back after each call; a first call that meets variables it
        was not given traces twice (both counted in ``trace_count``), and a
        Variable passed as an argument is part of the signature by identity
        (another Variable retraces, where tf.function would not). A
        Python float argument is a constant of the trace on both backends,
        as in tf.function (jax.jit would trace it as a weakly typed array):
        it keeps its weak type, and each new value traces again.

    A method may be decorated too; each instance traces on its own.

    Example:
    >>> import pycg
    >>> from pycg import ops
    >>> @pycg.function
    ... def slope(x):
    ...     return pycg.grad(lambda v: ops.sum(v ** 3))(x)
    >>> slope(pycg.constant([1.0, 2.0])).numpy().tolist()
    [3.0, 12.0]
    >>> slope.trace_count
    1

    On the numpy backend `f` runs eagerly (with a warning, once). So it
    does when called while a GradientTape records or a custom_gradient
    forward runs (``pycg.grad(pycg.function(f))``): the tape then sees f's
    ops, its variables and custom gradients, and every order of derivative
    is right. For speed, compile the whole step, tape included.
    Python control flow on tensor values (``if x > 0``) cannot be traced:
    write it with ``ops.where``, ``ops.cond``, ``ops.while_loop`` (or
    ``fori_loop``, ``scan``, ``map``, ``switch``), which emit TensorFlow's
    or jax.lax's own control flow (docs/backend-jax.md says what
    differentiates on jax). Random draws inside give the same numbers as
    eagerly: a SeedGenerator's state is a variable the call moves on (under
    jit_compile=True a draw inside is a clear error: XLA cannot run it).
    A function that applies an optimizer's step runs each call whole under
    that optimizer's lock (a step is atomic: Optimizer.apply), taking turns
    with the optimizer's other steps, compiled or eager. As tf.function, it
    warns when 5 of its last 10 or so calls traced (each trace keeps its
    compiled code: about 1.5 MB on the jax backend, as jax.jit's).
    """
    if f is None:
        return functools.partial(function, jit_compile=jit_compile,
                                 reduce_retracing=reduce_retracing)
    return Function(f, jit_compile, reduce_retracing)


class Function:
    def __init__(self, f, jit_compile, reduce_retracing):
        functools.update_wrapper(self, f)
        self._f = f
        self.jit_compile = jit_compile
        self._reduce_retracing = reduce_retracing
        self._graphs = {}   # number of arguments (None: keywords) -> graph
        self._calls = {}    # number of arguments -> its graph's SignatureCalls
        self._warned = False
        self._floats = set()   # the float values traces took (see below)
        self._variables = weakref.WeakValueDictionary()
        self.trace_count = 0
        self._jax = None   # the jax.jit functions (pycg/compile/jax_jit.py)
        self._moves = 0   # tensorflow's moves() when the graphs were made
        self._locks = ()   # the step locks its calls hold (pycg/compile/state.py)
        self._first = threading.RLock()   # (held by calls until one ends)
        self._called = False   # a call has ended (its locks learned)
        # calls counted, the calls that traced lately, the warnings given:
        # the retracing warning's (pycg/compile/trace_values.py)
        self._call_count, self._traced_at = itertools.count(1), []
        self._retrace_warned, self._advised = 0, False

    def __call__(self, *args, **kwargs):
        name = backends.active.name
        if name in ("numpy", "torch"):   # (torch: eager, see backend-torch.md)
            if not self._warned:
                warnings.warn(
                    f"pycg.function({self.__name__}): the "
                    f"{backends.active.name} backend has no graphs; "
                    f"{self.__name__} runs eagerly", stacklevel=2)
                self._warned = True
            return self._f(*args, **kwargs)
        if state().active:   # a tape must see f's ops (see the docstring)
            return self._f(*args, **kwargs)
        traces = self.trace_count
        if name == "jax":
            out = (self._jax or self._compiled())(args, kwargs)
        elif self._called:   # (the steps of its traces are known)
            out = self._stepping_call(args, kwargs)
        else:   # first calls one at a time: a trace may take a step's lock
            with self._first:   # (learned, for every later call, at its end)
                out = self._stepping_call(args, kwargs)
                self._called = True
        if self.trace_count == traces or not counted(self):
            next(self._call_count)   # (else counted: a trace of this call)
        return out

    def _compiled(self):
        """The jax.jit functions (one set, whichever threads call first)."""
        with self._first:
            if self._jax is None:
                from pycg.compile.jax_jit import Compiled
                self._jax = Compiled(self)
        return self._jax

    def _stepping_call(self, args, kwargs):
        """The call, holding the step locks of the optimizers it steps
        (pycg/compile/state.py): they are taken before TensorFlow's own locks."""
        locks = self._locks
        frames, depth = call_frames()
        try:
            enter_call(frames, locks)
            return self._graph_call(args, kwargs)
        finally:
            learned = leave_call(frames, depth, locks)
            if learned:
                self._learn(learned)

    def _learn(self, locks):
        """Step locks a call's trace took (_state.leave_call): kept for
        every later call."""
        with _LEARNING:   # (two threads may learn at once)
            self._locks = tuple(sorted(set(self._locks) | set(locks),
                                       key=id))

    def _graph_call(self, args, kwargs):
        if backends.active.moves() != self._moves:   # (a variable the graphs
            self._graphs, self._calls = {}, {}   # captured has a new store)
            self._moves = backends.active.moves()
        if not kwargs:   # one graph function per number of arguments
            calls = self._calls.get(len(args))
            if calls is None:
                self._graph_for(len(args))
                calls = self._calls[len(args)]
            if all(type(a) is Tensor for a in args):   # the common call
                out = calls([a._value for a in args])
            else:   # (NumPy arrays become tensors, Python values Literals)
                out = calls(self._graph_inputs(args, {})[0])
        else:
            graph = self._graphs.get(None) or self._graph_for(None)
            graph_args, graph_kwargs = self._graph_inputs(args, kwargs)
            out = graph(*graph_args, **graph_kwargs)
        eager = backends.active.types   # (the tensorflow backend's)
        if type(out) in eager:
            return Tensor(out)
        if (type(out) is list or type(out) is tuple) and \
                all(type(o) in eager for o in out):
            return type(out)(Tensor(o) for o in out)   # a flat list
        return structure.unflatten(out, [_from_graph_output(o) for o in
                                         structure.flatten(out)])

    def __get__(self, instance, owner=None):
        """A method (``@pycg.function`` in a class body, as tf.function and
        jax.jit allow): bound to its instance, which the traces see as a
        non-tensor argument (each instance traces on its own)."""
        return self if instance is None else types.MethodType(self, instance)

    def _graph_for(self, n):
        """The tf.function for calls with n positional arguments (with a
        signature of n named parameters: TensorFlow binds an (*args) one
        ~10 us slower a call), or for any call with keywords (n None)."""
        import tensorflow as tf

        from pycg.compile.concrete_calls import SignatureCalls
        with self._first:   # (one graph, whichever threads ask at once)
            graph = self._graphs.get(n)
            if graph is not None:
                return graph
            fn = self._traced if n is None else with_signature(
                self._traced, [(f"arg{i}", "positional") for i in range(n)])
            graph = tf.function(fn, jit_compile=self.jit_compile,
                                autograph=False,
                                reduce_retracing=self._reduce_retracing)
            # (pycg warns itself; TensorFlow's would count every
            # pycg.function as one, Function._traced, and name that)
            graph._omit_frequent_tracing_warning = True
            if n is not None:
                self._calls[n] = SignatureCalls(graph)
            self._graphs[n] = graph
        return graph

    def _graph_inputs(self, args, kwargs):
        leaves = structure.flatten((args, kwargs))
        for a in leaves:
            if isinstance(a, Variable):  # its tf.Variable goes into the graph
                self._variables[id(a._store)] = a
        args, kwargs = structure.unflatten(
            (list(args), kwargs), [_to_graph_input(a) for a in leaves])
        return args, kwargs

    def _traced(self, *args, **kwargs):
        tracing(self)
        args, kwargs = structure.unflatten(
            (args, kwargs), [self._wrap(a) for a in structure.flatten(
                (args, kwargs))])
        out = self._f(*args, **kwargs)
        return structure.unflatten(out, [o._value if isinstance(o, Tensor)
                                         else o for o in
                                         structure.flatten(out)])

    def __repr__(self):
        return f"<pycg.function {self.__name__} traces={self.trace_count}>"


    def _wrap(self, a):
        import tensorflow as tf
        if isinstance(a, tf.Variable):
            v = self._variables.get(id(a))
            return Variable._view(a, v.trainable if v is not None else True,
                                  v.name if v is not None else None)
        if type(a) is Literal:
            retrace_advice(self, a.value)
            return a.value
        return Tensor(a) if isinstance(a, tf.Tensor) else a


def _to_graph_input(a):
    if type(a) in (bool, float, complex):
        return Literal(a)
    if isinstance(a, Variable):
        a._value  # noqa: B018  (moves its storage to the active backend)
        return a._store
    if isinstance(a, Tensor):
        return convert_to_tensor(a)._value
    if isinstance(a, (np.ndarray, np.generic)) and (
            a.dtype.kind in "iu" or is_float(a.dtype)):
        return convert_to_tensor(a)._value
    return a


def _from_graph_output(o):
    import tensorflow as tf
    return Tensor(o) if isinstance(o, tf.Tensor) else o
