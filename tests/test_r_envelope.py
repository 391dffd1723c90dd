"""R's 1-based positions held in a tensor, as the R package's as_index()
sends them (pycg/r/envelope.py): made 0-based once per tensor."""
import numpy as np
import pytest

import pycg
from pycg.r import envelope


def positions(t, arg="target"):
    return envelope.decode({envelope.INDEX_KEY: t, "arg": arg})


def test_positions_in_a_tensor_become_0_based(backend):
    out = positions(pycg.constant(np.array([1, 3, 2], np.int32)))
    np.testing.assert_array_equal(out.numpy(), [0, 2, 1])


def test_a_tensor_of_positions_is_made_0_based_once(backend):
    labels = pycg.constant(np.array([2, 1], np.int32))
    first = positions(labels)
    assert positions(labels) is first
    np.testing.assert_array_equal(first.numpy(), [1, 0])


def test_a_variable_of_positions_is_read_on_every_call(backend):
    v = pycg.Variable(np.array([2, 1], np.int32), trainable=False)
    np.testing.assert_array_equal(positions(v).numpy(), [1, 0])
    v.assign(np.array([1, 1], np.int32))
    np.testing.assert_array_equal(positions(v).numpy(), [0, 0])


def test_a_position_below_1_is_refused_naming_the_argument(backend):
    with pytest.raises(IndexError, match="`target` holds 0: positions are "
                                         "1-based"):
        positions(pycg.constant(np.array([0, 1], np.int32)))


def test_the_0_based_tensor_is_forgotten_with_its_tensor():
    labels = pycg.constant(np.array([1], np.int32))
    positions(labels)
    before = len(envelope._ZERO_BASED)
    del labels
    assert len(envelope._ZERO_BASED) == before - 1


def test_a_named_list_arrives_as_a_dict_keyed_by_its_names():
    # (as_py() sends the names as strings: R converts them to UTF-8)
    sent = {envelope.DICT_KEY: ["poids_\xe9", "b"],
            "values": [1.0, {envelope.TUPLE_KEY: [2, "x"]}]}
    assert envelope.decode(sent) == {"poids_\xe9": 1.0, "b": (2, "x")}
