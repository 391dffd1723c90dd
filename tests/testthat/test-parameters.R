# Every documented parameter of the reduction, creation and shape ops changes
# the result: each function of those help pages is called once with its
# defaults and once per parameter with the alternative value in this table.
# A parameter missing from the table fails the test.

m <- matrix(c(1, 5, 3, 2, 4, 6), 2, 3)
parameter_table <- list(
  op_sum = list(base = list(x = m), alt = list(axis = 1, keepdims = TRUE)),
  op_prod = list(base = list(x = m), alt = list(axis = 1, keepdims = TRUE)),
  op_mean = list(base = list(x = m), alt = list(axis = 1, keepdims = TRUE)),
  op_var = list(base = list(x = m), alt = list(axis = 1, keepdims = TRUE)),
  op_std = list(base = list(x = m), alt = list(axis = 1, keepdims = TRUE)),
  op_max = list(base = list(x = m),
                alt = list(axis = 1, keepdims = TRUE, initial = 100)),
  op_min = list(base = list(x = m),
                alt = list(axis = 1, keepdims = TRUE, initial = -100)),
  op_cumsum = list(base = list(x = m), alt = list(axis = 2,
                                                  dtype = "float32")),
  op_argmax = list(base = list(x = m), alt = list(axis = 1, keepdims = TRUE)),
  op_argmin = list(base = list(x = m), alt = list(axis = 1, keepdims = TRUE)),
  op_zeros = list(base = list(shape = c(2, 3)), alt = list(dtype = "int32")),
  op_ones = list(base = list(shape = c(2, 3)), alt = list(dtype = "int32")),
  op_full = list(base = list(shape = c(2, 3), fill_value = 2),
                 alt = list(dtype = "int32")),
  op_zeros_like = list(base = list(x = m), alt = list(dtype = "int32")),
  op_ones_like = list(base = list(x = m), alt = list(dtype = "int32")),
  op_full_like = list(base = list(x = m, fill_value = 2),
                      alt = list(dtype = "int32")),
  op_eye = list(base = list(N = 3),
                alt = list(M = 4, k = 1, dtype = "int32")),
  op_arange = list(base = list(start = 5),
                   alt = list(stop = 8, step = 2, dtype = "int32")),
  op_linspace = list(base = list(start = c(0, 10), stop = c(1, 11)),
                     alt = list(num = 3, endpoint = FALSE, retstep = TRUE,
                                dtype = "float32", axis = 2)),
  op_reshape = list(base = list(x = m, newshape = c(3, 2)), alt = list()),
  op_transpose = list(base = list(x = array(as.double(1:24), c(2, 3, 4))),
                      alt = list(axes = c(1, 3, 2))),
  op_swapaxes = list(base = list(x = m, axis1 = 1, axis2 = 2), alt = list()),
  op_expand_dims = list(base = list(x = m, axis = 1), alt = list()),
  op_squeeze = list(base = list(x = array(as.double(1:6), c(1, 6, 1))),
                    alt = list(axis = 1)),
  op_broadcast_to = list(base = list(x = c(1, 2), shape = c(3, 2)),
                         alt = list()),
  op_concatenate = list(base = list(xs = list(m, m)), alt = list(axis = 2)),
  op_stack = list(base = list(x = list(m, m)), alt = list(axis = 2)),
  op_split = list(base = list(x = matrix(as.double(1:8), 2, 4),
                              indices_or_sections = 2),
                  alt = list(axis = 2)),
  op_flip = list(base = list(x = m), alt = list(axis = 1)),
  op_tile = list(base = list(x = m, repeats = c(2, 1)), alt = list()),
  op_repeat = list(base = list(x = m, repeats = 2), alt = list(axis = 1)),
  op_pad = list(base = list(x = m, pad_width = 1),
                alt = list(mode = "reflect", constant_values = 5)),
  op_ravel = list(base = list(x = m), alt = list()))

# What a result is, for comparison: dtype, shape and values of each tensor.
fingerprint <- function(res) {
  if (is.list(res)) return(lapply(res, fingerprint))
  list(capture.output(print(res))[1], dim(res), as.array(res))
}

# The fingerprint of fn(args), or NULL after recording the error as a
# failure (so that one broken op does not hide the others).
fingerprint_of <- function(fn, name, args) {
  tryCatch(fingerprint(do.call(fn, args)), error = function(e) {
    expect(FALSE, sprintf("%s(%s) failed: %s", name,
                          paste(names(args), collapse = ", "),
                          conditionMessage(e)))
    NULL
  })
}

documented_ops <- function(topic) {
  rd <- tools::Rd_db("pycg")[[paste0(topic, ".Rd")]]
  tags <- vapply(rd, attr, "", "Rd_tag")
  setdiff(unlist(lapply(rd[tags == "\\alias"], as.character)), topic)
}

test_each_backend("every parameter of the reduction, creation and shape ops matters", {
  for (topic in c("ops-reduction", "ops-creation", "ops-shape")) {
    for (name in documented_ops(topic)) {
      entry <- parameter_table[[name]]
      expect(!is.null(entry), paste(name, "is not in the parameter table"))
      if (is.null(entry)) next
      fn <- getExportedValue("pycg", name)
      for (param in names(formals(fn))) {
        expect(param %in% c(names(entry$base), names(entry$alt)),
               sprintf("%s(%s =) has no alternative value in the table",
                       name, param))
      }
      default <- fingerprint_of(fn, name, entry$base)
      for (param in names(entry$alt)) {
        changed <- fingerprint_of(fn, name, c(entry$base, entry$alt[param]))
        if (is.null(default) || is.null(changed)) next
        expect(!identical(changed, default),
               sprintf("%s(%s = %s) gives the same result as the default",
                       name, param, deparse(entry$alt[[param]])))
      }
    }
  }
})

test_each_backend("initial of op_max()/op_min() and dtype of op_cumsum()", {
  expect_equal(as.numeric(op_max(c(1, 2), initial = 10)), 10)
  expect_equal(as.numeric(op_min(c(1, 2), initial = -10)), -10)
  expect_equal(as.numeric(op_max(c(1, 2), initial = 0)), 2)
  expect_match(capture.output(print(op_cumsum(c(1, 2, 3), dtype = "float32")))[1],
               "float32")
  expect_equal(as.numeric(op_cumsum(c(1, 2, 3), dtype = "float32")),
               cumsum(c(1, 2, 3)))
})

test_each_backend("inverse hyperbolic functions on tensors match base R", {
  x <- c(1.5, 2, 3)
  expect_equal(as.numeric(acosh(tensor(x))), acosh(x))
  expect_equal(as.numeric(asinh(tensor(x - 2))), asinh(x - 2))
  expect_equal(as.numeric(atanh(tensor(x / 4))), atanh(x / 4))
})

test_each_backend("op_arccosh(), op_arcsinh(), op_arctanh() match base R", {
  x <- c(1.5, 2, 3)
  expect_equal(as.numeric(op_arccosh(x)), acosh(x))
  expect_equal(as.numeric(op_arcsinh(x - 2)), asinh(x - 2))
  expect_equal(as.numeric(op_arctanh(x / 4)), atanh(x / 4))
})
