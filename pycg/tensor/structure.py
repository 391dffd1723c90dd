"""Flatten and rebuild nested lists, tuples and dicts (dicts in key order)."""


def flatten(tree):
    """Leaves of `tree` in order; lists, tuples and dicts are containers."""
    if not isinstance(tree, (list, tuple, dict)):
        return [tree]   # (a leaf: the common case, no loop)
    out = []
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, (list, tuple)):
            stack.extend(reversed(node))
        elif isinstance(node, dict):
            stack.extend(node[k] for k in reversed(_keys(node)))
        else:
            out.append(node)
    return out


def unflatten(tree, leaves):
    """A structure shaped like `tree` whose leaves are `leaves`, in order."""
    it = iter(leaves)
    if not isinstance(tree, (list, tuple, dict)):
        return next(it)
    result = _build(tree, it)
    return result


def _build(node, it):
    if isinstance(node, dict):
        built = {k: _build(node[k], it) for k in _keys(node)}
        return type(node)((k, built[k]) for k in node) \
            if type(node) is not dict else {k: built[k] for k in node}
    if isinstance(node, (list, tuple)):
        items = [_build(n, it) for n in node]
        if isinstance(node, tuple) and hasattr(node, "_fields"):
            return type(node)(*items)
        return type(node)(items)
    return next(it)


def _keys(d):
    try:
        return sorted(d)
    except TypeError:
        return list(d)


def is_nested(x):
    return isinstance(x, (list, tuple, dict))


def same_structure(a, b):
    """True when `a` and `b` have the same containers (leaves ignored)."""
    if isinstance(a, dict) or isinstance(b, dict):
        return isinstance(a, dict) and isinstance(b, dict) and \
            set(a) == set(b) and all(same_structure(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)) or isinstance(b, (list, tuple)):
        return isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) \
            and len(a) == len(b) and \
            all(same_structure(x, y) for x, y in zip(a, b))
    return True
