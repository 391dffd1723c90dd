"""Peak memory of one gradient of the 20-op chain on 1,000,000 float32
elements, for one implementation in a process of its own.

    python -m bench.memory pycg_tf|pycg_numpy|tf_eager

prints the peak resident memory added by the call, in MiB: the kernel's
high-water mark (VmHWM) is reset after setup through /proc/self/clear_refs,
so imports and the input do not count, and RSS covers TensorFlow's C++
allocations, which tracemalloc cannot see.
"""
import os
import subprocess
import sys

N_OPS, SIZE = 20, 1_000_000
KEYS = ("pycg_tf", "pycg_numpy", "tf_eager")


def _status_kib(field):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"no {field} in /proc/self/status")


def _run(key):
    if key == "pycg_numpy":
        os.environ["PYCG_BACKEND"] = "numpy"
    from bench import chain
    make = dict((k, m) for k, _, m, _ in chain.implementations())[key]
    step = make(chain.input_of(SIZE), chain.pattern(N_OPS, "mixed"))
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")   # reset VmHWM to the current RSS
    before = _status_kib("VmRSS")
    grad = step()
    peak = _status_kib("VmHWM")
    del grad
    print(f"{(peak - before) / 1024:.1f}")


def peak_mib(key, root):
    """Run one measurement in a fresh process; MiB, or None on failure."""
    env = dict(os.environ, PYTHONPATH=root, PYCG_BENCH_NO_PEERS="1")
    proc = subprocess.run([sys.executable, "-m", "bench.memory", key],
                          cwd=root, env=env, capture_output=True, text=True,
                          timeout=300)
    try:
        return float(proc.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        sys.stderr.write(f"bench.memory {key} failed:\n{proc.stderr[-2000:]}")
        return None


if __name__ == "__main__":
    _run(sys.argv[1])
