"""What records and what checks is per thread and per context: a tape
started in one thread, asyncio task or copied context (asyncio.to_thread,
contextvars.copy_context().run, a ThreadPoolExecutor job) records only what
runs there, and so does pycg.debug.check_numerics(). A context copied from
another starts with what was on there when it was copied, as any context
variable (a task gathered inside a tape records on it); what it starts or
stops stays its own."""
import asyncio
import concurrent.futures
import contextvars
import threading

import numpy as np
import pytest

import pycg
from pycg import ops


@pytest.fixture(autouse=True)
def state_made_here():
    # The bug needs this context to have made its recording state (any
    # tape did): the contexts copied from it then shared that one object.
    with pycg.GradientTape():
        pass


def watched(tape):
    return sorted(v.name for v in tape.watched_variables())


def reads(v):
    return ops.sum(v * 2.0)


# ---- tapes -------------------------------------------------------------------
def test_overlapping_asyncio_tasks_each_record_their_own_variables(backend):
    # Before: each task's tape listed both tasks' variables.
    async def task(name, turns):
        v = pycg.Variable([1.0], name=name)
        with pycg.GradientTape() as tape:
            for _ in range(turns):
                reads(v)
                await asyncio.sleep(0)
        return watched(tape)

    async def main():
        return await asyncio.gather(task("a", 3), task("b", 3))
    assert asyncio.run(main()) == [["a"], ["b"]]


def test_to_thread_workers_each_record_their_own_variables(backend):
    start = threading.Barrier(2)

    def work(name):
        v = pycg.Variable([1.0], name=name)
        with pycg.GradientTape() as tape:
            start.wait()
            reads(v)
            start.wait()
        return watched(tape)

    async def main():
        return await asyncio.gather(asyncio.to_thread(work, "a"),
                                    asyncio.to_thread(work, "b"))
    assert asyncio.run(main()) == [["a"], ["b"]]


def test_a_tape_left_open_in_a_copied_context_stays_there(backend):
    ctx, tape = contextvars.copy_context(), pycg.GradientTape()
    ctx.run(tape.__enter__)
    try:
        reads(pycg.Variable([1.0], name="outside"))
        ctx.run(reads, pycg.Variable([1.0], name="inside"))
    finally:
        ctx.run(tape.__exit__, None, None, None)
    assert watched(tape) == ["inside"]
    with pycg.GradientTape() as mine:
        reads(pycg.Variable([1.0], name="after"))
    assert watched(mine) == ["after"]


def test_executor_jobs_in_copied_contexts_record_their_own(backend):
    start = threading.Barrier(4)

    def work(i):
        v = pycg.Variable([float(i)], name=f"v{i}")
        with pycg.GradientTape() as tape:
            start.wait()
            reads(v)
            start.wait()
        return watched(tape)
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        jobs = [pool.submit(contextvars.copy_context().run, work, i)
                for i in range(4)]
        assert [j.result() for j in jobs] == [[f"v{i}"] for i in range(4)]


def test_a_task_gathered_inside_a_tape_records_on_it(backend):
    # (as any context variable: what a task inherits from its creator)
    async def cube(x):
        await asyncio.sleep(0)
        return x * x * x

    async def main():
        x = pycg.constant(1.5)
        with pycg.GradientTape() as tape:
            tape.watch(x)
            (y,) = await asyncio.gather(cube(x))
        return tape.gradient(y, x)
    assert float(asyncio.run(main())) == pytest.approx(3 * 1.5 ** 2)


def test_a_tape_entered_in_a_task_is_not_seen_by_its_creator(backend):
    entered, tape = asyncio.Event(), pycg.GradientTape()

    async def holder(done):
        with tape:
            entered.set()
            await done.wait()

    async def main():
        done = asyncio.Event()
        job = asyncio.create_task(holder(done))
        await entered.wait()
        reads(pycg.Variable([1.0], name="creator"))
        done.set()
        await job
    asyncio.run(main())
    assert watched(tape) == []


# ---- check_numerics ----------------------------------------------------------
def nan_gradient():
    """The float32 gradient of log(1 + exp(x)) at 100: exp overflows, and
    the gradient is inf / inf, NaN (check_numerics' own example)."""
    x = pycg.constant(100.0)
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = ops.log(1 + ops.exp(x))
    return float(tape.gradient(y, x))


def test_check_numerics_in_one_thread_leaves_the_others_unchecked(backend):
    # Before: the thread that never asked got FloatingPointError.
    inside, done, out = threading.Event(), threading.Event(), []

    def checker():
        with pycg.debug.check_numerics():
            inside.set()
            done.wait()
            try:
                nan_gradient()
            except FloatingPointError:
                out.append("checked")

    t = threading.Thread(target=checker)
    t.start()
    inside.wait()
    try:
        assert np.isnan(nan_gradient())
    finally:
        done.set()
        t.join()
    assert out == ["checked"]


def test_overlapping_check_numerics_in_threads_leave_it_off(backend):
    # A enters, B enters, A leaves, B leaves. Before: B put back A's check,
    # left on for the rest of the process.
    a_in, b_in, a_out = threading.Event(), threading.Event(), threading.Event()

    def a():
        with pycg.debug.check_numerics():
            a_in.set()
            b_in.wait()
        a_out.set()

    def b():
        a_in.wait()
        with pycg.debug.check_numerics():
            b_in.set()
            a_out.wait()

    threads = [threading.Thread(target=a), threading.Thread(target=b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert np.isnan(nan_gradient())


def test_check_numerics_in_one_task_leaves_the_others_unchecked(backend):
    async def checker(entered, done):
        with pycg.debug.check_numerics():
            entered.set()
            await done.wait()
            with pytest.raises(FloatingPointError):
                nan_gradient()

    async def other(entered, done):
        await entered.wait()
        value = nan_gradient()
        done.set()
        return value

    async def main():
        entered, done = asyncio.Event(), asyncio.Event()
        _, value = await asyncio.gather(checker(entered, done),
                                        other(entered, done))
        return value
    assert np.isnan(asyncio.run(main()))
    assert np.isnan(nan_gradient())


def test_a_compiled_gradient_traces_while_another_thread_checks(tf_backend):
    # Before: the trace in the thread that never asked was check_numerics'
    # TypeError (a traced gradient has no values to check).
    inside, done = threading.Event(), threading.Event()

    def checker():
        with pycg.debug.check_numerics():
            inside.set()
            done.wait()

    t = threading.Thread(target=checker)
    t.start()
    inside.wait()
    try:
        slope = pycg.function(pycg.grad(lambda x: ops.sum(x ** 3)))
        out = slope(pycg.constant([1.0, 2.0]))
    finally:
        done.set()
        t.join()
    assert out.numpy().tolist() == [3.0, 12.0]


def test_a_forward_in_one_thread_leaves_another_threads_tape_recording(
        backend):
    # A custom_gradient forward pauses a lone tape for its own thread
    # only: a thread in a context copied while the tape recorded (here
    # asyncio.to_thread) keeps recording on it, and the variable it reads
    # is not taken for one the forward read. Before, the forward paused
    # the tape for both threads: the worker's product was not recorded
    # (gradient None) and v counted as read by the forward.
    x, v = pycg.constant(2.0), pycg.Variable(3.0, name="v")
    inside, done = threading.Event(), threading.Event()

    @pycg.custom_gradient
    def square(a):
        inside.set()
        assert done.wait(10)
        return a * a, lambda g: g * 2.0 * a

    def worker():
        assert inside.wait(10)
        y = x * v
        done.set()
        return y

    async def main():
        with pycg.GradientTape(persistent=True) as tape:
            tape.watch(x)
            job = asyncio.ensure_future(asyncio.to_thread(worker))
            await asyncio.sleep(0.05)   # (the worker's thread started)
            z = square(x)
            y = await job
        return tape.gradient(y, x), tape.gradient(z, x)
    gy, gz = asyncio.run(main())
    assert (float(gy), float(gz)) == (3.0, 4.0)
