"""Args entries written once and shared by several public docstrings: the
functional API's f/argnums/has_aux (JAX's names and meanings, added by
`documented`), and `with_args` for the optimizers' common arguments."""


def with_args(doc, entries):
    """`doc` (a docstring whose sections are indented by 4 spaces) with
    `entries` (Args lines, indented by 8) at the end of its `Args:`
    section."""
    head, header, rest = doc.partition("    Args:\n")
    if not header:
        raise ValueError("the docstring has no 'Args:' section")
    if rest.startswith("\n"):   # (an "Args:" header with no entries yet)
        return head + header + entries + rest
    own, blank, tail = rest.partition("\n\n")
    if not blank:   # (Args is the last section)
        return head + header + own.rstrip() + "\n" + entries
    return head + header + own + "\n" + entries + "\n" + tail


ARGS = {
    "f": """\
        f: The function to differentiate: tensors (or pytrees of them:
            tuples, lists, dicts) in, a tensor (or pytree) out.
""",
    "argnums": """\
        argnums: The positional argument(s) to differentiate with respect
            to: an int, or a tuple of ints (then one result per entry).
""",
    "has_aux": """\
        has_aux: f returns (output, aux); aux is passed back as it is,
            not differentiated.
""",
}


def documented(*names):
    """A decorator adding ARGS' entries of `names` to the function's Args
    section."""
    def attach(fn):
        fn.__doc__ = with_args(fn.__doc__, "".join(ARGS[n] for n in names))
        return fn
    return attach
