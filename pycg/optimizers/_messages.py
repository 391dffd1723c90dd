"""The errors of Optimizer.apply, raised with their facts
(pycg/_errors.py), so that the R package says them in R's terms
(optimizer_apply(), 1-based positions, c(2) shapes)."""
from pycg._errors import Api, Dtype, Position, Shape, TypeOf, Value, user_error


def apply_error(cls, who, template, variable=None, i=None, **facts):
    """A `cls` of `who`.apply ("pycg.optimizers.SGD"); {variable} in
    `template` names the i-th variable: its position, and its name when it
    has one."""
    if variable is not None:
        named = " ({name})" if getattr(variable, "name", None) else ""
        template = template.replace("{variable}", "{position}" + named)
        facts.update(position=Position(i),
                     name=Value(getattr(variable, "name", None)))
    return user_error(cls, "{api}: " + template,
                      api=Api(who.removeprefix("pycg.") + ".apply"), **facts)


def not_a_variable(who, v, i):
    return apply_error(TypeError, who, "variable {position} is a {type}, not "
                       "a {Variable}; optimizers update Variables in place",
                       position=Position(i), type=TypeOf(v),
                       Variable=Api("Variable"))


def not_floating(who, v, i):
    return apply_error(TypeError, who, "variable {variable} has dtype "
                       "{dtype}; optimizers update floating variables", v, i,
                       dtype=Dtype(v.dtype.name))


def not_built_with(who, v, i, n):
    return apply_error(ValueError, who, "variable {variable} is not one of "
                       "the {n} variables this optimizer was built with; use "
                       "a new optimizer for new variables", v, i, n=n)


def gradient_dtype(who, g, v, i):
    return apply_error(TypeError, who, "the gradient for variable {variable} "
                       "has dtype {found} but the variable has {dtype}; cast "
                       "the gradient", v, i, found=Dtype(g.dtype.name),
                       dtype=Dtype(v.dtype.name))


def gradient_not_numeric(who, v, i, reason):
    return apply_error(TypeError, who, "the gradient for variable {variable} "
                       "is not numeric ({reason})", v, i, reason=reason)


def gradient_shape(who, g, v, i):
    return apply_error(ValueError, who, "the gradient for variable {variable} "
                       "has shape {found} but the variable has shape {shape}",
                       v, i, found=Shape(g.shape), shape=Shape(v.shape))


def no_gradients_for(who, missing):
    """The warning that the (position, variable) pairs in `missing` got no
    gradient: a UserWarning carrying its facts, so R says positions
    1-based."""
    parts, facts = [], {}
    for k, (i, v) in enumerate(missing):
        name = getattr(v, "name", None)
        parts.append(f"{{p{k}}}" + (f" ({{n{k}}})" if name else ""))
        facts[f"p{k}"] = Position(i)
        if name:
            facts[f"n{k}"] = Value(name)
    return user_error(UserWarning, "{api}: no gradients for variables " +
                      ", ".join(parts) + "; they are left unchanged",
                      api=Api(who.removeprefix("pycg.") + ".apply"), **facts)
