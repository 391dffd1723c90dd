"""Errors a user can cause, with their facts carried as fields.

A message is a template whose fields are typed facts. Python renders it in
Python's terms; the R package renders the same template in R's terms
(R/messages.R): an op becomes `op_<name>`, a 0-based axis or position a
1-based one, a shape `(2, 3)` becomes `c(2, 3)`, a Python type an R class,
an array of numbers is printed as R prints it.
So a rewording here changes both languages' messages together, and R never
parses English.

    raise user_error(ValueError,
                     "{op}: axis {axis} is out of range for a tensor of rank "
                     "{rank}", op=Op("sum"), axis=Axis(3), rank=2)

The exception is an ordinary ValueError (TypeError, ...) whose str() is the
Python rendering; `exc.pycg_template` and `exc.pycg_facts` hold the template
and the facts as plain data (kind, value) for the R side.

Nothing here imports pycg: every layer may raise through it.
"""


class Fact:
    """A typed value in a message; `kind` tells each language how to say
    it."""
    kind = "value"

    def __init__(self, value):
        self.value = value

    def python(self):
        return str(self.value)


class Op(Fact):
    """An op of pycg.ops, by name: pycg.ops.sum / op_sum."""
    kind = "op"

    def python(self):
        return f"pycg.ops.{self.value}"


class Api(Fact):
    """A public pycg name (dotted below pycg): pycg.grad / pycg_grad."""
    kind = "api"

    def python(self):
        return f"pycg.{self.value}"


class Arg(Fact):
    """An argument's name, as the user wrote it: `axis`."""
    kind = "arg"

    def python(self):
        return f"`{self.value}`"


class Axis(Fact):
    """A 0-based axis (negative counts from the end): 1-based in R."""
    kind = "axis"


class Position(Fact):
    """A 0-based position or index: 1-based in R."""
    kind = "position"


class Shape(Fact):
    """A shape, a tuple of ints (None for unknown): (2, 3) / c(2, 3)."""
    kind = "shape"

    def __init__(self, value):
        super().__init__(tuple(None if d is None else int(d) for d in value))

    def python(self):
        return str(self.value)


class TypeOf(Fact):
    """The type of an object a user passed: 'str' / 'character'."""
    kind = "type"

    def __init__(self, obj):
        t = type(obj)
        super().__init__(t.__name__ if t.__module__ == "builtins"
                         else f"{t.__module__}.{t.__qualname__}")


class Dtype(Fact):
    """A dtype name: 'float32' in both."""
    kind = "dtype"


class Value(Fact):
    """A value a user passed, shown by repr: 'a' / "a", None / NULL."""
    kind = "repr"

    def python(self):
        return repr(self.value)


class Array(Fact):
    """An array of numbers, shown as each language prints one (NumPy's
    format / R's, with its dims); carried as (shape, values in row-major
    order)."""
    kind = "array"

    def __init__(self, value):
        import numpy as np
        a = np.asarray(value)
        super().__init__((list(a.shape), a.ravel().tolist()))

    def python(self):
        import numpy as np
        shape, values = self.value
        text = np.array2string(np.array(values).reshape(shape), 10**3)
        return "\n".join("    " + line for line in text.splitlines())


def user_error(cls, template, **facts):
    """An exception of class `cls` whose message is `template` rendered in
    Python's terms; the template and facts travel with it (see the module's
    docstring). A fact that is not a Fact is a plain value, shown by str."""
    typed = {k: v if isinstance(v, Fact) else Fact(v)
             for k, v in facts.items()}
    exc = cls(template.format(**{k: v.python() for k, v in typed.items()}))
    exc.pycg_template = template
    exc.pycg_facts = {k: (v.kind, _plain(v.value)) for k, v in typed.items()}
    return exc


def facts_of(exc):
    """(template, facts) of an exception made by user_error, else None."""
    template = getattr(exc, "pycg_template", None)
    return None if template is None else (template, exc.pycg_facts)


def _plain(value):
    """Data R can take: numbers, strings, None, and tuples/lists of them."""
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)
