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
  # an R matrix joins in R's column-major order; types and NA are R's
  expect_identical(as.vector(c(x, m_r)), c(x_r, m_r))
  expect_identical(as.vector(c(op_convert_to_tensor(1:2), 2.5)), c(1:2, 2.5))
  expect_identical(as.vector(c(op_convert_to_tensor(c(TRUE, FALSE)), NA)),
                   c(TRUE, FALSE, NA))
  expect_identical(as.vector(c(op_convert_to_tensor(1:2), NA_integer_)),
                   c(1:2, NA))
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

test_each_backend("is.double() & co. answer for the R value a tensor holds", {
  attached <- as.environment("package:pycg")
  for (x_r in list(1.5, c(1, 2), 1:3, c(TRUE, FALSE), matrix(1:4, 2),
                   array(1:8 + 0, c(2, 2, 2)), matrix(c(TRUE, FALSE), 1))) {
    x <- op_convert_to_tensor(x_r)
    for (name in c("is.double", "is.integer", "is.logical"))
      expect_identical(get(name, envir = attached)(x), get(name)(x_r),
                       label = paste(name, deparse(x_r)))
    expect_identical(is.matrix(x), is.matrix(x_r))
    expect_identical(is.array(x), is.array(x_r) && length(dim(x_r)) > 1L)
  }
  expect_identical(get("is.double", envir = attached)("a"), FALSE)
})

test_each_backend("match(), %in% and mapply() with tensors give base R's answers", {
  attached <- as.environment("package:pycg")
  `%in%` <- get("%in%", envir = attached)
  match <- get("match", envir = attached)
  mapply <- get("mapply", envir = attached)
  x_r <- c(1.5, -2, 3)
  x <- tensor(x_r)
  expect_identical(x %in% c(1.5, 3), x_r %in% c(1.5, 3))
  expect_identical(match(c(3, 1), x), base::match(c(3, 1), x_r))
  expect_identical(match(tensor(matrix(x_r, 1)), 3), base::match(x_r, 3))
  expect_identical(match("b", letters), 2L)   # R values: base R's
  got <- mapply(function(a, b) a + b, x, c(10, 20, 30))
  expect_s3_class(got, "pycg.tensor.Tensor")
  expect_identical(as.vector(got), base::mapply(function(a, b) a + b, x_r,
                                                c(10, 20, 30)))
  expect_identical(as.array(mapply(function(a, b) c(a, b), x, 1:3)),
                   base::mapply(function(a, b) c(a, b), x_r, 1:3))
  g <- pycg_grad(function(v) sum(mapply(function(a, b) a * b, v, c(1, 2, 3))))(x)
  expect_identical(as.vector(g), c(1, 2, 3))
  expect_identical(mapply(rep, 1:2, 2:1), base::mapply(rep, 1:2, 2:1))
})

test_each_backend("is.na() & co. are R logicals, so base R's own code can index with them", {
  x_r <- c(3, NA, 1, NaN, -Inf)
  x <- tensor(x_r)
  for (f in list(is.na, is.nan, is.finite, is.infinite))
    expect_identical(f(x), f(x_r))
  m_r <- matrix(c(NA, 1, NaN, 4), 2)
  expect_identical(is.na(tensor(m_r)), is.na(m_r))
  expect_identical(is.na(tensor(c(1, NA)) > 0), c(FALSE, TRUE))
  expect_identical(rank(x), rank(x_r))   # base R indexes with is.na(x)
  expect_identical(as.vector(x[!is.na(x)]), x_r[!is.na(x_r)])
  expect_identical(xtfrm(tensor(m_r)), xtfrm(m_r))
  expect_identical(order(x), order(x_r))
})

test_each_backend("str(), summary(), which(), rev(), sort() and mean(trim =) as base R", {
  m_r <- matrix(c(1.5, -2, 3, 0.25, -5, 6), 2)
  expect_identical(capture.output(str(tensor(c(1, 2))))[-1L],
                   capture.output(str(c(1, 2))))
  expect_identical(summary(tensor(m_r)), summary(m_r))
  expect_identical(which(tensor(c(1, -1, 2)) > 0, arr.ind = TRUE),
                   which(c(1, -1, 2) > 0, arr.ind = TRUE))
  empty <- matrix(numeric(0), 0, 3)
  expect_identical(as.array(rev(tensor(empty))), rev(empty))
  expect_identical(as.vector(sort(tensor(c(1, NA, 3)), na.last = TRUE)),
                   sort(c(1, NA, 3), na.last = TRUE))
  for (x_r in list(c(1, NA, 3), numeric(0), c(NA, NaN, Inf, 2.5)))
    expect_identical(as.vector(mean(tensor(x_r), trim = 0.2)),
                     mean(x_r, trim = 0.2))
})

test_that("comparisons and is.na() trace inside pycg_function on jax; x[mask] there is a clear error", {
  skip_if_no_pycg()
  with_backend("jax", {
    x <- tensor(c(0, 2, NA))
    above <- pycg_function(function(x) x > 1)
    expect_identical(as.vector(above(x)), c(FALSE, TRUE, FALSE))
    keep <- pycg_function(function(x) op_sum(op_where(x > 1 & !is.na(x), x, 0)))
    expect_equal(as.numeric(keep(x)), 2)
    take <- pycg_function(function(x) sum(x[x > 1]))
    expect_error(take(x), "^`\\[`: the index is a tensor being traced")
  })
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
  m_r <- matrix(c(Inf, -Inf, 1, 2), 2)
  m <- tensor(m_r)
  expect_silent(r <- colSums(m - m))
  expect_identical(as.vector(r), colSums(m_r - m_r))
  expect_silent(r <- colMeans(m - m))
  expect_identical(as.vector(r), colMeans(m_r - m_r))
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
