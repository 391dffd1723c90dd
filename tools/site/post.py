"""What the site needs after pkgdown and pdoc have written their pages:
the R pages' links to Python, the grouped Python reference, MathML for
TeX (MathJax would come from a CDN), and links to the guides by their
repository paths. Each step rewrites pages in place."""
import html
import pathlib
import re
import subprocess

from htmlparse import parse

_EXAMPLES = '<div class="section level2">\n    <h2 id="ref-examples">'


def _rewrite(path, fn):
    text = path.read_text(encoding="utf-8")
    new = fn(text)
    if new != text:
        path.write_text(new, encoding="utf-8")


def _py_link(full, py, depth):
    v = py[full]
    anchor = f"#{v.anchor}" if v.anchor else ""
    return (f'<a href="{"../" * depth}{v.page}{anchor}">'
            f'<code>{html.escape(full)}</code></a>')


def r_pages_link_python(out, topics, r_to_py, py):
    """Each R reference page gets a section "In Python" that links the
    Python name of every function on it (before its examples)."""
    for topic in topics.values():
        pairs = [(a, r_to_py[a]) for a in topic.aliases if a in r_to_py]
        path = pathlib.Path(out, topic.page)
        if not pairs or not path.exists():
            continue
        items = "".join(f"<li><code>{html.escape(r)}()</code>: "
                        f"{_py_link(p, py, 1)}</li>" for r, p in pairs)
        section = ('<div class="section level2" id="in-python">\n    '
                   '<h2 id="in-python-h">In Python</h2>\n    <ul>'
                   f'{items}</ul>\n    </div>\n\n    ')

        def insert(text, section=section):
            if _EXAMPLES in text:
                return text.replace(_EXAMPLES, section + _EXAMPLES, 1)
            return text.replace("</main>", section + "</main>", 1)
        _rewrite(path, insert)


def reference_groups(out):
    """The R reference index as [(heading level, title, [topic page])]."""
    doc = parse(pathlib.Path(out, "reference", "index.html"))
    groups = []
    for tag, attrs, text, in_main in doc.events:
        if tag in ("h2", "h3") and in_main:
            groups.append((tag, text, []))
        elif tag == "a" and groups and attrs.get("href", "").endswith(
                ".html") and "/" not in attrs["href"]:
            pages = groups[-1][2]
            if f"reference/{attrs['href']}" not in pages:
                pages.append(f"reference/{attrs['href']}")
    return groups


def _entry(full, py, wrappers):
    v = py[full]
    r = ", ".join(f'<a href="../{page}"><code>{html.escape(name)}()</code>'
                  "</a>" for name, page in wrappers)
    summary = re.sub(r"``?([^`]+)``?", r"<code>\1</code>",
                     html.escape(v.summary))
    return (f"<dt>{_py_link(full, py, 1)}</dt><dd>{summary}"
            + (f" <small>In R: {r}</small>" if r else "") + "</dd>")


def fill_python_index(out, topics, r_to_py, py):
    """python/index.html: the Python names grouped as the R reference is
    (a name in the section of the R function that wraps it), then the
    modules and the names no R function wraps. Returns the names listed."""
    by_page = {t.page: t for t in topics.values()}
    wrappers = {}
    for t in topics.values():
        for a in t.aliases:
            if a in r_to_py:
                wrappers.setdefault(r_to_py[a], []).append((a, t.page))
    listed, parts = set(), []
    for level, title, pages in reference_groups(out):
        names = [r_to_py[a] for p in pages if p in by_page
                 for a in by_page[p].aliases if a in r_to_py]
        names = [n for n in dict.fromkeys(names) if n not in listed]
        listed.update(names)
        parts.append(f"<{level}>{html.escape(title)}</{level}>")
        if names:
            parts.append("<dl>" + "".join(_entry(n, py, wrappers[n])
                                          for n in names) + "</dl>")
    modules = [v for v in py.values() if v.kind == "module"]
    rest = [v for v in py.values() if v.full not in listed
            and v.kind not in ("method", "module")]
    parts.append("<h2>Python only</h2><p>The modules, and the names no R "
                 "function wraps.</p><dl>" + "".join(
                     _entry(v.full, py, []) for v in modules + rest)
                 + "</dl>")
    body = ("<p>Every public name of the Python package, grouped as the "
            '<a href="../reference/index.html">R reference</a> is, each with '
            "the R function that wraps it.</p>" + "\n".join(parts))
    _rewrite(pathlib.Path(out, "python", "index.html"), lambda t: t.replace(
        '<div id="pycg-python-index"></div>', body, 1))
    return listed | {v.full for v in modules + rest}


_MATH = re.compile(r'<span class="math (inline|display)">\\[(\[](.*?)'
                   r'\\[)\]]</span>', re.S)


# pandoc writes \mathrm{lse} as letters in an upright <mstyle>, which
# browsers' MathML (MathML Core) shows in italics: one upright <mi> instead
_UPRIGHT = re.compile(r'<mstyle mathvariant="normal">((?:<mi>.</mi>)+)'
                      r"</mstyle>")


def _upright(mathml):
    return _UPRIGHT.sub(lambda m: '<mi mathvariant="normal">' + "".join(
        re.findall(r"<mi>(.)</mi>", m[1])) + "</mi>", mathml)


def tex_to_mathml(out):
    """TeX that pandoc left for MathJax (\\(...\\) in a math span) as
    MathML, which browsers render offline; one pandoc run per page."""
    for path in pathlib.Path(out).rglob("*.html"):
        text = path.read_text(encoding="utf-8")
        spans = _MATH.findall(text)
        if not spans:
            continue
        tex = "\n\n<!--split-->\n\n".join(
            ("$" if kind == "inline" else "$$") + html.unescape(body)
            + ("$" if kind == "inline" else "$$") for kind, body in spans)
        done = subprocess.run(["pandoc", "-f", "markdown", "-t", "html",
                               "--mathml"], input=tex, capture_output=True,
                              text=True, check=True).stdout
        maths = [_upright(re.sub(r"^\s*<p>|</p>\s*$", "", m))
                 for m in done.split("<!--split-->")]
        if len(maths) != len(spans):
            raise RuntimeError(f"{path}: pandoc returned {len(maths)} "
                               f"formulas for {len(spans)}")
        it = iter(maths)
        path.write_text(_MATH.sub(lambda m, it=it: next(it), text),
                        encoding="utf-8")


def repo_links(out, root, guides):
    """Paths of the repository in the pages. A docstring links a file by
    its path from the repository root: on the Python pages, a link to a
    guide (docs/training.md) leads to its page, and a link to another file
    of the repository, which the site does not carry, becomes its text. On
    every page, a code span naming a guide (`docs/training.md`) links it.
    A path that names no file is left for the check to report."""
    out, root = pathlib.Path(out), pathlib.Path(root)
    names = {g.stem for g in guides}
    link = re.compile(r'<a href="([\w./-]+?)(#[^"]*)?">(.*?)</a>', re.S)
    code = re.compile(r"(?<!>)<code>docs/([\w.-]+)\.md</code>(?!</a>)")
    for path in out.rglob("*.html"):
        rel = path.relative_to(out)
        up = "../" * (len(rel.parts) - 1)

        def fix_link(m, up=up):
            target, frag, text = m[1], m[2] or "", m[3]
            guide = re.fullmatch(r"docs/([\w.-]+)\.md", target)
            if guide and guide[1] in names:
                return f'<a href="{up}guides/{guide[1]}.html{frag}">{text}</a>'
            if (root / target).is_file():
                return (f'<span class="pycg-repo-file" title="{target}: a '
                        f'file of the pycg repository">{text}</span>')
            return m[0]

        def fix(text, up=up, python=rel.parts[0] == "python"):
            if python:
                text = link.sub(fix_link, text)
            return code.sub(lambda m: f'<a href="{up}guides/{m[1]}.html">'
                            f"{m[0]}</a>" if m[1] in names else m[0], text)
        _rewrite(path, fix)


def strip_empty_logos(out):
    """pkgdown 2.0.7 writes <img src="" class="logo"> on each page of a
    site without a logo (its template tests a list that is never empty)."""
    for path in pathlib.Path(out).rglob("*.html"):
        _rewrite(path, lambda t: t.replace(
            '<img src="" class="logo" alt="">', ""))


def drop_unused_plots(out):
    """pkgdown leaves reference/Rplot001.png, a blank file from the graphics
    device its examples run under, when no example draws on it: a plot no
    page shows is removed (the check fails on any other image no page
    shows). Returns the files removed."""
    out = pathlib.Path(out)
    shown = set()
    for path in out.rglob("*.html"):
        shown.update((path.parent / src).resolve() for src in re.findall(
            r'<img[^>]+src="([^":]+)"', path.read_text(encoding="utf-8")))
    unused = [p for p in (out / "reference").glob("Rplot*.png")
              if p.resolve() not in shown]
    for p in unused:
        p.unlink()
    return unused
