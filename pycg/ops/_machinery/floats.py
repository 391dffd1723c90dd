"""One answer to "this op computes in floats": integer and bool inputs
become floatx (Keras' rule: ops.exp(1) is a float); complex inputs are kept
where the op has a complex meaning and refused by name where it has none,
never cast to their real part."""
from pycg import config
from pycg._errors import Dtype, Op, user_error
from pycg.ops._machinery.dispatch import as_tensor, cast
from pycg.tensor import is_float


def real_only(x, op):
    """x, or the error that `op` has no meaning for complex numbers."""
    if x.dtype.kind == "c":
        raise user_error(
            TypeError, "{op}: expected a real tensor, got {dtype}; apply it "
            "to ops.real(x) or ops.abs(x) if that is what you mean",
            op=Op(op), dtype=Dtype(x.dtype.name))
    return x


def as_float(x, op, complex_ok=True):
    """x as a tensor of floats (floatx for integers and bools), complex
    kept if `complex_ok`, else refused."""
    x = as_tensor(x, op)
    if x.dtype.kind == "c":
        return x if complex_ok else real_only(x, op)
    return x if is_float(x.dtype) else cast(x, config.floatx())
