"""pycg.to_torch's border on the torch backend: which tensors that require
grad may reach pycg in this thread (core.owns asks `refuse_recorded` of
each one it meets). Outside to_torch, one may while torch does not record
(a constant); inside to_torch's forward, none may but its inputs (which
to_torch hands over detached); inside its backward (f run again for its
gradient, while torch does not record), every one may."""
import threading

import torch

# .stage, .name: set while pycg.to_torch runs the user's function name in
# this thread ("forward": no tensor that requires grad may reach pycg but
# its inputs, wrapped detached; "backward": f run again for its gradient)
_bridge = threading.local()


class bridged:
    """``with bridged(name, stage):`` pycg.to_torch runs `name`'s `stage`
    in this thread. (A class, not a generator: to_torch enters it twice a
    call.)"""

    __slots__ = ("name", "stage", "outer")

    def __init__(self, name, stage):
        self.name, self.stage = name, stage

    def __enter__(self):
        self.outer = getattr(_bridge, "stage", None), \
            getattr(_bridge, "name", None)
        _bridge.stage, _bridge.name = self.stage, self.name

    def __exit__(self, *exc):
        _bridge.stage, _bridge.name = self.outer
        return False


def refuse_recorded(value):
    """Nothing where a torch tensor that requires grad may reach pycg
    here; else the TypeError saying what to do."""
    stage = getattr(_bridge, "stage", None)
    if stage == "backward" or stage is None and not torch.is_grad_enabled():
        return
    what = (f"a torch tensor that requires grad ({str(value.dtype)[6:]}, "
            f"shape {tuple(value.shape)})")
    if stage == "forward":
        name = _bridge.name
        raise TypeError(
            f"pycg.to_torch({name}): {name} reads {what} that it does not "
            f"take as an argument (a closed-over nn.Parameter?); pycg's "
            f"gradient cannot reach it: pass it to the function "
            f"pycg.to_torch made, as an argument (or .detach() it, a "
            f"constant)")
    raise TypeError(
        f"pycg.convert_to_tensor: {what} reached pycg while torch's "
        f"autograd records (grad mode on); pycg would compute with it and "
        f"torch would get no gradient through pycg. Call the pycg function "
        f"through pycg.to_torch(f), whose gradient torch uses; or pass "
        f".detach(), or work under torch.no_grad(), where it is a constant")
