"""Control flow (keras.ops names): cond, switch, while_loop, fori_loop, scan,
map, vectorized_map, associative_scan.

Eagerly they are Python control flow over pycg ops, so the tape
differentiates whatever ran. Inside pycg.function a tensor predicate, index
or trip count has no value yet: cond, switch, while_loop, fori_loop, scan and
map emit TensorFlow's control flow (pycg/ops/_machinery/traced.py) or jax.lax's
(pycg/ops/_traced_jax.py). A Python predicate or index still picks its
branch in Python. associative_scan is pycg ops on static shapes.
"""
from pycg.tensor import structure
from pycg.ops import _traced_jax
from pycg.ops._machinery.traced import Capture, as_value, is_symbolic, tracing
from pycg.ops.manipulation import concatenate, flip, getitem, stack
from pycg.tensor import Tensor, convert_to_tensor

__all__ = ("associative_scan", "cond", "fori_loop", "map", "scan", "switch",
           "vectorized_map", "while_loop")


def _callable(op, name, fn):
    if not callable(fn):
        raise TypeError(
            f"pycg.ops.{op}: {name} must be callable, got {type(fn).__name__}")


def _is_symbolic(x):
    return is_symbolic(x) and tracing()


def cond(pred, true_fn, false_fn):
    """true_fn() if pred else false_fn().

    Args:
        pred: A bool scalar (tensor or Python bool).
        true_fn: A function of no arguments, called when pred holds.
        false_fn: A function of no arguments, called otherwise.

    Returns:
        What the branch taken returns.

    Differs:
        Eagerly a Python loop or branch; inside pycg.function, TensorFlow's own
        control flow, differentiable through TensorFlow's gradient.

    Example:
        >>> from pycg import ops
        >>> float(ops.cond(ops.convert_to_tensor(1.0) > 0, lambda: 1.0,
        ...                lambda: -1.0))
        1.0
    """
    _callable("cond", "true_fn", true_fn)
    _callable("cond", "false_fn", false_fn)
    if _traced_jax.traced(pred):
        return _traced_jax.cond(pred, true_fn, false_fn)
    if not _is_symbolic(pred):
        return true_fn() if bool(pred) else false_fn()
    import tensorflow as tf
    cap = Capture("cond")
    _, p = as_value(pred, "cond", "pred")
    trees = {}

    def branch(fn, key):
        def run():
            trees[key], vals = cap.call(fn, (), [])
            return vals
        return run
    vals = tf.cond(tf.cast(p, tf.bool), branch(true_fn, 0),
                   branch(false_fn, 1))
    vals = vals if isinstance(vals, (list, tuple)) else [vals]
    return structure.unflatten(trees[0], cap.record((), vals))


def switch(index, branches, *operands):
    """`branches[index](*operands)`, index clipped to the valid range.

    Args:
        index: Which branch, an int (clipped to the valid range).
        branches: A sequence of functions of the operands.

    Returns:
        What the branch taken returns.

    Differs:
        Eagerly a Python loop or branch; inside pycg.function, TensorFlow's own
        control flow, differentiable through TensorFlow's gradient.
    """
    branches = list(branches)
    if not branches:
        raise ValueError("pycg.ops.switch: branches is empty")
    for i, b in enumerate(branches):
        _callable("switch", f"branches[{i}]", b)
    if _traced_jax.traced(index):
        return _traced_jax.switch(index, branches, operands)
    if not _is_symbolic(index):
        i = min(max(int(index), 0), len(branches) - 1)
        return branches[i](*operands)
    import tensorflow as tf
    cap = Capture("switch")
    _, idx = as_value(index, "switch", "index")
    ts = [as_value(x, "switch", "operands")[0]
          for x in structure.flatten(operands)]
    trees = {}

    def branch(fn, key):
        def run():
            trees[key], vals = cap.call(fn, operands, [t._value for t in ts])
            return vals
        return run
    idx = tf.clip_by_value(tf.cast(idx, tf.int32), 0, len(branches) - 1)
    vals = tf.switch_case(idx, [branch(b, k) for k, b in enumerate(branches)])
    vals = vals if isinstance(vals, (list, tuple)) else [vals]
    return structure.unflatten(trees[0], cap.record(ts, vals))


def while_loop(cond, body, loop_vars, maximum_iterations=None):
    """Run body(*loop_vars) while cond(*loop_vars); body returns new loop
    variables of the same structure, shapes and dtypes.

    Args:
        cond: A function of the loop variables: keep going while it is true.
        body: A function of the loop variables returning new ones.
        loop_vars: The initial loop variables (a tensor, tuple or list).
        maximum_iterations: Stop after this many iterations (None: no limit).

    Returns:
        The final loop variables, in loop_vars' structure.

    Differs:
        Eagerly a Python loop or branch; inside pycg.function, TensorFlow's own
        control flow, differentiable through TensorFlow's gradient.

    Example:
        >>> from pycg import ops
        >>> ops.while_loop(lambda i: i < 10, lambda i: i * 2, 1)
        16
    """
    _callable("while_loop", "cond", cond)
    _callable("while_loop", "body", body)
    is_tuple = isinstance(loop_vars, (tuple, list))
    state = tuple(loop_vars) if is_tuple else (loop_vars,)
    leaves = structure.flatten(state)
    if not tracing():
        n = 0
        while maximum_iterations is None or n < maximum_iterations:
            c = cond(*state)
            if _traced_jax.traced(c):   # JAX traces the rest of the loop
                state = _traced_jax.while_loop(
                    cond, body, state, None if maximum_iterations is None
                    else maximum_iterations - n)
                break
            if not bool(c):
                break
            out = body(*state)
            state = tuple(out) if isinstance(out, (tuple, list)) else (out,)
            n += 1
        return state if is_tuple else state[0]
    import tensorflow as tf
    cap = Capture("while_loop")
    ts = [as_value(x, "while_loop", "loop_vars")[0] for x in leaves]
    dtypes = [t.dtype for t in ts]

    def tf_cond(*vals):
        _, (c,) = cap.call(cond, state, vals)
        return tf.cast(c, tf.bool)

    def tf_body(*vals):
        out, new = cap.call(lambda *a: _as_tuple(body(*a)), state, vals,
                            dtypes)
        return new
    vals = tf.while_loop(tf_cond, tf_body, [t._value for t in ts],
                         maximum_iterations=maximum_iterations)
    out = structure.unflatten(state, cap.record(ts, list(vals)))
    return out if is_tuple else out[0]


def fori_loop(lower, upper, body_fun, init_val):
    """val = body_fun(i, val) for i in range(lower, upper).

    Args:
        lower: The first i, an int.
        upper: The end of the range, excluded.
        body_fun: A function (i, val) -> val.
        init_val: The initial value (any structure of tensors).

    Returns:
        The final value.

    Differs:
        Eagerly a Python loop or branch; inside pycg.function, TensorFlow's own
        control flow, differentiable through TensorFlow's gradient.
    """
    _callable("fori_loop", "body_fun", body_fun)
    if not tracing() and not (_traced_jax.traced(lower) or
                              _traced_jax.traced(upper)):
        val = init_val
        for i in range(int(lower), int(upper)):
            val = body_fun(i, val)
        return val
    # a known trip count bounds the loop (XLA needs that to differentiate it)
    trips = upper - lower if isinstance(lower, int) and \
        isinstance(upper, int) else None
    lower = convert_to_tensor(lower, "int32")
    return while_loop(lambda i, v: i < upper,
                      lambda i, v: (i + 1, body_fun(i, v)),
                      (lower, init_val), maximum_iterations=trips)[1]


def scan(f, init, xs=None, length=None, reverse=False, unroll=1):
    """(final carry, stacked ys) of carry, y = f(carry, x) over the leading
    axis of xs (or `length` times with x None).

    Args:
        f: A function (carry, x) -> (carry, y).
        init: The initial carry.
        xs: The tensors scanned over their leading axis (None: length steps
            with x None).
        length: The number of steps when xs is None.
        unroll: Accepted for keras.ops' signature (no effect: the answer is the
            same).

    Returns:
        A pair (carry, ys): the final carry and the stacked ys.

    Differs:
        Eagerly a Python loop or branch; inside pycg.function, TensorFlow's own
        control flow, differentiable through TensorFlow's gradient.
    """
    _callable("scan", "f", f)
    x_leaves = [convert_to_tensor(x) for x in structure.flatten(xs)] \
        if xs is not None else []
    n = _length(x_leaves, length)
    order = range(n - 1, -1, -1) if reverse else range(n)

    def x_at(i):
        if xs is None:
            return None
        return structure.unflatten(xs, [getitem(x, i) for x in x_leaves])
    if not tracing() and _traced_jax.scans(init, x_leaves, n):
        return _traced_jax.scan(f, init, xs, x_leaves, n, reverse)
    if not tracing():
        carry, ys = init, []
        for i in order:
            carry, y = f(carry, x_at(i))
            ys.append(y)
        if reverse:
            ys.reverse()
        return carry, _stack(ys)
    return _traced_scan(f, init, xs, x_leaves, n, reverse)


def map(f, xs):
    """f applied to each slice of xs along its leading axis, stacked.

    Args:
        f: A function of one slice.
        xs: The tensor (or structure of tensors) to map over.

    Returns:
        The results stacked along a new leading axis.
    """
    _callable("map", "f", f)
    _, ys = scan(lambda c, x: (c, f(x)), (), xs)
    return ys


def vectorized_map(function, elements):
    """function over the leading axis of elements (as map: pycg has no
    batching transform, so the slices run one after another).

    Args:
        function: A function of one slice.
        elements: The tensor (or structure) to map over.

    Returns:
        The results stacked along a new leading axis.

    Differs:
        The slices run one after another (TensorFlow's vectorized_map batches
        them).
    """
    return map(function, elements)


def associative_scan(f, elems, reverse=False, axis=0):
    """Inclusive scan of an associative f(a, b) along `axis`: element i is
    f over elements 0..i (Hillis-Steele: log2(n) batched calls of f).

    Args:
        f: An associative function (a, b) of two batches of elements.
        elems: The tensors (or structure of tensors) to scan.

    Returns:
        Tensors of elems' structure and shapes.
    """
    _callable("associative_scan", "f", f)
    leaves = [convert_to_tensor(e) for e in structure.flatten(elems)]
    n = _length(leaves, None, axis)
    if reverse:
        leaves = [flip(e, axis) for e in leaves]

    def cut(e, start, stop):
        return getitem(e, (slice(None),) * (axis % e.ndim) +
                       (slice(start, stop),))
    step = 1
    while step < n:
        a = structure.unflatten(elems, [cut(e, 0, n - step) for e in leaves])
        b = structure.unflatten(elems, [cut(e, step, n) for e in leaves])
        fab = structure.flatten(f(a, b))
        leaves = [concatenate([cut(e, 0, step), c], axis=axis)
                  for e, c in zip(leaves, fab)]
        step *= 2
    if reverse:
        leaves = [flip(e, axis) for e in leaves]
    return structure.unflatten(elems, leaves)


# ---- helpers -------------------------------------------------------------
def _as_tuple(out):
    return tuple(out) if isinstance(out, (tuple, list)) else (out,)


def _length(leaves, length, axis=0):
    sizes = {x.shape[axis] for x in leaves}
    if length is not None:
        sizes.add(int(length))
    if len(sizes) != 1:
        raise ValueError(
            f"pycg.ops.scan: xs and length disagree on the number of steps: "
            f"{sorted(sizes) if sizes else 'no xs and no length'}")
    return sizes.pop()


def _stack(ys):
    if not ys or ys[0] is None:
        return None
    first = structure.flatten(ys[0])
    cols = [[structure.flatten(y)[j] for y in ys] for j in range(len(first))]
    return structure.unflatten(ys[0], [stack(c) for c in cols])


def _traced_scan(f, init, xs, x_leaves, n, reverse):
    import tensorflow as tf
    if n == 0:
        raise ValueError("pycg.ops.scan: zero steps inside pycg.function "
                         "(the stacked outputs would have no shape)")
    cap = Capture("scan")
    c_ts = [as_value(c, "scan", "init")[0] for c in structure.flatten(init)]
    dtypes = [t.dtype for t in c_ts]
    xv = [x._value for x in x_leaves]
    first = n - 1 if reverse else 0
    trees = {}

    def step(i, cvals):
        slices = [tf.gather(x, i) for x in xv]
        if xs is None:
            fn, args = (lambda c: _carry_dtypes(f(c, None), dtypes)), (init,)
        else:
            fn, args = (lambda c, x: _carry_dtypes(f(c, x), dtypes)), \
                (init, xs)
        (_, y_tree), vals = cap.call(fn, args, list(cvals) + slices)
        trees["y"] = None if isinstance(y_tree, tuple) and not y_tree \
            else y_tree
        nc = len(cvals)
        return vals[:nc], vals[nc:]

    c1, y0 = step(tf.constant(first), [t._value for t in c_ts])
    arrays = [tf.TensorArray(y.dtype, size=n, element_shape=y.shape)
              .write(first, y) for y in y0]

    def body(k, cvals, arrays):
        i = n - 1 - k if reverse else k
        new_c, ys = step(i, cvals)
        return k + 1, new_c, [a.write(i, y) for a, y in zip(arrays, ys)]
    _, c_final, arrays = tf.while_loop(
        lambda k, c, a: k < n, body, [tf.constant(1), c1, arrays],
        maximum_iterations=n - 1 if isinstance(n, int) else None)
    outs = cap.record(c_ts + x_leaves,
                      list(c_final) + [a.stack() for a in arrays])
    carry = structure.unflatten(init, outs[:len(c_ts)])
    y = trees["y"]
    ys = None if y is None else structure.unflatten(y, outs[len(c_ts):])
    return carry, ys


def _carry_dtypes(out, dtypes):
    """f's (carry, y), y None as (), the carry checked against its dtypes."""
    if not isinstance(out, (tuple, list)) or len(out) != 2:
        raise ValueError(
            f"pycg.ops.scan: f must return (carry, y), got "
            f"{type(out).__name__}")
    carry = structure.flatten(out[0])
    for i, (c, want) in enumerate(zip(carry, dtypes)):
        if isinstance(c, Tensor) and c.dtype != want:
            raise TypeError(
                f"pycg.ops.scan: carry {i} returned by f has dtype {c.dtype}, "
                f"but init had dtype {want}; inside pycg.function the carry "
                f"keeps its dtype (cast it, or start from a value of dtype "
                f"{c.dtype})")
    return out[0], () if out[1] is None else out[1]
