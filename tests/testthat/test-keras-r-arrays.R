# A Keras model reached through reticulate takes R matrices and gives R
# arrays, whatever reticulate can convert itself (1.28 with NumPy 2 cannot:
# R/keras-arrays.R). Oracles: the model's own weights applied in base R.

keras_model <- function(keras, units_in) {
  keras$utils$set_random_seed(7L)
  model <- keras$Sequential(list(keras$Input(shape = list(units_in)),
                                 keras$layers$Dense(1L)))
  model$compile(optimizer = keras$optimizers$SGD(0.1), loss = "mse")
  model
}

test_that("a Keras model's fit(), evaluate() and predict() take R matrices and give R arrays", {
  skip_if_no_pycg()
  skip_if_not(reticulate::py_module_available("keras"), "Keras is not installed")
  keras <- reticulate::import("keras")
  set.seed(11)
  x <- matrix(rnorm(64), 32, 2)
  y <- x %*% c(2, -1) + 0.5
  model <- keras_model(keras, 2L)
  history <- model$fit(x, y, epochs = 150L, batch_size = 32L, verbose = 0L,
                       validation_data = list(x[1:8, ], y[1:8, , drop = FALSE]))
  loss <- unlist(history$history$loss)
  expect_length(loss, 150L)
  expect_lt(loss[150], loss[1] / 100)
  weights <- model$get_weights()
  expect_true(is.array(weights[[1L]]) && identical(dim(weights[[1L]]), c(2L, 1L)))
  expect_equal(as.vector(weights[[1L]]), c(2, -1), tolerance = 1e-2)
  expect_equal(as.vector(weights[[2L]]), 0.5, tolerance = 1e-2)
  # predict() and evaluate() against the weights applied in base R (float32)
  by_r <- x %*% weights[[1L]] + as.vector(weights[[2L]])
  predicted <- model$predict(x, verbose = 0L)
  expect_identical(dim(predicted), c(32L, 1L))
  expect_equal(predicted, by_r, tolerance = 1e-5)
  expect_equal(model$evaluate(x, y, verbose = 0L), mean((by_r - y)^2),
               tolerance = 1e-4)
  # set_weights() of R arrays, by name too
  model$set_weights(list(matrix(c(1, 3), 2L), array(-2, 1L)))
  expect_equal(model$predict(x = x[1:3, ], verbose = 0L),
               x[1:3, ] %*% c(1, 3) - 2, tolerance = 1e-5)
  expect_equal(model$predict_on_batch(x[1:2, ]), x[1:2, ] %*% c(1, 3) - 2,
               tolerance = 1e-5)
})
