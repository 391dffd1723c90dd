"""pycg.ops: differentiable array ops with keras.ops names and signatures.

>>> from pycg import ops
>>> float(ops.logsumexp(ops.convert_to_tensor([0.0, 0.0])))  # log 2
0.6931471...
"""
from pycg import backends as _backends
from pycg.core import gc_policy as _core_gc
from pycg.core import sigint as _core_sigint
from pycg.core import recorder as _core
from pycg.custom.decorator import custom_gradient
from pycg.ops._machinery import docs as _docs
from pycg.ops import rules as _rules   # (registers every topic's rules)
from pycg.ops._machinery.dispatch import ELEMENTWISE as _ELEMENTWISE
from pycg.ops._machinery.dispatch import register_stack as _register_stack
from pycg.ops._operators import install as _install_operators
from pycg.ops.creation import ones_like as _ones_like
from pycg.ops.creation import zeros_like as _zeros_like
from pycg.ops.manipulation import stack as _stack
from pycg.ops.rules import direct as _direct
from pycg.ops.rules import elementwise as _elementwise_rules
from pycg.ops.rules import manipulation as _shape_rules

# the array ops: each topic module's __all__, their errors named after them
# (_exports.py); custom_gradient is here too, as in keras.ops, but is not one
from pycg.ops import _exports
from pycg.ops._exports import *  # noqa: F403

__all__ = list(_exports.__all__)

_core.register_array_ops(_ones_like, _zeros_like, _shape_rules.unbroadcast,
                         _direct.DIRECT_VJPS,
                         _backends.load("numpy").float_types,
                         (_elementwise_rules.reached, _direct.reached),
                         _ELEMENTWISE)
_core.on_recording.append(_core_gc.note)
_core_sigint.arm()   # (Ctrl-C waits for pycg's state changes to end)
_register_stack(_stack)
_install_operators()
_docs.attach(globals(), __all__)
