"""The values layer: `Tensor`, a backend value with an identity, and
`Variable`, each update atomic across threads (`core.py`); what a Python
value converts to, which dtypes are floats and get gradients (`convert.py`);
the Tensor as a Python value (`python_value.py`: shape, numpy(), len,
iteration, bool/float/int/index, item, tolist, format, round, copies); the
operators' types for type checkers (`operator_types.py`; `pycg.ops`
installs the operators themselves); and nested lists, tuples and dicts
flattened and rebuilt (`structure.py`).

The classes keep `pycg.tensor` as their module: reticulate names a
tensor's R classes after it ("pycg.tensor.Tensor", "pycg.tensor.Variable",
then "pycg.tensor.PythonValue", "pycg.tensor.Operators"), and the R
package's S3 methods are registered on those names
(tests/test_r_classes.py pins them).
"""
from pycg.tensor.convert import as_dtype, is_differentiable, is_float
from pycg.tensor.core import (Tensor, Variable, adopt, constant,
                              convert_to_tensor)
from pycg.tensor.operator_types import Operators
from pycg.tensor.python_value import PythonValue

__all__ = ("Operators", "PythonValue", "Tensor", "Variable", "adopt",
           "as_dtype", "constant", "convert_to_tensor", "is_differentiable",
           "is_float")
