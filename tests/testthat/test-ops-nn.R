# The nn and control-flow wrappers (issue 14): R conventions (1-based labels
# and axes, R functions as branches) and values against R's own arithmetic.

test_each_backend("one_hot and sparse crossentropy take 1-based labels", {
  expect_equal(op_convert_to_numpy(op_one_hot(c(2, 1), 3)),
               rbind(c(0, 1, 0), c(1, 0, 0)))
  p <- rbind(c(0.1, 0.7, 0.2), c(0.6, 0.3, 0.1))
  expect_equal(as.numeric(op_sparse_categorical_crossentropy(c(2, 1),
                                                             tensor(p))),
               -log(c(0.7, 0.6)), tolerance = 1e-12)
  expect_equal(as.numeric(op_multi_hot(c(3, 1), 4)), c(1, 0, 1, 0))
})

test_each_backend("activations and losses match R", {
  v <- c(-2.5, -0.5, 0.5, 3)
  expect_equal(as.numeric(op_leaky_relu(tensor(v), 0.1)),
               ifelse(v > 0, v, 0.1 * v), tolerance = 1e-12)
  expect_equal(as.numeric(op_relu6(tensor(v * 3))), pmin(pmax(v * 3, 0), 6))
  expect_equal(as.numeric(op_softsign(tensor(v))), v / (1 + abs(v)),
               tolerance = 1e-12)
  p <- c(0.2, 0.9)
  expect_equal(as.numeric(op_binary_crossentropy(tensor(c(0, 1)), tensor(p))),
               -log(c(0.8, 0.9)), tolerance = 1e-12)
})

test_each_backend("moments and conv use 1-based axes and R layouts", {
  x <- matrix(c(1, 2, 3, 5), 2)
  m <- op_moments(tensor(x), 2)
  expect_equal(as.numeric(m[[1]]), rowMeans(x))
  expect_equal(as.numeric(m[[2]]), c(1, 2.25))
  xi <- tensor(array(1:6, c(1, 6, 1)))
  expect_equal(as.numeric(op_conv(xi, tensor(array(c(1, -1), c(2, 1, 1))))),
               rep(-1, 5))
  expect_equal(as.numeric(op_average_pool(xi, 2)), c(1.5, 3.5, 5.5))
})

test_each_backend("control flow takes R functions and differentiates", {
  x <- tensor(c(1, 2, 3))
  with(gradient_tape() %as% tape, {
    tape$watch(x)
    y <- op_while_loop(function(v) op_sum(v) < 100, function(v) v * 2, x)
    s <- op_sum(op_cond(op_sum(y) > 50, function() y * y, function() y))
  })
  expect_equal(as.numeric(y), c(1, 2, 3) * 32)
  expect_equal(as.numeric(tape$gradient(s, x)), 2 * 32 * 32 * c(1, 2, 3))
  expect_equal(as.numeric(op_switch(2, list(function(a) a, function(a) -a),
                                    x)), -c(1, 2, 3))
  res <- op_scan(function(c, xi) list(c + xi, c), 0, x)
  expect_equal(as.numeric(res[[2]]), c(0, 1, 3))
})

test_that("a traced while_loop runs TensorFlow control flow from R", {
  skip_if_no_pycg()
  config_set_backend("tensorflow")
  f <- pycg_function(function(x) op_while_loop(
    function(v) op_sum(v) < 100, function(v) v * 2, x))
  expect_equal(as.numeric(f(tensor(c(1, 2, 3)))), c(32, 64, 96))
  expect_equal(as.numeric(f(tensor(c(10, 20, 30)))), c(20, 40, 60))
  expect_equal(as.numeric(f(tensor(c(30, 40, 50)))), c(30, 40, 50))
})

test_each_backend("unfold and fold are each other's transpose", {
  x <- tensor(array(1:16, c(1, 1, 4, 4)))
  cols <- op_unfold(x, 2, stride = 2)
  expect_equal(op_shape(cols), c(1L, 4L, 4L))
  expect_equal(op_convert_to_numpy(op_fold(cols, 4, 2, stride = 2)),
               op_convert_to_numpy(x))
  expect_equal(as.numeric(op_adaptive_max_pool(x, c(1, 1),
                                               data_format = "channels_first")),
               16)
})

test_each_backend("ctc_loss takes 1-based labels and blank", {
  # two time steps, classes (blank, a): p(a) = alignments aa, a-, -a
  z <- tensor(array(c(0, 0, 0, 0), c(1, 2, 2)))
  loss <- op_ctc_loss(matrix(2, 1, 1), z, 1, 2)
  expect_equal(as.numeric(loss), -log(3 / 4), tolerance = 1e-12)
})

test_each_backend("ctc_decode gives 1-based labels", {
  # steps: class 2, 2, blank, 3 -> labels 2, 3
  z <- array(0, c(1, 4, 3))
  z[1, 1, 2] <- 5; z[1, 2, 2] <- 5; z[1, 3, 1] <- 5; z[1, 4, 3] <- 5
  res <- op_ctc_decode(tensor(z), 4)
  expect_equal(as.numeric(res[[1]]), c(2, 3, -1, -1))
  expect_equal(as.numeric(res[[2]]), -20)
})
