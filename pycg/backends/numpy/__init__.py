"""NumPy kernels. Values are numpy arrays or numpy scalars.

The backend is this package: its kernels are the public names of its topic
files (core, numpy, math, nn, linalg: the same files in every backend)."""
import types as _types
import warnings

from pycg.backends.numpy import core, linalg, math, nn, numpy

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
for _topic in (core, numpy, math, nn, linalg):
    globals().update({k: v for k, v in vars(_topic).items()
                      if not k.startswith("_")
                      and not isinstance(v, _types.ModuleType)})
