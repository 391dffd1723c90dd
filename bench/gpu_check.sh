#!/bin/bash
# The device machine's check (see bench/gpu.py): the jax backend's tests and
# bench/gpu.py on its GPU. That machine has JAX (CUDA), NumPy and pytest but
# no TensorFlow, so the tests that need TensorFlow as their oracle or
# backend are left out (-k 'not tensorflow', and files that import it).
# Writes bench.md and tests.log under $OUT (or ./gpu-out).
OUT=${OUT:-gpu-out}; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD JAX_PLATFORMS=${JAX_PLATFORMS:-cuda}
export XLA_PYTHON_CLIENT_PREALLOCATE=false TF_CPP_MIN_LOG_LEVEL=3
PY=${PY:-python3}
nvidia-smi -L 2>/dev/null
$PY -c 'import jax, numpy; print("jax", jax.__version__, "numpy", numpy.__version__, jax.devices())'
timeout "${BENCH_S:-170}" $PY bench/gpu.py ${BENCH_ARGS:-} 2>"$OUT/bench.err" | tee "$OUT/bench.md"
tail -n 5 "$OUT/bench.err"
PYCG_TEST_BACKENDS=jax timeout "${TESTS_S:-230}" $PY -m pytest -q -p no:cacheprovider \
  ${PYTEST_N:+-n $PYTEST_N} -k 'not tensorflow' \
  tests/test_jax_backend.py tests/test_to_jax.py tests/test_custom_gradient_conventions.py \
  tests/test_custom_gradient_errors.py tests/test_functional.py tests/test_tape.py \
  tests/test_numerics.py tests/test_empty_inputs.py tests/ops/test_linalg_einsum.py \
  tests/test_empty_reductions.py tests/test_numpy_scalars.py tests/test_backend_layout.py \
  ${GPU_EXTRA_TESTS:-} >"$OUT/tests.log" 2>&1
echo "pytest exit $?"; tail -n 25 "$OUT/tests.log"
