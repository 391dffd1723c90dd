"""The tests of pycg/ops/spectral.py (the shared tables' suites:
tests/support/op_suites.py)."""
import numpy as np

from pycg import ops
from support.keras_inputs import SIG
from support.op_suites import KerasNumpy, Vjp, for_topic

TestKerasNumpy, TestVjp = for_topic("spectral", KerasNumpy, Vjp)


def test_istft_inverts_stft_away_from_the_ends(backend):
    # (at the ends fewer frames overlap than the inverse window assumes)
    spec = ops.stft(SIG, 8, 2, 8)
    got = ops.istft(spec, 8, 2, 8, length=32).numpy()
    np.testing.assert_allclose(got[4:-4], SIG[4:-4], atol=1e-5)
