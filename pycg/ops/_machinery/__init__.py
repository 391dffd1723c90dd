"""The machinery every op shares (private): dtype promotion and the op fast
path (`dispatch`), arguments normalised with errors naming op and argument
(`arguments`), floats and complex inputs (`floats`, `complex`), the size
guard (`allocation`), errors after a kernel fails (`failures`, `named`),
shapes unknown while tracing (`dynamic`), traced control flow and indexing
(`traced`, `traced_jax`, `traced_index`), the primitives of convolution and
pooling (`conv_primitives`), singular values (`singular_values`), the
operators of Tensor (`operators`)."""
