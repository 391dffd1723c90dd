"""Kernels that answer as NumPy where the jax and torch backends'
frameworks answer otherwise: NumPy's refusal, word for word, where JAX
would answer through a formula of its own and torch would refuse in its
own words; NumPy's float64 matrix functions of integers and bools, which
torch refuses. Each backend binds each kernel by its name in its topic
files."""


def real_only(name, fn, is_complex):
    """fn(x, y), refusing complex operands as NumPy's ufunc `name` does
    where it has no complex loop."""
    def kernel(x, y):
        if is_complex(x) or is_complex(y):
            raise TypeError(f"ufunc '{name}' not supported for the input "
                            f"types, and the inputs could not be safely "
                            f"coerced to any supported types according to "
                            f"the casting rule ''safe''")
        return fn(x, y)
    kernel.__name__ = name
    return kernel


def on_inexact(kernel, inexact):
    """kernel(x) of inexact(x): an integer or bool x as the float NumPy
    computes it in."""
    def on(x):
        return kernel(inexact(x))
    on.__name__ = kernel.__name__
    return on
