"""The docstrings of pycg.ops, composed once when pycg.ops is imported.

An op's text is its own summary (its inline docstring, or the `summary` of
its entry in the topic table beside this file), then `Args:` for each
parameter of its signature (the entry's own text for that parameter, else
the shared one in `glossary`), `Returns:`, `Differs:` (where the op answers
differently from keras.ops, TensorFlow or JAX) and `Example:`. The tables
hold text only, so the op files stay within their line budget.
"""
import functools
import inspect

from pycg.ops._docs import (arrays, control, creation, elementwise,
                            glossary, linalg, logic, nn, nn_layers, numeric,
                            reductions, sorting, special, spectral)

_TABLES = (arrays, control, creation, elementwise, linalg, logic, nn,
           nn_layers, numeric, reductions, sorting, special, spectral)
_WIDTH = 76


def entries():
    """Every op's entry, by name."""
    out = {}
    for table in _TABLES:
        out.update(table.DOCS)
    return out


def parameters(fn):
    """The names of fn's parameters in signature order (`*args` and
    `**kwargs` with their stars), read from its code object."""
    while hasattr(fn, "__wrapped__"):
        fn = fn.__wrapped__
    code = fn.__code__
    n, k = code.co_argcount, code.co_kwonlyargcount
    names = list(code.co_varnames[:n])
    extra = n + k
    if code.co_flags & 0x04:   # CO_VARARGS
        names.append("*" + code.co_varnames[extra])
        extra += 1
    names += code.co_varnames[n:n + k]
    if code.co_flags & 0x08:   # CO_VARKEYWORDS
        names.append("**" + code.co_varnames[extra])
    return names


@functools.lru_cache(maxsize=None)   # (the shared texts recur: wrap once)
def _wrap(text, first, rest):
    """`text` in lines of at most _WIDTH characters: the first after
    `first`, the others after `rest`."""
    if len(first) + len(text) <= _WIDTH:
        return first + text
    lines, line = [], first
    for word in text.split():
        if len(line) + len(word) >= _WIDTH and line.strip():
            lines.append(line.rstrip())
            line = rest
        line += word + " "
    lines.append(line.rstrip())
    return "\n".join(lines)


def compose(fn, entry, name):
    """fn's docstring from its `entry` (a glossary.Doc)."""
    own = (_wrap(entry.summary, "", "") if entry.summary
           else inspect.cleandoc(fn.__doc__ or ""))
    own, _, example = own.partition("\n>>> ")
    example = entry.example or (example and ">>> " + example)
    parts = [own.strip(), "", "Args:"]
    for p in parameters(fn):
        bare = p.lstrip("*")
        text = entry.args.get(bare) or glossary.arg_text(name, bare)
        parts.append(_wrap(f"{p}: {text}", "    ", "        "))
    parts += ["", "Returns:", _wrap(entry.returns, "    ", "    ")]
    if entry.differs:
        parts += ["", "Differs:", _wrap(entry.differs, "    ", "    ")]
    if example:
        parts += ["", "Example:",
                  "    " + example.strip().replace("\n", "\n    ")]
    return "\n".join(parts) + "\n"


def attach(namespace, names):
    """Give each op in `names` its composed docstring, and the function it
    wraps, if any (an alias, the same function under two names, is
    documented once, under its first)."""
    table = entries()
    done = set()
    for name in names:
        fn = namespace[name]
        if id(fn) in done or name not in table:
            continue
        doc = compose(fn, table[name], name)
        while fn is not None:   # (the wrapped function too: pdoc reads it)
            fn.__doc__ = doc
            done.add(id(fn))
            fn = getattr(fn, "__wrapped__", None)
