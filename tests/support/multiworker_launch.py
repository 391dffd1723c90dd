"""Starts the workers of tests/support/multiworker_worker.py on one machine, inside
the network namespace this process runs in (tests/test_multiworker.py starts
it under `unshare -rn`, a namespace of its own with only a loopback device).

TensorFlow's worker servers listen on every interface whatever address the
cluster names, and run graphs for whoever connects (no authentication); in
a namespace of their own nothing outside can reach them, and no other run
can take their ports between choosing and binding them.

    python tests/support/multiworker_launch.py OUT_DIR WORKERS RULES TIMEOUT_S

Writes OUT_DIR/ports.json once every worker's port accepts connections,
then leaves the workers running until OUT_DIR/probed exists (the test
probes the ports from outside meanwhile; see multiworker_worker.py
--hold-until). Exits with the first failing worker's status, or 0.
"""
import json
import os
import socket
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def ports(n):
    """n free ports of this namespace (nothing else binds here)."""
    socks = [socket.socket() for _ in range(n)]
    try:
        for s in socks:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


def listening(port):
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    except OSError:
        return False


def main():
    out, workers, rules, timeout = sys.argv[1], int(sys.argv[2]), \
        sys.argv[3], float(sys.argv[4])
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    chosen = ports(workers)
    cluster = {"worker": [f"127.0.0.1:{p}" for p in chosen]}
    start, procs, announced = time.monotonic(), [], False
    try:
        for i in range(workers):
            env = dict(os.environ, PYCG_BACKEND="tensorflow",
                       TF_CONFIG=json.dumps({"cluster": cluster, "task": {
                           "type": "worker", "index": i}}))
            with open(os.path.join(out, f"worker{i}.log"), "w") as log:
                procs.append(subprocess.Popen(
                    [sys.executable, os.path.join(HERE,
                                                  "multiworker_worker.py"),
                     os.path.join(out, f"worker{i}.npz"), "--rules", rules,
                     "--hold-until", os.path.join(out, "probed")],
                    env=env, stdout=log, stderr=subprocess.STDOUT))
        # until all are done, one fails (the others would wait for it) or
        # the time is up
        while any(p.poll() is None for p in procs) and \
                not any(p.poll() for p in procs) and \
                time.monotonic() - start < timeout:
            if not announced and all(map(listening, chosen)):
                with open(os.path.join(out, "ports.tmp"), "w") as f:
                    json.dump(chosen, f)
                os.replace(os.path.join(out, "ports.tmp"),
                           os.path.join(out, "ports.json"))
                announced = True
            time.sleep(0.05)
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    failed = [p.returncode for p in procs if p.returncode]
    sys.exit(failed[0] if failed else 0)


if __name__ == "__main__":
    main()
