"""What a pycg tensor answers to PyTorch habits inside a pycg function (the
`f` of pycg.to_torch, a rule's grad_fn), where the values are pycg
tensors, not torch's: a torch function given one (``torch.sin(x)``, through
``__torch_function__``) and a torch method name (``g.clamp(...)``, through
``__getattr__``) are errors that name the pycg.ops function to use. A torch
function is refused, not run: torch would compute without pycg's tape, and
the result would have no gradient (habit 14 of the style guide)."""
import sys

# torch's name -> pycg.ops' name, where they differ
RENAMES = {
    "clamp": "clip", "clamp_min": "maximum", "clamp_max": "minimum",
    "clip_": "clip", "clamp_": "clip", "unsqueeze": "expand_dims",
    "permute": "transpose", "t": "transpose", "mT": "swapaxes",
    "view": "reshape", "view_as": "reshape", "reshape_as": "reshape",
    "flatten": "reshape", "expand": "broadcast_to",
    "expand_as": "broadcast_to", "mm": "matmul", "bmm": "matmul",
    "mv": "matmul", "detach": "stop_gradient", "masked_fill": "where",
    "pow": "power", "cat": "concatenate", "concat": "concatenate",
    "neg": "negative", "sub": "subtract", "mul": "multiply",
    "div": "divide", "true_divide": "divide", "ge": "greater_equal",
    "gt": "greater", "le": "less_equal", "lt": "less", "eq": "equal",
    "ne": "not_equal", "amax": "max", "amin": "min",
    "to": "cast", "type": "cast", "float": "cast", "double": "cast",
    "half": "cast", "long": "cast", "int": "cast", "bool": "cast",
    "index_select": "take", "gather": "take_along_axis",
    "narrow": "slice", "chunk": "split", "fill_diagonal_": "fill_diagonal",
    "dim": "ndim (a property)", "size": "shape (a property)",
    "numel": "size (a property)",
}


def _ops_name(name):
    """The pycg.ops function for torch's `name`, or None."""
    target = RENAMES.get(name, name)
    if " " in target:   # (a tensor property, not an op)
        return f"x.{target}"
    ops = sys.modules.get("pycg.ops")   # (above this layer: not imported)
    if ops is not None and callable(getattr(ops, target, None)):
        return f"pycg.ops.{target}"
    return None


def attribute_error(kind, name):
    """The AttributeError for attribute `name` that a pycg `kind` (Tensor,
    Variable) lacks: where torch has it, the pycg.ops function to use."""
    use = _ops_name(name) if not name.startswith("_") else None
    if use is None:
        return AttributeError(f"'{kind}' object has no attribute '{name}'")
    return AttributeError(
        f"pycg tensors have no .{name} (a torch tensor method?); use {use}: "
        f"inside a pycg function the values are pycg tensors, which the "
        f"pycg.ops functions take")


def torch_function_error(func):
    """The TypeError for torch function `func` given a pycg tensor."""
    name = getattr(func, "__name__", None) or repr(func)
    use = _ops_name(name)
    instead = f"use {use}" if use else "use the pycg.ops functions"
    return TypeError(
        f"torch.{name} was given a pycg tensor: inside a pycg function "
        f"(pycg.to_torch's f, a custom_gradient rule) the values are pycg "
        f"tensors, and a torch function would compute without pycg's tape "
        f"(no gradient); {instead}")
