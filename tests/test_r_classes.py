"""The R classes of pycg's objects stay as the R package knows them.

reticulate names an object's R classes after its Python class and bases:
`module.name` of each class in the MRO ("python.builtin.object" for
object). R's S3 methods (NAMESPACE), setOldClass and inherits() calls in R/
name those classes, so a class that moves to another module must keep its
`__module__`; these tests fail when one does not."""
import pathlib
import re

import pycg

ROOT = pathlib.Path(__file__).resolve().parent.parent


def r_classes(cls):
    """The class vector reticulate gives an instance of `cls`."""
    return [f"{c.__module__}.{c.__name__}".replace("builtins.",
                                                   "python.builtin.")
            for c in cls.__mro__]


def test_a_tensor_and_a_variable_keep_their_r_classes():
    mixins = ["pycg.tensor.PythonValue", "pycg.tensor.Operators",
              "typing.Generic", "python.builtin.object"]
    assert r_classes(pycg.Tensor) == ["pycg.tensor.Tensor", *mixins]
    assert r_classes(pycg.Variable) == ["pycg.tensor.Variable",
                                        "pycg.tensor.Tensor", *mixins]
    assert r_classes(type(pycg.constant(1.0)))[0] == "pycg.tensor.Tensor"


def test_a_gradient_tape_keeps_its_r_class():
    assert r_classes(pycg.GradientTape)[0] == "pycg.api.tape.GradientTape"


def _named_in_r():
    """The pycg.* classes the R package dispatches on or tests for: in
    NAMESPACE's S3method() lines, and quoted in R/'s inherits() and
    setOldClass() calls."""
    names = set(re.findall(r"^S3method\([^,]+,\s*(pycg(?:\.\w+)+)\)",
                           (ROOT / "NAMESPACE").read_text(), re.M))
    for path in sorted((ROOT / "R").glob("*.R")):
        for call in re.findall(r"(?:inherits|setOldClass)\([^)]*\)",
                               path.read_text()):
            names.update(re.findall(r'"(pycg(?:\.\w+)+)"', call))
    return names


def test_every_class_the_r_package_names_is_a_class_of_a_pycg_object():
    from pycg.r import interop   # (R's own helpers' results)
    known = {c for cls in (pycg.Variable, pycg.GradientTape, interop.Failure,
                           interop.Warned) for c in r_classes(cls)}
    named = _named_in_r()
    assert {"pycg.tensor.Tensor", "pycg.tensor.Variable"} <= named
    assert named - known == set()
