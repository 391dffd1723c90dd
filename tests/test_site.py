"""The documentation site (`make docs`, tools/site/): built once into a
temporary folder, checked against R's own list of exports and help aliases
and against the Python package's public names, loaded in headless Chromium
(screenshots kept in .venv/site-test/), and broken on purpose in copies to
see each kind of fault fail the build with its page's name.

`make test` runs this file after the R checks (test-r), not with the other
Python tests: the build takes one to two minutes, which the R leg has to
spare. It needs pkgdown and Chromium (tools/setup-system.sh)."""
import html as html_text
import inspect
import json
import pathlib
import pydoc
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
import doctables  # noqa: E402
import search  # noqa: E402

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


# ---- the first hour (issue 47) ----------------------------------------------

def _entry_html(page_text, anchor, anchors):
    """The part of a pdoc page that documents `anchor` (up to the next
    entry of another name; a module's own text when `anchor` is empty)."""
    starts = sorted(page_text.find(f'id="{a}"') for a in anchors
                    if page_text.find(f'id="{a}"') >= 0)
    begin = page_text.find(f'id="{anchor}"') if anchor else 0
    end = next((p for p in starts if p > begin), len(page_text))
    return page_text[begin:end]


def test_every_docstring_table_is_a_table_on_its_page(site):
    out, _, py = site
    by_page, expected = {}, {}
    for v in py.values():
        by_page.setdefault(v.page, []).append(v.anchor)
        obj = pydoc.locate(v.full)
        doc = inspect.getdoc(obj) if obj is not None else None
        if doctables.count(doc):
            expected[v.full] = (v, doctables.count(doc))
    # the convention tables of pycg.custom_gradient and pycg.conventions,
    # pycg.r's codec table and with_signature's are among them
    assert {"pycg.custom_gradient", "pycg.conventions"} <= set(expected)
    missing = []
    for full, (v, n) in sorted(expected.items()):
        text = (out / v.page).read_text()
        part = _entry_html(text, v.anchor, by_page[v.page])
        if part.count("<table") < n:
            missing.append(f"{full}: {n} table(s), {part.count('<table')} "
                           "rendered")
    assert missing == []
    # and nowhere a table's rows are left as text
    left = [p.name for p in (out / "python").rglob("*.html")
            if re.search(r"<p>=+ +=+", p.read_text())]
    assert left == []


def test_the_table_reader_reads_both_kinds_of_rows():
    simple = ("=== ====\na   b\n=== ====\nx   one\n    two\ny   three\n"
              "=== ====\n")
    assert doctables.count(simple) == 1
    md = doctables.to_markdown(simple)
    assert "| x | one two |" in md and "| y | three |" in md
    loose = ("=====  ====\nh      k\n=====  ====\nfirst  a\nline   b\n\n"
             "next   c\n=====  ====\n")
    assert "| first line | a b |\n| next | c |" in \
        doctables.to_markdown(loose)
    hyphen = ("=========  =\nh          k\n=========  =\nkeyword-   a\n"
              "only\n\nnext       b\n=========  =\n")
    assert "| keyword-only | a |" in doctables.to_markdown(hyphen)
    assert doctables.count("| a | b |\n|---|---|\n| 1 | 2 |\n") == 1
    assert doctables.count("Title\n=====\n") == 0   # a heading


def test_python_signatures_show_no_internal_decorator(site):
    out = site[0]
    shown = set()
    for page in (out / "python").rglob("*.html"):
        shown.update(re.findall(r'<div class="decorator decorator-[^"]*">'
                                r"(@[^<(]*)", page.read_text()))
    assert "@documented" not in shown and "@elementwise" not in shown
    assert shown <= {"@contextlib.contextmanager", "@property",
                     "@staticmethod", "@classmethod", "@functools.wraps"}


def test_to_torchs_text_links_no_pycg_function_for_torchs_own(site):
    text = (site[0] / "python" / "pycg.html").read_text()
    entry = text.split('<section id="to_torch">')[1].split("</section>")[0]
    doc = entry.split('<div class="docstring">')[1]
    linked = set(re.findall(r'<a href="#(\w+)">', doc))
    assert not linked & {"grad", "jacrev", "jacfwd", "hessian", "vmap"}


def test_the_r_pages_show_the_custom_gradient_example_and_a_whole_value(site):
    page = (site[0] / "reference" / "op_custom_gradient.html").read_text()
    outputs = [html_text.unescape(o) for o in re.findall(
        r'<span class="r-out co"><span class="r-pr">#&gt;</span> ([^<]*)',
        page)]
    assert outputs == ["[1] 1", "[1] NaN"]
    value = page.split('id="value"')[1].split('<div class="section')[0]
    assert value.count("<p>") == 1
    assert "described above" not in page
    grad = (site[0] / "reference" / "pycg_grad.html").read_text()
    assert "Fdist" not in grad


def _search_rows(out):
    text = (out / "search-index.js").read_text()
    return json.loads(text[text.index("["):text.rindex("]") + 1])


def test_search_snippets_carry_no_markup_or_file_names(site):
    rows = _search_rows(site[0])
    markup = re.compile(r"\\?code\{|``|\\[a-z]+\{|\\\(|\\sigma|\^\{")
    dirty = [r[1] for r in rows if markup.search(r[1] + " " + r[3])]
    assert dirty == []
    # pkgdown's hidden source names (check_gradients.Rd) are not text
    named = [r[1] for r in rows if re.match(r"[\w.-]+\.(Rd|Rmd) ", r[3])]
    assert named == []
    landing = next(r for r in rows if r[2] == "index.html")
    assert landing[1] == "pycg: custom gradients in Python and R"
    assert not [r for r in rows if r[2].startswith("BENCHMARKS.html#")]
    assert search.plain("in code{with()} and ``x`` and :func:`f`") == \
        "in with() and x and f"


def test_a_first_page_per_language_is_one_click_from_the_landing_page(site):
    out = site[0]
    landing = (out / "index.html").read_text()
    nav = landing.split("<nav")[1].split("</nav>")[0]
    assert 'href="articles/pycg.html"' in nav
    assert 'href="guides/python-quickstart.html"' in nav
    assert 'href="news/index.html"' in nav and "Changelog" in nav
    guides = nav.split(">Guides<")[1]
    assert re.findall(r'href="(guides/[\w-]+\.html)"', guides)[0] == \
        "guides/python-quickstart.html"
    assert (out / "news" / "index.html").is_file()
    assert 'href="CHANGELOG.html"' in landing   # the Python side's history
    version = re.search(r"^Version: (\S+)", (ROOT / "DESCRIPTION").read_text(),
                        re.M)[1]
    assert f'<h2 id="{version.replace(".", "")}">{version}' in \
        (out / "CHANGELOG.html").read_text()
    # the Install paragraph links install_pycg() once, and the source
    # repository's whereabouts are one click away
    install = landing.split('id="install"')[1]
    assert install.count('href="reference/install_pycg.html"') == 1
    assert "guides/contributing.html#the-source-repository" in landing
    authors = (out / "authors.html").read_text()
    assert "The pycg developers" in authors and "authors p" not in authors


def test_an_outbound_link_for_a_pycg_name_or_an_unshown_plot_fails(
        site, tmp_path, capsys):
    assert not list((site[0] / "reference").glob("Rplot*.png"))
    copy = _broken_copy(site, tmp_path)   # (one copy, one check for both)
    (copy / "reference" / "Rplot001.png").write_bytes(b"")
    bad = {"guides/architecture.html": '<a href="https://rdrr.io/pkg/pycg/'
           'man/pycg_grad.html">pycg_grad()</a>',
           "guides/backend-torch.html": '<a href="https://rdrr.io/r/base/'
           'base-internal.html">.detach()</a>',
           "guides/training.html": '<a href="https://example.net/x">'
           "op_custom_gradient()</a>"}
    for page, link in bad.items():
        path = copy / page
        path.write_text(path.read_text().replace("</main>", link + "</main>"))
    path = copy / "reference" / "pycg_grad.html"
    path.write_text(path.read_text().replace("</main>", (
        '<span class="va">df</span> <span class="op">&lt;-</span> 1 '
        '<span class="fu"><a href="https://rdrr.io/r/stats/Fdist.html">df'
        "</a></span></main>")))
    status, err = _check(copy, capsys)
    assert status == 1
    assert "guides/architecture.html: pycg_grad() links https://rdrr.io/pkg/" \
        "pycg/man/pycg_grad.html, a package index where pycg is not " \
        "published" in err
    assert "guides/backend-torch.html: the method call .detach() links R's " \
        "help page" in err
    assert "guides/training.html: op_custom_gradient(), pycg's own, links " \
        "https://example.net/x outside the site" in err
    assert "reference/pycg_grad.html: df, which its example defines, links " \
        "another package's function" in err
    assert "reference/Rplot001.png: an image no page shows" in err


def test_the_first_pages_render_with_tables_and_copy_buttons(site):
    out = site[0]
    shots = pathlib.Path("/tmp/docs-shots") if pathlib.Path(
        "/tmp/docs-shots").is_dir() else ARTIFACTS
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with browser.Chromium() as chromium:
        assert chromium.visit(out / "python" / "pycg.html") == []
        tables = chromium.evaluate(
            "[...document.querySelectorAll('#custom_gradient ~ * table, "
            "section#custom_gradient table')].length")
        assert tables >= 2
        buttons = chromium.evaluate(
            "document.querySelectorAll('div.pdoc-code .pycg-copy').length")
        blocks = chromium.evaluate(
            "document.querySelectorAll('div.pdoc-code pre').length")
        assert buttons == blocks > 10
        copied = chromium.evaluate(
            "pycgCopyText(document.querySelector("
            "'section#custom_gradient .docstring pre'))")
        assert copied.startswith("import pycg\nfrom pycg import ops\n"
                                 "@pycg.custom_gradient\ndef log1pexp(x):")
        assert ">>>" not in copied and "1.0" not in copied.split("\n")
        chromium.screenshot_at("section#custom_gradient",
                               shots / "python-custom_gradient.png")
        for page, name in [("index.html", "landing.png"),
                           ("reference/op_custom_gradient.html",
                            "r-op_custom_gradient.png"),
                           ("articles/pycg.html", "r-getting-started.png"),
                           ("guides/python-quickstart.html",
                            "python-quickstart.png")]:
            assert chromium.visit(out / page, screenshot=shots / name) == []
        assert (shots / "python-custom_gradient.png").stat().st_size > 20000
