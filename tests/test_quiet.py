"""`import pycg` and `library(pycg)` print nothing, TensorFlow's start-up
log lines included, even when the user has not set TF_CPP_MIN_LOG_LEVEL;
PYCG_TF_LOGS=1 brings TensorFlow's lines back."""
import re
import shutil
import subprocess
import sys

import pytest

from pycg.backends._tf_import import _without_startup_logs
from support.r_bridge_helpers import ROOT, SETUP_HINT, r_env

FIRST_OP = "import pycg; pycg.ops.exp(1.0)"


def _env(**extra):
    env = r_env()
    for name in ("TF_CPP_MIN_LOG_LEVEL", "PYCG_TF_LOGS", "PYCG_BACKEND",
                 "TF_ENABLE_ONEDNN_OPTS"):
        env.pop(name, None)
    env.update(extra)
    return env


def _run(argv, **extra):
    proc = subprocess.run(argv, cwd=ROOT, env=_env(**extra),
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout
    return proc.stdout


def _python(code, **extra):
    return _run([sys.executable, "-c", code], **extra)


def _log_sources(output):
    """The file:line of each C++ log record, e.g. {'port.cc:153'}."""
    return set(re.findall(r"^[IWE]\d{4} [\d:.]+\s+\d+ (\S+:\d+)\]", output,
                          re.MULTILINE))


@pytest.mark.parametrize("backend", ["tensorflow", "numpy"])
def test_import_pycg_and_a_first_op_print_nothing(backend):
    assert _python(FIRST_OP, PYCG_BACKEND=backend) == ""


def test_import_pycg_with_the_default_backend_prints_nothing():
    assert _python(FIRST_OP) == ""


def test_pycg_adds_nothing_after_tensorflow_imported_by_the_user():
    out = _python("import os, tensorflow; os.write(2, b'--pycg--\\n'); "
                  + FIRST_OP)
    assert out.split("--pycg--\n", 1)[1] == ""


def test_pycg_tf_logs_1_brings_tensorflow_start_up_lines_back():
    plain = _python("import tensorflow as tf; tf.exp(1.0)")
    assert _log_sources(plain), (
        "TensorFlow printed no start-up log here, so this test cannot show "
        f"the switch working:\n{plain}")
    assert _log_sources(_python(FIRST_OP, PYCG_TF_LOGS="1")) == \
        _log_sources(plain)


def test_other_output_while_tensorflow_loads_is_kept():
    captured = (
        b"WARNING: All log messages before absl::InitializeLog() is called "
        b"are written to STDERR\n"
        b"I0000 00:00:1795478513.9159   11612 port.cc:153] oneDNN custom "
        b"operations are on.\n"
        b"E0000 00:00:1795478513.9159   11612 cuda_dnn.cc:8310] Unable to "
        b"register cuDNN factory\n"
        b"I0000 00:00:1795478514.1   11612 cpu_feature_guard.cc:227] This "
        b"TensorFlow binary is optimized\n"
        b"To enable the following instructions: AVX2 FMA, in other ops\n"
        b"/x/y.py:3: UserWarning: numpy is too new\n"
        b"  warnings.warn(msg)\n")
    assert _without_startup_logs(captured) == (
        b"/x/y.py:3: UserWarning: numpy is too new\n"
        b"  warnings.warn(msg)\n")


def test_library_pycg_and_a_first_op_print_nothing_in_r():
    if shutil.which("Rscript") is None:
        pytest.fail(f"Rscript is not installed: {SETUP_HINT}")
    out = _run(["Rscript", "-e", "library(pycg); x <- op_exp(1); "
                "stopifnot(abs(as.numeric(x) - exp(1)) < 1e-6)"],
               RETICULATE_PYTHON=sys.executable)
    # only R's own note of the base functions pycg masks (issue 24: the
    # masking is shown where it happens), nothing from Python or TensorFlow
    # (and stats' mahalanobis, kept on the tape beside base's sweep)
    note = re.fullmatch(r"\s*Attaching package: .pycg.\s*"
                        r"(?:The following object is masked from "
                        r".package:stats.:\s*mahalanobis\s*)?The following "
                        r"objects? (is|are) masked from .package:base.:\s*"
                        r"(.*?)\s*", out, re.S)
    assert note, out
    assert set(note.group(2).replace(",", " ").split()) <= {
        "array", "matrix", "sweep",
        "%*%", "pmax", "pmin", "crossprod", "tcrossprod", "diag", "rowSums",
        "colSums", "rowMeans", "colMeans", "c", "drop", "log", "%in%",
        "is.double",
        "is.integer", "is.logical", "mapply", "match", "marginSums",
        "margin.table", "proportions", "prop.table", "unclass",
        "storage.mode<-"}
