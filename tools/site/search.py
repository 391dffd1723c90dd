"""The site's search index, site/search-index.js, read by
pkgdown/assets/site-search.js.

Why not pkgdown's search: it fetch()es search.json, which Chromium refuses
for a page opened from file:// (a CORS error on the request), and its
search code (fuse.js, autocomplete.js, mark.js) comes from a CDN. A script
file loads from file:// like any other, so the index is one:
`window.PYCG_SEARCH_INDEX = [[kind, title, url, text], ...]`, with url
relative to the site root. It holds every R function (under its help
page), every public Python name (with its summary), every page, and each
section of the articles and guides (with the start of its text)."""
import json
import pathlib
import re

from htmlparse import parse

KINDS = {"reference": "R", "python": "Python", "articles": "Article",
         "guides": "Guide"}
TEXT = 240   # characters of text kept per entry
# Pages indexed as one entry, without their sections: the benchmarks'
# sections are measurements named by branch and commit, which would crowd
# out the documentation of the names they measure (`log1pexp`)
WHOLE_PAGES = {"BENCHMARKS.html"}

# Markup a title or summary carries from its source, as its text: Rd
# macros (`\code{with()}`, or `code{with()}` once the backslash is gone),
# reST roles and literals (``x``, :func:`x`), Markdown code spans
_RD = re.compile(r"\\?(?:code|emph|strong|bold|pkg|var|env|file|sQuote|"
                 r"dQuote|samp|verb|link(?:\[[^]]*\])?)\{([^{}]*)\}")
_ROLE = re.compile(r":[a-z]+:`([^`]+)`")
_TICKS = re.compile(r"``?([^`]+?)``?")


def plain(text):
    """`text` without the markup of its source (see above)."""
    for _ in range(3):   # nested macros, innermost first
        text = _RD.sub(r"\1", text)
    return _TICKS.sub(r"\1", _ROLE.sub(r"\1", text))


def _clip(parts):
    text = " ".join("".join(parts).split())
    return text if len(text) <= TEXT else text[:TEXT].rsplit(" ", 1)[0] + "…"


def entries(out, topics, py):
    out = pathlib.Path(out)
    rows = []
    for t in topics.values():
        for alias in t.aliases:
            if alias != t.name and "," not in alias and "." not in alias:
                name = alias if alias.startswith("%") else f"{alias}()"
                rows.append(["R", name, t.page, plain(t.title)])
    for v in py.values():
        if v.kind != "module":
            rows.append(["Python", v.full, f"{v.page}#{v.anchor}",
                         plain(v.summary)])
    for path in sorted(out.rglob("*.html")):
        rel = path.relative_to(out).as_posix()
        if rel == "404.html":
            continue
        kind = KINDS.get(rel.split("/")[0], "Page")
        if kind == "Python":   # its names are above; its pages, by module
            module = rel[len("python/"):-len(".html")].replace("/", ".")
            if module in py:
                rows.append(["Python", module, rel,
                             plain(py[module].summary)])
            continue
        doc = parse(path)
        title = doc.title.split(" • ")[0]
        first = doc.sections[0] if doc.sections else None
        rows.append([kind, plain(title), rel,
                     _clip(first.text) if first else ""])
        if kind in ("Article", "Guide", "Page") and rel not in WHOLE_PAGES:
            for s in doc.sections[1:]:
                if s.anchor and s.level in ("h2", "h3"):
                    rows.append([kind, f"{title} › {s.title}",
                                 f"{rel}#{s.anchor}", _clip(s.text)])
    return rows


def write(out, topics, py):
    """Writes site/search-index.js; returns the number of entries."""
    rows = entries(out, topics, py)
    pathlib.Path(out, "search-index.js").write_text(
        "window.PYCG_SEARCH_INDEX = " + json.dumps(
            rows, ensure_ascii=False, separators=(",", ":")) + ";\n",
        encoding="utf-8")
    return len(rows)
