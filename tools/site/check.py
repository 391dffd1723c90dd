"""The site's checks, run at the end of every build (`make docs`) and by
tests/test_site.py. Each problem is reported with the page it is on:

- every internal link and image resolves: each href/src of every page to
  a file of the site (never outside it, never file:// or empty), and each
  #anchor to an id on its target page;
- every exported R function (NAMESPACE) is on a help page that the R
  reference index lists, every public Python name has its page and anchor;
- every R function the naming rule pairs with a Python name links to it,
  and that name's entry links back;
- no R example stopped with an error (pkgdown shows the error on the page
  and carries on; here it fails the build);
- no link sends a reader out of the site for a name of pycg's own: an
  outside page for an R export or a package index's page of pycg (which is
  not published there), a method call (`.detach()`) linked to an R help
  page of another name, or a name an R example defines (`df <- ...`) linked to another
  package's function of that name;
- every figure of the reference and the articles is shown by a page.
"""
import dataclasses
import html
import pathlib
import re
import urllib.parse

from htmlparse import parse

EXTERNAL = ("http:", "https:", "mailto:", "javascript:", "data:")


@dataclasses.dataclass
class Report:
    pages: dict            # kind -> number of pages
    links: int             # internal links and images checked
    r_names: int
    py_names: int
    crosslinks: int
    problems: list         # "page: what is wrong"


def _kind(rel):
    top = rel.split("/")[0] if "/" in rel else ""
    return {"reference": "R reference", "python": "Python reference",
            "articles": "articles", "guides": "guides"}.get(top, "other")


def _links(out, docs):
    """Internal links and images: (number checked, problems)."""
    problems, n = [], 0
    for rel, doc in docs.items():
        here = (out / rel).parent
        for tag, url in doc.links:
            if url.startswith(EXTERNAL) or url in ("#", ""):
                if url == "" and tag != "a":
                    problems.append(f"{rel}: <{tag}> with an empty address")
                continue
            n += 1
            if url.startswith("file:") or url.startswith("/"):
                problems.append(f"{rel}: {url} is an absolute path, which "
                                "only works on this machine")
                continue
            parts = urllib.parse.urlsplit(url)
            target = (here / urllib.parse.unquote(parts.path)).resolve() \
                if parts.path else out / rel
            try:
                trel = target.relative_to(out).as_posix()
            except ValueError:
                problems.append(f"{rel}: {url} leads outside the site")
                continue
            if target.is_dir():
                target, trel = target / "index.html", f"{trel}/index.html"
            if not target.is_file():
                problems.append(f"{rel}: {url} leads to a page that does "
                                f"not exist ({trel})")
            elif parts.fragment and trel.endswith(".html"):
                ids = docs[trel].ids if trel in docs else parse(target).ids
                if urllib.parse.unquote(parts.fragment) not in ids:
                    problems.append(f"{rel}: {url} leads to #{parts.fragment}"
                                    f", which {trel} does not have")
    return n, problems


# package indexes' pages of pycg (where pycg is not published)
PYCG_INDEX = re.compile(r"rdrr\.io/(pkg|cran)/pycg/|rdocumentation\.org/"
                        r"packages/pycg/|cran\.r-project\.org/.*\bpycg\b|"
                        r"r-universe\.dev/.*\bpycg\b")
R_HELP = re.compile(r"https://(rdrr\.io|rdocumentation\.org|search\."
                    r"r-project\.org|stat\.ethz\.ch)/")
_ASSIGNED = re.compile(r'<span class="va">([\w.]+)</span> <span class="op">'
                       r"&lt;-</span>")
_FU_OUT = re.compile(r'<span class="fu"><a href="(https?://[^"]+)"[^>]*>'
                     r"([\w.]+)</a></span>")


def _outbound(out, docs, own):
    """Links that leave the site for a name of pycg's own (see above)."""
    problems = []
    for rel, doc in docs.items():
        for tag, attrs, text, _ in doc.events:
            url = attrs.get("href", "") if tag == "a" else ""
            if not url.startswith(("http:", "https:")):
                continue
            name = text.removesuffix("()")
            if PYCG_INDEX.search(url):
                problems.append(f"{rel}: {text} links {url}, a package "
                                "index where pycg is not published")
            elif name in own:
                problems.append(f"{rel}: {text}, pycg's own, links {url} "
                                "outside the site")
            elif text.startswith(".") and R_HELP.match(url) and not \
                    url.endswith(f"/{name[1:]}.html"):   # .libPaths is R's
                problems.append(f"{rel}: the method call {text} links R's "
                                f"help page {url}")
        if rel.startswith("reference/") and doc.errors is not None:
            page = (out / rel).read_text(encoding="utf-8")
            defined = set(_ASSIGNED.findall(page))
            for url, name in _FU_OUT.findall(page):
                if name in defined:
                    problems.append(
                        f"{rel}: {name}, which its example defines, links "
                        f"another package's function ({html.unescape(url)})")
    return problems


def _unshown_images(out, docs):
    """The figures of the reference and the articles that no page shows
    (pkgdown's blank Rplot001.png, a figure an example no longer draws)."""
    shown = set()
    for rel, doc in docs.items():
        shown.update(((out / rel).parent / urllib.parse.unquote(url))
                     .resolve() for tag, url in doc.links
                     if tag == "img" and not url.startswith(EXTERNAL))
    return [f"{p.relative_to(out).as_posix()}: an image no page shows"
            for folder in ("reference", "articles")
            for p in sorted((out / folder).glob("**/*.png"))
            if p.resolve() not in shown]


def _r_names(out, docs, topics, exports):
    functions, generics = exports
    index = docs.get("reference/index.html")
    listed = {u for _, u in index.links} if index else set()
    where = {a: t for t in topics.values() for a in t.aliases}
    problems = []
    for name in functions + generics:
        topic = where.get(name) or next(
            (t for a, t in where.items() if a.startswith(name + ",")), None)
        if topic is None:
            problems.append(f"reference/: the exported R function {name} "
                            "has no help page (no man/*.Rd has its alias)")
        elif topic.page not in docs:
            problems.append(f"{topic.page}: missing, the help page of the "
                            f"exported R function {name}")
        elif f"{topic.name}.html" not in listed:
            problems.append(f"reference/index.html: does not list "
                            f"{topic.page}, the help page of {name}")
    return problems


def _py_names(docs, py):
    problems = []
    for v in py.values():
        doc = docs.get(v.page)
        if doc is None:
            problems.append(f"{v.page}: missing, the page of the public "
                            f"Python name {v.full}")
        elif v.anchor and v.anchor not in doc.ids:
            problems.append(f"{v.page}: has no entry (#{v.anchor}) for the "
                            f"public Python name {v.full}")
    return problems


def _crosslinks(docs, topics, r_to_py, py):
    problems, n = [], 0
    where = {a: t for t in topics.values() for a in t.aliases}
    for r, p in sorted(r_to_py.items()):
        topic, v = where.get(r), py[p]
        if topic is None or topic.page not in docs or v.page not in docs:
            continue   # reported as a missing page
        n += 1
        to_py = f"../{v.page}#{v.anchor}"
        if to_py not in {u for _, u in docs[topic.page].links}:
            problems.append(f"{topic.page}: no link from {r}() to its "
                            f"Python name {p} ({to_py})")
        back = "../" * (v.page.count("/")) + topic.page
        if back not in {u for _, u in docs[v.page].links}:
            problems.append(f"{v.page}: no link from {p} to its R function "
                            f"{r}() ({back})")
    return n, problems


def check(out, topics, exports, py, r_to_py):
    """All the checks over the site in `out`: a Report."""
    out = pathlib.Path(out).resolve()
    docs = {p.relative_to(out).as_posix(): parse(p)
            for p in sorted(out.rglob("*.html"))}
    pages = {}
    for rel in docs:
        pages[_kind(rel)] = pages.get(_kind(rel), 0) + 1
    n_links, problems = _links(out, docs)
    problems += _r_names(out, docs, topics, exports)
    problems += _py_names(docs, py)
    n_cross, cross = _crosslinks(docs, topics, r_to_py, py)
    problems += cross
    problems += _outbound(out, docs, set(exports[0]))
    problems += _unshown_images(out, docs)
    for rel, doc in docs.items():
        for err in doc.errors:
            rd = rel[len("reference/"):-len(".html")]
            source = (f" (man/{rd}.Rd)" if rel.startswith("reference/")
                      else "")
            text = " ".join(err.split()).removeprefix("#>").strip()
            problems.append(f"{rel}: its example{source} stopped with an "
                            f"error: {text}")
    return Report(pages, n_links, len(exports[0]) + len(exports[1]),
                  len(py), n_cross, problems)
