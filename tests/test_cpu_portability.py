"""What pycg computes does not depend on the CPU's features. TensorFlow turns
oneDNN on by default only on CPUs with AVX-512-class features; without it
its CPU kernels refuse channels-first convolutions and dilated transposed
ones. Every convolution and pooling configuration pycg accepts is checked,
value and gradients, on both backends, against a NumPy reference, in a fresh
interpreter with oneDNN off and in one with it on (TensorFlow reads
TF_ENABLE_ONEDNN_OPTS once, at import), whatever this machine's default."""
import json
import os
import pathlib
import subprocess
import sys

import pytest

from support import conv_configurations

HERE = pathlib.Path(__file__).resolve().parent

# both backends; every case in float64 and every fourth in float32 too
EXPECTED = 2 * len(conv_configurations.planned())


@pytest.mark.parametrize("onednn", ["0", "1"], ids=["onednn-off",
                                                    "onednn-on"])
def test_every_conv_and_pool_configuration_on_both_backends(onednn):
    env = dict(os.environ, TF_ENABLE_ONEDNN_OPTS=onednn,
               TF_CPP_MIN_LOG_LEVEL="3", PYTHONPATH=str(HERE.parent))
    run = subprocess.run(
        [sys.executable, str(HERE / "support" / "conv_configurations.py")],
        env=env,
        capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    report = json.loads(run.stdout.strip().splitlines()[-1])
    assert report["failures"] == []
    assert report["checked"] == EXPECTED


def test_the_reference_covers_every_layout_padding_and_dilation():
    seen = {(name, kw.get("data_format"), kw.get("padding"),
             kw.get("dilation_rate", 1) > 1, args[0].ndim - 2)
            for name, args, kw in conv_configurations.cases()}
    for name in ("conv", "depthwise_conv", "separable_conv",
                 "conv_transpose"):
        for fmt in ("channels_last", "channels_first"):
            for padding in ("valid", "same"):
                for dilated in (False, True):
                    assert (name, fmt, padding, dilated, 2) in seen
    for name in ("max_pool", "average_pool"):
        for d in (1, 2, 3):
            assert (name, "channels_first", "same", False, d) in seen
