"""What the site must document, read from the code at build time: the public
Python names (walked from `pycg.__all__` and each public module's
`__all__`), the R package's exports (NAMESPACE) and its help topics
(man/*.Rd), and the naming rule that pairs an R function with its Python
name (`op_logsumexp` with `pycg.ops.logsumexp`). Nothing here is a hand
list: a new op, export or module is picked up by the next build."""
import dataclasses
import importlib
import inspect
import pathlib
import re
import types

# An R name `<prefix>_<rest>` is looked up as `<rest>` in these Python
# namespaces first (in order); any other name, or a miss, is looked up
# whole in every namespace. `rest` matches a Python name exactly, or with
# case and underscores ignored (seed_generator: SeedGenerator).
R_PREFIXES = {"op": ("pycg.ops", "pycg"), "pycg": ("pycg",),
              "optimizer": ("pycg.optimizers",), "random": ("pycg.random",),
              "config": ("pycg.config",)}


@dataclasses.dataclass(frozen=True)
class PyName:
    """A public Python name and where pdoc documents it."""
    full: str        # pycg.ops.logsumexp, pycg.Tensor.numpy
    module: str      # the module whose page holds it: pycg.ops
    anchor: str      # the id on that page: logsumexp, Tensor.numpy
    kind: str        # function, class, module, method, value
    summary: str     # the first line of its docstring

    @property
    def page(self):
        """Its page, relative to the site root."""
        return "python/" + self.module.replace(".", "/") + ".html"


def _summary(value):
    doc = inspect.getdoc(value) if not isinstance(value, str) else None
    return doc.strip().split("\n\n")[0].replace("\n", " ") if doc else ""


def _public_names(module):
    """A module's public names: its __all__, else what it defines."""
    if hasattr(module, "__all__"):
        return list(module.__all__)
    return [n for n, v in vars(module).items() if not n.startswith("_")
            and getattr(v, "__module__", None) == module.__name__]


def _members(cls):
    """A class's public attributes that pycg defines, inherited ones too
    (pycg.Tensor's shape and numpy() come from a private base class)."""
    for attr in dir(cls):
        owner = next((c for c in cls.__mro__ if attr in vars(c)), None)
        if not attr.startswith("_") and owner is not None and \
                owner.__module__.startswith("pycg"):
            yield attr, inspect.getattr_static(cls, attr)


def python_roots():
    """pycg, and the public modules it loads lazily (listed by dir(pycg)
    but not in __all__: pycg.r, which needs rpy2)."""
    import pycg
    lazy = [f"pycg.{n}" for n in dir(pycg) if not n.startswith("_")
            and n not in pycg.__all__
            and isinstance(getattr(pycg, n), types.ModuleType)]
    return ["pycg", *lazy]


def _kind(value):
    if isinstance(value, types.ModuleType):
        return "module"
    if inspect.isclass(value):
        return "class"
    return "function" if callable(value) else "value"


def python_names():
    """Every public Python name, modules included, by full name."""
    out = {}
    todo = python_roots()
    while todo:
        mod = importlib.import_module(todo.pop(0))
        out.setdefault(mod.__name__, PyName(
            mod.__name__, mod.__name__, "", "module", _summary(mod)))
        for name in _public_names(mod):
            value = getattr(mod, name)
            full = f"{mod.__name__}.{name}"
            if isinstance(value, types.ModuleType):
                if value.__name__ == full:
                    todo.append(full)
                continue
            out[full] = PyName(full, mod.__name__, name, _kind(value),
                               _summary(value))
            if inspect.isclass(value):
                for attr, member in _members(value):
                    out[f"{full}.{attr}"] = PyName(
                        f"{full}.{attr}", mod.__name__, f"{name}.{attr}",
                        "method", _summary(member))
    return out


@dataclasses.dataclass(frozen=True)
class RTopic:
    """One help page of the R package: man/<name>.Rd, which pkgdown writes
    to reference/<name>.html (the file's name, not its \\name)."""
    name: str
    title: str
    aliases: tuple

    @property
    def page(self):
        return f"reference/{self.name}.html"


def _rd_field(text, field):
    return [re.sub(r"\\(.)", r"\1", m) for m in
            re.findall(r"^\\" + field + r"\{(.*)\}\s*$", text, re.M)]


def r_topics(root):
    """The R help topics that are not internal, by name."""
    out = {}
    for path in sorted(pathlib.Path(root, "man").glob("*.Rd")):
        text = path.read_text(encoding="utf-8")
        if "internal" in _rd_field(text, "keyword"):
            continue
        name = path.stem
        title = " ".join(_rd_field(text, "title"))
        out[name] = RTopic(name, re.sub(r"\\code\{([^}]*)\}", r"\1", title),
                           tuple(_rd_field(text, "alias")))
    return out


def r_exports(root):
    """The exported R functions (export()) and the generics the package
    adds methods to (exportMethods()), from NAMESPACE."""
    text = pathlib.Path(root, "NAMESPACE").read_text(encoding="utf-8")
    unquote = lambda s: s.strip().strip('"').strip("`")  # noqa: E731
    functions = [unquote(m) for m in re.findall(r"^export\((.*)\)$", text,
                                                re.M)]
    methods = [unquote(m) for m in re.findall(r"^exportMethods\((.*)\)$",
                                              text, re.M)]
    return functions, methods


def topic_of(topics):
    """Each alias (an R function name, an S4 method) -> its topic."""
    return {alias: t for t in topics.values() for alias in t.aliases}


def _key(name):
    return name.replace("_", "").lower()


def python_for_r(r_name, py):
    """The Python name an R function wraps, by the naming rule, or None.
    Modules are never a match (`pycg_config()` is not `pycg.config`)."""
    return _Rule(py)(r_name)


class _Rule:
    """The naming rule over one set of Python names: (namespace, name) ->
    full name, exactly and with case and underscores ignored."""

    def __init__(self, py):
        targets = [v for v in py.values() if v.kind not in ("module",
                                                            "method")]
        self.exact = {(v.module, v.anchor): v.full for v in targets}
        self.loose = {(v.module, _key(v.anchor)): v.full for v in targets}
        self.spaces = sorted({v.module for v in targets})

    def __call__(self, r_name):
        prefix, _, rest = r_name.partition("_")
        tries = [(space, rest) for space in R_PREFIXES.get(prefix, ())]
        tries += [(space, r_name) for space in self.spaces]
        for table, key in ((self.exact, str), (self.loose, _key)):
            for space, name in tries:
                if (space, key(name)) in table:
                    return table[space, key(name)]
        return None


def crosslinks(r_names, py):
    """Both directions of the naming rule: R name -> Python name, and
    Python name -> the R names that wrap it."""
    rule = _Rule(py)
    r_to_py = {r: p for r in r_names if (p := rule(r))}
    py_to_r = {}
    for r, p in sorted(r_to_py.items()):
        py_to_r.setdefault(p, []).append(r)
    return r_to_py, py_to_r
