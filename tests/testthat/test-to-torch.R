# pycg_to_torch(): an R rule as a PyTorch function (Python's torch through
# reticulate), against closed forms: the rule triples the gradient of
# x * 1, log1pexp's first and second derivatives are plogis and dlogis.

skip_if_no_torch <- function() {
  skip_if_no_pycg()
  if (!reticulate::py_module_available("torch"))
    skip("Python's torch is not installed")
}

with_torch_backend <- function(code) {
  old <- config_backend()
  on.exit(config_set_backend(old))
  config_set_backend("torch")
  code
}

torch_numbers <- function(t) unlist(t$detach()$tolist())

test_that("an R rule tripling a gradient makes backward three times larger", {
  skip_if_no_torch()
  with_torch_backend({
    torch <- reticulate::import("torch")
    triple <- op_custom_gradient(function(x) {
      tuple(x * 1, function(upstream) 3 * upstream)
    })
    x <- torch$tensor(c(1, 2, 4), requires_grad = TRUE)
    pycg_to_torch(triple)(x)$sum()$backward()
    expect_equal(torch_numbers(x$grad), c(3, 3, 3))
    y <- torch$tensor(c(1, 2, 4), requires_grad = TRUE)
    pycg_to_torch(function(x) x * 1)(y)$sum()$backward()
    expect_equal(torch_numbers(y$grad), c(1, 1, 1))   # (no rule: 1)
  })
})

test_that("the R rule is the gradient to second order (create_graph)", {
  skip_if_no_torch()
  with_torch_backend({
    torch <- reticulate::import("torch")
    log1pexp <- pycg_to_torch(op_custom_gradient(function(x) {
      e <- op_exp(x)
      tuple(op_log(1 + e), function(upstream) upstream * (1 - 1 / (1 + e)))
    }))
    v <- c(-3, 0, 2, 100)
    x <- torch$tensor(v, dtype = torch$float64, requires_grad = TRUE)
    d1 <- torch$autograd$grad(log1pexp(x)$sum(), x, create_graph = TRUE)[[1]]
    d2 <- torch$autograd$grad(d1$sum(), x)[[1]]
    expect_equal(torch_numbers(d1), plogis(v), tolerance = 1e-12)
    expect_equal(torch_numbers(d2), dlogis(v), tolerance = 1e-12)
  })
})

test_that("Python receives the torch function itself", {
  skip_if_no_torch()
  triple <- op_custom_gradient(function(x) {
    tuple(x * 1, function(upstream) 3 * upstream)
  })
  rule <- pycg_to_torch(triple)
  expect_identical(pycg_to_torch(rule), rule)
  py_rule <- reticulate::r_to_py(rule)
  expect_identical(reticulate::py_to_r(reticulate::py_get_attr(
    py_rule, "__name__")), "triple")
})

test_that("pycg_to_torch refuses a non-function and a tensor torch records; another backend set is no matter", {
  skip_if_no_torch()
  expect_error(pycg_to_torch(3),
               "`f` must be an R function written with op_\\*\\(\\)")
  sine <- function(x) op_sin(x)
  rule <- pycg_to_torch(sine)
  torch <- reticulate::import("torch")
  old <- config_backend()
  on.exit(config_set_backend(old))
  config_set_backend("numpy")
  x <- torch$tensor(c(0.5, 2), requires_grad = TRUE, dtype = torch$float64)
  rule(x)$sum()$backward()   # (the rule runs on torch for the call)
  expect_equal(torch_numbers(x$grad), cos(c(0.5, 2)))
  expect_identical(config_backend(), "numpy")
  config_set_backend("torch")
  expect_error(op_exp(torch$ones(2L, requires_grad = TRUE)), paste0(
    "a torch tensor that requires grad \\(float32, shape c\\(2\\)\\) ",
    "reached pycg while torch's autograd records.*pycg_to_torch\\(f\\)"))
})
