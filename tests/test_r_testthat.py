"""The R package's testthat suite, run by Rscript against the installed
package (R_LIBS=.venv/lib/R), so that pytest reports both languages: one
pytest test per testthat file, the testthat summary printed. `make test`
runs this file in its R leg (make test-testthat), the suite's only run there
with Python (R CMD check runs with --no-tests)."""
import csv
import glob
import os
import shutil
import subprocess
import sys

import pytest

from support.r_bridge_helpers import ROOT, SETUP_HINT, r_env

TESTTHAT = os.path.join(ROOT, "tests", "testthat")
FILES = sorted(os.path.basename(p)
               for p in glob.glob(os.path.join(TESTTHAT, "test-*.R")))

RUN = r"""
suppressPackageStartupMessages(library(testthat))
options(testthat.summary.max_reports = 1000L,
        testthat.progress.max_fails = 1000L)
res <- test_dir(Sys.getenv("PYCG_TESTTHAT_DIR"), package = "pycg",
                load_package = "installed", stop_on_failure = FALSE,
                reporter = SummaryReporter$new(show_praise = FALSE))
df <- as.data.frame(res)
df$skip <- vapply(res, function(t) {
  skips <- Filter(function(e) inherits(e, "expectation_skip"), t$results)
  paste(vapply(skips, conditionMessage, ""), collapse = "; ")
}, "")
df$test <- gsub("[\t\n]", " ", df$test)
write.table(df[c("file", "test", "nb", "failed", "skipped", "error",
                 "warning", "skip")],
            Sys.getenv("PYCG_TESTTHAT_RESULTS"), sep = "\t", quote = FALSE,
            row.names = FALSE)
"""


@pytest.fixture(scope="module")
def testthat_run(tmp_path_factory):
    if shutil.which("Rscript") is None:
        pytest.fail(f"Rscript is not installed: {SETUP_HINT}")
    results = tmp_path_factory.mktemp("testthat") / "results.tsv"
    env = r_env()
    env.update(PYCG_TESTTHAT_DIR=TESTTHAT, PYCG_TESTTHAT_RESULTS=str(results),
               PYCG_PYTHON=env.get("PYCG_PYTHON", sys.executable))
    proc = subprocess.run(["Rscript", "-e", RUN], cwd=ROOT, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, timeout=1800)
    print(proc.stdout)
    if proc.returncode != 0 or not results.exists():
        pytest.fail(f"the testthat run did not finish (status "
                    f"{proc.returncode}); is the R package installed "
                    f"({SETUP_HINT})?\n{proc.stdout}")
    with open(results, newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t",
                                   quoting=csv.QUOTE_NONE))
    return rows, proc.stdout


def test_the_testthat_suite_has_tests(testthat_run):
    rows, output = testthat_run
    assert FILES, f"no test files in {TESTTHAT}"
    assert rows, f"testthat ran no test:\n{output}"


@pytest.mark.parametrize("name", FILES)
def test_testthat_file_passes(testthat_run, name):
    rows, output = testthat_run
    mine = [r for r in rows if r["file"] == name]
    failed = [r["test"] for r in mine
              if int(r["failed"]) or r["error"] == "TRUE"]
    skipped = [f"{r['test']}: {r['skip']}" for r in mine
               if r["skipped"] == "TRUE"]
    print(f"{name}: {len(mine)} tests, {len(failed)} failed, "
          f"{len(skipped)} skipped" + "".join(f"\n  skipped {s}"
                                              for s in skipped))
    assert mine, f"{name}: testthat ran none of its tests\n{output}"
    assert not failed, f"{name}: failed: {failed}\n{_reports(output, name)}"
    assert len(skipped) < len(mine), (
        f"{name}: every test skipped (did R find Python and pycg?): "
        f"{skipped}")


def _reports(output, name):
    """The blocks of testthat's summary that are about file `name`."""
    blocks = output.split("\n\u2500\u2500 ")
    return "\n".join("-- " + b for b in blocks if f"('{name}:" in b)
