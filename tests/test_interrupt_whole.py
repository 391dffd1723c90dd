"""Every change pycg makes to thread or process state is whole against
Ctrl-C: SIGINT's handler run at any point of pycg's code where Python runs
one (a trace function calls it at the k-th such checkpoint of pycg's
frames and of the standard library's frames pycg calls, contextlib's
`with` steps among them, for k over all of them or an even sample) leaves the recording
state, the variables collected, the GC policy and the locks as before the
gradient or as after it, never between, and the next gradient right. The
class test for pycg.core.sigint and pycg.core.atomic; the random-moment
version with real signals is tests/test_interrupt_soak.py."""
import dis
import gc
import os
import signal
import sys
import threading
import time

import numpy as np
import pytest

import pycg
from pycg import ops
from pycg.compile import state as compile_state
from pycg.core import gc_policy, recorder, sigint, thread_state

PYCG = os.path.dirname(os.path.abspath(pycg.__file__)) + os.sep
STDLIB = os.path.dirname(os.path.abspath(os.__file__)) + os.sep
SAMPLE = int(os.environ.get("PYCG_INTERRUPT_SAMPLE", "150"))
X = np.array([0.3, -1.2, 2.0])


@pycg.custom_gradient
def scaled_square(x):
    def grad(upstream):
        return upstream * 2.0 * x
    return x * x, grad


def tape_with_pause():
    x = pycg.constant(X)
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = ops.sum(ops.sin(x) * x)
        with tape.stop_recording():
            ops.exp(x)
    return tape.gradient(y, x)


def custom_rule_under_grad():
    return pycg.grad(lambda v: ops.sum(scaled_square(ops.sin(v))))(
        pycg.constant(X))


def nested_tapes():
    x = pycg.constant(X)
    with pycg.GradientTape() as outer:
        outer.watch(x)
        with pycg.GradientTape() as inner:
            inner.watch(x)
            y = ops.sum(x ** 3)
        g = inner.gradient(y, x)
    return outer.gradient(g, x)


def forward_mode():
    return pycg.jvp(lambda v: ops.sin(v) * v, (pycg.constant(X),),
                    (pycg.constant(np.ones(3)),))[1]


REFERENCE = {
    tape_with_pause: np.cos(X) * X + np.sin(X),
    custom_rule_under_grad: 2 * np.sin(X) * np.cos(X),
    nested_tapes: 6 * X,
    forward_mode: np.cos(X) * X + np.sin(X),
}


_CHECKPOINTS = {}


def checkpoints(code):
    """(the offsets of `code`'s frame entries and loops' jumps back, of its
    calls): where CPython's main thread runs a pending signal handler, with
    the instruction after a call into C."""
    found = _CHECKPOINTS.get(code)
    if found is None:
        ins = list(dis.get_instructions(code))
        found = _CHECKPOINTS[code] = (
            {i.offset for i in ins if i.opname in ("RESUME", "JUMP_BACKWARD")},
            {i.offset for i in ins if i.opname == "CALL"})
    return found


def run_interrupted_at(k, fn):
    """fn() with SIGINT's handler run, as a signal would run it, at the
    k-th checkpoint reached in pycg's frames (k = 0: never); an interrupt
    it hands back (pycg.core.sigint) lands where Python then is. Returns
    (checkpoints counted, interrupted)."""
    count, entered, calling = [0], [0], {}

    def local(frame, event, arg):
        if event != "opcode":
            return local
        at, calls_at = checkpoints(frame.f_code)
        after = calling.pop(frame, None)
        if frame.f_lasti in at or after == entered[0]:   # (C was called)
            count[0] += 1
            if count[0] == k:
                frame.f_trace_opcodes = False
                handler = signal.getsignal(signal.SIGINT)
                handler(signal.SIGINT, frame)   # (raises, or hands back)
        if frame.f_lasti in calls_at:
            calling[frame] = entered[0]
        return local

    def calls(frame, event, arg):
        entered[0] += 1
        if count[0] < k or not k:
            if _traced(frame):
                frame.f_trace_opcodes = True
                return local
        return None

    try:
        try:
            sys.settrace(calls)
            fn()
        finally:
            sys.settrace(None)
        _settle()   # (one handed back lands where Python is by then)
        return count[0], False
    except KeyboardInterrupt:
        _settle()
        return count[0], True


def _traced(frame):
    """pycg's frames, and the standard library's that pycg's code calls
    (contextlib's __enter__/__exit__ between pycg's own steps)."""
    name = frame.f_code.co_filename
    if name.startswith(PYCG):
        return True
    if not name.startswith(STDLIB) or "site-packages" in name:
        return False
    caller = frame.f_back
    return caller is not None and caller.f_code.co_filename.startswith(PYCG)


def _settle():
    while sigint.pending():
        time.sleep(0.001)
    time.sleep(0.002)


def problems(threshold):
    s = recorder.state()
    found = []
    if s.recorders or s.watching or s.branch is not None or s.active:
        found.append("a tape or watcher left on the thread")
    if thread_state.collecting.stack:
        found.append("variables still collected")
    if gc_policy.recording() or gc.get_threshold() != threshold or \
            gc.get_freeze_count():
        found.append("the GC policy left changed")
    if compile_state._calls.frames:
        found.append("a compiled call's frame left")
    return found


def points(n):
    if n <= SAMPLE:
        return range(1, n + 1)
    return sorted({1 + round(i * (n - 1) / (SAMPLE - 1)) for i in range(SAMPLE)})


@pytest.mark.parametrize("fn", list(REFERENCE), ids=lambda f: f.__name__)
def test_ctrl_c_at_every_bytecode_leaves_state_whole(backend, fn):
    want = REFERENCE[fn]
    np.testing.assert_allclose(fn().numpy(), want, rtol=1e-12)
    threshold = gc.get_threshold()
    n, _ = run_interrupted_at(0, fn)
    assert n > 50   # (the trace sees pycg's code)
    bad, interrupted = [], 0
    for k in points(n):
        _, hit = run_interrupted_at(k, fn)
        interrupted += hit
        left = problems(threshold)
        if left:
            bad.append((k, left))
            recorder.put((), 0, None)   # (clean, to see the next point)
            thread_state.collecting.stack.clear()
            for token in list(gc_policy._open):
                gc_policy.closed(token)
            compile_state._calls.frames.clear()
        np.testing.assert_allclose(fn().numpy(), want, rtol=1e-12)
    assert interrupted > 0
    assert not bad, f"{len(bad)} of {len(points(n))} opcodes (of {n}): " \
                    f"{bad[:5]}"


def two_optimizer_step():
    w1, w2 = pycg.Variable(np.ones(2)), pycg.Variable(np.ones(2))
    opt1, opt2 = pycg.optimizers.SGD(0.1), pycg.optimizers.SGD(0.1)

    @pycg.function
    def step(x):
        with pycg.GradientTape() as tape:
            loss = ops.sum(w1 * x) + ops.sum(w2 * x * x)
        g1, g2 = tape.gradient(loss, [w1, w2])
        opt1.apply([g1], [w1])
        opt2.apply([g2], [w2])
        return loss
    return step, opt1, opt2


def test_ctrl_c_at_every_bytecode_of_a_compiled_step_leaves_no_lock(backend):
    step, opt1, opt2 = two_optimizer_step()
    x = pycg.constant(np.array([1.0, 2.0]))
    step(x)   # (traced: the function knows both step locks)
    threshold = gc.get_threshold()
    n, _ = run_interrupted_at(0, lambda: step(x))
    bad = []
    for k in points(n):
        run_interrupted_at(k, lambda: step(x))
        left = problems(threshold)
        for name, opt in (("first", opt1), ("second", opt2)):
            if not opt._lock.acquire(blocking=False):
                left.append(f"the {name} optimizer's lock left held")
            else:
                opt._lock.release()
        if left:
            bad.append((k, left))
            break
    assert not bad, f"{bad}"


def test_ctrl_c_while_waiting_for_the_second_step_lock_releases_the_first(
        tf_backend):
    step, opt1, opt2 = two_optimizer_step()
    x = pycg.constant(np.array([1.0, 2.0]))
    step(x)
    first, second = sorted((opt1._lock, opt2._lock), key=id)
    taken, done = threading.Event(), threading.Event()

    def hold_second():
        with second:
            taken.set()
            done.wait(10)

    holder = threading.Thread(target=hold_second)
    holder.start()
    taken.wait(5)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    try:
        timer.start()
        start = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            step(x)
        assert time.monotonic() - start < 5
    finally:
        timer.cancel()
        done.set()
        holder.join()
        signal.signal(signal.SIGINT, previous)
    assert first.acquire(blocking=False), "the first step lock was leaked"
    first.release()
    assert not compile_state._calls.frames
    step(x)   # (and the next step runs: no lock is left held)


def test_no_generator_context_manager_pauses_or_resumes_a_tape():
    """A Ctrl-C inside contextlib's own frames (its __enter__ after the
    generator's first step, its __exit__ before the next) leaves the
    generator suspended, and its `finally` runs when it is collected:
    after the enclosing tape's exit, putting back a tape already popped.
    So pycg's steps on the recorder stack are protected methods of a
    class (GradientTape, tape.stop_recording's _Paused), never a
    @contextlib.contextmanager's body."""
    import ast
    import pathlib
    steps = {"push", "pop", "resume", "put"}
    found = []
    for path in pathlib.Path(PYCG).rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            if not any("contextmanager" in ast.unparse(d)
                       for d in fn.decorator_list):
                continue
            for node in ast.walk(fn):
                if isinstance(node, ast.Call) and isinstance(
                        node.func, ast.Attribute) and \
                        node.func.attr in steps and ast.unparse(
                        node.func.value) in ("core", "recorder"):
                    found.append(f"{path.relative_to(PYCG)}:{node.lineno} "
                                 f"{fn.name}: {ast.unparse(node.func)}")
    assert found == []
