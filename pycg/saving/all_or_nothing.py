"""Values assigned to variables all or nothing: load_variables' last step.

Every value is first converted to its variable's dtype on the active
backend, and every variable's current value read (a variable saved on
another backend moves now): a dtype the backend cannot hold (float64 on
jax without its 64-bit mode) is refused before anything is assigned. Then
each is assigned; an exception or a KeyboardInterrupt on the way puts back
the values already replaced, so the variables are as they were.
"""
from pycg._errors import Api, Value, user_error
from pycg.tensor import convert_to_tensor


def assign_all(triples, who: Api) -> None:
    """Assign each (name, variable, value) of `triples`, or none of them."""
    ready = []
    for name, v, value in triples:
        try:
            ready.append((v, v.read(), convert_to_tensor(value, v.dtype)))
        except (TypeError, ValueError, OverflowError) as e:
            raise user_error(type(e), "{api}: {name} cannot be assigned its "
                             "saved value on this backend ({reason}); no "
                             "variable was assigned", api=who,
                             name=Value(name), reason=e) from None
    replaced = []
    try:
        for v, old, new in ready:
            replaced.append((v, old))   # (first: an interrupt inside assign)
            v.assign(new)
    except BaseException:
        for v, old in reversed(replaced):
            v.assign(old)
        raise
