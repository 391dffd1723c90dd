"""The docstrings of pycg.ops, completed once when pycg.ops is imported.

An op's docstring stands beside its function: its summary, `Args:` for the
parameters whose meaning is its own, `Returns:`, `Differs:` (where the op
answers differently from keras.ops, TensorFlow or JAX) and `Example:`.
`compose` gives it `Args:` for every parameter of its signature, taking
the text of the others from the glossary (`glossary.py`), so that a
parameter such as `axis` reads the same in every op.
"""
import functools
import inspect

from pycg.ops._machinery import glossary

_WIDTH = 76


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


def _own_args(block):
    """{parameter: its lines} of an Args section's text."""
    entries, name = {}, None
    for line in block.splitlines():
        if not line.startswith("        "):
            name = line.strip().partition(":")[0].lstrip("*")
            entries[name] = []
        entries[name].append(line)
    return entries


def compose(fn, name):
    """fn's docstring, with `Args:` for each parameter of its signature:
    its own entry where the docstring has one, else the glossary's text."""
    own = inspect.cleandoc(fn.__doc__ or "")
    head, args, rest = own.partition("\n\nArgs:\n")
    if args:
        block, _, tail = rest.partition("\n\n")
    else:
        head, returns, tail = own.partition("\n\nReturns:")
        block, tail = "", returns.lstrip("\n") + tail
    entries = _own_args(block)
    lines = []
    for p in parameters(fn):
        bare = p.lstrip("*")
        lines += entries.pop(bare, None) or [_wrap(
            f"{p}: {glossary.arg_text(name, bare)}", "    ", "        ")]
    if entries:
        raise TypeError(f"pycg.ops.{name}'s docstring documents "
                        f"{sorted(entries)}, which it does not take")
    return "\n".join([head, "", "Args:", *lines, "", tail]) + "\n"


def attach(namespace, names):
    """Give each op in `names` its composed docstring, and the function it
    wraps, if any (an alias, the same function under two names, is
    documented once, under its first)."""
    done = set()
    for name in names:
        fn = namespace[name]
        if id(fn) in done:
            continue
        doc = compose(fn, name)
        while fn is not None:   # (the wrapped function too: pdoc reads it)
            fn.__doc__ = doc
            done.add(id(fn))
            fn = getattr(fn, "__wrapped__", None)
