"""pycg.optimizers: bad input gets an error naming the optimizer, the
argument and the variable (by index and name)."""
import numpy as np
import pytest

import pycg


def test_error_unknown_hyper_parameter():
    with pytest.raises(ValueError, match=r"^pycg.optimizers.Adam: unknown "
                       r"argument `beta1`; valid arguments are learning_rate, "
                       r"beta_1, beta_2, epsilon, amsgrad, weight_decay"):
        pycg.optimizers.Adam(beta1=0.9)


def test_error_keras_argument_not_supported():
    with pytest.raises(ValueError, match=r"^pycg.optimizers.SGD: Keras' "
                       r"argument `use_ema` is not supported by pycg$"):
        pycg.optimizers.SGD(use_ema=True)


@pytest.mark.parametrize("make, message", [
    (lambda: pycg.optimizers.SGD(momentum=1.5),
     r"^pycg.optimizers.SGD: `momentum` must be a float in \[0, 1\], got 1.5"),
    (lambda: pycg.optimizers.RMSprop(learning_rate="fast"),
     r"^pycg.optimizers.RMSprop: `learning_rate` must be a finite float "
     r">= 0, a pycg.optimizers.schedules.LearningRateSchedule or a "
     r"callable, got 'fast'"),
    (lambda: pycg.optimizers.AdamW(weight_decay=None),
     r"^pycg.optimizers.AdamW: `weight_decay` must be a finite float >= 0, "
     r"got None"),
    (lambda: pycg.optimizers.Adagrad(clipnorm=1.0, clipvalue=1.0),
     r"^pycg.optimizers.Adagrad: only one of `clipnorm`, `clipvalue` and "
     r"`global_clipnorm` can be set"),
    (lambda: pycg.optimizers.SGD(clipnorm=-1.0),
     r"^pycg.optimizers.SGD: `clipnorm` must be a finite float >= 0 or "
     r"None, got -1.0"),
    (lambda: pycg.optimizers.schedules.ExponentialDecay(0.1, 0, 0.5),
     r"^pycg.optimizers.schedules.ExponentialDecay: `decay_steps` must be "
     r"a finite number > 0, got 0"),
    (lambda: pycg.optimizers.schedules.PiecewiseConstantDecay([1], [1.0]),
     r"`boundaries` must have one entry fewer than `values`, got 1 "
     r"boundaries and 1 values"),
])
def test_error_bad_hyper_parameter(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_error_not_a_variable(backend):
    w = pycg.Variable([1.0], name="w")
    with pytest.raises(TypeError, match=r"^pycg.optimizers.Adam.apply: "
                       r"variable 1 is a pycg.tensor.Tensor, not a pycg.Variable; "
                       r"optimizers update Variables in place$"):
        pycg.optimizers.Adam().apply([w * 2.0, w * 2.0], [w, w * 1.0])


def test_error_gradient_of_the_wrong_shape(backend):
    w, b = pycg.Variable([1.0], name="w"), pycg.Variable([1.0, 2.0], name="b")
    with pytest.raises(ValueError, match=r"^pycg.optimizers.SGD.apply: the "
                       r"gradient for variable 1 \('b'\) has shape \(3,\) but "
                       r"the variable has shape \(2,\)$"):
        pycg.optimizers.SGD().apply([w * 1.0, pycg.ops.ones((3,))], [w, b])
    assert b.numpy().tolist() == [1.0, 2.0]


def test_error_gradient_of_the_wrong_dtype(backend):
    w = pycg.Variable([1.0], name="w")
    g = pycg.constant(np.array([1.0], np.float64))
    with pytest.raises(TypeError, match=r"^pycg.optimizers.RMSprop.apply: the "
                       r"gradient for variable 0 \('w'\) has dtype float64 "
                       r"but the variable has float32; cast the gradient$"):
        pycg.optimizers.RMSprop().apply([g], [w])


def test_error_integer_variable(backend):
    n = pycg.Variable([1], trainable=False, name="n")
    with pytest.raises(TypeError, match=r"variable 0 \('n'\) has dtype int32; "
                       r"optimizers update floating variables"):
        pycg.optimizers.SGD().apply([pycg.constant([1])], [n])


def test_error_variable_the_optimizer_was_not_built_with(backend):
    w, other = pycg.Variable([1.0], name="w"), pycg.Variable([1.0], name="u")
    opt = pycg.optimizers.Adam()
    opt.apply([w * 1.0], [w])
    with pytest.raises(ValueError, match=r"^pycg.optimizers.Adam.apply: "
                       r"variable 0 \('u'\) is not one of the 1 variables "
                       r"this optimizer was built with"):
        opt.apply([other * 1.0], [other])


def test_error_counts_and_empty_gradients(backend):
    w = pycg.Variable([1.0], name="w")
    opt = pycg.optimizers.SGD()
    with pytest.raises(ValueError, match=r"got 2 gradients for 1 variables"):
        opt.apply([w * 1.0, w * 1.0], [w])
    with pytest.raises(ValueError, match=r"no gradients provided for any "
                       r"variable \(all are None\)"):
        opt.apply([None], [w])
    with pytest.raises(ValueError, match=r"pass the variables on the first "
                       r"call"):
        pycg.optimizers.SGD().apply([w * 1.0])


def test_error_learning_rate_schedule_cannot_be_set(backend):
    opt = pycg.optimizers.SGD(
        learning_rate=pycg.optimizers.schedules.ExponentialDecay(0.1, 5, 0.5))
    with pytest.raises(TypeError, match=r"^pycg.optimizers.SGD: the learning "
                       r"rate is a schedule, so it cannot be set to a number"):
        opt.learning_rate = 0.1


def test_error_exclude_from_weight_decay_after_build(backend):
    w = pycg.Variable([1.0], name="w")
    opt = pycg.optimizers.AdamW()
    opt.apply([w * 1.0], [w])
    with pytest.raises(ValueError, match=r"^pycg.optimizers.AdamW."
                       r"exclude_from_weight_decay: call it before the "
                       r"optimizer is built"):
        opt.exclude_from_weight_decay(var_names=["w"])
