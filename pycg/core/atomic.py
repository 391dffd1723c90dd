"""Changes of thread and process state that a Ctrl-C cannot leave half
made.

Python raises KeyboardInterrupt (and any asynchronous exception) between
two bytecodes of the main thread, so a step of several bytecodes can be
cut anywhere. pycg's steps are made whole in two ways:

- `whole(step, *args)`: the step is idempotent (running it again does
  nothing more); cut short, it is run again to its end, then the exception
  goes on. An end (a tape popped, a state put back) uses it; a beginning
  is undone instead, by its own `except BaseException` (pycg.core.recorder);
- `take(locks, held)` and `release(held)`: a lock is listed in `held` the
  moment it is taken and leaves it the moment it is released, each in one
  C loop (filter and map over the locks run no bytecode between taking and
  listing, so no KeyboardInterrupt lands there). A KeyboardInterrupt while
  waiting for the second lock leaves the first listed, for the caller's
  `finally` to release.

tests/test_interrupt_whole.py raises KeyboardInterrupt at every bytecode of
these paths and checks that each leaves the state as before or as after.
"""
import collections
import operator

from pycg.core.sigint import protected

BOTTOM = object()   # a `held` list's first item: held.pop() down to it empties it
_ACQUIRE = operator.methodcaller("acquire")
_RELEASE = operator.methodcaller("release")


@protected


def whole(step, *args):
    """step(*args), an idempotent end: cut short, it is run to its end."""
    try:
        return step(*args)
    except BaseException:
        step(*args)
        raise


class WholeExit:
    """A context manager whose exit is its `_leave`, an idempotent end run
    whole (a Ctrl-C waits for it, and cut short it is run to its end);
    the exit lets any exception go on. A subclass declares its own
    __slots__."""

    __slots__ = ()

    @protected
    def __exit__(self, *exc):
        whole(self._leave)
        return False

    def _leave(self):
        raise NotImplementedError


def held_list():
    """A new list of locks held (for `take` and `release`)."""
    return [BOTTOM]


def take(locks, held):
    """Acquire each of `locks` in order, listing each in `held` (from
    held_list) as it is taken."""
    held.extend(filter(_ACQUIRE, locks))


@protected


def release(held):
    """Release every lock listed in `held`, last first, unlisting each as
    it is released; again is nothing."""
    if len(held) > 1:
        collections.deque(map(_RELEASE, iter(held.pop, BOTTOM)), 0)
    elif held:
        held.pop()


@protected


def hand_over(held, to):
    """Move the locks listed in `held` to the list `to` (one C step)."""
    if len(held) > 1:
        to.extend(iter(held.pop, BOTTOM))
