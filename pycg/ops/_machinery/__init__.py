"""The machinery every op shares (private): dtype promotion and the op fast
path (`dispatch`), arguments normalised with errors naming op and argument
(`arguments`), integer and bool inputs of ops that compute in floats
(`floats`), the size guard (`allocation`), errors after a kernel fails
(`failures`, `named`), shapes unknown while tracing (`dynamic`), traced
control flow (`traced`), the primitives of convolution and pooling
(`conv_primitives`). It imports no topic module of pycg.ops
(tests/test_architecture.py): what is built of ops lives beside the topic
files that use it (`pycg/ops/_traced_jax.py`, `_traced_index.py`,
`_singular_values.py`, `_operators.py`, `rules/_complex.py`)."""
