"""pycg.core.gc_policy: while a tape records, full collections are rarer and their
survivors frozen; everything is restored when recording stops, on every
exit path, and a user's own gc.freeze() or thresholds are left alone."""
import gc
import threading

import pytest

import pycg
from pycg import ops
from pycg.core import gc_policy as core_gc


def _chain(n=50):
    x = pycg.constant(0.5)
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = x
        for _ in range(n):
            y = ops.tanh(y)
        assert gc.get_threshold()[2] >= before[2] * core_gc.RAISE
        gc.collect()               # a full collection while recording
        assert gc.get_freeze_count() > 0
    return tape.gradient(y, x)


before = gc.get_threshold()


def test_threshold_and_freeze_are_restored_after_the_tape():
    assert _chain() is not None
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0
    assert gc.isenabled()


def test_restored_when_the_with_block_raises():
    x = pycg.constant(0.5)
    with pytest.raises(ZeroDivisionError):
        with pycg.GradientTape() as tape:
            tape.watch(x)
            gc.collect()
            raise ZeroDivisionError
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_a_users_own_freeze_is_left_alone():
    # pycg freezes nothing more (frozen objects may die: the count may
    # fall, as a state replaced on entering the tape) and unfreezes nothing
    keep = [[]]   # (a list: tracked by the GC, frozen below)
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        x = pycg.constant(0.5)
        with pycg.GradientTape() as tape:
            tape.watch(x)
            gc.collect()
            assert gc.get_freeze_count() <= frozen   # pycg froze nothing
            assert not any(o is keep[0] for o in gc.get_objects())
        assert gc.get_freeze_count() <= frozen
        assert not any(o is keep[0] for o in gc.get_objects())
    finally:
        gc.unfreeze()
    del keep


def test_a_threshold_the_user_sets_while_recording_is_kept():
    x = pycg.constant(0.5)
    try:
        with pycg.GradientTape() as tape:
            tape.watch(x)
            gc.set_threshold(500, 5, 5)
        assert gc.get_threshold() == (500, 5, 5)
    finally:
        gc.set_threshold(*before)


def test_threads_recording_at_once_restore_once_all_stop():
    inside, release = threading.Barrier(3), threading.Event()

    def record():
        x = pycg.constant(0.5)
        with pycg.GradientTape() as tape:
            tape.watch(x)
            ops.tanh(x)
            inside.wait()
            release.wait()

    threads = [threading.Thread(target=record) for _ in range(2)]
    for t in threads:
        t.start()
    inside.wait()
    assert gc.get_threshold()[2] >= before[2] * core_gc.RAISE
    release.set()
    for t in threads:
        t.join()
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def _tapes_in_a_generator():
    x = pycg.constant(0.5)
    with pycg.GradientTape() as tape:
        tape.watch(x)
        yield ops.tanh(x)


def test_a_tape_closed_in_another_thread_or_left_in_a_dead_one_frees_the_gc():
    # a generator's tape entered in a worker thread and closed from this one
    gen = _tapes_in_a_generator()
    worker = threading.Thread(target=next, args=(gen,))
    worker.start()
    worker.join()
    gc.collect()
    gen.close()   # (its tape exits here, in another thread than entered it)
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0
    # a tape entered in a thread that ends without closing it
    left = []

    def enter_and_end():
        tape = pycg.GradientTape()
        tape.__enter__()
        left.append(tape)

    worker = threading.Thread(target=enter_and_end)
    worker.start()
    worker.join()
    assert gc.get_threshold()[2] >= before[2] * core_gc.RAISE  # (not yet seen)
    blob = [[i] for i in range(1000)]
    blob.append(blob)
    del blob
    gc.collect()   # (the collection sees the thread ended)
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0
    assert not core_gc.recording()
