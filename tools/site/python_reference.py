"""The Python reference of the site: pdoc's pages for pycg and its public
modules (site/python/pycg.html, site/python/pycg/ops.html, ...), with
pycg's template around them (tools/site/pdoc/: the site's links and
search, and under each name an R function wraps, a link to its R page).

Why pdoc: it renders what the package already holds (Google-style
docstrings, annotations, the pycg.ops stub's types, __all__ as the list of
public names) with no configuration or second source tree to keep in step,
and builds each page from the imported package, so a name on a page is a
name users can import. Sphinx with autodoc would need a conf.py and .rst
pages that list the modules; mkdocstrings a mkdocs site."""
import pathlib
import shutil
import tempfile

import pdoc
import pdoc.render

import doctables
import pycg

TEMPLATES = pathlib.Path(__file__).with_name("pdoc")


def site_root(modulename):
    """The site root, relative to a module's page (python/pycg/ops.html
    is two folders down)."""
    return "../" * (modulename.count(".") + 1)


def shown_members(cls, documented):
    """The members a class's entry shows: its own, and those it inherits
    from a class of pycg that the site does not document (pdoc leaves
    those out: pycg.Tensor's shape and numpy() come from a private base)."""
    return [c for c in cls.members.values() if c.kind != "class" and (
        c in cls.own_members or c.taken_from[0] not in documented
        and c.taken_from[0].split(".")[0] == "pycg")]


# Decorators a reader can use or needs to know: Python's own; pycg's
# internal ones (`@documented(...)`, `@elementwise`) are not shown
PUBLIC_DECORATORS = ("property", "staticmethod", "classmethod",
                     "functools.", "contextlib.", "abc.", "typing.")


def shown_decorators(doc):
    """The decorators a name's entry shows."""
    return [d for d in doc.decorators if not d.startswith("@_")
            and d[1:].partition("(")[0].startswith(PUBLIC_DECORATORS)]


def render(out, roots, r_links):
    """pdoc's pages for `roots` into out/python/ (all but pdoc's list of
    modules, index.html: the site's grouped index takes its place);
    `r_links` maps a full Python name to [(R name, its page from the site
    root)]. Returns the pages written."""
    target = pathlib.Path(out) / "python"
    pycg.function   # noqa: B018  (loaded lazily: load it, so pdoc lists it)
    pdoc.render.configure(docformat="google", search=False,
                          template_directory=TEMPLATES,
                          footer_text=f"pycg {pycg.__version__}")
    pdoc.render.env.globals.update(site_root=site_root, r_links=r_links,
                                   shown_members=shown_members,
                                   shown_decorators=shown_decorators)
    pdoc.render.env.filters["rst_tables"] = doctables.to_markdown
    with tempfile.TemporaryDirectory() as tmp:
        pdoc.pdoc(*roots, output_directory=pathlib.Path(tmp))
        pathlib.Path(tmp, "index.html").unlink()
        shutil.copytree(tmp, target, dirs_exist_ok=True)
    return sorted(p for p in target.rglob("*.html") if p.name != "index.html"
                  or p.parent != target)
