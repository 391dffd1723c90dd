"""pycg.function: a pycg function traced into one TensorFlow graph
(`tracing.py`, with `concrete_calls.py`: the calls of a signature seen
before, straight to the concrete function) or one jax.jit computation
(`jax_jit.py`, with `jax_outputs.py`: the result as JAX returns it); Python
values as the traces see them and the retracing warning
(`trace_values.py`); and the state variables of optimizers and seed
generators with the step locks a compiled call holds (`state.py`).

`function` is imported when first asked for: its module imports the
compiling backends' machinery, which `pycg.compile.state` (used by the
optimizers and random draws on every backend) must not pull in.
"""


def __getattr__(name):
    if name == "function":
        from pycg.compile.tracing import function
        return function
    raise AttributeError(f"module 'pycg.compile' has no attribute {name!r}")
