"""The recording core: what a tape records, and the backward loop.

`recorder`: the per-thread stack of recording tapes, one tape's `Recorder`,
the VJP table of built-in ops and `apply`/`record`/`record_one`/`record_multi`;
`backward`: the chain rule over a record; `forward`: what custom gradients
need around a forward; `gc_policy`: Python's GC while tapes record.
Below `pycg.ops` and above `pycg.tensor`; it never imports a backend or an op.
"""
