"""Second derivatives of the nn ops (finite differences of the first), by
op name: a topic's share runs in tests/ops/test_<topic>.py. f64 draws from
the one generator the cases were made from (tests/test_ops_nn.py's traced
cases take theirs from it too)."""
import numpy as np

import pycg
from pycg import ops
from support.op_topics import TopicSuite

RNG = np.random.default_rng(11)


def f64(*shape):
    return RNG.standard_normal(shape)


SECOND_ORDER = {
    "conv": (lambda x, k: ops.conv(x, k, strides=2, padding="same"),
             (f64(1, 4, 2), f64(2, 2, 2))),
    "conv_transpose": (lambda x, k: ops.conv_transpose(x, k, 2, "same"),
                       (f64(1, 3, 2), f64(2, 2, 2))),
    "depthwise_conv": (ops.depthwise_conv, (f64(1, 3, 3, 1),
                                            f64(2, 2, 1, 2))),
    "average_pool": (lambda x: ops.average_pool(x * x, 2, 1, "same"),
                     (f64(1, 3, 2),)),
    "layer_normalization": (ops.layer_normalization, (f64(2, 3), f64(3),
                                                      f64(3))),
    "sparse_categorical_crossentropy": (
        lambda z: ops.sparse_categorical_crossentropy(np.array([1, 0]), z,
                                                      from_logits=True),
        (f64(2, 3),)),
    "dot_product_attention": (ops.dot_product_attention,
                              (f64(1, 2, 1, 2), f64(1, 2, 1, 2),
                               f64(1, 2, 1, 2))),
    "selu": (ops.selu, (f64(2, 3),)),
    "ctc_loss": (lambda z: ops.ctc_loss(np.array([[1, 2]]), z, [2], [3]),
                 (f64(1, 3, 3),)),
}


class NnSecondOrderSuite(TopicSuite):
    """A topic's share of SECOND_ORDER, for tests/ops/test_<topic>.py
    (tests/support/op_suites.py)."""

    @classmethod
    def cases(cls, method):
        return cls.named(sorted(SECOND_ORDER))

    def test_second_order_matches_finite_differences(self, backend, name):
        fn, args = SECOND_ORDER[name]
        pycg.check_gradients(lambda *xs: ops.sum(fn(*xs)), *args, order=2)
