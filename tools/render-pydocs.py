"""Renders the Python API reference with pdoc. Used by `make demo`:

    python tools/render-pydocs.py [output-dir]   (default .venv/share/pycg-docs)

The pages go to <output-dir>/python/, beside the R vignettes that
tools/render-docs.R writes to <output-dir>/. Why pdoc: it renders what is
already there (the docstrings in Google style, the annotations, the
pycg.ops stub's types, __all__ as the list of public names) with no
configuration or source tree of its own to keep in step, and it runs each
page from the imported package, so a name the reference shows is a name
users can import. Sphinx with autodoc would need a conf.py and .rst pages
that list the modules; mkdocstrings a mkdocs site.
"""
import pathlib
import sys

import pdoc
import pdoc.render

import pycg

out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else
                   ".venv/share/pycg-docs") / "python"
pycg.function   # noqa: B018  (loaded lazily: load it, so the page lists it)
pdoc.render.configure(docformat="google",
                      footer_text=f"pycg {pycg.__version__}")
pdoc.pdoc("pycg", "pycg.r", output_directory=out)
pages = sorted(out.rglob("*.html"))
print(f"Python API reference: {len(pages)} pages in {out}/ "
      f"(open {out / 'pycg.html'})")
