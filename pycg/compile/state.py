"""Variables that hold state for optimizers and seed generators, and the
locks that keep an optimizer's steps whole across threads.

The variables are created eagerly even when first needed while a
pycg.function traces, so a compiled step can build its optimizer on its
first call.

An optimizer's step holds the optimizer's lock (Optimizer.apply). Inside a
compiled function that lock would be held only while the function traces,
not while its graph runs; so a step traced inside a pycg.function call
keeps the lock until that call returns (`hold_in_call`), and the function
takes it again around each later call (`call_frames`, `enter_call`,
`leave_call`): the
graph's run is then one step among the eager steps and the other compiled
functions' of that optimizer, as TensorFlow's resource variables keep one
update whole."""
import sys
import threading

import numpy as np

from pycg import backends
from pycg.core import atomic
from pycg.core.sigint import protected
from pycg.tensor.core import _LOCKS, Tensor, Variable


def state_variable(value, dtype, name=None):
    """A non-trainable Variable holding `value` (a NumPy array or number)."""
    with backends.active.outside_graph():
        return Variable(np.asarray(value, dtype=dtype), trainable=False,
                        name=name)


def read_and_add(variable, delta):
    """The value of `variable` before adding `delta` to it, read and added
    as one step, also inside a compiled function that runs on several
    threads at once (a SeedGenerator's state: no two draws share a seed)."""
    variable._value  # noqa: B018  (moves its storage to the active backend)
    K = backends.active
    with _LOCKS[variable._id % len(_LOCKS)]:   # (Variable._update's lock)
        old, variable._store = K.read_and_add(
            variable._store, K.convert(np.asarray(delta, variable.dtype)))
    return Tensor(old)


def counter_dtype():
    """The dtype of counters and seeds: int64, or int32 on the jax backend
    with JAX's 64-bit mode off (JAX's default), where Keras' counters are
    int32 too; the user's JAX config is left as it is."""
    if backends.active.name == "jax" and \
            not sys.modules["jax"].config.jax_enable_x64:
        return np.dtype("int32")
    return np.dtype("int64")


def var_key(variable):
    """A key that names one variable both eagerly and inside a trace (where
    pycg.function hands the function a view over the same tf.Variable)."""
    uid = getattr(variable._store, "_unique_id", None)
    return ("store", uid) if uid is not None else ("id", variable._id)


class _Calls(threading.local):
    def __init__(self):
        self.frames = []   # per compiled call on this thread: locks held


_calls = _Calls()


def call_frames():
    """(this thread's frames, how many there are): read before enter_call,
    so that leave_call knows the call's frame even if entering was cut
    short."""
    frames = _calls.frames
    return frames, len(frames)


def enter_call(frames, known):
    """A compiled function's call begins: take `known`, the step locks its
    traces took (sorted by id: every call takes them in one order), in a
    frame of this thread's `frames` (from call_frames). Call it inside the
    `try` whose `finally` calls leave_call."""
    frame = atomic.held_list()   # (whole against Ctrl-C: pycg.core.atomic)
    frames.append(frame)
    atomic.take(known, frame)


@protected
def leave_call(frames, depth, known):
    """The call ends: release its locks (or hand them to the compiled call
    this one ran inside, which then holds them to its end); returns the
    step locks the function knows now where its trace took new ones, else
    None. Finished even when cut short."""
    if len(frames) <= depth:
        return None   # (entering was cut short before the frame was made)
    taken = tuple(frames[depth][1:])
    atomic.whole(_leave, frames, depth)
    if len(taken) != len(known):
        return tuple(sorted(set(taken), key=id))
    return None


@protected


def _leave(frames, depth):
    if len(frames) > depth:
        if depth:
            atomic.hand_over(frames[depth], frames[depth - 1])
        else:
            atomic.release(frames[depth])
    del frames[depth:]


def hold_in_call(lock):
    """An optimizer step (holding `lock`) runs inside a compiled function's
    call on this thread, maybe tracing it: keep `lock` to the call's end,
    and the function learns it."""
    frames = _calls.frames
    if frames:
        atomic.take((lock,), frames[-1])
