"""The differentiation API over the recording core: TensorFlow's
`GradientTape` (`tape`, with `explain` for why a gradient is None) and JAX's
functional transforms (`functional`: `grad`, `vjp`, `jvp`, `jacobian`,
`hessian`, ...). Above the ops."""
