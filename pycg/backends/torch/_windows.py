"""Windows over channels-last operands (N, spatial..., C), shared by the
convolution and pooling kernels (as the numpy backend's _windows.py): pads
as (before, after) per spatial dimension, a negative `after` cropping (the
windows' grid and slices: backends/_grid.py)."""
import torch

from pycg.backends import _grid


def padded(x, pads, value=0):
    """x with `pads` (before, after) on each spatial axis; a negative
    `after` crops (as the numpy backend's)."""
    crop = tuple(slice(None, a if a < 0 else None) for _, a in pads)
    x = x[(slice(None),) + crop]
    if any(b or a > 0 for b, a in pads):
        widths = [0, 0]   # (torch: the last axis first; C is not padded)
        for b, a in reversed(pads):
            widths += [b, max(a, 0)]
        if x.dtype is torch.bool:
            return torch.nn.functional.pad(x.to(torch.uint8), widths,
                                           value=int(value)).to(torch.bool)
        x = torch.nn.functional.pad(x, widths, value=value)
    return x


def unpadded(xp, pads, shape):
    """The adjoint of padded: the cells of xp that hold x's."""
    inner = xp[_grid.kept(pads, shape)]
    if tuple(inner.shape) == tuple(shape):
        return inner
    out = torch.zeros(tuple(shape), dtype=xp.dtype, device=xp.device)
    out[tuple(slice(0, n) for n in inner.shape)] = inner
    return out
