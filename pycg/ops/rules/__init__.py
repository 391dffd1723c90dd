"""The VJP rules, a table per topic: `rules/<topic>.py` holds the rules of
the ops in `ops/<topic>.py` (one `defvjp` line each, under short banners;
a rule that needs more than an expression named right above its line) and
`NON_DIFFERENTIABLE`, the topic's ops that carry no gradient. `direct.py`
holds a few unary rules on backend values, for the backward loop while
nothing records; `_complex.py` the rules' complex convention (TensorFlow's)
and the rules it decides. Importing this package registers every topic's table."""
import importlib
import pkgutil

for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")
