"""What the README, the landing page (pkgdown/index.md), the vignettes and
the package metadata claim, checked against what the code does and against
each other (issue 47):

- the first rule in each language prints what its comments say (the rule's
  1, the naive gradient's NaN), and those values are the closed forms';
- the float32 numbers of "the whole picture" (the naive gradient silently 0
  from 87.3, NaN from 88.7) are where float32's limits put them and where
  pycg's naive gradient changes;
- every statement of what pycg is names the backends pycg.backends has;
- the release conventions: one version in the three places, the changelog
  for each language with that version, the authors, a maintainer address
  that is not made up (no example.org), and the troubleshooting guide named
  by pycg_config()'s advice and the R messages that name a fix."""
import math
import pathlib
import re
import subprocess
import sys

import numpy as np
import pytest

import pycg
from support import doc_examples
from support.r_bridge_helpers import r_env

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIRST_RULE_PAGES = ["README.md", "pkgdown/index.md"]


def _run(cmd, **kw):
    proc = subprocess.run(cmd, env=r_env(), cwd=ROOT, capture_output=True,
                          text=True, timeout=300, **kw)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout


def test_the_closed_forms_the_first_rule_is_about():
    # float32's exp(100) overflows, so the chain rule op by op is 0 * inf
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.exp(np.float32(100))
        naive = np.float32(1) / (np.float32(1) + e) * e
    assert np.isinf(e) and np.isnan(naive)
    # the rule 1 - 1 / (1 + e) is the slope 1 / (1 + exp(-x)), 1 at 100
    assert 1 - 1 / (1 + e) == 1 / (1 + math.exp(-100.0)) == 1.0


def _outputs(runner, codes, separator):
    """Each code's printed lines, all run in one process (TensorFlow and
    R start once)."""
    out = _run(runner(separator.join(codes)))
    return [doc_examples.printed(part) for part in out.split("--page--\n")]


def test_the_first_python_rule_prints_what_its_comments_say():
    codes = [doc_examples.first_rule(p, "python") for p in FIRST_RULE_PAGES]
    for code in codes:
        assert doc_examples.promised(code, "python") == ["1.0", "nan"]
    # each page's code in a namespace of its own
    driver = "\nprint('--page--')\n".join(
        f"exec({code!r}, {{}})" for code in codes)
    outputs = _outputs(lambda c: [sys.executable, "-c", c], [driver], "")
    assert outputs == [["1.0", "nan"]] * len(codes)


def test_the_readmes_forward_rule_prints_what_its_comments_say():
    # (the README's "Forward rules" block: pycg.custom_jvp's tangent and its
    # transposed gradient of log1pexp at 100 in float32, the slope 1)
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Forward rules\n", 1)[1].split("\n## ", 1)[0]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    assert "pycg.custom_jvp" in code
    assert doc_examples.promised(code, "python") == ["1.0", "1.0"]
    out = _run([sys.executable, "-c", code])
    assert doc_examples.printed(out) == ["1.0", "1.0"]


def test_the_first_r_rule_prints_what_its_comments_say():
    codes = [doc_examples.first_rule(p, "r") for p in FIRST_RULE_PAGES]
    for code in codes:
        assert 'dtype = "float32"' in code   # R numbers are float64: no NaN
        assert doc_examples.promised(code, "r") == ["[1] 1", "[1] NaN"]
    # each page's code in an environment of its own
    driver = '\ncat("--page--\\n")\n'.join(
        f'source(exprs = parse(text = r"---[{code}]---"), local = new.env(), '
        "print.eval = TRUE)" for code in codes)
    outputs = _outputs(lambda c: ["Rscript", "-e", c], [driver], "")
    assert outputs == [["[1] 1", "[1] NaN"]] * len(codes)


def test_the_quickstart_opens_with_the_install_and_a_rule_and_its_output():
    text = (ROOT / "docs" / "python-quickstart.md").read_text()
    head = text.split("\n## ", 3)
    assert head[1].startswith("Install") and "pip install" in head[1]
    assert head[2].startswith("A first rule")
    code = doc_examples.first_rule("docs/python-quickstart.md", "python")
    assert doc_examples.promised(code, "python")[0] == "1.0"
    assert doc_examples.printed(_run([sys.executable, "-c", code]))[0] == \
        "1.0"
    assert "tests/test_quickstart.py" not in text.split("\n## ", 3)[1]


def _naive_gradient(xs):
    """d/dx log(1 + exp(x)) op by op, on the TensorFlow backend (the one the
    figure is computed on)."""
    from pycg import ops
    with _backend("tensorflow"):
        x = pycg.constant(np.asarray(xs, np.float32))
        with pycg.GradientTape() as tape:
            tape.watch(x)
            y = ops.sum(ops.log(1 + ops.exp(x)))
        return np.asarray(tape.gradient(y, x))


class _backend:
    def __init__(self, name):
        self.name = name

    def __enter__(self):
        self.old = pycg.config.backend()
        pycg.config.set_backend(self.name)

    def __exit__(self, *exc):
        pycg.config.set_backend(self.old)


def test_the_whole_picture_numbers_are_float32s_limits_and_pycgs():
    # 1 / (1 + e^x) is below float32's smallest normal 2^-126 (which
    # TensorFlow flushes to 0) from 126 log 2; e^x overflows from log(max)
    zero_from = 126 * math.log(2)
    nan_from = math.log(np.finfo(np.float32).max)
    assert round(zero_from, 1) == 87.3 and round(nan_from, 1) == 88.7
    xs = np.arange(86.0, 90.0, 0.01, dtype=np.float32)
    with np.errstate(all="ignore"):
        g = _naive_gradient(xs)
    assert xs[g == 0].min() == pytest.approx(zero_from, abs=0.011)
    assert xs[np.isnan(g)].min() == pytest.approx(nan_from, abs=0.011)
    assert (g[xs < zero_from - 0.01] > 0.99).all()
    for page in ("pkgdown/index.md", "vignettes/pycg.Rmd.orig"):
        text = " ".join((ROOT / page).read_text().split())
        assert "87.3" in text and "88.7" in text, page
        assert "silently 0" in text, page
        assert "agree until" not in text, page
    # the knitted vignette prints the band of zeros on its 0.25 grid
    grid = np.arange(-20, 120.25, 0.25)
    band = grid[(grid > zero_from) & (grid < nan_from)]
    knitted = (ROOT / "vignettes" / "pycg.Rmd").read_text()
    assert f"#> [1] {band.min():g} {band.max():g}" in knitted


# Where each text says what pycg is, and how it quotes each backend's name
BACKEND_TEXTS = {
    "DESCRIPTION": (r"Works on the (.*?) backends\.", r"'(\w+)'"),
    "README.md": (r"kernel backends \((.*?)\)", r"`(\w+)`"),
    "pkgdown/index.md": (r"kernel backends \((.*?)\)", r"`(\w+)`"),
    "vignettes/pycg.Rmd.orig": (r"kernel backends \((.*?)\)", r"`(\w+)`"),
    "pycg/__init__.py": (r"kernels of its backends \((.*?)\)", r"`(\w+)`"),
    "pyproject.toml": (r'description = ".*?backends \((.*?)\)', r"`(\w+)`"),
}


def _named_backends(text, sentence, name):
    found = re.search(sentence, " ".join(text.split()))
    return sorted(re.findall(name, found.group(1))) if found else None


@pytest.mark.parametrize("path", sorted(BACKEND_TEXTS))
def test_each_statement_of_what_pycg_is_names_its_backends(path):
    text = pycg.__doc__ if path == "pycg/__init__.py" else \
        (ROOT / path).read_text()
    assert _named_backends(text, *BACKEND_TEXTS[path]) == \
        sorted(pycg.backends.NAMES)


def test_the_backend_finder_reads_a_sentence_over_lines():
    assert _named_backends("Works on the 'numpy' and\n    'jax' backends.",
                           *BACKEND_TEXTS["DESCRIPTION"]) == ["jax", "numpy"]
    assert _named_backends("kernel backends (`numpy` and `jax`)",
                           *BACKEND_TEXTS["README.md"]) == ["jax", "numpy"]


def _field(name):
    text = (ROOT / "DESCRIPTION").read_text()
    found = re.search(rf"^{name}:(.*?)(?=^\S|\Z)", text, re.M | re.S)
    return " ".join(found.group(1).split())


def test_one_version_and_a_changelog_for_each_language_that_has_it():
    version = _field("Version")
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert f'version = "{version}"' in pyproject
    assert pycg.__version__ == version
    news = (ROOT / "NEWS.md").read_text()
    assert news.startswith(f"# pycg {version}\n")   # pkgdown's NEWS form
    changelog = (ROOT / "CHANGELOG.md").read_text()
    assert f"\n## {version}\n" in changelog
    assert "issue 47" not in news   # themes for users, not issue numbers


def test_the_authors_are_real_and_no_address_is_made_up():
    authors = _field("Authors@R")
    assert "The pycg developers" in authors
    citation = (ROOT / "inst" / "CITATION").read_text()
    assert 'person("The pycg developers")' in citation
    assert 'authors = [{ name = "The pycg developers" }]' in \
        (ROOT / "pyproject.toml").read_text()
    for path in ("DESCRIPTION", "inst/CITATION", "pyproject.toml",
                 "LICENSE", "LICENSE.md"):
        text = (ROOT / path).read_text()
        assert "example.org" not in text and "pycg authors" not in text, path
    # an address R needs for its maintainer, on the domain that RFC 2606
    # keeps for names that never work, so it cannot pass for a real one
    email = re.search(r'email = "([^"]+)"', authors).group(1)
    assert email.endswith(".invalid")


def test_the_troubleshooting_guide_is_where_the_fixes_send_readers():
    guide = (ROOT / "docs" / "troubleshooting.md").read_text()
    for topic in ("reticulate 1.28", "NumPy 2", "rpy2 3.5.17", "3.6.6",
                  "R 4.5", "torch==2.13.0+cpu", "TF_ENABLE_ONEDNN_OPTS",
                  "pycg-autodiff"):
        assert topic in guide, topic
    # what pycg_config() prints when something is wrong, and the R errors
    # and hints that name a fix, each end by naming the guide
    out = _run(["Rscript", "-e", """
      info <- list(r_package = "9.9.9", pycg_version = "0.0.1",
                   versions_match = FALSE, python = "/x/bin/python",
                   python_version = "3.11", chosen_by = "test",
                   pycg_path = "/x", backend = "numpy", tensorflow = NA,
                   numpy = "2", bundled_sources = NA, recorded = NA)
      info$problems <- pycg:::config_problems(info)
      pycg:::print_config(info)
      cat("--\\n")
      for (f in list(function() pycg:::stop_no_pycg("why"),
                     function() pycg:::stop_python_started("why")))
        cat(tryCatch(f(), error = conditionMessage), "\\n--\\n")
      cat(pycg:::install_hint(), "\\n")
    """])
    parts = [" ".join(p.split()) for p in out.split("--\n")]
    assert len(parts) == 4
    for part in parts:
        assert "docs/troubleshooting.md" in part, part


def test_a_backend_that_is_not_installed_names_the_troubleshooting_guide():
    code = ("import sys; sys.modules['torch'] = None\n"
            "import pycg\n"
            "try:\n"
            "    pycg.config.set_backend('torch')\n"
            "except ModuleNotFoundError as e:\n"
            "    print(e)\n")
    out = _run([sys.executable, "-c", code])
    assert "the 'torch' backend needs PyTorch" in out
    assert "docs/troubleshooting.md" in out


@pytest.mark.parametrize("api, module", [
    ("to_tensorflow", "tensorflow"), ("to_jax", "jax"), ("to_torch", "torch"),
    ("to_keras", "keras")])
def test_a_bridge_whose_framework_is_not_installed_names_the_guide(api,
                                                                   module):
    code = (f"import sys; sys.modules[{module!r}] = None\n"
            "import pycg\n"
            "try:\n"
            f"    pycg.{api}(lambda x: x)\n"
            "except ImportError as e:\n"
            "    print(e)\n")
    out = " ".join(_run([sys.executable, "-c", code]).split())
    assert out.startswith(f"pycg.{api}(<lambda>): "), out
    assert "is not installed" in out and \
        out.endswith("(installing it: docs/troubleshooting.md)"), out


def test_pycg_r_without_rpy2_names_the_guide():
    from pycg.r import _session
    assert "docs/troubleshooting.md" in _session._INSTALL_HINT
    assert (ROOT / "docs/troubleshooting.md").read_text().count("rpy2") > 2
