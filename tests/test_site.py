"""The documentation site (`make docs`, tools/site/): built once into a
temporary folder, checked against R's own list of exports and help aliases
and against the Python package's public names, loaded in headless Chromium
(screenshots kept in .venv/site-test/), and broken on purpose in copies to
see each kind of fault fail the build with its page's name.

`make test` runs this file after the R checks (test-r), not with the other
Python tests: the build takes one to two minutes, which the R leg has to
spare. It needs pkgdown and Chromium (tools/setup-system.sh)."""
import json
import math
import pathlib
import re
import shutil
import subprocess
import sys
import time

import pytest

from support.r_bridge_helpers import ROOT, SETUP_HINT, r_env

ROOT = pathlib.Path(ROOT)
sys.path.insert(0, str(ROOT / "tools" / "site"))
import browser  # noqa: E402
import build  # noqa: E402
import check  # noqa: E402

ARTIFACTS = ROOT / ".venv" / "site-test"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    for tool in ("Rscript", "pandoc"):
        if shutil.which(tool) is None:
            pytest.fail(f"{tool} is not installed: {SETUP_HINT}")
    out = tmp_path_factory.mktemp("site") / "site"
    start = time.monotonic()
    (topics, exports, py, r_to_py, entries), times = build.build(out)
    times["build"] = time.monotonic() - start
    report = check.check(out, topics, exports, py, r_to_py)
    print(build.summary(report, entries, times))
    return out, report, py


def _r(code):
    """Runs R code against the installed R package; its output lines."""
    proc = subprocess.run(["Rscript", "-e", code], env=r_env(), cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout.splitlines()


def test_the_built_site_has_no_broken_link_missing_page_or_failed_example(
        site):
    out, report, _ = site
    assert report.problems == []
    assert report.links > 10000
    assert report.pages["R reference"] >= 50
    assert report.pages["articles"] >= 6   # 5 vignettes and their index
    assert report.pages["guides"] == len(list((ROOT / "docs").glob("*.md")))


def test_every_r_export_is_on_a_reference_page_the_index_lists(site):
    out = site[0]
    # R's own view: the installed package's exports and its help aliases
    exports = [n for n in _r('cat(getNamespaceExports("pycg"), sep="\\n")')
               if not n.startswith(".__")]
    rows = _r('db <- tools::Rd_db("pycg"); for (f in names(db)) '
              'cat(paste0(sub("[.]Rd$", "", f), "\\t", tools:::'
              '.Rd_get_metadata(db[[f]], "alias"), "\\n"), sep = "")')
    page = {}
    for row in rows:
        rd, alias = row.split("\t")
        page.setdefault(alias, rd)
        page.setdefault(alias.split(",")[0], rd)   # an S4 method's generic
    index = (out / "reference" / "index.html").read_text()
    assert len(exports) > 300
    missing = [n for n in exports if n not in page
               or not (out / "reference" / f"{page[n]}.html").is_file()
               or f'href="{page[n]}.html"' not in index]
    assert missing == []


def test_every_public_python_name_has_its_page_and_anchor(site):
    out, _, py = site
    from test_api_docs import PUBLIC   # the surface pycg's docs test keeps
    assert {name for name, _ in PUBLIC} <= set(py)
    absent = []
    for v in py.values():
        page = out / v.page
        if not page.is_file() or v.anchor and \
                f'id="{v.anchor}"' not in page.read_text():
            absent.append(v.full)
    assert absent == []
    assert len(py) > 450


def test_op_logsumexp_and_pycg_ops_logsumexp_link_each_other(site):
    out = site[0]
    r_page = (out / "reference" / "ops-nn.html").read_text()
    assert 'href="../python/pycg/ops.html#logsumexp"' in r_page
    py_page = (out / "python" / "pycg" / "ops.html").read_text()
    entry = py_page.split('<section id="logsumexp">')[1].split("</section>")[0]
    assert 'href="../../reference/ops-nn.html"><code>op_logsumexp()' in entry
    grouped = (out / "python" / "index.html").read_text()
    row = grouped.split('ops.html#logsumexp"')[1].split("</dd>")[0]
    assert 'href="../reference/ops-nn.html"><code>op_logsumexp()' in row


def test_the_search_index_holds_both_languages_and_the_prose(site):
    out = site[0]
    text = (out / "search-index.js").read_text()
    rows = json.loads(text[text.index("["):text.rindex("]") + 1])
    by_title = {r[1]: r for r in rows}
    assert by_title["op_logsumexp()"][2] == "reference/ops-nn.html"
    assert by_title["pycg.ops.logsumexp"][2] == \
        "python/pycg/ops.html#logsumexp"
    assert {r[0] for r in rows} == {"R", "Python", "Article", "Guide",
                                    "Page"}


def test_the_articles_formulas_are_mathml_with_no_tex_left_for_mathjax(site):
    out = site[0]
    pages = {p.name: p.read_text() for p in (out / "articles").glob("*.html")}
    assert not [n for n, text in pages.items() if 'class="math' in text]
    cookbook = pages["custom-gradients.html"]
    assert cookbook.count("<math ") >= 4
    assert '<mi mathvariant="normal">lse</mi>' in cookbook   # \mathrm{lse}
    assert "mathjax" not in "".join(pages.values()).lower()


def test_pages_render_in_chromium_without_errors_and_search_offline(site):
    out = site[0]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    shots = {"index.html": ARTIFACTS / "landing.png",
             "reference/ops-nn.html": ARTIFACTS / "reference-ops-nn.png",
             "python/pycg/ops.html": None, "articles/pycg.html": None}
    with browser.Chromium() as chromium:
        for page, shot in shots.items():
            assert chromium.visit(out / page, screenshot=shot) == [], page
            if page == "index.html":
                # the figure loaded, and the search works from file://
                assert chromium.evaluate(
                    "document.querySelector('img[src$=\"gradient-1.png\"]')"
                    ".naturalWidth") > 300
                hits = dict(chromium.search("logsumexp"))
                assert hits["op_logsumexp()"].endswith(
                    "/reference/ops-nn.html")
                assert hits["pycg.ops.logsumexp"].endswith(
                    "/python/pycg/ops.html#logsumexp")
            if page == "reference/ops-nn.html":   # examples with output
                assert "[1] 1.407606" in chromium.evaluate(
                    "document.querySelector('#ref-examples').parentNode"
                    ".innerText")
                assert chromium.evaluate(
                    "document.querySelectorAll('#toc a').length") >= 5
            if page == "python/pycg/ops.html":
                assert dict(chromium.search("softplus"))
    for shot in filter(None, shots.values()):
        assert shot.stat().st_size > 20000
        print(f"screenshot: {shot}")


def _blocks(language):
    text = (ROOT / "pkgdown" / "index.md").read_text()
    return re.findall(rf"```{language}\n(.*?)```", text, re.S)


def test_the_landing_pages_examples_give_the_slope_they_claim():
    slope = 1 / (1 + math.exp(-100.0))   # d/dx log(1 + exp(x)) at 100
    python, = _blocks("python")
    proc = subprocess.run([sys.executable, "-c", python], env=r_env(),
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert float(proc.stdout.split()[-1]) == pytest.approx(slope)
    r, = _blocks("r")
    assert _r(r)[-1] == "[1] 1" and slope == 1.0


def _broken_copy(site, tmp_path):
    copy = tmp_path / "site"
    shutil.copytree(site[0], copy)
    return copy


def _check(path, capsys):
    status = build.main([str(path), "--check-only"])
    return status, capsys.readouterr().err


def test_a_broken_link_image_or_anchor_fails_naming_its_page(
        site, tmp_path, capsys):
    copy = _broken_copy(site, tmp_path)
    for page, html in [("guides/training.html", '<a href="nowhere.html">x</a>'),
                       ("articles/pycg.html", '<img src="gone.png">'),
                       ("index.html", '<a href="reference/ops-nn.html#no">'
                                      "x</a>")]:
        path = copy / page
        path.write_text(path.read_text().replace("</main>", html + "</main>"))
    status, err = _check(copy, capsys)
    assert status == 1
    assert "guides/training.html: nowhere.html leads to a page that does " \
        "not exist (guides/nowhere.html)" in err
    assert "articles/pycg.html: gone.png leads to a page that does not " \
        "exist (articles/gone.png)" in err
    assert "index.html: reference/ops-nn.html#no leads to #no, which " \
        "reference/ops-nn.html does not have" in err


def test_a_missing_page_fails_naming_it_and_the_names_it_documents(
        site, tmp_path, capsys):
    copy = _broken_copy(site, tmp_path)
    (copy / "reference" / "ops-nn.html").unlink()
    (copy / "python" / "pycg" / "random.html").unlink()
    status, err = _check(copy, capsys)
    assert status == 1
    assert "reference/ops-nn.html: missing, the help page of the exported " \
        "R function op_logsumexp" in err
    assert "python/pycg/random.html: missing, the page of the public " \
        "Python name pycg.random.normal" in err
    assert "reference/index.html: ops-nn.html leads to a page that does " \
        "not exist" in err


def _package_copy(tmp_path):
    """The files pkgdown reads, copied, to break one of them."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    for name in ("DESCRIPTION", "NAMESPACE", "LICENSE", "_pkgdown.yml"):
        shutil.copy(ROOT / name, pkg / name)
    for folder in ("man", "pkgdown", "docs"):
        shutil.copytree(ROOT / folder, pkg / folder)
    return pkg


def test_an_example_that_stops_with_an_error_fails_naming_its_page(
        tmp_path, capsys):
    pkg = _package_copy(tmp_path)
    rd = pkg / "man" / "tuple.Rd"
    rd.write_text(rd.read_text().replace(
        "\\examples{", '\\examples{\nstop("the example broke")\n', 1))
    out = tmp_path / "site"
    out.mkdir()
    run = build.run_r(out, ["init", "reference"], ["tuple"], package=pkg)
    assert run.returncode == 0
    status, err = _check(out, capsys)
    assert status == 1
    assert "reference/tuple.html: its example (man/tuple.Rd) stopped with " \
        "an error: Error in eval(expr, envir, enclos): the example broke" \
        in err


def test_a_help_page_no_section_selects_stops_the_build_naming_it(
        tmp_path):
    pkg = _package_copy(tmp_path)
    config = pkg / "_pkgdown.yml"
    config.write_text(config.read_text().replace("  - tuple\n", ""))
    out = tmp_path / "site"
    out.mkdir()
    run = build.run_r(out, ["init", "index"], package=pkg, capture_output=True,
                      text=True)
    assert run.returncode != 0
    assert "Missing topics: tuple" in run.stdout + run.stderr


def test_a_new_page_of_ops_lands_under_ops_with_no_edit(tmp_path):
    pkg = _package_copy(tmp_path)
    rd = (ROOT / "man" / "ops-einops.Rd").read_text()
    (pkg / "man" / "ops-newtopic.Rd").write_text(
        rd.replace("{ops-einops}", "{ops-newtopic}"))
    out = tmp_path / "site"
    out.mkdir()
    assert build.run_r(out, ["init", "index"], package=pkg).returncode == 0
    index = (out / "reference" / "index.html").read_text()
    ops = index.split('<h2 id="ops">')[1].split("<h3")[0]
    assert 'href="ops-newtopic.html"' in ops


def test_a_broken_link_in_a_guide_fails_naming_the_guide(tmp_path, capsys):
    pkg = _package_copy(tmp_path)
    (pkg / "docs" / "broken.md").write_text(
        "# A broken guide\n\nSee [the other one](nowhere.md).\n")
    out = tmp_path / "site"
    out.mkdir()
    assert build.run_r(out, ["init", "guides"], package=pkg).returncode == 0
    status, err = _check(out, capsys)
    assert status == 1
    assert "guides/broken.html: nowhere.html leads to a page that does " \
        "not exist (guides/nowhere.html)" in err
