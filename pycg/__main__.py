"""python -m pycg: the walkthrough printed by `make demo`."""
import sys

import numpy as np

import pycg
from pycg import ops
from pycg.backends import import_tensorflow


def naive_log1pexp(x):
    return ops.log(1 + ops.exp(x))


@pycg.custom_gradient
def log1pexp(x):
    e = ops.exp(x)

    def grad(upstream):
        return upstream * (1 - 1 / (1 + e))
    return ops.log(1 + e), grad


def main():
    print(f"pycg {pycg.__version__}  python {sys.version.split()[0]}  "
          f"numpy {np.__version__}")
    try:
        tf = import_tensorflow()
        print(f"tensorflow {tf.__version__}")
        backends = ["tensorflow", "numpy"]
    except ImportError:
        print("tensorflow not installed: numpy backend only")
        backends = ["numpy"]
    print(f"default backend: {pycg.config.backend()}\n")
    print("The gradient of log(1 + exp(x)) at x = 100:")
    with np.errstate(all="ignore"):
        for name in backends:
            pycg.config.set_backend(name)
            naive = float(pycg.grad(naive_log1pexp)(100.0))
            stable = float(pycg.grad(log1pexp)(100.0))
            print(f"  {name:<10} naive: {naive:<5}  custom_gradient: {stable}")
    print("\nThe naive chain rule meets exp(100) = inf in float32 and returns "
          "nan;\nthe custom rule 1 - 1/(1 + e) gives the true slope, 1.")


if __name__ == "__main__":
    main()
