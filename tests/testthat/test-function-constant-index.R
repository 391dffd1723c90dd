# Inside pycg_function(), an R index is a constant of the graph: `[` takes
# positions, masks and missing indices as it does eagerly, on every backend
# (on tensorflow the trace knows the constant's value). An index computed
# from the traced argument is still refused by name.

f_indexed <- function(p) {
  op_sum(p[1:7]^2) + op_sum(p[c(1, 2)] * 3) + op_sum(p[c(TRUE, FALSE)]) +
    op_sum(p[-1])
}
# (the numpy backend warns that it runs f eagerly)
compiled <- function(f) {
  traced <- pycg_function(f)
  function(x) suppressWarnings(traced(x))
}

r_indexed <- function(p) {
  sum(p[1:7]^2) + sum(p[c(1, 2)] * 3) + sum(p[c(TRUE, FALSE)]) + sum(p[-1])
}

test_each_backend("R constant indices inside pycg_function give base R's values and gradients", {
  p <- c(0.5, -1, 2, 1.5, -0.25, 3, 1, -2, 0.75, 4)
  f <- compiled(f_indexed)
  expect_equal(as.numeric(f(tensor(p))), r_indexed(p))
  g <- pycg_grad(function(p) f(p))
  expect_equal(as.numeric(as.array(g(tensor(p)))), fd_grad(r_indexed, p),
               tolerance = 1e-6)
  m <- matrix(c(1, -2, 0.5, 3, 4, -1, 2, 0.25, 1.5, -3, 2, 1), 3)
  h <- compiled(function(m) op_sum(m[, 2:3]^2) + op_sum(m[2, ]))
  r_h <- function(m) sum(m[, 2:3]^2) + sum(m[2, ])
  expect_equal(as.numeric(h(tensor(m))), r_h(m))
  gh <- pycg_grad(function(m) h(m))
  expect_equal(as.array(gh(tensor(m))), fd_grad(r_h, m), tolerance = 1e-6)
})

test_that("an index traced from the argument is refused inside pycg_function", {
  skip_if_no_pycg()
  config_set_backend("tensorflow")
  f <- pycg_function(function(p) op_sum(p[p > 0]))
  expect_error(f(tensor(c(1, -1, 2))), "the index is a tensor being traced")
})
