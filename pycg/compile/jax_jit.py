"""pycg.function on the jax backend: f traced once per signature by
jax.jit, its variables as functional state. The variables a trace reads or
assigns are inputs of the compiled function:
their arrays go in at each call, and the new arrays of those assigned come
back out and are written into them (a variable's storage is a box,
backends/jax/core.py). A trace that meets a variable it was not given (one
f closes over, or one an optimizer makes on its first step) finds it by
its box, puts every box back as it was, and f is traced again with it as
an input: the first call of such a function traces twice. Calls with
variables, and traces (every call until one found no variables), hold one
lock from reading the boxes to writing them back: no update or draw is
lost or repeated across threads (as TF's), and the step locks of the
optimizers it steps (pycg/compile/state.py) within it."""
import functools
import threading

from pycg import backends
from pycg.tensor import structure
from pycg._errors import Api, user_error
from pycg.compile.jax_outputs import (ARRAYS, DYNAMIC, Outputs, outputs,
                               register_static)
from pycg.compile.state import call_frames, enter_call, leave_call
from pycg.compile.trace_values import (Held, retrace_advice, static_key,
                                 static_value, tracing, tree_key)
from pycg.tensor import Tensor, Variable, convert_to_tensor, is_float

_LOCK = threading.RLock()   # (reentrant: a compiled call inside a trace)


class Compiled:
    """The jax.jit functions of one pycg.function."""

    def __init__(self, function):
        self.function = function
        self.stores = []        # the variables' boxes, inputs of every trace
        self._known = set()     # their ids
        self._jitted = {}       # call structure -> jitted function
        self._made = False      # a trace made variables (an optimizer's)
        self._stateless = False   # a call found no variables: no lock
        self._moves = backends.active.moves()
        register_static()

    def __call__(self, args, kwargs):
        if self._moves != backends.active.moves():
            self._forget()
        values = [] if not kwargs else None
        for a in args if not kwargs else ():
            if type(a) is not Tensor:
                values = None
                break
            values.append(a._value)
        if values is not None:
            key, statics = len(args), None
        else:
            key, values, statics = self._signature(args, kwargs)
        entry = self._jitted.get(key)
        if entry is not None and self._stateless:   # (no state: no lock)
            try:
                return _result(entry(values, [])[0])
            except _Retrace:   # (a new shape's trace met a variable)
                pass
        fn = self.function
        with _LOCK:
            locks = fn._locks
            frames, depth = call_frames()
            try:
                enter_call(frames, locks)
                out = self._locked_call(key, args, kwargs, values, statics)
            finally:
                learned = leave_call(frames, depth, locks)
                if learned:
                    fn._learn(learned)
        return _result(out)

    def _locked_call(self, key, args, kwargs, values, statics):
        outer = backends.active.watcher()   # (inside another's trace)
        while True:
            entry = self._jitted.get(key)
            if entry is None:
                entry = self._jitted[key] = self._jit(args, kwargs, statics)
            if outer is not None:
                for s in self.stores:
                    outer.read(s)
            try:
                out, finals = entry(values, [s.value for s in self.stores])
            except _Retrace as e:
                self._found(e.watch)
                continue
            break
        for i, v in finals.items():
            self.stores[i].value = v
        self._stateless = not self.stores
        return out

    def _signature(self, args, kwargs):
        """(key, the arrays jax.jit gets, the leaves f gets otherwise)."""
        leaves = structure.flatten((args, kwargs))
        if backends.active.watcher() is None and any(
                _traced(a) for a in leaves):
            raise user_error(
                TypeError, "{name}: this {api} was called on a JAX tracer "
                "(inside jax.grad, jax.jit or jax.vmap), where JAX would "
                "differentiate its forward, not its rules; convert it with "
                "{to_jax}({name})", name=self.function.__name__,
                api=Api("function"), to_jax=Api("to_jax"))
        values, statics = [], []
        forget = functools.partial(_drop_dead, self._jitted)
        for a in leaves:
            if isinstance(a, Variable):
                a._value  # noqa: B018  (moves its storage to this backend)
                self._know(a._store)
                statics.append(static_key(a, forget))
            elif _is_array(a):
                values.append(convert_to_tensor(a)._value)
                statics.append(DYNAMIC)
            else:
                try:
                    hash(a)
                except TypeError:
                    raise user_error(
                        TypeError, "{api}: an argument of type {kind} is "
                        "neither a tensor nor hashable, so it cannot be part "
                        "of the compiled function's signature; pass tensors, "
                        "numbers, strings or tuples of them",
                        api=Api(f"function({self.function.__name__})"),
                        kind=type(a).__name__) from None
                statics.append(static_key(a, forget))
        if not kwargs and len(values) == len(args) and not any(
                structure.is_nested(a) for a in args):
            return len(args), values, None   # as the call of tensors
        key = (tree_key((args, kwargs)), tuple((type(s), s) for s in statics))
        return key, values, statics

    def _forget(self):
        """A variable that moved to another backend and back has a new box:
        find the boxes again."""
        self.stores, self._known, self._jitted = [], set(), {}
        self._moves, self._made = backends.active.moves(), False
        self._stateless = False

    def _know(self, store):
        if id(store) not in self._known:
            self._known.add(id(store))
            self.stores.append(store)
            self._jitted.clear()   # every trace takes the new input

    def _jit(self, args, kwargs, statics):
        import jax
        fn = self.function
        tree = None if statics is None else structure.unflatten(
            (args, kwargs), [None] * len(statics))   # (no leaf held)
        stores = list(self.stores)

        def traced(values, store_values):
            tracing(fn)
            it = iter(values)
            leaves = [Tensor(next(it)) for _ in values] if statics is None \
                else [Tensor(next(it)) if s is DYNAMIC else static_value(s)
                      for s in statics]
            for s in leaves:   # (a float among them: advice)
                retrace_advice(fn, s)
            call_args, call_kwargs = structure.unflatten(tree, leaves) \
                if statics is not None else (leaves, {})
            watch = _Watch(stores)
            for s, v in zip(stores, store_values):
                s.value = v
            try:
                with backends.active.watching(watch):
                    out = fn._f(*call_args, **call_kwargs)
                finals = [s.value for s in stores]
            finally:
                watch.restore()
            if watch.found:
                raise _Retrace(watch)
            return outputs(out, finals, store_values)

        return jax.jit(traced)

    def _found(self, watch):
        if watch.made and self._made:
            raise user_error(
                ValueError, "{api}: {name} creates a new pycg.Variable each "
                "time it is traced; create its variables outside {name}, or "
                "only on its first call (as tf.function allows)",
                api=Api(f"function({self.function.__name__})"),
                name=self.function.__name__)
        self._made = self._made or bool(watch.made)
        for s in watch.found:
            self._know(s)


class _Retrace(Exception):
    """A trace met variables it was not given (`watch`): trace again with
    them (the caller learns them, under the lock)."""

    def __init__(self, watch):
        super().__init__()
        self.watch = watch


class _Watch:
    """What one trace does to variables' boxes (backends/jax/core.py
    `watching`): the boxes it was not given, the boxes made inside it, and
    each box's array before the trace, put back after it."""

    def __init__(self, stores):
        self.given = {id(s) for s in stores}
        self.before = [(s, s.value) for s in stores]
        self.found, self.made = [], []

    def made_store(self, store):
        if _traced(store.value):
            raise user_error(
                TypeError, "{api}: a pycg.Variable was created inside the "
                "compiled function from a traced value; create it before "
                "the call, or from NumPy values",
                api=Api("function"))
        self.made.append(store)
        self.read(store)

    def read(self, store):
        if id(store) not in self.given:
            self.given.add(id(store))
            self.found.append(store)
            self.before.append((store, store.value))

    updating = read

    def restore(self):
        for s, v in self.before:
            s.value = v


def _result(out):
    """What the jitted function returned, as pycg tensors."""
    if type(out) is Outputs:
        return out.rebuild()
    if out is None or type(out) in ARRAYS:
        return None if out is None else Tensor(out)
    return structure.unflatten(out, [
        None if v is None else Tensor(v) for v in structure.flatten(out)])


def _is_array(a):   # (a Python float is a value of the trace: compile.py)
    if isinstance(a, Tensor):
        return True
    kind = getattr(getattr(a, "dtype", None), "kind", None)
    return kind is not None and hasattr(a, "shape") and (
        kind in "iucb" or is_float(a.dtype))


def _traced(value):
    import jax
    return isinstance(value, jax.core.Tracer)


def _drop_dead(jitted, _ref):
    """Forget the traces of a static argument that died (Held)."""
    for key in list(jitted):
        if type(key) is tuple and any(type(s) is Held and s.ref() is None
                                      for _, s in key[1]):
            jitted.pop(key, None)
