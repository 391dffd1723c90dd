"""pycg.random: keras.random's draws with Keras' seed semantics.

An int seed gives the same numbers on every call; a SeedGenerator moves on
at each draw; seed=None draws from a global SeedGenerator. The numbers come
from NumPy's Philox generator keyed by the (seed, counter) pair, so both
backends give identical streams, eagerly and inside pycg.function (where
the draw runs when the graph runs, through tf.numpy_function, so a
`jit_compile=True` function cannot hold a draw). They are not the numbers
keras.random gives for the same seed.

>>> import pycg
>>> a = pycg.random.normal((3,), seed=11).numpy()
>>> b = pycg.random.normal((3,), seed=11).numpy()
>>> bool((a == b).all())
True
"""
from pycg.random.draws import (categorical, dropout, normal, randint,
                               shuffle, truncated_normal, uniform)
from pycg.random.seed_generator import SeedGenerator

__all__ = ["SeedGenerator", "categorical", "dropout", "normal", "randint",
           "shuffle", "truncated_normal", "uniform"]
