"""pycg.optimizers: Keras 3's optimizers (names, hyper-parameters, defaults
and update formulas) on pycg Variables, eagerly or inside pycg.function.

>>> import pycg
>>> w = pycg.Variable([3.0], name="w")
>>> opt = pycg.optimizers.SGD(learning_rate=0.25)
>>> for _ in range(20):
...     g = pycg.grad(lambda v: pycg.ops.sum(v * v))(w)
...     opt.apply([g], [w])
>>> abs(float(w[0])) < 1e-5
True
"""
from pycg.optimizers import schedules
from pycg.optimizers.adagrad import Adagrad
from pycg.optimizers.adam import Adam, AdamW
from pycg.optimizers.base import Optimizer
from pycg.optimizers.rmsprop import RMSprop
from pycg.optimizers.sgd import SGD

__all__ = ["Adagrad", "Adam", "AdamW", "Optimizer", "RMSprop", "SGD",
           "schedules"]
