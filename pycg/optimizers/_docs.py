"""The arguments every pycg optimizer shares with Keras 3's BaseOptimizer,
written once and added to each optimizer's `Args:` by `shared_args`."""
from collections.abc import Callable
from typing import Any

from pycg.api._docs import with_args

# a learning rate: a number, or a schedule (a callable of the step)
LearningRate = float | Callable[[Any], Any]

SHARED = """\
        weight_decay: Decoupled weight decay (None: none): before each
            step w -= w * weight_decay * learning_rate.
        clipnorm: Clip each gradient to this L2 norm (None: no clipping).
        clipvalue: Clip each gradient's entries to [-clipvalue, clipvalue].
        global_clipnorm: Clip the gradients together to this global L2 norm.
            At most one of clipnorm, clipvalue and global_clipnorm is set.
        name: The optimizer's name (None: its class name, lower case); its
            slot variables are named after it.
        **kwargs: Keras' other arguments (use_ema, loss_scale_factor,
            gradient_accumulation_steps, ...) are refused with an error
            that names them; an unknown one with the list of valid ones.

        Every hyper-parameter is checked here, by name: a finite number in
        its range (learning_rate, epsilon, weight_decay, the clipping
        norms, initial_accumulator_value >= 0; momentum and rho in [0, 1];
        beta_1 and beta_2 in [0, 1)), True or False for a flag. NaN and
        inf are refused: they would make every weight NaN at the first
        step.
"""


def shared_args(doc):
    """`doc` (an optimizer's docstring) with SHARED at the end of its
    `Args:` section."""
    return with_args(doc, SHARED)
