"""Builds pycg's documentation site, one static site for both languages,
and checks it. `make docs` runs

    python tools/site/build.py [OUT]          (default: site/)

from the repository root, with the R package installed (R_LIBS) and
PYCG_PYTHON naming this Python, as the Makefile sets them. Open
OUT/index.html in a browser: the site works from file://, offline.

What goes where (all read from the code at build time, tools/site/names.py):
- OUT/index.html, the landing page (pkgdown/index.md); OUT/reference/, the
  R reference by pkgdown, grouped as _pkgdown.yml says, every example run;
  OUT/articles/, the vignettes (vignettes/*.Rmd, precomputed by
  `make demo`); OUT/guides/, every docs/*.md: tools/site/build-r.R;
- OUT/python/, pdoc's pages for pycg and its public modules, and
  OUT/python/index.html, the Python names grouped as the R reference is:
  tools/site/python_reference.py and post.py;
- links from each R function's page to its Python name and back, by the
  naming rule (op_logsumexp and pycg.ops.logsumexp): post.py;
- OUT/search-index.js, the offline search's index: search.py.

Then tools/site/check.py checks every link, image and anchor, that every R
export and Python name has its page, the cross-links, and that no R example
stopped with an error; any problem fails the build (exit status 1), one
line per problem, each naming its page. --no-check skips that, and
--check-only checks a site built before.
"""
import argparse
import os
import pathlib
import shutil
import subprocess
import sys
import time

import check
import names
import post
import python_reference
import search

ROOT = pathlib.Path(__file__).resolve().parents[2]


def build(out):
    """Builds the site into `out` (emptied first). Returns (what it
    documents, seconds per step)."""
    out = pathlib.Path(out).resolve()
    times = {}
    t = time.monotonic()
    py = names.python_names()
    rtopics = names.r_topics(ROOT)
    exports = names.r_exports(ROOT)
    r_to_py, py_to_r = names.crosslinks(exports[0], py)
    tof = names.topic_of(rtopics)
    times["names"] = time.monotonic() - t
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    t = time.monotonic()
    run = run_r(out)
    if run.returncode:
        raise SystemExit(f"site: the R part of the build failed (status "
                         f"{run.returncode}, above)")
    times["R"] = time.monotonic() - t
    t = time.monotonic()
    python_reference.render(out, names.python_roots(), {
        p: [(r, tof[r].page) for r in rs] for p, rs in py_to_r.items()})
    times["python"] = time.monotonic() - t
    t = time.monotonic()
    post.strip_empty_logos(out)
    post.drop_unused_plots(out)
    post.tex_to_mathml(out)
    post.repo_links(out, ROOT, sorted((ROOT / "docs").glob("*.md")))
    post.r_pages_link_python(out, rtopics, r_to_py, py)
    if (out / "reference" / "index.html").exists():
        post.fill_python_index(out, rtopics, r_to_py, py)
    for stale in ("search.json", "sitemap.xml"):   # pkgdown's; see search.py
        (out / stale).unlink(missing_ok=True)
    entries = search.write(out, rtopics, py)
    times["post"] = time.monotonic() - t
    return (rtopics, exports, py, r_to_py, entries), times


def run_r(out, parts=(), topics=(), package=ROOT, **kw):
    """tools/site/build-r.R for the R package in `package`."""
    cmd = ["Rscript", str(ROOT / "tools" / "site" / "build-r.R"), str(out),
           ",".join(parts), ",".join(topics)]
    return subprocess.run(cmd, cwd=package, env=_r_env(), **kw)


def _r_env():
    env = dict(os.environ)
    lib = pathlib.Path(sys.prefix, "lib", "R")   # where `make setup` puts it
    if lib.is_dir():
        env.setdefault("R_LIBS", str(lib))
    env.setdefault("PYCG_PYTHON", sys.executable)
    env.setdefault("RETICULATE_PYTHON", sys.executable)
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    env.setdefault("PYTHONWARNINGS", "ignore::RuntimeWarning")
    return env


def summary(report, entries, times):
    pages = ", ".join(f"{n} {k}" for k, n in sorted(report.pages.items()))
    return (f"site: {sum(report.pages.values())} pages ({pages}); "
            f"{report.links} internal links and images checked, "
            f"{report.r_names} R exports and {report.py_names} Python names "
            f"have their pages, {report.crosslinks} R-Python cross-links, "
            f"{entries} search entries; "
            + ", ".join(f"{k} {v:.1f} s" for k, v in times.items()))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", nargs="?", default=str(ROOT / "site"))
    parser.add_argument("--no-check", action="store_true",
                        help="build without checking")
    parser.add_argument("--check-only", action="store_true",
                        help="check the site already in OUT")
    args = parser.parse_args(argv)
    if args.check_only:
        py, times, entries = names.python_names(), {}, "no new"
        topics, exports = names.r_topics(ROOT), names.r_exports(ROOT)
        r_to_py = names.crosslinks(exports[0], py)[0]
    else:
        (topics, exports, py, r_to_py, entries), times = build(args.out)
    if args.no_check:
        return 0
    t = time.monotonic()
    report = check.check(args.out, topics, exports, py, r_to_py)
    times["check"] = time.monotonic() - t
    print(summary(report, entries, times))
    if report.problems:
        print(f"site: {len(report.problems)} problem(s):", file=sys.stderr)
        for p in report.problems:
            print(f"  {p}", file=sys.stderr)
        return 1
    print(f"site: open {pathlib.Path(args.out).resolve() / 'index.html'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
