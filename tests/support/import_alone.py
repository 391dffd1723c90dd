"""Imports each pycg module named on the command line alone, each in a
process of its own that has imported nothing of pycg: a child forked from
this one, which has imported only pycg's third-party dependencies (NumPy,
ml_dtypes, TensorFlow where PYCG_BACKEND says tensorflow, and PyTorch where
it is installed: the torch backend's modules import it, ~2 s each). A module
that needs another imported first, or takes part in an import cycle, fails
as it would in a fresh interpreter, for a fraction of the cost (a fresh
interpreter pays ~10 s for TensorFlow on a loaded machine). The modules
`import pycg` imports are checked by one child that imports pycg (importing
any of them alone runs pycg/__init__ first, which imports them all).

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


def _pycg_after(name):
    """The pycg modules in sys.modules once `name` is imported (or the
    traceback of its failure)."""
    failed = _import(name)[1]
    return failed, sorted(m for m in sys.modules if m.split(".")[0] == "pycg")


def main(names):
    import ml_dtypes  # noqa: F401
    import numpy  # noqa: F401
    if os.environ.get("PYCG_BACKEND") == "tensorflow":
        import tensorflow  # noqa: F401
    if importlib.util.find_spec("torch") is not None:
        import torch  # noqa: F401
    assert not [m for m in sys.modules if m.split(".")[0] == "pycg"]
    # a new forked child for every module (maxtasksperchild=1); but a
    # module that `import pycg` imports is imported alone by importing pycg
    # (a submodule's package runs first, and pycg/__init__ imports it in its
    # own order): one child checks all those at once
    context = multiprocessing.get_context("fork")
    with context.Pool(1, maxtasksperchild=1) as pool:
        broken, with_pycg = pool.apply(_pycg_after, ("pycg",))
    failed = {n: broken for n in names if broken and n in with_pycg}
    alone = [n for n in names if n not in with_pycg]
    if alone:
        with context.Pool(min(len(alone), os.cpu_count() or 1),
                          maxtasksperchild=1) as pool:
            failed.update(r for r in pool.imap_unordered(_import, alone)
                          if r[1] is not None)
    print(json.dumps(failed))


if __name__ == "__main__":
    main(sys.argv[1:])
