"""Bridges to other frameworks: a pycg function as a TensorFlow one
(`tensorflow`: `pycg.to_tensorflow`). Leaves: nothing of pycg imports them
but `pycg/__init__.py`."""
