"""How much of a long grid `make test` runs: an even sample of its cases
(every n-th, the same ones on every run), where `make soak` runs the whole
grid (it sets PYCG_FULL_GRIDS=1). A grid is sampled when its cases are
alike and each is slow (an XLA compilation, a jax dispatch per shape): the
sample keeps every kind of case, the soak every case."""
import os

FULL = os.environ.get("PYCG_FULL_GRIDS") == "1"


def every(cases, n):
    """Every n-th of `cases` from the first, or all of them under
    PYCG_FULL_GRIDS=1."""
    cases = list(cases)
    return cases if FULL or n <= 1 else cases[::n]
