"""TensorFlow kernels that need help before pycg can use them: exp2 and
erfinv of half types, erf of huge float64 values (names of the tensorflow
backend)."""
import tensorflow as tf
from tensorflow.python.ops import gen_math_ops as _gen


def exp2(x):   # (tnp.exp2 converts a bfloat16 tensor through NumPy)
    return tf.math.pow(tf.constant(2, x.dtype), x)


def erfinv(x):   # (no half kernel on CPU: through float32, as Keras)
    if x.dtype in (tf.float16, tf.bfloat16):
        return tf.cast(tf.math.erfinv(tf.cast(x, tf.float32)), x.dtype)
    return tf.math.erfinv(x)


def erf(x):   # (TensorFlow's float64 kernel is nan for |x| >= 1.4e154)
    return _gen.erf(tf.clip_by_value(x, -6.0, 6.0) if x.dtype == tf.float64
                    else x)   # (erf(6) is 1 in float64)
