"""TensorFlow kernels of the activations and their fused gradients
(TanhGrad, SigmoidGrad, ReluGrad, SqrtGrad, ...)."""
import tensorflow as tf
from tensorflow.python.ops import gen_math_ops as _gen
from tensorflow.python.ops import gen_nn_ops as _gen_nn

from pycg.backends.tensorflow._fast import fast as _fast

sigmoid = _fast("Sigmoid", _gen.sigmoid)
softplus = tf.math.softplus
relu = tf.nn.relu
log_softmax = tf.nn.log_softmax   # (fused; numpy composes it in ops.nn)


# TensorFlow's fused gradient kernels
tanh_grad = _fast("TanhGrad", _gen.tanh_grad, 2)
sigmoid_grad = _fast("SigmoidGrad", _gen.sigmoid_grad, 2)
relu_grad = _fast("ReluGrad", _gen_nn.relu_grad, 2)
sqrt_grad = _fast("SqrtGrad", _gen.sqrt_grad, 2)   # (0 where dy is 0)
rsqrt_grad = _fast("RsqrtGrad", _gen.rsqrt_grad, 2)
reciprocal_grad = _fast("ReciprocalGrad", _gen.reciprocal_grad, 2)
