"""Bridges to other frameworks, one module per framework: a pycg function
as a TensorFlow one (`tensorflow`: `pycg.to_tensorflow`), as a JAX one
(`jax`: `pycg.to_jax`), and for Keras 3's active backend (`keras`:
`pycg.to_keras`). Leaves: nothing of pycg imports them but
`pycg/__init__.py`."""
