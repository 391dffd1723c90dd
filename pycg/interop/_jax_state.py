"""pycg's state inside pycg.to_jax: the variables `f` reads or changes
without taking them as arguments (a closed-over pycg.Variable, the counter
of a pycg.random.SeedGenerator, the global generator of seed=None draws).

Each run of `f` is watched through the jax backend's `watching` (the hook
pycg.function's trace uses, backends/jax/core.py):

- the forward keeps the value each variable's box held when `f` first
  touched it; those values are residuals of to_jax's tangent rule, and the
  backward runs `f` again on them (the boxes swapped for the while), so it
  sees the forward's draws and reads, whatever ran in between;
- under a JAX trace that stages (jax.jit, a lax loop body; not
  pycg.function's own trace, which threads variables itself) a box is read
  when the compiled code runs and what `f` leaves in it written back then,
  by host callbacks: each call of ``jax.jit(pycg.to_jax(f))`` draws the
  next numbers of the generator's sequence (eager pycg's), reads a
  variable's value at that call and keeps its assignments;
- a JAX tracer never stays in a box: every box is put back as it was after
  a trace and after a backward, and where a non-staging transformation
  (jax.vmap, jax.grad of jax.grad) would leave one there, the boxes are put
  back and the call is an error.
"""
import threading
import weakref

import numpy as np

from pycg import backends
from pycg.core import atomic
from pycg._errors import Api, user_error

# Held while boxes hold another value than their own (a staging trace, a
# backward), so that two threads never swap the same box at once; taken
# before any variable's own lock (never inside one: no lock-order cycle).
LOCK = threading.RLock()


class Retry(Exception):
    """A staging trace of `f` made a variable that outlives it (the global
    generator on its first draw, a variable `f` keeps): run it again, now
    that the variable exists, so that it is read at run time too."""


class Watch:
    """What one run of `f` does to variables' boxes (the jax backend's
    watcher: made_store, read, updating), and the boxes' values before."""

    def __init__(self, jax, outer, replay=None):
        self.jax, self.outer, self.replay = jax, outer, replay
        self.staged = outer is None and replay is None and _stages(jax)
        self.stores, self.initial = [], []   # touched boxes, first values
        self._seen, self._before, self._made = set(), [], []
        self._held = atomic.held_list()   # [LOCK] while held (whole
        if self.staged or replay:          # against Ctrl-C: pycg.core.atomic)
            atomic.take((LOCK,), self._held)

    def made_store(self, store):
        if self.outer is not None:
            self.outer.made_store(store)
        self._seen.add(id(store))
        self._before.append((store, store.value))
        self._made.append(weakref.ref(store))

    def read(self, store):
        if self.outer is not None:
            self.outer.read(store)
        if id(store) in self._seen:
            return
        self._seen.add(id(store))
        self._before.append((store, store.value))
        if self.replay is not None:
            store.value = self.replay.get(id(store), store.value)
        elif self.staged:
            store.value = _read_at_run_time(self.jax, store)
        self.stores.append(store)
        self.initial.append(store.value)

    updating = read

    def settle(self, name):
        """After a forward of `f`: under a staging trace, what `f` left in
        each box is written back at run time; inside pycg.function's trace,
        it is returned, (box, value) pairs for the caller to put back
        outside JAX's custom_jvp trace; either way the boxes are put back
        now. Elsewhere the boxes keep f's values, which must be arrays."""
        changed = [(s, s.value) for s, first in zip(self.stores, self.initial)
                   if s.value is not first]
        if self.outer is not None:
            self.restore()
            return changed
        if self.staged:
            if any(ref() is not None for ref in self._made):
                self.restore()
                raise Retry
            for store, value in changed:
                _write_at_run_time(self.jax, store, value)
            self.restore()
            return []
        if any(_traced(self.jax, s.value) for s, _ in self._before):
            self.restore()
            raise user_error(
                ValueError, "{api}: {name} assigns a value JAX traces "
                "(under jax.vmap, or jax.grad of jax.grad) to a pycg "
                "variable it does not take as an argument, which cannot "
                "hold it there; return the value from {name} and assign it "
                "outside, or pass the variable to {name} as an argument",
                api=Api(f"to_jax({name})"), name=name)
        return []

    def restore(self):
        """Every box back to its value before `f` ran."""
        try:
            for store, value in reversed(self._before):
                store.value = value
            self._before = []
        finally:
            atomic.release(self._held)


def watch(jax, replay=None):
    """A Watch of one run of `f`, chained to pycg.function's (if any)."""
    return Watch(jax, backends.active.watcher(), replay)


def _stages(jax):
    """Whether JAX stages what runs now into a compiled program (jax.jit,
    a lax loop body): an op on two constants gives a tracer there."""
    return _traced(jax, jax.lax.add(np.int32(0), np.int32(0)))


def _traced(jax, value):
    return isinstance(value, jax.core.Tracer)


def _read_at_run_time(jax, store):
    """The box's value when the compiled code runs (a host callback)."""
    from jax.experimental import io_callback

    def read():
        return np.asarray(store.value)
    return io_callback(read, jax.ShapeDtypeStruct(store.shape, store.dtype),
                       ordered=False)


def _write_at_run_time(jax, store, value):
    """Put `value` in the box when the compiled code runs."""
    from jax.experimental import io_callback

    def write(v):   # (through NumPy: not committed to the callback's device)
        store.value = jax.numpy.asarray(np.asarray(v))
        return np.zeros((), np.int32)
    io_callback(write, jax.ShapeDtypeStruct((), np.int32), value,
                ordered=False)
