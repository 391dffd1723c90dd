"""The VJP rules of the convolution and pooling primitives
(pycg/ops/_machinery/conv_primitives.py). The input gradient of a convolution is a
transposed convolution and its kernel gradient a correlation; the three are
each other's transposes, so every order of derivative stays among them.
Max pooling's gradient routes dy to the cell of each window TensorFlow's
MaxPoolGrad picks (the first maximum; NaN and -inf windows as in
backends/numpy/_pooling.py), a choice that is locally constant in x: its
own gradient in x and y is zero (as TensorFlow's), and in dy it is the
gather max_pool_grad_grad."""
from pycg.core.recorder import defvjp
from pycg.ops._machinery import conv_primitives as P
from pycg.ops.creation import zeros_like


def _zero_x(g, ans, x, y, d, **_):
    return zeros_like(x)


def _zero_y(g, ans, x, y, d, **_):
    return zeros_like(y)


# ---- convolution: conv, its input transpose, its kernel transpose ----------
def _conv_x(g, ans, x, k, **p):
    return P.conv_input_grad(g, k, x.shape, **p)


def _conv_k(g, ans, x, k, **p):
    return P.conv_filter_grad(x, g, k.shape, **p)


def _input_grad_dy(g, ans, dy, k, shape, **p):
    return P.conv(g, k, **p)


def _input_grad_k(g, ans, dy, k, shape, **p):
    return P.conv_filter_grad(g, dy, k.shape, **p)


def _filter_grad_x(g, ans, x, dy, shape, **p):
    return P.conv_input_grad(dy, g, x.shape, **p)


def _filter_grad_dy(g, ans, x, dy, shape, **p):
    return P.conv(x, g, **p)


defvjp("_conv", _conv_x, _conv_k)
defvjp("_conv_input_grad", _input_grad_dy, _input_grad_k)
defvjp("_conv_filter_grad", _filter_grad_x, _filter_grad_dy)


# ---- pooling -------------------------------------------------------------------
defvjp("_max_pool", lambda g, ans, x, **p: P.max_pool_grad(x, ans, g, **p))
defvjp("_max_pool_grad", _zero_x, _zero_y,
       lambda g, ans, x, y, dy, **p: P.max_pool_grad_grad(x, y, g, **p))
defvjp("_max_pool_grad_grad", _zero_x, _zero_y,
       lambda g, ans, x, y, ddx, **p: P.max_pool_grad(x, y, g, **p))
defvjp("_avg_pool", lambda g, ans, x, **p: P.avg_pool_grad(g, x.shape, **p))
defvjp("_avg_pool_grad", lambda g, ans, dy, shape, **p: P.avg_pool(g, **p))
