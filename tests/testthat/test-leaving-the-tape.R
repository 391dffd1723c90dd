# Base R functions on tensors stay on the tape: the same R code run on an R
# array (base R) and on a tensor (pycg) gives the same value, and pycg's
# gradient matches central finite differences of base R's function. A
# function that leaves the tape (its result an R number) is an error in
# pycg_grad() & co., never a gradient of zeros.

set.seed(33)
A_r <- matrix(c(4, 1, 0.5, 1, 3, 0.2, 0.5, 0.2, 2), 3)   # positive definite
B_r <- matrix(c(0.3, -1.2, 2.1, 0.7), 2)
U_r <- matrix(c(2, 0, 0, 0.5, 1.5, 0, -1, 0.3, 3), 3)   # upper triangular
M_r <- matrix(c(0.9, -0.4, 1.7, 0.2, 2.3, -1.1, 0.6, 1.4, -0.8, 0.1, 3.1,
                -2.2), 4)
v_r <- c(0.7, -1.3, 2.2)

# pycg's value and gradient of f at x_r against base R's value and central
# differences of f on R arrays.
expect_on_tape <- function(f, x_r, tolerance = 1e-6, label = NULL) {
  label <- label %||% paste(deparse(body(f)), collapse = " ")
  vg <- pycg_value_and_grad(f)(x_r)
  expect_equal(as.numeric(vg[[1L]]), as.numeric(f(x_r)), tolerance = 1e-10,
               label = paste("value of", label))
  g <- as.array(vg[[2L]])
  want <- fd_grad(f, x_r)
  expect_equal(as.vector(g), as.vector(want), tolerance = tolerance,
               label = paste("gradient of", label))
}

# The one message of a conversion that would take a tensor off the tape
# (R/convert.R stop_leaving_tape()): the call that converts, where, why,
# and the two ways out (after R's own words where an S4 generic such as
# sd() evaluated the argument that converts).
leaving_message <- function(conversion, within = NULL) paste0(
  "(^|: )", conversion, if (!is.null(within)) paste0(" in ", within),
  ": the tensor carries a gradient \\(a recording tape differentiates ",
  "through it\\), and its values as R numbers would leave the tape, so the ",
  "gradient would miss every term computed from them\\. Stay on the tape ",
  "with op_\\*\\(\\) functions and the base R functions pycg gives ",
  "tensors \\(see \\?tensor-base\\), or make the constant explicit: ",
  "as\\.array\\(op_stop_gradient\\(x\\)\\)$")

test_each_backend("pycg_grad() and pycg_value_and_grad() refuse to convert a tensor that carries a gradient", {
  cases <- list(
    list(function(x) sd(as.array(x)), "`as.array\\(x\\)`"),
    list(function(x) sum(as.array(x)^2), "`as.array\\(x\\)`"),
    list(function(x) as.numeric(op_sum(x)), "`as.double\\(op_sum\\(x\\)\\)`"))
  for (case in cases)
    for (make in list(pycg_grad, pycg_value_and_grad))
      expect_error(make(case[[1L]])(c(3, 1, 2)),
                   leaving_message(case[[2L]], "`f\\(x\\)`"))
  expect_error(pycg_grad(function(x) tuple(sum(as.array(x)), x),
                         has_aux = TRUE)(c(1, 2)),
               leaving_message("`as.array\\(x\\)`", "`f\\(x\\)`"))
  expect_error(check_gradients(function(x) sum(as.array(x)), c(1, 2)),
               leaving_message("`as.array\\(x\\)`", "`f\\(x\\)`"))
  obj <- pycg_optim_objective(function(w) sum(as.vector(w)^2))
  expect_error(obj$fn(c(1, 2)), leaving_message("`as.vector\\(w\\)`", "`f\\(w\\)`"))
})

test_each_backend("pycg_grad() and pycg_value_and_grad() refuse an R number result", {
  # an R number that no tracked tensor made (a constant made explicit, one
  # that does not depend on x) is refused too: no tape sees it
  for (make in list(pycg_grad, pycg_value_and_grad))
    expect_error(make(function(x) sum(as.array(op_stop_gradient(x))))(
      c(3, 1, 2)), paste0(
        "^pycg_(value_and_)?grad\\(R function\\(x\\)\\): the function ",
        "returned an R double ",
        "\\(6\\), not a tensor: a base R function .*converted the ",
        "tensor to R values.*gradient would be 0.*op_custom_gradient"))
  expect_error(pycg_grad(function(x) 1)(2), "returned an R double \\(1\\)")
  expect_error(pycg_grad(function(x) tuple(length(x), x),
                         has_aux = TRUE)(c(1, 2)),
               "the function returned an R integer")
  expect_error(check_gradients(function(x) 1, c(1, 2)),
               "^check_gradients\\(R function\\(x\\)\\): the function returned")
  obj <- pycg_optim_objective(function(w) 2)
  expect_error(obj$fn(c(1, 2)), "^pycg_optim_objective.*returned an R double")
})

test_each_backend("a tensor with one element is the scalar result R takes it for", {
  x_r <- c(3, 1, 2)
  expect_equal(as.vector(pycg_grad(function(x) diff(range(x)))(x_r)),
               c(1, -1, 0))
  vg <- pycg_value_and_grad(function(x) diff(range(x)))(x_r)
  expect_null(dim(vg[[1L]]))
  expect_equal(as.numeric(vg[[1L]]), 2)
  # a least-squares loss written crossprod(r): a 1 x 1 matrix
  X_r <- cbind(1, c(0.5, 1.5, 2, 3.5))
  y_r <- matrix(c(1, 2.2, 2.9, 5.1))
  loss <- function(b) crossprod(y_r - X_r %*% b)
  b_r <- c(0.2, 0.9)
  expect_equal(as.vector(pycg_grad(loss)(b_r)),
               as.vector(-2 * t(X_r) %*% (y_r - X_r %*% b_r)))
  expect_on_tape(loss, b_r)
})

test_each_backend("sd(), var(), median(), scale() and cor() stay on the tape", {
  expect_equal(as.vector(pycg_grad(function(x) sd(x))(c(3, 1, 2))),
               c(0.5, -0.5, 0))
  expect_on_tape(function(x) sd(x), v_r)
  expect_on_tape(function(x) sd(x), M_r)
  expect_on_tape(function(x) sum(var(x) * A_r), M_r[, 1:3])
  expect_on_tape(function(x) median(x), c(v_r, 0.1))
  expect_on_tape(function(x) median(x), v_r)
  W <- matrix(seq(-1, 1, length.out = 12), 4)
  expect_on_tape(function(x) sum(W * scale(x)), M_r)
  expect_on_tape(function(x) sum(A_r * cor(x)), M_r)
  expect_on_tape(function(x) cor(x, c(1, 4, 2, 8)), M_r[, 2])
})

test_each_backend("solve(), chol(), det() and determinant() stay on the tape", {
  W <- matrix(c(1, -2, 0.5, 3, 1, -1, 2, 0.3, -0.7), 3)
  expect_on_tape(function(a) sum(W * solve(a)), A_r)
  expect_on_tape(function(a) sum(v_r * solve(a, c(1, 2, 3))), A_r)
  expect_on_tape(function(b) sum(v_r * solve(A_r, b)), c(1, 2, 3))
  # chol() reads the upper triangle: the lower one has no influence
  expect_on_tape(function(a) sum(W * chol(a)), A_r)
  expect_on_tape(function(a) det(a), A_r)
  expect_on_tape(function(a) log(det(a)), A_r)
  expect_on_tape(function(a) determinant(a)$modulus, A_r)
  expect_on_tape(function(a) determinant(a, logarithm = FALSE)$modulus, B_r)
  expect_equal(as.array(pycg_grad(function(a) log(det(a)))(A_r)),
               t(solve(A_r)))
})

test_each_backend("products, outer(), kronecker(), backsolve() and norm() stay on the tape", {
  W <- matrix(c(1, -2, 0.5, 3, 1, -1, 2, 0.3, -0.7), 3)
  expect_on_tape(function(a) sum(W * (a %*% t(a))), A_r)
  expect_on_tape(function(b) sum(matrix(v_r) * (A_r %*% b)), c(1, -1, 2))
  expect_on_tape(function(v) sum(W * (v %*% t(v))), v_r)
  expect_on_tape(function(m) sum(A_r * crossprod(m)), M_r[, 1:3])
  expect_on_tape(function(m) sum(tcrossprod(m)), M_r)
  expect_on_tape(function(v) sum(crossprod(v, M_r[1:3, ])), v_r)
  expect_on_tape(function(x) sum(W * outer(x, c(1, -2, 3))), v_r)
  expect_on_tape(function(x) sum(W * (c(1, -2, 3) %o% x)), v_r)
  expect_on_tape(function(x) sum(W * outer(x, v_r, "+")^2), v_r)
  K <- matrix(seq(-2, 2, length.out = 24), 4)
  # (kronecker's S4 generic is the methods package's: code evaluated in a
  # package namespace, as these tests are, reaches base's function first)
  expect_on_tape(function(a) sum(K * methods::kronecker(a, A_r[1:2, 1:2])),
                 A_r[2:3, 1:3])
  expect_on_tape(function(b) sum(v_r * backsolve(U_r, b)), c(1, 2, 3))
  expect_on_tape(function(u) sum(v_r * backsolve(u, c(1, 2, 3))), U_r)
  expect_on_tape(function(l) sum(v_r * forwardsolve(l, c(1, 2, 3))), t(U_r))
  for (type in c("O", "I", "F", "M", "2"))
    expect_on_tape(function(m) norm(m, type), M_r, label = type)
})

test_each_backend("ifelse(), apply(), diag(), head() and tail() stay on the tape", {
  x_r <- c(-1.5, 0.5, 2, -0.3)
  expect_on_tape(function(x) sum(ifelse(x > 0, x^2, -x)), x_r)
  expect_on_tape(function(m) sum(apply(m, 1, function(r) sum(r^2)) * 1:4),
                 M_r)
  expect_on_tape(function(m) sum(apply(m, 2, range) * matrix(1:6, 2)), M_r)
  expect_on_tape(function(a) sum(diag(a) * v_r), A_r)
  expect_on_tape(function(v) sum(diag(v) * A_r), v_r)
  expect_on_tape(function(x) sum(head(x, -1) * 1:3), x_r)
  expect_on_tape(function(m) sum(tail(m, 2) * matrix(1:6, 2)), M_r)
})

# ---- R numbers from a tensor on a tape ----------------------------------------
# A tensor that a tape differentiates through never becomes R numbers
# silently: matrix(), array(), sweep() and mahalanobis() keep it on the
# tape, every other conversion stops with one message. The oracles are
# central differences of the same code on R numbers, with base R's own
# functions (base::, stats::). (These tests run in the package's
# namespace, whose code keeps base R's functions: the ones library(pycg)
# puts on the search path are taken from there.)
attached <- function(name) get(name, envir = as.environment("package:pycg"))

test_each_backend("sweep() of an R matrix by a tensor keeps the statistics on the tape", {
  sweep <- attached("sweep")
  Y <- matrix(1:6, 3)
  f <- function(mu) sum(sweep(Y, 2, mu)^2) + sum(mu^2)
  f_r <- function(mu) sum(base::sweep(Y, 2, mu)^2) + sum(mu^2)
  expect_equal(as.vector(pycg_grad(f)(c(1, 2))), fd_grad(f_r, c(1, 2)),
               tolerance = 1e-6)   # -4 -14 (the term lost: 2 4)
  W <- matrix(c(0.5, -1, 2, 0.25, 1.5, -0.75), 2)
  g <- function(s) sum(W * sweep(W, 1, s, "*")) + sum(s^2)
  g_r <- function(s) sum(W * base::sweep(W, 1, s, "*")) + sum(s^2)
  expect_equal(as.vector(pycg_grad(g)(c(0.3, 0.7))), fd_grad(g_r, c(0.3, 0.7)),
               tolerance = 1e-6)
})

test_each_backend("matrix() and array() of a tensor stay on the tape, laid out as base R lays them", {
  matrix <- attached("matrix")
  array <- attached("array")
  W <- base::matrix(c(0.5, -1, 2, 0.25), 2)
  f <- function(p) sum(W %*% matrix(p, 2, 2)^2) + sum(p^2)
  f_r <- function(p) sum(W %*% base::matrix(p, 2, 2)^2) + sum(p^2)
  p_r <- c(1, 2, 0.5, -1)
  expect_equal(as.vector(pycg_grad(f)(p_r)), fd_grad(f_r, p_r),
               tolerance = 1e-6)
  for (make in list(function(p) matrix(p, 2, byrow = TRUE),
                    function(p) matrix(p, ncol = 3),
                    function(p) array(p, c(2, 3, 2)),
                    function(p) array(p, 4))) {
    base_make <- make
    environment(base_make) <- asNamespace("stats")   # (base R's functions)
    p_r <- c(1, 2, 3, 0.5, -1, 2)
    expect_equal(as.array(make(tensor(p_r))), base_make(p_r))
    h <- function(p) sum(seq_len(12)[seq_along(make(p))] * make(p)^2)
    h_r <- h
    environment(h_r) <- environment(base_make)
    body(h_r) <- do.call(substitute, list(body(h), list(make = base_make)))
    expect_equal(as.vector(pycg_grad(h)(p_r)), fd_grad(h_r, p_r),
                 tolerance = 1e-6)
  }
  expect_warning(m <- matrix(tensor(1:5 + 0), 2),
                 "data length \\[5\\] is not a sub-multiple or multiple of the number of rows \\[2\\]")
  expect_equal(as.array(m), suppressWarnings(base::matrix(1:5 + 0, 2)))
  expect_error(matrix(tensor(1:4 + 0), 2, dimnames = list(c("a", "b"), NULL)),
               "^matrix\\(\\): a tensor has no dimnames; give `dimnames` as NULL$")
})

test_each_backend("mahalanobis() of tensors stays on the tape", {
  mahalanobis <- attached("mahalanobis")
  Y <- matrix(c(1, 2, 3, 0.5, -1, 2), 3)
  S <- matrix(c(2, 0.3, 0.3, 1), 2)
  f <- function(mu) sum(mahalanobis(Y, mu, S)) + sum(mu^2)
  f_r <- function(mu) sum(stats::mahalanobis(Y, mu, S)) + sum(mu^2)
  expect_equal(as.vector(pycg_grad(f)(c(1, 2))), fd_grad(f_r, c(1, 2)),
               tolerance = 1e-6)
  g <- function(s) sum(mahalanobis(Y, c(0.5, 1), diag(2) * s[1] + s[2]))
  g_r <- function(s) sum(stats::mahalanobis(Y, c(0.5, 1), diag(2) * s[1] + s[2]))
  expect_equal(as.vector(pycg_grad(g)(c(2, 0.5))), fd_grad(g_r, c(2, 0.5)),
               tolerance = 1e-6)
  h <- function(x) mahalanobis(x, c(0.5, 1), S)
  expect_equal(as.vector(pycg_grad(h)(c(1, 2))),
               fd_grad(function(x) stats::mahalanobis(x, c(0.5, 1), S), c(1, 2)),
               tolerance = 1e-6)
})

test_each_backend("every other conversion of a tensor that carries a gradient stops, naming the call", {
  grad_of <- function(f) pycg_grad(f)(c(0.5, 2))
  expect_error(grad_of(function(x) sum(as.vector(x)) + sum(x^2)),
               leaving_message("`as.vector\\(x\\)`", "`f\\(x\\)`"))
  expect_error(grad_of(function(x) sum(as.numeric(x)) + sum(x^2)),
               leaving_message("`as.double\\(x\\)`", "`f\\(x\\)`"))
  expect_error(grad_of(function(x) sum(as.matrix(x)) + sum(x^2)),
               leaving_message("`as.matrix\\(x\\)`", "`f\\(x\\)`"))
  expect_error(grad_of(function(x) sum(unlist(lapply(x, exp))) + sum(x^2)),
               leaving_message("`as.vector\\(x, \"list\"\\)`",
                               "`as.list.default\\(X\\)`"))
  expect_error(grad_of(function(x) { mode(x) <- "double"; sum(x) }),
               leaving_message("`as.double\\(x\\)`", paste0(
                 "``mode<-`\\(`\\*tmp\\*`, value = \"double\"\\)`")))
  expect_error(grad_of(function(x) sum(x$numpy()) + sum(x)),
               leaving_message("`x\\$numpy\\(\\)`", "`f\\(x\\)`"))
  expect_error(grad_of(function(x) sum(op_convert_to_numpy(x)) + sum(x)),
               leaving_message("`op_convert_to_numpy\\(x\\)`", "`f\\(x\\)`"))
  expect_error(grad_of(function(x) { pycg_to_numpy(x); sum(x) }),
               leaving_message("`pycg_to_numpy\\(x\\)`", "`f\\(x\\)`"))
  expect_error(grad_of(function(x) sum(summary(x)) + sum(x)),
               leaving_message("`summary\\(x\\)`", "`f\\(x\\)`"))
  expect_error(grad_of(function(x) sum(x[order(x)] * 1:2)),   # (xtfrm())
               leaving_message("`xtfrm\\(x\\)`", "`FUN\\(X\\[\\[i\\]\\], ...\\)`"))
  # primitives that never dispatch: pycg's own on the search path
  unclass <- attached("unclass")
  `storage.mode<-` <- attached("storage.mode<-")
  expect_error(grad_of(function(x) { storage.mode(x) <- "double"; sum(x) }),
               leaving_message(paste0("``storage.mode<-`\\(`\\*tmp\\*`, ",
                                      "value = \"double\"\\)`"), "`f\\(x\\)`"))
  expect_error(grad_of(function(x) sum(unclass(x)) + sum(x^2)),
               leaving_message("`unclass\\(x\\)`", "`f\\(x\\)`"))
  # a tape of gradient_tape() too, for what it watches
  x <- tensor(c(0.5, 2))
  expect_error(with(gradient_tape() %as% tape, {
    tape$watch(x)
    as.numeric(x)
  }), leaving_message("`as.double\\(x\\)`", "`[^`]*`"))
})

test_each_backend("what carries no gradient converts on a tape as elsewhere", {
  seen <- NULL
  f <- function(x) {
    stopifnot(as.logical(any(x > 0)), is.integer(as.integer(x)))
    data <- op_convert_to_tensor(c(3, 4))      # a constant of the tape
    ints <- op_convert_to_tensor(c(1L, 2L))    # integers get no gradient
    seen <<- list(as.numeric(data), as.vector(ints), which(x > 1), rank(x),
                  which.max(x), capture.output(print(x), str(x)), format(x),
                  as.character(x), order(op_stop_gradient(x)))
    sum(x^2 * as.numeric(data)) + sum(as.array(op_stop_gradient(x)))
  }
  x_r <- c(2, 0.5)
  expect_equal(as.vector(pycg_grad(f)(x_r)), 2 * x_r * c(3, 4))
  expect_equal(seen[c(1:5, 9)], list(c(3, 4), 1:2, 1L, rank(x_r), 1L,
                                     order(x_r)))
  expect_match(paste(seen[[6]], collapse = "\n"), "Tensor float64 \\[2\\]")
  expect_equal(seen[[7]], format(x_r))
  # the forward of an op_custom_gradient() rule is where R numbers may be
  # computed: the rule gives the gradient
  cube <- op_custom_gradient(function(x) {
    v <- as.numeric(x)
    tuple(op_convert_to_tensor(v^3), function(upstream) upstream * 3 * x^2)
  })
  expect_equal(as.vector(pycg_grad(function(x) op_sum(cube(x)))(x_r)),
               3 * x_r^2)
  x <- tensor(x_r)
  with(gradient_tape() %as% tape, {
    tape$watch(x)
    with(tape$stop_recording(), v <- as.numeric(x))   # a paused tape
    y <- op_sum(x * v)
  })
  expect_equal(as.vector(tape$gradient(y, x)), x_r)
  # off a tape, unclass() and `storage.mode<-` give base R's answer for the
  # array of the tensor's values
  unclass <- attached("unclass")
  `storage.mode<-` <- attached("storage.mode<-")
  m_r <- matrix(c(1.5, -2, 0, 4), 2)
  m <- tensor(m_r)
  expect_identical(unclass(m), unclass(m_r))
  storage.mode(m) <- "integer"
  storage.mode(m_r) <- "integer"
  expect_identical(m, m_r)
  expect_equal(as.numeric(x), x_r)   # and outside every tape
})
