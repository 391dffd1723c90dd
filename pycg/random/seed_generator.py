"""Seeds with Keras' semantics: an int seed gives the same numbers on every
call; a SeedGenerator's state moves on by one at each draw.

A seed is a pair (seed, counter) of int64 values (int32 on the jax backend
with JAX's 64-bit mode off: the same numbers where the values fit). Every
draw turns its pair into one NumPy Philox generator (the pair is the Philox
key), so the numbers depend only on the pair: the same on the numpy and
tensorflow backends, eagerly and inside pycg.function (where the draw runs
when the graph runs).
"""
import numbers
import random as _py_random
import threading

import numpy as np

from pycg.compile.state import counter_dtype, read_and_add, state_variable
from pycg.tensor import Tensor, convert_to_tensor

_MASK64 = (1 << 64) - 1


class SeedGenerator:
    """The state of a stream of random draws (Keras' SeedGenerator).

    Args:
        seed: The initial seed, an int (None: a random one).
        name: A name for its state variable (None: a default one).

    Example:
    >>> import pycg
    >>> gen = pycg.random.SeedGenerator(42)
    >>> a = pycg.random.uniform((2,), seed=gen)
    >>> b = pycg.random.uniform((2,), seed=gen)
    >>> bool((a.numpy() != b.numpy()).all())
    True
    >>> again = pycg.random.SeedGenerator(42)
    >>> pycg.random.uniform((2,), seed=again).numpy().tolist() == \\
    ...     a.numpy().tolist()
    True
    """

    def __init__(self, seed: int | None = None, name: str | None = None
                 ) -> None:
        if seed is None:
            seed = _default_seed()
        if not _is_int(seed):
            raise ValueError(
                f"pycg.random.SeedGenerator: `seed` must be an integer or "
                f"None, got {type(seed).__name__} {seed!r:.40}")
        self.name = name or "seed_generator"
        self.state = state_variable(_pair(seed, "SeedGenerator"),
                                    counter_dtype(), name=f"{self.name}_state")

    def next(self):
        """The current (seed, counter) pair as a Tensor; the state moves on
        in the same step, so no two draws share a pair (across threads, and
        in compiled graphs run at once)."""
        return read_and_add(self.state, [0, 1])

    def __repr__(self):
        state = self.state.numpy().tolist()
        return f"<pycg.random.SeedGenerator state={state}>"


_global: list[SeedGenerator] = []
_FIRST = threading.Lock()   # (global_seed_generator's first use)


def global_seed_generator():
    """The generator behind draws with seed=None (seeded from Python's
    `random` module when first used, as in Keras)."""
    if not _global:
        made = SeedGenerator(name="global_seed_generator")
        with _FIRST:   # (one generator even when threads start at once)
            if not _global:
                _global.append(made)
    return _global[0]


def seed_global(seed):
    """Restart the stream of draws with seed=None at `seed` (the R package
    does, whenever R's random number generator has moved, so that R's
    set.seed() governs those draws)."""
    state = global_seed_generator().state
    state.assign(np.array(_pair(seed, "seed_global"), state.dtype))


def draw_seed(seed, who):
    """The (seed, counter) pair for one draw, as an int64 Tensor."""
    if isinstance(seed, SeedGenerator):
        return seed.next()
    if seed is None:
        return global_seed_generator().next()
    if _is_int(seed):
        return convert_to_tensor(np.array(_pair(seed, who), counter_dtype()))
    raise ValueError(
        f"pycg.random.{who}: `seed` must be an integer, a "
        f"pycg.random.SeedGenerator or None, got {type(seed).__name__} "
        f"{seed!r:.40}")


def generator(pair):
    """The NumPy generator of one (seed, counter) pair."""
    s, c = (int(v) & _MASK64 for v in np.asarray(pair).reshape(2))
    return np.random.Generator(np.random.Philox(key=s | (c << 64)))


def _is_int(x):
    return isinstance(x, numbers.Integral) and not isinstance(x, bool) and \
        not isinstance(x, Tensor)


def _pair(seed, who):
    """[seed, 0], the seed checked to fit the counters' dtype."""
    seed, dtype = int(seed), counter_dtype()
    info = np.iinfo(dtype)
    if not info.min <= seed <= info.max:
        narrow = " (JAX's 64-bit mode is off)" if dtype.itemsize == 4 else ""
        raise ValueError(f"pycg.random.{who}: seed {seed} does not fit in "
                         f"{dtype.name}{narrow}")
    return [seed, 0]


def _default_seed():
    return _py_random.randint(1, int(1e9))
