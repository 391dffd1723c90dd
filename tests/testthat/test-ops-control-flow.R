# The control-flow wrappers (R/ops-control-flow.R): R functions as branches
# and bodies, differentiated.

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
