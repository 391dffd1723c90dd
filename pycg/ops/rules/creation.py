"""The creation ops (pycg/ops/creation.py) carry no gradient."""

# Ops that never carry a gradient (their outputs are not recorded).
NON_DIFFERENTIABLE = (
    "zeros", "ones", "full", "zeros_like", "ones_like", "full_like", "eye",
    "arange", "linspace", "shape", "convert_to_numpy", "stop_gradient")
