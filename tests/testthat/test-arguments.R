# Every op_* wrapper converts each argument as R/arguments.R declares for
# its name (or for that op), and passes none on unconverted: reads the body
# of each wrapper, so a new wrapper that drifts fails here.

# Calls that forward to Python: an argument directly inside one was not
# converted. Calls that only look at a value (is.null(), ...) are skipped;
# unname() and ( pass a value through to the call around them.
forwarding <- c("op_call", "op_call_index", "core_call", "method_call",
                "py_call", "do.call", "list")
passing <- c("unname", "(")

# The converters applied to each formal of `fn`, one entry per place it is
# used ("as is" where it reaches a forwarding call unconverted).
argument_uses <- function(fn, converters) {
  params <- setdiff(names(formals(fn)), "...")
  uses <- list()
  walk <- function(e, heads) {
    if (is.symbol(e)) {
      name <- as.character(e)
      if (!name %in% params) return()
      head <- Find(function(h) !h %in% passing, heads, right = TRUE)
      use <- if (is.null(head)) NULL else if (head %in% forwarding) "as is"
        else if (head %in% converters) head
      if (!is.null(use)) uses[[name]] <<- union(uses[[name]], use)
      return()
    }
    if (!is.call(e)) return()
    head <- if (is.symbol(e[[1L]])) as.character(e[[1L]]) else "?"
    parts <- as.list(e)[-1L]
    for (i in seq_along(parts))
      if (!identical(parts[[i]], quote(expr = ))) walk(parts[[i]], c(heads, head))
  }
  walk(body(fn), character())
  uses
}

test_that("every op wrapper converts its arguments as declared", {
  ns <- asNamespace("pycg")
  converters <- c("as_py", names(pycg:::op_argument_conversions),
                  unlist(pycg:::op_argument_exceptions, use.names = FALSE),
                  "check_condition")
  ops <- grep("^op_", getNamespaceExports("pycg"), value = TRUE)
  drift <- character()
  for (op in ops) {
    uses <- argument_uses(get(op, ns), converters)
    for (arg in names(uses)) {
      want <- pycg:::op_argument_conversion(op, arg)
      got <- setdiff(uses[[arg]], "check_condition")
      if (!identical(got, want))
        drift <- c(drift, sprintf("%s(%s): %s, declared %s", op, arg,
                                  paste(got, collapse = " + "), want))
    }
  }
  expect_identical(drift, character())
})

test_that("the drift check sees an argument passed on as is", {
  converters <- c("as_py", "as_flag", "as_axis")
  bad <- function(x, keepdims = FALSE) op_call("sum", as_py(x),
                                               keepdims = keepdims)
  expect_identical(argument_uses(bad, converters),
                   list(x = "as_py", keepdims = "as is"))
  good <- function(x, axis = NULL) {
    if (is.null(axis)) op_call("f", as_py(unname(x)))
    else op_call("f", as_py(x), axis = as_axis(axis))
  }
  expect_identical(argument_uses(good, converters),
                   list(x = "as_py", axis = "as_axis"))
})

test_that("flags and dtypes are checked in R, naming the argument", {
  skip_if_no_pycg()
  x <- op_convert_to_tensor(matrix(1:4 + 0, 2))
  expect_error(op_sum(x, keepdims = NA),
               "^op_sum: `keepdims` must be TRUE or FALSE, not NA")
  expect_error(op_max(x, keepdims = "yes"),
               "^op_max: `keepdims` must be TRUE or FALSE, not \"yes\"")
  expect_error(op_cast(x, NA_character_),
               "^op_cast: `dtype` must be a dtype name such as \"float32\"")
  expect_equal(dim(op_sum(x, axis = 1, keepdims = TRUE)), c(1L, 2L))
  expect_equal(as.numeric(op_sum(x, axis = 1, keepdims = FALSE)), c(3, 7))
})
