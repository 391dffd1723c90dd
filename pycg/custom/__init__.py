"""Custom gradients: the `custom_gradient` decorator (`decorator`), its
calling conventions decided per `grad_fn` (`conventions`), binding a call to
the user's parameters (`bind`), the contracts on what `grad_fn` returns
(`contracts`) and signatures given as data (`signature`, `with_signature`).
Above the recording core, below the ops."""
