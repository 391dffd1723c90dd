"""A vignette's figure, rendered to PNG by knitr through Rscript, is a real
picture: the right size, with the colours the plot code draws, mostly
white background and not blank.

The whole of vignettes/pycg.Rmd.orig (the source of the precomputed
vignettes/pycg.Rmd) is knitted (so the figure is made by the
vignette's own code, after the chunks it depends on), with knitr's png
device writing the figures to a temporary folder.
"""
import os
import struct
import subprocess
import zlib

import pytest

from support.r_bridge_helpers import ROOT, r_env, require_r

KNIT = r"""
args <- commandArgs(trailingOnly = TRUE)
knitr::opts_chunk$set(dev = "png", dpi = 96,
                      fig.path = file.path(args[[2]], "fig-"))
knitr::knit(args[[1]], output = file.path(args[[2]], "out.md"),
            quiet = TRUE, envir = new.env())
"""


def read_png(path):
    """(width, height, rows of (r, g, b) pixels) of an 8-bit, non-interlaced
    RGB or RGBA PNG, as R's png() device writes them."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (2, 6) and interlace == 0, header
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = previous[i]
            c = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pred) & 255
        rows.append([tuple(line[i:i + 3]) for i in range(0, stride,
                                                          channels)])
        previous = line
    return width, height, rows


def near(pixel, colour, tolerance=40):
    return all(abs(p - c) <= tolerance for p, c in zip(pixel, colour))


@pytest.fixture(scope="module")
def softplus_png(tmp_path_factory):
    require_r()
    out = tmp_path_factory.mktemp("vignette-png")
    proc = subprocess.run(
        ["Rscript", "-e", KNIT, os.path.join(ROOT, "vignettes", "pycg.Rmd.orig"),
         str(out)], cwd=str(out), env=r_env(), stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-4000:]
    path = out / "fig-softplus-gradient-1.png"
    assert path.exists(), sorted(os.listdir(out))
    return path


def test_the_softplus_figure_is_a_png_of_the_chunk_size(softplus_png):
    width, height, _ = read_png(softplus_png)
    assert (width, height) == (720, 460)   # 7.5 x 4.8 inches at 96 dpi
    assert os.path.getsize(softplus_png) > 10_000


def test_the_softplus_figure_shows_both_curves_and_the_nan_band(
        softplus_png):
    _, _, rows = read_png(softplus_png)
    pixels = [p for row in rows for p in row]
    white = sum(near(p, (255, 255, 255), 5) for p in pixels) / len(pixels)
    assert 0.4 < white < 0.97, f"{white:.0%} of the figure is white"
    colours = {"navy (custom)": (0, 0, 128),
               "firebrick (naive)": (178, 34, 34),
               "mistyrose (NaN band)": (255, 228, 225),
               "black (axes, text)": (0, 0, 0)}
    for name, rgb in colours.items():
        count = sum(near(p, rgb, 25) for p in pixels)
        assert count > 200, f"{name}: only {count} pixels"
