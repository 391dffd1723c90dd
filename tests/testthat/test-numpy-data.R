# R data into Python libraries that take NumPy arrays (Keras): through
# pycg_to_numpy(), whatever NumPy reticulate can convert to.

test_that("pycg_to_numpy keeps R's dims, layout and types", {
  skip_if_no_pycg()
  m <- matrix(c(1.5, 2, NA, 4, -0, 6), 2, 3)
  a <- pycg_to_numpy(m)
  expect_s3_class(a, "numpy.ndarray")
  expect_identical(unlist(reticulate::py_to_r(a$shape)), c(2L, 3L))
  expect_identical(reticulate::py_str(a$dtype), "float64")
  back <- as.array(op_convert_to_tensor(a))
  expect_identical(is.na(back), is.na(m))
  expect_identical(back[!is.na(m)], m[!is.na(m)])
  expect_identical(reticulate::py_str(pycg_to_numpy(1:3)$dtype), "int32")
  expect_identical(reticulate::py_str(pycg_to_numpy(c(TRUE, FALSE))$dtype),
                   "bool")
  expect_identical(reticulate::py_str(pycg_to_numpy(m, "float32")$dtype),
                   "float32")
  arr <- array(1:24 + 0, c(2, 3, 4))
  expect_identical(as.array(op_convert_to_tensor(pycg_to_numpy(arr))), arr)
  expect_identical(unlist(reticulate::py_to_r(pycg_to_numpy(3)$shape)), NULL)
  expect_error(pycg_to_numpy(m, dtype = "no such"), "pycg_to_numpy")
  expect_error(pycg_to_numpy(data.frame(a = 1)), "as.matrix")
})

test_that("model$fit(x, y) of a Keras model takes R matrices through pycg_to_numpy()", {
  skip_if_no_pycg()
  config_set_backend("tensorflow")
  keras <- reticulate::import("keras")
  expect_identical(keras$config$backend(), "tensorflow")
  set.seed(1)
  x <- matrix(runif(64, -1, 1), 32, 2)
  y <- x %*% c(3, -2) + 0.5
  model <- keras$Sequential(list(keras$Input(shape = list(2L)),
                                 keras$layers$Dense(1L)))
  model$compile(optimizer = keras$optimizers$SGD(0.1), loss = "mse")
  # (reticulate before 1.36 cannot convert R arrays for NumPy 2: pycg's
  # conversion of a Keras model's data methods takes them, as
  # test-keras-r-arrays.R checks; pycg_to_numpy() is the way for any other
  # Python function)
  history <- model$fit(pycg_to_numpy(x), pycg_to_numpy(y), epochs = 10L,
                       batch_size = 1L, verbose = 0L)
  loss <- unlist(history$history$loss)
  expect_lt(tail(loss, 1), 1e-4)
  weights <- lapply(model$get_weights(), function(w)
    as.numeric(op_convert_to_tensor(w)))
  expect_equal(weights[[1]], c(3, -2), tolerance = 1e-2)
  expect_equal(weights[[2]], 0.5, tolerance = 1e-2)
  fitted <- as.array(op_convert_to_tensor(model$predict(pycg_to_numpy(x),
                                                        verbose = 0L)))
  expect_equal(dim(fitted), c(32L, 1L))
  expect_equal(as.vector(fitted), as.vector(y), tolerance = 1e-2)
})
