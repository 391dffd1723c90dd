"""TensorFlow kernels. Values are tf.Tensor (eager, or symbolic inside
tf.function), so they run wherever TensorFlow places them (a GPU when there
is one).

The backend is this package: its kernels are the public names of its topic
files (core, numpy, math, nn, linalg: the same files in every backend), then
_autodiff.py (where pycg meets TensorFlow's own autodiff) and _edges.py
(answers where TensorFlow's kernels differ from NumPy's at edge inputs)."""
import types as _types

from pycg import backends as _registry

tf = _registry.import_tensorflow()  # quietly: see _tf_import.py

from pycg.backends.tensorflow import (  # noqa: E402
    _autodiff, _edges, core, linalg, math, nn, numpy)

name = "tensorflow"
out_of_memory = (MemoryError, tf.errors.ResourceExhaustedError)

for _topic in (core, numpy, math, nn, linalg, _autodiff, _edges):
    globals().update({k: v for k, v in vars(_topic).items()
                      if not k.startswith("_")
                      and not isinstance(v, _types.ModuleType)})
