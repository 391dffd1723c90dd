"""NumPy kernels. Values are numpy arrays or numpy scalars.

The backend is this package: its kernels are the public names of its topic
files (core, numpy, math, nn, linalg: the same files in every backend)."""
import warnings

# the kernels, each file's __all__ (backends.kernels), later files over
# earlier ones
from pycg.backends.numpy.core import *  # noqa: F403
from pycg.backends.numpy.numpy import *  # noqa: F403
from pycg.backends.numpy.math import *  # noqa: F403
from pycg.backends.numpy.nn import *  # noqa: F403
from pycg.backends.numpy.linalg import *  # noqa: F403

name = "numpy"
out_of_memory = (MemoryError,)   # what a kernel raises when it cannot fit


def activate():
    """On import and at each set_backend("numpy"): TensorFlow's kernels are
    silent where a value overflows or is invalid, and so are these. NumPy's
    "... encountered in ..." RuntimeWarnings raised from pycg's own frames
    are ignored (inf and nan still flow; pycg.debug.check_numerics() finds
    them). No cost per op; np.errstate(over="raise") still raises, a filter
    the user adds later comes first, NumPy in user code still warns."""
    if not _silence or _silence[0] not in warnings.filters:  # (pytest resets)
        warnings.filterwarnings("ignore", message=r".*encountered in",
                                category=RuntimeWarning, module=r"pycg\.")
        _silence[:] = [warnings.filters[0]]


_silence = []
activate()
