# Base R functions on tensors, each checked against base R on the same R
# values.

m_r <- matrix(c(1, -2, 3, 4, -5, 6), 2, 3)
v_r <- c(3, NA, 1, Inf, -Inf, NaN)

test_each_backend("is.na(), is.nan(), is.finite(), is.infinite() match R", {
  v <- tensor(v_r)
  expect_identical(as.logical(is.na(v)), is.na(v_r))
  expect_identical(as.logical(is.nan(v)), is.nan(v_r))  # NA keeps its bits
  expect_identical(as.logical(is.finite(v)), is.finite(v_r))
  expect_identical(as.logical(is.infinite(v)), is.infinite(v_r))
  expect_true(anyNA(v))
  expect_false(anyNA(tensor(c(1, 2))))
})

test_each_backend("na.rm = TRUE skips NaN in sum, prod, max, min, range, mean", {
  x_r <- c(2, NA, 5, 3)
  x <- tensor(x_r)
  for (f in list(sum, prod, max, min, mean)) {
    expect_equal(as.numeric(f(x, na.rm = TRUE)), f(x_r, na.rm = TRUE))
    expect_true(is.na(as.numeric(f(x))))
  }
  expect_equal(as.numeric(range(x, na.rm = TRUE)), range(x_r, na.rm = TRUE))
  expect_error(sum(x, na.rm = NA), "`na.rm` must be TRUE or FALSE")
})

test_each_backend("any() and all() reduce boolean tensors", {
  b_r <- c(TRUE, FALSE, TRUE)
  b <- op_convert_to_tensor(b_r)
  expect_identical(as.logical(any(b)), any(b_r))
  expect_identical(as.logical(all(b)), all(b_r))
  expect_identical(as.logical(all(tensor(m_r) > -10)), TRUE)
})

test_each_backend("conversions give R's values and layout", {
  m <- tensor(m_r)
  expect_identical(as.vector(m), as.vector(m_r))
  expect_identical(as.matrix(m), m_r)
  expect_identical(as.matrix(tensor(c(1, 2))), as.matrix(c(1, 2)))
  expect_identical(as.double(m), as.double(m_r))
  expect_identical(length(m), length(m_r))
  expect_output(str(m), "num \\[1:2, 1:3\\]")
  expect_identical(summary(m), summary(m_r))   # a matrix: its columns
  big_r <- matrix(seq_len(40) + 0, 10)
  expect_identical(as.array(head(tensor(big_r), 3)), head(big_r, 3))
})

test_each_backend("sort(), rev() and range() follow R's column-major order", {
  m <- tensor(m_r)
  expect_identical(as.vector(sort(m)), sort(m_r))
  expect_identical(as.vector(sort(m, decreasing = TRUE)),
                   sort(m_r, decreasing = TRUE))
  expect_identical(as.vector(rev(m)), rev(m_r))
  expect_identical(as.vector(range(m)), range(m_r))
})

test_each_backend("matrix functions match base R", {
  m <- tensor(m_r)
  sq_r <- matrix(c(2, 1, 0, 3), 2)
  expect_equal(as.vector(rowSums(m)), rowSums(m_r))
  expect_equal(as.vector(colSums(m)), colSums(m_r))
  expect_equal(as.vector(rowMeans(m)), rowMeans(m_r))
  expect_equal(as.vector(colMeans(m)), colMeans(m_r))
  expect_equal(as.array(crossprod(m)), crossprod(m_r))
  expect_equal(as.array(tcrossprod(m)), tcrossprod(m_r))
  expect_equal(as.array(crossprod(m, tensor(m_r))), crossprod(m_r, m_r))
  expect_equal(as.array(m %*% t(m)), m_r %*% t(m_r))
  expect_equal(as.array(t(m)), t(m_r))
  expect_equal(as.array(aperm(m)), aperm(m_r))
  a_r <- array(seq_len(24) + 0, c(2, 3, 4))
  expect_equal(as.array(aperm(tensor(a_r), c(3, 1, 2))), aperm(a_r, c(3, 1, 2)))
  expect_equal(as.vector(diag(tensor(sq_r))), diag(sq_r))
  expect_equal(as.array(diag(tensor(c(1, 2)))), diag(c(1, 2)))
  expect_equal(as.array(pmax(m, 0)), pmax(m_r, 0))
  expect_equal(as.array(pmin(m, tensor(-m_r))), pmin(m_r, -m_r))
})

test_each_backend("the S4 methods take Variables, and a tensor as y", {
  m <- pycg_variable(m_r)
  expect_equal(as.array(crossprod(m)), crossprod(m_r))
  expect_equal(as.vector(rowSums(m)), rowSums(m_r))
  expect_equal(as.array(crossprod(m_r, tensor(m_r))), crossprod(m_r, m_r))
  expect_equal(as.array(tcrossprod(m_r, tensor(m_r))), tcrossprod(m_r, m_r))
})

test_each_backend("the masked base functions leave base R values alone", {
  expect_identical(diag(2), base::diag(2))
  expect_identical(rowSums(m_r), base::rowSums(m_r))
  expect_identical(crossprod(m_r), base::crossprod(m_r))
  expect_identical(pmax(c(1, 5), c(3, 2)), base::pmax(c(1, 5), c(3, 2)))
  expect_identical(m_r %*% t(m_r), base::`%*%`(m_r, t(m_r)))
})

test_each_backend("the row and column sums of a tensor are differentiable", {
  x_r <- matrix(c(0.5, 1.5, -1, 2, 0.25, 3), 2)
  x <- tensor(x_r)
  with(gradient_tape() %as% tape, {
    tape$watch(x)
    y <- sum(rowSums(x * x)) + sum(colMeans(x))
  })
  expect_equal(as.array(tape$gradient(y, x)), 2 * x_r + 1 / nrow(x_r))
})

test_each_backend("a scalar comparison is an R logical; longer ones stay tensors", {
  s <- tensor(2)
  expect_identical(s > 1, TRUE)
  expect_true(isTRUE(s == 2))
  expect_identical(if (s < 1) "small" else "large", "large")
  expect_identical(!(s > 1), FALSE)
  expect_s3_class(tensor(c(1, 3)) > 2, "pycg.tensor.Tensor")
})

test_each_backend("Variable methods take R arrays", {
  w <- pycg_variable(matrix(0, 2, 2))
  w$assign(matrix(c(1, 2, 3, 4), 2))
  expect_identical(as.array(w), matrix(c(1, 2, 3, 4), 2))
  w$assign_sub(array(1, c(2, 2)))
  expect_identical(as.array(w), matrix(c(0, 1, 2, 3), 2))
})

test_each_backend("large tensors print a summary", {
  big <- tensor(matrix(seq_len(20000) + 0, 200))
  out <- capture.output(print(big))
  expect_lt(length(out), 40)
  expect_true(any(grepl("190 more rows and 92 more columns", out)))
  expect_match(out[[1L]], "<pycg Tensor float64 \\[200 x 100\\]>")
  withr_print_max <- options(pycg.print_max = Inf)
  on.exit(options(withr_print_max))
  expect_gt(length(capture.output(print(big))), 1000)
})

test_that("library(pycg) says which base functions it masks", {
  res <- run_r("library(pycg)")
  expect_identical(res$status, 0L)
  expect_match(res$output, "masked from 'package:base'|masked from .package:base")
  # diag(), crossprod(), rowSums() & co. are S4 generics with tensor
  # methods (base R's function is their default), which R does not list;
  # c(), is.double(), match(), mapply() ... are pycg's own (base R's never
  # dispatch on a tensor, or would make it R numbers: R/tensor-masked.R)
  masked <- strsplit(gsub("\\s+", " ", sub(".*package:base.:", "",
                                            res$output)), ", ")[[1L]]
  expect_setequal(trimws(masked), c("%*%", "%in%", "array", "c", "drop",
                                    "is.double", "is.integer", "is.logical",
                                    "log", "mapply", "margin.table",
                                    "marginSums", "match", "matrix", "pmax",
                                    "pmin", "prop.table", "proportions",
                                    "storage.mode<-", "sweep", "unclass"))
  expect_match(res$output, paste0("masked from .package:stats.:\\s+",
                                  "mahalanobis"))
})

# Matrix's sparse matrices through the names pycg masks, printed.
matrix_script <- c(
  "M <- Matrix::sparseMatrix(i = c(1, 3, 2), j = c(1, 2, 3), x = c(2, 4, 5))",
  "out <- list(crossprod(M), tcrossprod(M), crossprod(M, M), diag(M),",
  "  rowSums(M), colSums(M), rowMeans(M), colMeans(M), M %*% M,",
  "  pmax(as.matrix(M), 3), pmin(c(1, 5), 2), diag(3), diag(2, 3, 3))",
  "for (o in out) { print(class(o)); print(as.matrix(o)) }")

test_that("Matrix keeps working with pycg attached after it, or before it", {
  skip_if_not_installed("Matrix")
  alone <- run_r(c("library(Matrix)", matrix_script))
  expect_identical(alone$status, 0L)
  expect_match(alone$output, "dsCMatrix")
  matrix_first <- run_r(c("library(Matrix)", "library(pycg)", matrix_script))
  expect_identical(matrix_first$status, 0L)
  expect_identical(sub("(?s).*?\\[1\\] \"dsCMatrix\"", "", matrix_first$output,
                       perl = TRUE),
                   sub("(?s).*?\\[1\\] \"dsCMatrix\"", "", alone$output,
                       perl = TRUE))
  pycg_first <- run_r(c("library(pycg)", "library(Matrix)", matrix_script))
  expect_identical(pycg_first$status, 0L)
  expect_identical(sub("(?s).*?\\[1\\] \"dsCMatrix\"", "", pycg_first$output,
                       perl = TRUE),
                   sub("(?s).*?\\[1\\] \"dsCMatrix\"", "", alone$output,
                       perl = TRUE))
})

tensors_beside_matrix <- function(first, second) {
  run_r(c(
    sprintf("suppressMessages({library(%s); library(%s)})", first, second),
    "d <- matrix(c(2, 0, 1, 4, 0, 5), 2)",
    "t <- op_convert_to_tensor(d)",
    "stopifnot(all.equal(as.array(crossprod(t)), crossprod(d)),",
    "  all.equal(as.array(tcrossprod(t)), tcrossprod(d)),",
    "  all.equal(as.vector(rowSums(t)), rowSums(d)),",
    "  all.equal(as.vector(colMeans(t)), colMeans(d)),",
    "  all.equal(as.vector(diag(t)), diag(d)),",
    "  all.equal(as.array(pmax(t, 1)), pmax(d, 1)))",
    "cat('tensors ok')"))
}

test_that("tensors keep pycg's methods with Matrix attached before or after", {
  skip_if_not_installed("Matrix")
  skip_if_no_pycg()
  for (order in list(c("Matrix", "pycg"), c("pycg", "Matrix"))) {
    res <- tensors_beside_matrix(order[1L], order[2L])
    expect_identical(res$status, 0L)
    expect_match(res$output, "tensors ok")
  }
})
