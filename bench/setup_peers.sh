#!/usr/bin/env bash
# Install the benchmark's peers into .venv, for benchmarking only (pycg
# needs none of them): jax + jaxlib (CPU), HIPS autograd, and torch 2.13.0's
# CPU build. Idempotent: a peer that already imports is skipped, and a peer
# that cannot be installed is skipped too (bench/run.py says so).
# torch is pinned to the local version +cpu so that pip never fetches a CUDA
# build.
set -u
cd "$(dirname "$0")/.."
PY=.venv/bin/python

have() { "$PY" -c "import $1" >/dev/null 2>&1; }

install() {
    # pip's notes about missing local index folders are noise here
    "$PY" -m pip install --quiet --disable-pip-version-check \
        --only-binary=:all: "$@" 2> >(grep -v 'is ignored' >&2)
}

have jax || install jax jaxlib || echo "setup_peers: jax not installed"
have autograd || install autograd || echo "setup_peers: autograd not installed"
have torch || install "torch==2.13.0+cpu" \
    || echo "setup_peers: torch 2.13.0+cpu not available; torch skipped"
exit 0
