"""The recording core: what a tape records, and the backward loop.

`recorder`: each thread's or task's stack of recording tapes, one tape's `Recorder`,
the VJP table of built-in ops and `apply`/`record`/`record_one`/`record_multi`;
`backward`: the chain rule over a record; `forward`: what custom gradients
need around a forward; `gc_policy`: Python's GC while tapes record;
`thread_state`: the recording state of one thread or task (`state()`).
Below `pycg.ops` and above `pycg.tensor`; it never imports a backend or an op.
"""
