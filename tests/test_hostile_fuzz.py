"""Every public op, every parameter, twelve hostile values (see
tests/support/hostile_arguments.py): at most 1% of the errors raised name neither
pycg nor the op, and none hangs. About 9,700 calls a backend, a second or
two each."""
import signal
import warnings

import pytest

from support.hostile_arguments import calls, named


class _Hung(Exception):
    pass


def _sweep():
    def alarm(*_):
        raise _Hung
    previous = signal.signal(signal.SIGALRM, alarm)
    errors, unnamed, hung = 0, [], []
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for op, param, label, call in calls():
                signal.setitimer(signal.ITIMER_REAL, 10)
                try:
                    call()
                except _Hung:
                    hung.append(f"{op}({param}=<{label}>)")
                except Exception as e:
                    errors += 1
                    if not named(op, e):
                        unnamed.append(f"{op}({param}=<{label}>): "
                                       f"{type(e).__name__}: {e}"[:200])
                finally:
                    signal.setitimer(signal.ITIMER_REAL, 0)
    finally:
        signal.signal(signal.SIGALRM, previous)
    return errors, unnamed, hung


def test_hostile_arguments_get_errors_that_name_pycg_or_the_op(backend):
    errors, unnamed, hung = _sweep()
    assert not hung, f"calls that hung: {hung}"
    assert errors > 5000   # (the sweep ran: most hostile calls must fail)
    assert len(unnamed) <= 0.01 * errors, (
        f"{len(unnamed)} of {errors} errors name neither pycg nor the op:\n"
        + "\n".join(unnamed))


def test_the_sweep_would_see_an_unnamed_error():
    assert not named("sum", TypeError("'float' object is not iterable"))
    assert named("sum", TypeError("pycg.ops.sum: `axis` ..."))


@pytest.mark.parametrize("label", ["str", "bytes", "object array"])
def test_the_sweep_covers_every_public_op(label):
    from pycg import ops
    ops_seen = {op for op, _, lab, _ in calls() if lab == label}
    public = {n for n in ops.__all__ if callable(getattr(ops, n))}
    # (ops without named parameters have nothing to make hostile)
    assert len(public - ops_seen) <= 3, sorted(public - ops_seen)
