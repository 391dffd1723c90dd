"""tools/gen_r_ops.py: the R op wrappers are made from pycg.ops, and its
--check names the op whose R file drifted."""
import importlib.util
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def gen():
    spec = importlib.util.spec_from_file_location(
        "gen_r_ops", ROOT / "tools" / "gen_r_ops.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def files(gen):
    return gen.generate()


def test_the_r_wrappers_are_what_the_generator_makes(gen, files):
    assert gen.stale(files) == [], "run python tools/gen_r_ops.py"


def test_every_op_has_a_generated_or_hand_kept_wrapper(gen, files):
    import pycg.ops
    made = set()
    for text in files.values():
        made |= set(gen.split_fns(text))
    assert made.isdisjoint(gen.hand_kept())
    assert made | gen.hand_kept() == {f"op_{n}" for n in pycg.ops.__all__}


def test_the_check_names_the_op_that_drifted(gen, files, tmp_path):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    numeric = tmp_path / "ops-numeric.R"
    numeric.write_text(numeric.read_text().replace(
        'op_call("cbrt", as_py(x))', 'op_call("cbrt", x)'))
    assert gen.stale(files, str(tmp_path)) == ["R/ops-numeric.R: op_cbrt"]


def test_a_new_op_gets_its_conversions_and_1_based_defaults(gen, files):
    def fake(x, indices, axis=0, keepdims=False, dtype=None, mask_index=0):
        """A new op."""
    ops = gen.Ops({"faces": {}})
    assert ops.wrapper("fake", fake) == (
        "op_fake <- function(x, indices, axis = 1L, keepdims = FALSE, "
        "dtype = NULL,\n"
        "    mask_index = 1L) {\n"
        '  op_call("fake", as_py(x), as_index(indices), axis = as_axis(axis),\n'
        "          keepdims = as_flag(keepdims), dtype = as_dtype(dtype),\n"
        '          mask_index = as_index(mask_index, "mask_index"))\n'
        "}")


def test_a_parameter_no_page_describes_gets_the_docstring_text(gen):
    page = {"title": "T", "params": [["x", "A tensor."]], "return": "R."}
    block = gen.page_block("ops-t", page, ["x", "step"],
                           {"x": "unused", "step": "The step."})
    assert "#' @param x A tensor.\n#' @param step The step.\n" in block


def test_docstring_args_read_each_parameter_and_its_continuation(gen):
    def f(x, initial=None):
        """Sum.

        Args:
            initial: A lower bound of the answer (None: none). Needed over
                an empty axis.

        Returns:
            A tensor.
        """
    assert gen.docstring_args(f) == {
        "initial": "A lower bound of the answer (None: none). Needed over "
                   "an empty axis."}
