"""The VJP rules of the activations in pycg/ops/nn.py (the fused kernels'
rules are in rules/elementwise.py), and the nn ops that carry no gradient."""
from pycg.core.recorder import defvjp
from pycg.ops import elementwise as E
from pycg.ops import nn as N
from pycg.ops import reduction as R

# ---- activations ---------------------------------------------------------------
defvjp("sigmoid", lambda g, ans, x: E._sigmoid_grad(ans, g))
defvjp("softplus", lambda g, ans, x: g * N.sigmoid(x))
defvjp("relu", lambda g, ans, x: E._relu_grad(g, x))
defvjp("log_softmax", lambda g, ans, x, axis:   # (a backend's fused kernel)
       g - E.exp(ans) * R.sum(g, axis=axis, keepdims=True))


# Ops that never carry a gradient (their outputs are not recorded).
NON_DIFFERENTIABLE = ("one_hot", "multi_hot", "ctc_decode")
