# Everyday R idioms on tensors: base R's answer (as a tensor recorded on
# tapes where the answer is numbers), or an error that says what to do.

test_each_backend("c() with a tensor anywhere is one tensor in R's order, on the tape", {
  # the c() that library(pycg) puts on the search path (these tests run in
  # the package's namespace, whose code keeps base R's)
  c <- get("c", envir = as.environment("package:pycg"))
  x_r <- c(1, 2, 3)
  x <- tensor(x_r)
  m_r <- matrix(1:4 + 0, 2)
  expect_identical(as.vector(c(5, x)), c(5, x_r))
  expect_identical(as.vector(c(NULL, x)), c(NULL, x_r))
  expect_identical(as.vector(c(5, tensor(m_r), 7)), c(5, m_r, 7))
  expect_identical(as.vector(c(TRUE, op_convert_to_tensor(2:3))), c(TRUE, 2:3))
  out <- c()
  for (i in seq_along(x)) out <- c(out, x[i] * 2)
  expect_identical(as.vector(out), x_r * 2)
  g <- pycg_grad(function(x) {
    out <- NULL  # (c is the one above)
    for (i in seq_along(x)) out <- c(out, x[i]^2)
    sum(out * c(1, 10, 100))
  })(x_r)
  expect_equal(as.vector(g), 2 * x_r * c(1, 10, 100))
  # beside a list a tensor is one element; beside strings its values
  l <- c(list(1), x)
  expect_type(l, "list")
  expect_length(l, 2L)
  expect_s3_class(l[[2L]], "pycg.tensor.Tensor")
  expect_identical(c("a", x), c("a", x_r))
  # R's NA of a comparison survives
  expect_identical(as.logical(c(tensor(c(1, NA)) > 0, TRUE)),
                   c(c(1, NA) > 0, TRUE))
  # plain R values keep base R's c()
  expect_identical(c(a = 1, b = 2L), base::c(a = 1, b = 2L))
  expect_identical(c(list(1), 2), base::c(list(1), 2))
})

test_each_backend("is.numeric() of a tensor is base R's answer for its values", {
  expect_true(is.numeric(tensor(c(1, 2))))
  expect_true(is.numeric(op_convert_to_tensor(1:2)))
  expect_false(is.numeric(op_convert_to_tensor(c(TRUE, FALSE))))
  expect_false(is.numeric(op_convert_to_tensor(complex(real = 1, imaginary = 2))))
})

test_each_backend("x[i] <- NA stores R's NA, as base R", {
  x_r <- c(1, 2, 3)
  for (value in list(NA, NA_real_, NaN, Inf, -Inf)) {
    want <- x_r
    want[want > 2] <- value
    x <- tensor(x_r)
    x[x > 2] <- value
    expect_identical(as.vector(x), want, label = deparse(value))
  }
  m_r <- matrix(1:6 + 0, 2)
  want <- m_r
  want[, 2] <- NA
  m <- tensor(m_r)
  m[, 2] <- NA
  expect_identical(as.array(m), want)
  i_r <- 1:3
  i <- op_convert_to_tensor(i_r)
  i[i > 2] <- NA
  i_r[i_r > 2] <- NA
  expect_identical(as.vector(i), i_r)   # an integer tensor holds NA_integer_
})

test_each_backend("NaN and infinities flow without NumPy's warnings, as on tensorflow", {
  expect_silent(r <- median(tensor(c(-Inf, Inf))))
  expect_identical(as.numeric(r), median(c(-Inf, Inf)))
  expect_silent(r <- op_log(tensor(-1)))
  expect_true(is.nan(as.numeric(r)))
  expect_silent(op_convert_to_tensor(c(5L, 1L)) / op_convert_to_tensor(0L))
})

test_each_backend("errors name the user's mistake and the way out", {
  expect_error(op_convert_to_tensor(c("a", "b")), paste0(
    "^op_convert_to_tensor: expected numbers or arrays of numbers, got a ",
    "character vector c\\(\"a\", \"b\"\\); use as.numeric\\(\\)"))
  expect_error(det(tensor(matrix(1:6 + 0, 2))), "'x' must be a square matrix")
  expect_error(norm(tensor(c(1, 2))), "'A' must be a numeric matrix")
  expect_identical(tabulate(tensor(c(1, 3))), tabulate(c(1, 3)))
  x <- tensor(c(1, 2))
  expect_identical(as.vector(x[[op_convert_to_tensor(2L)]]), 2)
  # for () cannot dispatch; its R form loops over positions
  total <- 0
  for (i in seq_along(x)) total <- total + x[[i]]
  expect_equal(as.numeric(total), 3)
})

test_that("if (x > 0) inside pycg_function says a traced tensor has no R value", {
  skip_if_no_pycg()
  old <- config_backend()
  on.exit(config_set_backend(old))
  config_set_backend("tensorflow")
  f <- pycg_function(function(x) if (x > 0) x else -x)
  expect_error(f(tensor(2)), paste0(
    "^`if \\(x > 0\\)`: the condition is a tensor .*while pycg_function\\(\\) ",
    "traces f a tensor has no R value.*op_where\\(condition, yes, no\\) or ",
    "op_cond"))
  g <- pycg_function(function(x) op_where(x > 0, x, -x))
  expect_equal(as.numeric(g(tensor(-2))), 2)
})

test_each_backend("a warning inside a Python call reaches tryCatch() without breaking Python", {
  f <- function(x) {
    warning("careful")
    x * 2
  }
  got <- tryCatch(pycg_grad(function(x) op_sum(f(x)))(c(1, 2)),
                  warning = function(w) conditionMessage(w))
  expect_identical(got, "careful")
  # once muffled, the call goes on to its result
  res <- withCallingHandlers(pycg_grad(function(x) op_sum(f(x)))(c(1, 2)),
                             warning = function(w)
                               invokeRestart("muffleWarning"))
  expect_equal(as.vector(res), c(2, 2))
  expect_warning(pycg_grad(function(x) op_sum(f(x)))(c(1, 2)), "careful")
  # pycg_function() on the numpy backend warns that it runs eagerly
  old <- config_backend()
  on.exit(config_set_backend(old))
  config_set_backend("numpy")
  expect_identical(tryCatch(pycg_function(function(x) x * 2)(tensor(1)),
                            warning = function(w) "warned"), "warned")
  expect_equal(as.numeric(suppressWarnings(
    pycg_function(function(x) x * 2)(tensor(1)))), 2)
})

test_that("help examples that switch the backend or floatx restore them", {
  skip_if_no_pycg()
  db <- tools::Rd_db("pycg")
  switching <- names(db)[vapply(db, function(rd) {
    text <- paste(capture.output(tools::Rd2ex(rd)), collapse = "\n")
    grepl("config_set_(backend|floatx)\\(", text)
  }, NA)]
  expect_true(length(switching) >= 3L)
  for (rd in switching) {
    before <- list(config_backend(), config_floatx())
    suppressWarnings(utils::example(sub("\\.Rd$", "", rd), package = "pycg",
                                    character.only = TRUE, echo = FALSE,
                                    ask = FALSE))
    expect_identical(list(config_backend(), config_floatx()), before,
                     label = rd)
  }
})
