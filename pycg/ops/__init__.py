"""pycg.ops: differentiable array ops with keras.ops names and signatures.

>>> from pycg import ops
>>> float(ops.logsumexp(ops.convert_to_tensor([0.0, 0.0])))  # log 2
0.6931471...
"""
import importlib
import pkgutil

from pycg import backends as _backends
from pycg.core import gc_policy as _core_gc
from pycg.core import sigint as _core_sigint
from pycg.core import recorder as _core
from pycg.custom.decorator import custom_gradient
from pycg.ops._machinery import docs as _docs
from pycg.ops import rules as _rules   # (registers every topic's rules)
from pycg.ops._machinery.dispatch import ELEMENTWISE as _ELEMENTWISE
from pycg.ops._machinery.dispatch import register_stack as _register_stack
from pycg.ops._machinery.named import naming_errors as _naming_errors
from pycg.ops._machinery.named import wraps_errors as _wraps_errors
from pycg.ops._machinery.operators import install as _install_operators
from pycg.ops.creation import ones_like as _ones_like
from pycg.ops.creation import zeros_like as _zeros_like
from pycg.ops.manipulation import stack as _stack
from pycg.ops.rules import direct as _direct
from pycg.ops.rules import elementwise as _elementwise_rules
from pycg.ops.rules import manipulation as _shape_rules

# the array ops: each topic module's __all__ (every module of this package
# but the private ones and the rules); custom_gradient is here too, as in
# keras.ops, but is not one
__all__ = []
for _topic in pkgutil.iter_modules(__path__):
    if not _topic.name.startswith("_") and _topic.name != "rules":
        _module = importlib.import_module(f"{__name__}.{_topic.name}")
        globals().update({n: getattr(_module, n) for n in _module.__all__})
        __all__ += _module.__all__
__all__.sort()
del _topic, _module

_core.register_array_ops(_ones_like, _zeros_like, _shape_rules.unbroadcast,
                         _direct.DIRECT_VJPS,
                         _backends.load("numpy").float_types,
                         (_elementwise_rules.reached, _direct.reached),
                         _ELEMENTWISE)
_core.on_recording.append(_core_gc.note)
_core_sigint.arm()   # (Ctrl-C waits for pycg's state changes to end)
_register_stack(_stack)
_install_operators()
globals().update({n: _naming_errors(n, globals()[n]) for n in __all__
                  if _wraps_errors(globals()[n])})
_docs.attach(globals(), __all__)
