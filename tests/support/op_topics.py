"""Which topic of pycg/ops an op belongs to, so that its tests live in
tests/ops/test_<topic>.py beside pycg/ops/<topic>.py: a public op by the
topic module whose `__all__` exports it (pycg/ops/_exports.py's rule), a
private kernel with a rule of its own (no `__all__` names it) by the table
below."""
import importlib
import pathlib
import re

from pycg.ops import _exports

# the private kernels that have a VJP rule, by the topic that uses them
PRIVATE = {
    **dict.fromkeys(("_conv", "_conv_input_grad", "_conv_filter_grad"),
                    "convolution"),
    **dict.fromkeys(("_max_pool", "_max_pool_grad", "_max_pool_grad_grad",
                     "_avg_pool", "_avg_pool_grad"), "pooling"),
    **dict.fromkeys(("svd_packed", "_svdvals", "eigh_packed", "qr_packed"),
                    "decompositions"),
    **dict.fromkeys(("_fft", "_ifft"), "spectral"),
    **dict.fromkeys(("_tanh_grad", "_sigmoid_grad", "_relu_grad",
                     "_sqrt_grad", "_rsqrt_grad", "_reciprocal_grad"),
                    "elementwise"),
    "logabsdet": "linalg",
    **dict.fromkeys(("_copy", "_gather", "_scatter", "_sum_to",
                     "_slice_axis", "_pad_axis"), "manipulation"),
    **dict.fromkeys(("_i1", "_complex_from_pair"), "numeric"),
}

def merged(pattern, attr):
    """One table, keyed by op name, from the `attr` dict of every module
    tests/support/<pattern> (a name in two of them is an error)."""
    table = {}
    for path in sorted(pathlib.Path(__file__).parent.glob(pattern)):
        extra = getattr(importlib.import_module(f"support.{path.stem}"), attr)
        clash = set(extra) & set(table)
        assert not clash, f"{path.name} repeats cases for {sorted(clash)}"
        table.update(extra)
    return table


TOPICS = tuple(t.__name__.rsplit(".", 1)[1] for t in _exports._TOPICS)
TESTS = pathlib.Path(__file__).resolve().parent.parent / "ops"


def topic_of(name):
    """The topic of op `name` (the stem of pycg/ops/<topic>.py), or None."""
    for module in reversed(_exports._TOPICS):
        if name in module.__all__:
            return module.__name__.rsplit(".", 1)[1]
    return PRIVATE.get(name)


def of_topic(params, topic, name=lambda p: p.values[0]):
    """The pytest params (or names) of `params` whose op is of `topic`."""
    return [p for p in params if topic_of(name(p)) == topic]


def without_a_file(names, suite):
    """The names among `names` whose topic has no tests/ops/test_<topic>.py
    binding Test<suite> (tests/support/op_suites.py's for_topic): their
    cases would run nowhere."""
    def runs(name):
        path = TESTS / f"test_{topic_of(name)}.py"
        return path.exists() and re.search(
            rf"^[\w, ]*\bTest{suite}\b[\w, ]* = for_topic\(", path.read_text(),
            re.M)
    return sorted(n for n in names if not runs(n))


class TopicSuite:
    """A shared table's tests, for the ops of one topic (TOPIC, the stem of
    pycg/ops/<topic>.py): cases(method) gives [(argnames, values, ids)],
    which tests/ops/conftest.py applies, in order, after the backend
    fixture (ids as [backend-case])."""
    TOPIC = None

    @classmethod
    def cases(cls, method):
        raise NotImplementedError(f"{cls.__name__}.cases")

    @classmethod
    def named(cls, names):
        """The cases of a table keyed by op name: the topic's names."""
        return [("name", [n for n in names if topic_of(n) == cls.TOPIC], None)]

    def parametrize(self, metafunc):
        for argnames, values, ids in self.cases(metafunc.function.__name__):
            metafunc.parametrize(argnames, values, ids=ids)
