# R arrays into a Keras model's data methods: model$fit(x, y) with R
# matrices. reticulate before 1.36 (Debian 12 ships 1.28) converts an R
# array without a class in its own C++ code, which refuses NumPy 2 ("Required
# version of NumPy not available: incompatible NumPy binary version"), before
# any S3 method of pycg's could run. So for a Keras model (every model is a
# keras Trainer), pycg converts the R arrays among the arguments of fit(),
# evaluate(), predict(), the *_on_batch() methods and set_weights() itself,
# as pycg_to_numpy() does, and the NumPy arrays among their results (and
# get_weights()') to R arrays, as a newer reticulate gives them, wherever
# reticulate cannot; everything else reaches reticulate as before.

# The Trainer methods that take or give data.
keras_data_methods <- c("fit", "evaluate", "predict", "train_on_batch",
                        "test_on_batch", "predict_on_batch", "get_weights",
                        "set_weights")

#' @export
`$.keras.src.trainers.trainer.Trainer` <- function(x, name) {
  value <- NextMethod()
  if (!name %in% keras_data_methods || reticulate_converts_arrays())
    return(value)
  function(...) numpy_to_r(do.call(value, lapply(list(...), r_arrays_to_numpy)))
}

# A NumPy array as an R array (through a tensor: pycg's own conversion), in
# lists too; anything else as it is.
numpy_to_r <- function(v) {
  if (inherits(v, "numpy.ndarray")) return(as.array(op_convert_to_tensor(v)))
  if (is.list(v) && !is.object(v)) return(lapply(v, numpy_to_r))
  v
}

# An R array (atomic, with dims, no class) as a NumPy array, in lists too
# (validation_data = list(x, y)); anything else as it is.
r_arrays_to_numpy <- function(a) {
  if (is.list(a) && !is.object(a)) return(lapply(a, r_arrays_to_numpy))
  if (is.atomic(a) && !is.null(dim(a)) && !is.object(a))
    return(pycg_to_numpy(a))
  a
}

# Whether reticulate converts an R matrix to NumPy itself (reticulate 1.36
# and later, or NumPy 1); asked once a session.
reticulate_converts_arrays <- function() {
  if (is.null(.keras_arrays$converts))
    .keras_arrays$converts <- tryCatch({
      reticulate::r_to_py(matrix(0, 1L, 1L))
      TRUE
    }, error = function(e) FALSE)
  .keras_arrays$converts
}
.keras_arrays <- new.env(parent = emptyenv())
