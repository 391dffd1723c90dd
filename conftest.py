"""Collection of pycg's own modules (their doctests, `make test` runs
`pytest tests pycg`): the JAX bridge and backend need JAX, an optional
extra; without it they are not collected (tests/test_jax_backend.py says
what the user sees then)."""
import importlib.util

collect_ignore = [] if importlib.util.find_spec("jax") else [
    "pycg/backends/jax", "pycg/interop/jax.py", "pycg/interop/keras.py"]
