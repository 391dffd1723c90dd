"""TensorFlow kernels. Values are tf.Tensor (eager, or symbolic inside
tf.function), so they run wherever TensorFlow places them (a GPU when there
is one).

The backend is this package: its kernels are the public names of its topic
files (core, numpy, math, nn, linalg: the same files in every backend), then
_autodiff.py (where pycg meets TensorFlow's own autodiff) and _edges.py
(answers where TensorFlow's kernels differ from NumPy's at edge inputs)."""
from pycg import backends as _registry

tf = _registry.import_tensorflow()  # quietly: see _tf_import.py

# the kernels, each file's __all__ (backends.kernels), later files over
# earlier ones
from pycg.backends.tensorflow.core import *  # noqa: E402, F403
from pycg.backends.tensorflow.numpy import *  # noqa: E402, F403
from pycg.backends.tensorflow.math import *  # noqa: E402, F403
from pycg.backends.tensorflow.nn import *  # noqa: E402, F403
from pycg.backends.tensorflow.linalg import *  # noqa: E402, F403
from pycg.backends.tensorflow._autodiff import *  # noqa: E402, F403
from pycg.backends.tensorflow._edges import *  # noqa: E402, F403

name = "tensorflow"
out_of_memory = (MemoryError, tf.errors.ResourceExhaustedError)
