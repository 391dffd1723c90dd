"""Base R's meaning on tensors, for the R package: what R's operators,
groups and functions give where R values meet tensors. semantics.py decides
the shape, type and NA of a result (as R's arithmetic.c); arith.py (the
operators), rmath.py (the Math and Complex groups), summary.py (the Summary
group, pmax()/pmin()), replace.py (`[<-`, ifelse(), c()), subset.py (`[`),
special.py, linalg.py, square.py, stats.py and covariance.py build on it,
na.py keeps R's logical NA beside bool tensors. The R package reaches them
through pycg/r/interop.py and the table of pycg/r/entries.py; nothing here
knows R or reticulate.
"""
