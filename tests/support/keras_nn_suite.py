"""pycg.ops' nn names against keras.ops itself (TensorFlow backend), on
each pycg backend: a topic's share of tests/support/keras_nn_cases.py's
CALLS, run in tests/ops/test_<topic>.py."""
import functools
import os

os.environ["KERAS_BACKEND"] = "tensorflow"

import keras  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
import tensorflow as tf  # noqa: E402

from pycg import ops  # noqa: E402
from support.keras_nn_cases import CALLS  # noqa: E402
from support.op_topics import TopicSuite, topic_of  # noqa: E402


def _np(v):
    if isinstance(v, (tuple, list)):
        return [_np(a) for a in v]
    return np.asarray(v.numpy() if hasattr(v, "numpy") else v)


def _id(call):
    name, _, kw = call
    return name + ("[" + ",".join(sorted(kw)) + "]" if kw else "")


def _cpu_kernels_refuse(name, kw):
    """Whether TensorFlow's own CPU kernels refuse this call where oneDNN is
    off (CPUs without AVX-512, or TF_ENABLE_ONEDNN_OPTS=0): Conv2D and its
    input gradient take channels-last only, and the input gradient no
    dilation. Keras on TensorFlow passes such calls straight to them."""
    dilated = np.any(np.asarray(kw.get("dilation_rate", 1)) > 1)
    return name in ("conv", "conv_transpose") and (
        kw.get("data_format") == "channels_first" or
        (name == "conv_transpose" and dilated))


@functools.lru_cache(maxsize=None)
def _keras(index):
    """keras.ops' answer for CALLS[index]. Where this CPU's TensorFlow kernels
    refuse the call, the same Keras function is compiled by XLA, whose CPU
    convolutions take every layout and dilation: still Keras' own formula,
    computed without pycg, on every CPU."""
    name, args, kw = CALLS[index]
    fn = functools.partial(getattr(keras.ops, name), **kw)
    if _cpu_kernels_refuse(name, kw):
        fn = tf.function(fn, jit_compile=True)
    return _np(fn(*[keras.ops.convert_to_tensor(a)
                    if isinstance(a, np.ndarray) else a for a in args]))



class KerasNnSuite(TopicSuite):
    """A topic's share of CALLS (by index, with the call's id), for
    tests/ops/test_<topic>.py (tests/support/op_suites.py)."""

    @classmethod
    def cases(cls, method):
        mine = [i for i, c in enumerate(CALLS) if topic_of(c[0]) == cls.TOPIC]
        return [("index", mine, [_id(CALLS[i]) for i in mine])]

    @pytest.mark.filterwarnings("ignore:You passed `rms_scaling=True`")
    def test_matches_keras_ops(self, backend, index):
        name, args, kw = CALLS[index]
        got = _np(getattr(ops, name)(*args, **kw))
        want = _keras(index)
        if not isinstance(want, list):
            got, want = [got], [want]
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert g.shape == w.shape, name
            assert g.dtype == w.dtype, name
            np.testing.assert_allclose(g, w, rtol=2e-5, atol=2e-6,
                                       err_msg=name)
