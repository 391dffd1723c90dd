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

test_each_backend("pycg_grad() and pycg_value_and_grad() refuse an R number result", {
  for (f in list(function(x) sd(as.array(x)), function(x) sum(as.array(x)^2),
                 function(x) as.numeric(op_sum(x)))) {
    for (make in list(pycg_grad, pycg_value_and_grad))
      expect_error(make(f)(c(3, 1, 2)), paste0(
        "^pycg_(value_and_)?grad\\(f\\): the function returned an R double ",
        "\\([0-9.]+\\), not a tensor: a base R function .*converted the ",
        "tensor to R values.*gradient would be 0.*op_custom_gradient"))
  }
  expect_error(pycg_grad(function(x) tuple(sum(as.array(x)), x),
                         has_aux = TRUE)(c(1, 2)),
               "the function returned an R double")
  expect_error(check_gradients(function(x) sum(as.array(x)), c(1, 2)),
               "^check_gradients\\(R function\\(x\\)\\): the function returned")
  obj <- pycg_optim_objective(function(w) sum(as.array(w)^2))
  expect_error(obj$fn(c(1, 2)), "^pycg_optim_objective.*returned an R double")
  # an R number that does not depend on x is refused too: no tape sees it
  expect_error(pycg_grad(function(x) 1)(2), "returned an R double \\(1\\)")
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
