"""Imports each pycg module named on the command line alone, each in a
process of its own that has imported nothing of pycg: a child forked from
this one, which has imported only pycg's third-party dependencies (NumPy,
ml_dtypes, TensorFlow where PYCG_BACKEND says tensorflow, and PyTorch where
it is installed: the torch backend's modules import it, ~2 s each). A module
that needs another imported first, or takes part in an import cycle, fails
as it would in a fresh interpreter, for a fraction of the cost (a fresh
interpreter pays ~10 s for TensorFlow on a loaded machine).

    python tests/support/import_alone.py MODULE...

prints one JSON object: {module: the traceback} of the modules that failed.
"""
import importlib
import importlib.util
import json
import multiprocessing
import os
import sys
import traceback


def _import(name):
    try:
        importlib.import_module(name)
    except BaseException:   # (SystemExit and friends count as failures too)
        return name, traceback.format_exc()[-2000:]
    return name, None


def main(names):
    import ml_dtypes  # noqa: F401
    import numpy  # noqa: F401
    if os.environ.get("PYCG_BACKEND") == "tensorflow":
        import tensorflow  # noqa: F401
    if importlib.util.find_spec("torch") is not None:
        import torch  # noqa: F401
    assert not [m for m in sys.modules if m.split(".")[0] == "pycg"]
    # a new forked child for every module (maxtasksperchild=1)
    with multiprocessing.get_context("fork").Pool(
            min(len(names), os.cpu_count() or 1), maxtasksperchild=1) as pool:
        failed = dict(r for r in pool.imap_unordered(_import, names)
                      if r[1] is not None)
    print(json.dumps(failed))


if __name__ == "__main__":
    main(sys.argv[1:])
