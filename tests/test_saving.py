"""pycg.save_variables / load_variables: a portable .npz of names and
values, with load checking names, shapes and dtypes."""
import numpy as np
import pytest

import pycg


def make_variables():
    return [pycg.Variable(np.arange(6.0, dtype=np.float32).reshape(2, 3),
                          name="dense/kernel"),
            pycg.Variable(np.array([0.5], np.float64), name="bias"),
            pycg.Variable(np.array(3, np.int32), trainable=False,
                          name="steps")]


def test_round_trip_restores_values_and_dtypes(tmp_path, backend):
    path = tmp_path / "weights.npz"
    saved = make_variables()
    assert pycg.save_variables(path, saved) == str(path)
    fresh = make_variables()
    for v in fresh:
        v.assign(np.zeros(v.shape, v.dtype))
    pycg.load_variables(path, fresh)
    for a, b in zip(saved, fresh):
        assert b.dtype == a.dtype
        np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_file_is_a_plain_npz_keyed_by_name(tmp_path, backend):
    path = tmp_path / "weights.npz"
    pycg.save_variables(path, make_variables())
    with np.load(path, allow_pickle=False) as data:
        assert data.files == ["dense/kernel", "bias", "steps"]
        np.testing.assert_array_equal(data["bias"], [0.5])


def test_unnamed_variables_are_named_by_position(tmp_path, backend):
    path = tmp_path / "w.npz"
    pycg.save_variables(path, [pycg.Variable([1.0]), pycg.Variable([2.0])])
    with np.load(path) as data:
        assert data.files == ["variable_0", "variable_1"]


def test_dict_gives_the_names(tmp_path, backend):
    path = tmp_path / "w.npz"
    a, b = pycg.Variable([1.0]), pycg.Variable([2.0])
    pycg.save_variables(path, {"a": a, "b": b})
    a.assign([0.0])
    pycg.load_variables(path, {"a": a, "b": b})
    assert a.numpy().tolist() == [1.0]


def test_saved_on_one_backend_loads_on_the_other(tmp_path):
    path = tmp_path / "w.npz"
    previous = pycg.config.backend()
    try:
        pycg.config.set_backend("tensorflow")
        pycg.save_variables(path, [pycg.Variable([1.5, 2.5], name="w")])
        pycg.config.set_backend("numpy")
        w = pycg.Variable([0.0, 0.0], name="w")
        pycg.load_variables(path, [w])
    finally:
        pycg.config.set_backend(previous)
    assert w.numpy().tolist() == [1.5, 2.5]


def test_optimizer_state_round_trips(tmp_path, backend):
    w = pycg.Variable([1.0, 2.0], name="w")
    opt = pycg.optimizers.Adam(learning_rate=0.1)
    opt.apply([pycg.constant([1.0, -1.0])], [w])
    path = tmp_path / "opt.npz"
    pycg.save_variables(path, [w] + opt.variables)
    w2 = pycg.Variable([0.0, 0.0], name="w")
    opt2 = pycg.optimizers.Adam(learning_rate=0.1)
    opt2.build([w2])
    pycg.load_variables(path, [w2] + opt2.variables)
    for o in (opt, opt2):
        o.apply([pycg.constant([0.5, 0.5])], [w if o is opt else w2])
    np.testing.assert_array_equal(w.numpy(), w2.numpy())
    assert int(opt2.iterations) == 2


# ---- errors ----------------------------------------------------------------
def test_error_names_differ(tmp_path, backend):
    path = tmp_path / "w.npz"
    pycg.save_variables(path, [pycg.Variable([1.0], name="a")])
    with pytest.raises(ValueError, match=r"^pycg.load_variables: the names in "
                       r".* do not match the variables: missing from the "
                       r"file: \['b'\]; in the file but not among the "
                       r"variables: \['a'\]$"):
        pycg.load_variables(path, [pycg.Variable([1.0], name="b")])


def test_error_shape_differs(tmp_path, backend):
    path = tmp_path / "w.npz"
    pycg.save_variables(path, [pycg.Variable([1.0, 2.0], name="w")])
    target = pycg.Variable([7.0, 7.0, 7.0], name="w")
    with pytest.raises(ValueError, match=r"^pycg.load_variables: 'w' has "
                       r"shape \(2,\) in the file but the variable has shape "
                       r"\(3,\)$"):
        pycg.load_variables(path, [target])
    assert target.numpy().tolist() == [7.0, 7.0, 7.0]


def test_error_dtype_differs_and_nothing_is_assigned(tmp_path, backend):
    path = tmp_path / "w.npz"
    pycg.save_variables(path, [pycg.Variable([1.0], name="a"),
                               pycg.Variable([1.0], name="b")])
    a = pycg.Variable([7.0], name="a")
    b = pycg.Variable(np.array([7.0]), name="b")
    with pytest.raises(TypeError, match=r"^pycg.load_variables: 'b' has dtype "
                       r"float32 in the file but the variable has float64$"):
        pycg.load_variables(path, [a, b])
    assert a.numpy().tolist() == [7.0]


def test_error_duplicate_names_and_non_variables(tmp_path, backend):
    path = tmp_path / "w.npz"
    with pytest.raises(ValueError, match=r"^pycg.save_variables: two "
                       r"variables are named 'w'; names must be unique"):
        pycg.save_variables(path, [pycg.Variable([1.0], name="w"),
                                   pycg.Variable([2.0], name="w")])
    with pytest.raises(TypeError, match=r"^pycg.save_variables: item 0 "
                       r"\(.variable_0.\) is a pycg.tensor.Tensor, not a "
                       r"pycg.Variable$"):
        pycg.save_variables(path, [pycg.constant([1.0])])


def test_error_not_an_npz_file(tmp_path, backend):
    path = tmp_path / "junk.npz"
    path.write_text("not a zip")
    with pytest.raises(ValueError, match=r"^pycg.load_variables: cannot read "
                       r".*junk.npz' as a .npz file of variables"):
        pycg.load_variables(path, [pycg.Variable([1.0], name="w")])
