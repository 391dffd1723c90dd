#' Random draws
#'
#' keras3's `random_*()` functions on pycg: `pycg.random`'s draws with
#' Keras' seed semantics. An integer `seed` gives the same numbers on every
#' call; a [random_seed_generator()] moves on at each draw; `seed = NULL`
#' draws from a global generator. The numbers are the same on both backends
#' (they are not those keras3 gives for the same seed).
#'
#' `set.seed()` governs the draws with `seed = NULL` (keras3's do not follow
#' it): whenever R's random number generator has moved since the last such
#' draw (after `set.seed()`, `runif()`, ...), the global generator restarts
#' at a seed drawn from R's, so `set.seed(1); random_normal(2)` gives the
#' same numbers in every session. Before R's generator is first used in a
#' session, as in R, the draws are not reproducible.
#'
#' @param shape The shape of the result, an integer vector (`c(2, 3)`).
#' @param mean,stddev The mean and standard deviation of the normal.
#' @param minval,maxval The bounds: `[minval, maxval)`.
#' @param dtype The dtype of the result (`NULL`: the float type,
#'   [config_floatx()]; `"int32"` for `random_integer()` and
#'   `random_categorical()`).
#' @param seed An integer, a [random_seed_generator()] or `NULL`.
#' @param logits `random_categorical()`: a `(batch, classes)` matrix or
#'   tensor of unnormalised log-probabilities.
#' @param num_samples `random_categorical()`: how many draws per row.
#' @param zero_indexed `random_categorical()`: return 0-based classes
#'   instead of R's 1-based ones.
#' @param x,inputs The tensor to shuffle or to drop entries of.
#' @param axis `random_shuffle()`: the axis to permute along (1-based).
#' @param rate `random_dropout()`: the probability of zeroing an entry (the
#'   others are scaled by `1 / (1 - rate)`).
#' @param noise_shape `random_dropout()`: the shape of the mask, broadcast
#'   to that of `inputs` (`NULL`: the same shape).
#' @return A tensor.
#' @examplesIf pycg_available()
#' random_normal(c(2, 3), seed = 1)
#' identical(as.array(random_uniform(3, seed = 7)),
#'           as.array(random_uniform(3, seed = 7))) # TRUE
#' gen <- random_seed_generator(42)
#' random_integer(5, 0, 10, seed = gen)
#' random_categorical(matrix(log(c(0.2, 0.8)), 1), 4, seed = 3) # 1 or 2
#' @name random
NULL

#' @rdname random
#' @export
random_normal <- function(shape, mean = 0, stddev = 1, dtype = NULL,
                          seed = NULL) {
  core_call("random.normal", as_shape(shape), mean = mean, stddev = stddev,
            dtype = dtype, seed = as_seed(seed))
}

#' @rdname random
#' @export
random_uniform <- function(shape, minval = 0, maxval = 1, dtype = NULL,
                           seed = NULL) {
  core_call("random.uniform", as_shape(shape), minval = minval,
            maxval = maxval, dtype = dtype, seed = as_seed(seed))
}

#' @rdname random
#' @export
random_truncated_normal <- function(shape, mean = 0, stddev = 1,
                                    dtype = NULL, seed = NULL) {
  core_call("random.truncated_normal", as_shape(shape), mean = mean,
            stddev = stddev, dtype = dtype, seed = as_seed(seed))
}

#' @rdname random
#' @export
random_integer <- function(shape, minval, maxval, dtype = "int32",
                           seed = NULL) {
  core_call("random.randint", as_shape(shape), as_int(minval),
            as_int(maxval), dtype = dtype, seed = as_seed(seed))
}

#' @rdname random
#' @export
random_categorical <- function(logits, num_samples, dtype = "int32",
                               seed = NULL, zero_indexed = FALSE) {
  out <- core_call("random.categorical", as_py(logits), as_int(num_samples),
                   dtype = dtype, seed = as_seed(seed))
  if (isTRUE(zero_indexed)) out else op_call("add", out, 1L)
}

#' @rdname random
#' @export
random_shuffle <- function(x, axis = 1L, seed = NULL) {
  core_call("random.shuffle", as_py(x), axis = as_axis(axis),
            seed = as_seed(seed))
}

#' @rdname random
#' @export
random_dropout <- function(inputs, rate, noise_shape = NULL, seed = NULL) {
  core_call("random.dropout", as_py(inputs), rate,
            noise_shape = as_shape(noise_shape), seed = as_seed(seed))
}

#' A random seed generator
#'
#' The state of a stream of random draws (Keras' `SeedGenerator`): each draw
#' that takes it as its `seed` moves it on, so successive draws differ, and
#' two generators made with the same `seed` give the same stream.
#'
#' @param seed An integer (`NULL`: a seed drawn from R's random number
#'   generator, so `set.seed()` makes the stream reproducible).
#' @param name An optional name.
#' @param ... Further arguments for `pycg.random.SeedGenerator`.
#' @return A `pycg.random.SeedGenerator` (a Python object).
#' @examplesIf pycg_available()
#' gen <- random_seed_generator(1)
#' a <- random_normal(2, seed = gen)
#' b <- random_normal(2, seed = gen) # different from a
#' @export
random_seed_generator <- function(seed = NULL, name = NULL, ...) {
  seed <- seed %||% sample.int(.Machine$integer.max, 1L)
  core_call("random.SeedGenerator", seed = as_seed(seed), name = name, ...)
}

# A seed for Python: R numbers become Python ints; a SeedGenerator and NULL
# pass through (NULL after the global generator follows R's, see below).
as_seed <- function(seed) {
  if (is.null(seed)) {
    follow_r_rng()
    return(NULL)
  }
  if (is.numeric(seed) && length(seed) == 1L && !is.na(seed) &&
      seed == round(seed) && abs(seed) < .Machine$integer.max)
    return(as.integer(seed))
  if (inherits(seed, "python.builtin.object"))
    return(seed)
  stop(calling_function(), ": `seed` must be a whole number, a ",
       "random_seed_generator() or NULL, not ", describe_input(seed),
       if (is.numeric(seed)) paste0(" (", format(seed[1L]), ")"),
       call. = FALSE)
}

# Restarts pycg's global generator at a seed drawn from R's generator when
# R's has moved since the last time (set.seed(), runif(), ...): draws with
# seed = NULL then follow set.seed(). The draw moves R's generator on, so
# the state after it is what the next call compares with.
follow_r_rng <- function() {
  state <- get0(".Random.seed", envir = globalenv(), inherits = FALSE)
  if (is.null(state) || identical(state, .pycg$r_rng_state)) return()
  core_call("random.seed_generator.seed_global",
            sample.int(.Machine$integer.max, 1L))
  .pycg$r_rng_state <- get0(".Random.seed", envir = globalenv(),
                            inherits = FALSE)
}
