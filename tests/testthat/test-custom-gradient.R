# Made at the top, as keras3's example does; op_custom_gradient() needs
# Python, and without it every test here is skipped.
if (pycg_available()) log1pexp <- op_custom_gradient(\(x) {
  e <- op_exp(x)
  grad <- function(..., upstream = NULL) {
    upstream <- upstream %||% ..1
    op_multiply(upstream, 1.0 - 1.0 / op_add(1, e))
  }
  tuple(op_log(1 + e), grad)
})

tape_grad <- function(f, ...) {
  xs <- list(...)
  with(gradient_tape() %as% tape, {
    tape$watch(xs)
    y <- do.call(f, xs)
  })
  tape$gradient(y, if (length(xs) == 1L) xs[[1L]] else xs)
}

test_each_backend("the keras3 seed example gives 1 at x = 100", {
  x <- op_convert_to_tensor(100.0)
  with(gradient_tape() %as% tape, {
    tape$watch(x)
    y <- log1pexp(x)
  })
  dy_dx <- tape$gradient(y, x)
  expect_true(as.numeric(dy_dx) == 1)
})

test_each_backend("log1pexp's custom gradient is the logistic function", {
  v <- c(-3, -0.5, 0, 2, 30)
  g <- tape_grad(function(x) op_sum(log1pexp(x)), tensor(v))
  expect_equal(as.numeric(g), 1 / (1 + exp(-v)), tolerance = 1e-12)
})

test_each_backend("grad written function(upstream) gets the upstream", {
  square <- op_custom_gradient(function(x) {
    tuple(x * x, function(upstream) upstream * 2 * x)
  })
  g <- tape_grad(function(x) op_sum(square(x) * 3), tensor(c(1, -2)))
  expect_equal(as.numeric(g), 6 * c(1, -2))
})

test_each_backend("grad written function(x, y, upstream) gets inputs by name", {
  mul <- op_custom_gradient(function(x, y) {
    grad <- function(x, y, upstream) list(upstream * y, upstream * x)
    tuple(x * y, grad)
  })
  g <- tape_grad(function(a, b) op_sum(mul(a, b)), tensor(c(1, 2)),
                 tensor(c(5, 7)))
  expect_equal(as.numeric(g[[1]]), c(5, 7))
  expect_equal(as.numeric(g[[2]]), c(1, 2))
})

test_each_backend("grad written TensorFlow style function(dy) works", {
  cube <- op_custom_gradient(function(x) {
    tuple(x^3, function(dy) dy * 3 * x^2)
  })
  g <- tape_grad(function(x) op_sum(cube(x)), tensor(c(2, 3)))
  expect_equal(as.numeric(g), 3 * c(2, 3)^2)
})

test_each_backend("the custom rule is used, not the ops inside f", {
  fake <- op_custom_gradient(function(x) {
    tuple(op_sin(x), function(upstream) upstream * 10)
  })
  g <- tape_grad(function(x) op_sum(fake(x)), tensor(c(0.1, 0.2)))
  expect_equal(as.numeric(g), c(10, 10))
})

test_each_backend("grad may return a named list, keyed by argument", {
  f <- op_custom_gradient(function(x, y) {
    tuple(x * y, function(..., upstream) list(y = upstream * x,
                                              x = upstream * y))
  })
  g <- tape_grad(function(a, b) op_sum(f(a, b)), tensor(c(2, 3)),
                 tensor(c(4, 5)))
  expect_equal(as.numeric(g[[1]]), c(4, 5))
  expect_equal(as.numeric(g[[2]]), c(2, 3))
})

test_each_backend("grad may return R numbers and R arrays", {
  lin <- op_custom_gradient(function(x) {
    tuple(op_sum(x * c(1, 2, 3)), function(upstream) c(1, 2, 3) * 2)
  })
  g <- tape_grad(lin, tensor(c(0, 0, 0)))
  expect_equal(as.numeric(g), c(2, 4, 6))
  half <- op_custom_gradient(function(x) tuple(x / 2, function(dy) 0.5))
  expect_equal(as.numeric(tape_grad(half, tensor(4))), 0.5)
})

test_each_backend("NULL means no gradient for that input", {
  f <- op_custom_gradient(function(x, y) {
    tuple(x + y, function(..., upstream) list(upstream, NULL))
  })
  g <- tape_grad(function(a, b) op_sum(f(a, b)), tensor(1), tensor(2))
  expect_equal(as.numeric(g[[1]]), 1)
  expect_null(g[[2]])
})

test_each_backend("several outputs give a list of upstreams", {
  both <- op_custom_gradient(function(x) {
    grad <- function(..., upstream) {
      upstream[[1]] * cos(x) - upstream[[2]] * sin(x)
    }
    tuple(list(sin(x), cos(x)), grad)
  })
  v <- c(0.3, 1.1)
  g <- tape_grad(function(x) {
    out <- both(x)
    op_sum(out[[1]] * 2 + out[[2]] * 5)
  }, tensor(v))
  expect_equal(as.numeric(g), 2 * cos(v) - 5 * sin(v), tolerance = 1e-12)
})

test_each_backend("named arguments bind by name and keep the custom rule", {
  f <- op_custom_gradient(function(x, y) {
    tuple(x - y, function(x, y, upstream) list(upstream * 100, -upstream))
  })
  a <- tensor(3)
  b <- tensor(1)
  with(gradient_tape() %as% tape, {
    tape$watch(list(a, b))
    z <- f(y = b, x = a)
  })
  expect_equal(as.numeric(z), 2)
  g <- tape$gradient(z, list(a = a, b = b))
  expect_equal(as.numeric(g$a), 100)
  expect_equal(as.numeric(g$b), -1)
})

test_each_backend("custom gradients compose with ops and nested tapes", {
  g <- tape_grad(function(x) op_sum(log1pexp(x * x)), tensor(c(0.5, -1)))
  v <- c(0.5, -1)
  expect_equal(as.numeric(g), 2 * v / (1 + exp(-v^2)), tolerance = 1e-12)
  x <- tensor(0.7)
  with(gradient_tape() %as% outer, {
    outer$watch(x)
    with(gradient_tape() %as% inner, {
      inner$watch(x)
      y <- log1pexp(x)
    })
    dy <- inner$gradient(y, x)
  })
  s <- 1 / (1 + exp(-0.7))
  expect_equal(as.numeric(outer$gradient(dy, x)), s * (1 - s),
               tolerance = 1e-12)
})

test_each_backend("forward values are R-checkable without a tape", {
  expect_equal(as.numeric(log1pexp(tensor(c(0, 1)))), log1p(exp(c(0, 1))),
               tolerance = 1e-12)
  expect_equal(as.numeric(log1pexp(2)), log1p(exp(2)), tolerance = 1e-6)
})

test_each_backend("an R error inside grad reaches R with its message", {
  bad <- op_custom_gradient(function(x) {
    tuple(x * 1, function(upstream) stop("grad exploded here"))
  })
  expect_error(tape_grad(bad, tensor(1)), "grad exploded here")
  expect_equal(as.numeric(tape_grad(log1pexp, tensor(0))), 0.5)
})

test_each_backend("an R error inside f reaches R with its message", {
  bad <- op_custom_gradient(function(x) stop("forward broke"))
  expect_error(bad(tensor(1)), "forward broke")
})

test_each_backend("a wrong gradient count names the function and the counts", {
  two <- op_custom_gradient(function(x) {
    tuple(x * 2, function(upstream) list(upstream, upstream))
  })
  x <- tensor(1)
  with(gradient_tape() %as% tape, {
    tape$watch(x)
    y <- two(x)
  })
  expect_error(
    tape$gradient(y, x),
    "^two: grad returned 2 gradients, expected 1 \\(one per input: 'x'\\)$",
    class = "pycg_python_error")
  anonymous <- op_custom_gradient(function(a, b) {
    tuple(a + b, function(upstream) upstream)
  })
  expect_error(tape_grad(anonymous, tensor(1), tensor(2)),
               "R function\\(a, b\\): grad returned 1 gradient, expected 2")
})

test_each_backend("f must return tuple(output, grad)", {
  bad <- op_custom_gradient(function(x) x * 2)
  expect_error(bad(tensor(1)), "must return tuple\\(output, grad\\)")
})

test_that("f must be a function", {
  expect_error(op_custom_gradient(42), "`f` must be an R function")
})

test_that("R formals become Python signatures", {
  skip_if_no_pycg()
  spec <- function(fn, ...)
    reticulate::py_str(pycg:::py_signature(fn, ...))
  expect_equal(spec(function(..., upstream = NULL) 1),
               "(*args, upstream=None)")
  expect_equal(spec(function(upstream) 1), "(upstream)")
  expect_equal(spec(function(x, y, upstream) 1), "(x, y, upstream)")
  expect_equal(spec(function(..., upstream) 1), "(*args, upstream)")
  expect_equal(spec(function(x, ...) 1, kwargs = TRUE),
               "(x, *args, **args_kw)")
  expect_equal(spec(function(args, ...) 1), "(args, *args_)")
  expect_equal(spec(function(args, args_, ...) 1, kwargs = TRUE),
               "(args, args_, *args__, **args___kw)")
  expect_equal(spec(function(x, y = 2, z) 1), "(x, y=None, z=None)")
  expect_equal(spec(sum), "(*args, **kwargs)")
  expect_error(spec(function(x.y) 1), "cannot name an argument `x.y`")
  expect_error(spec(function(`if`) 1), "cannot name an argument `if`")
})

test_that("R formals are described to Python as with_signature's data", {
  sig <- pycg:::python_signature
  expect_identical(sig(function(x, ..., upstream = NULL) 1),
                   list(list("x", "positional"),
                        list("args", "var_positional"),
                        list("upstream", "keyword", NULL)))
  expect_identical(sig(function(args, ...) 1, kwargs = TRUE),
                   list(list("args", "positional"),
                        list("args_", "var_positional"),
                        list("args__kw", "var_keyword")))
})

test_each_backend("a rule whose f has an argument named args beside ... works", {
  f <- op_custom_gradient(function(args, ...) {
    tuple(args * 3, function(upstream) upstream * 3)
  })
  expect_equal(as.numeric(tape_grad(function(x) op_sum(f(x)), tensor(c(1, 2)))),
               c(3, 3))
})

test_each_backend("f may return reticulate::tuple(output, grad)", {
  f <- op_custom_gradient(function(x) {
    reticulate::tuple(x * 2, function(upstream) upstream * 5)
  })
  expect_equal(as.numeric(tape_grad(function(x) op_sum(f(x)), tensor(c(1, 2)))),
               c(5, 5))
})

test_each_backend("f(...) called with named arguments binds them by name", {
  f <- op_custom_gradient(function(...) {
    a <- list(...)
    tuple(a$p * a$q, function(..., upstream) {
      list(p = upstream * a$q, q = op_sum(upstream * a$p))
    })
  })
  p <- tensor(c(1, 2))
  q <- tensor(3)
  with(gradient_tape() %as% tape, {
    tape$watch(list(p, q))
    y <- op_sum(f(q = q, p = p))
  })
  g <- tape$gradient(y, list(p, q))
  expect_equal(as.numeric(g[[1]]), c(3, 3))
  expect_equal(as.numeric(g[[2]]), 3)
})

test_each_backend("a list argument gets a list of gradients", {
  f <- op_custom_gradient(function(xs) {
    tuple(xs[[1]] * xs[[2]], function(upstream) {
      list(list(upstream * xs[[2]], upstream * xs[[1]]))
    })
  })
  a <- tensor(c(2, 3))
  b <- tensor(c(5, 7))
  with(gradient_tape() %as% tape, {
    tape$watch(list(a, b))
    y <- op_sum(f(list(a, b)))
  })
  g <- tape$gradient(y, list(a, b))
  expect_equal(as.numeric(g[[1]]), c(5, 7))
  expect_equal(as.numeric(g[[2]]), c(2, 3))
})

test_each_backend("grad(dy, variables) gives gradients for variables read", {
  v <- pycg_variable(c(2, 3))
  f <- op_custom_gradient(function(x) {
    tuple(x * v, function(dy, variables) {
      list(list(dy * v), list(dy * x))
    })
  })
  x <- tensor(c(10, 20))
  with(gradient_tape() %as% tape, {
    tape$watch(x)
    y <- op_sum(f(x))
  })
  g <- tape$gradient(y, list(x, v))
  expect_equal(as.numeric(g[[1]]), c(2, 3))
  expect_equal(as.numeric(g[[2]]), c(10, 20))
})

test_each_backend("a grad returning a string is refused with its name", {
  f5 <- op_custom_gradient(function(x) tuple(x * 1, function(upstream) "oops"))
  x <- tensor(1)
  with(gradient_tape() %as% tape, {
    tape$watch(x)
    y <- f5(x)
  })
  expect_error(tape$gradient(y, x),
               "f5: gradient for \"x\" is a character string; expected a tensor, a number or NULL$",
               class = "pycg_python_error")
})

test_each_backend("custom gradients nest inside each other", {
  inner <- op_custom_gradient(function(x) {
    tuple(x * x, function(upstream) upstream * 2 * x)
  })
  outer <- op_custom_gradient(function(x) {
    y <- inner(x)
    tuple(y * 3, function(upstream) upstream * 3 * 2 * x)
  })
  expect_equal(as.numeric(tape_grad(function(x) op_sum(outer(x)),
                                    tensor(c(1, 2)))), 6 * c(1, 2))
})

test_each_backend("a rule whose formals change from call to call is read afresh", {
  # f's rule takes (upstream) on one call and (x, upstream) on the next:
  # each call of f makes its rule, and pycg reads that rule's formals
  calls <- 0L
  scaled <- op_custom_gradient(function(x) {
    calls <<- calls + 1L
    grad <- if (calls %% 2L) function(upstream) upstream * 3 else
      function(x, upstream) upstream * x
    tuple(x * 3, grad)
  })
  x <- tensor(c(2, 5))
  expect_equal(as.numeric(tape_grad(scaled, x)), c(3, 3))
  expect_equal(as.numeric(tape_grad(scaled, x)), c(2, 5))
  expect_equal(as.numeric(tape_grad(scaled, x)), c(3, 3))
})

test_each_backend("a rule's NULL for an optional argument not given is no gradient", {
  lin <- op_custom_gradient(function(input, weight, bias = NULL) {
    out <- input %*% weight
    if (!is.null(bias)) out <- out + bias
    tuple(out, function(upstream) list(
      input = upstream %*% t(weight), weight = t(input) %*% upstream,
      bias = if (!is.null(bias)) colSums(upstream)))
  })
  x <- matrix(c(1, 2, 3, 4, 5, 6), 2L)
  w <- matrix(c(0.5, -1, 2, 1, 0, 3), 3L)
  f_r <- function(v) sum(sin(x %*% matrix(v, 3L)))
  g <- pycg_grad(function(w) sum(sin(lin(x, w))))(w)
  expect_equal(as.vector(as.array(g)), fd_grad(f_r, as.vector(w)),
               tolerance = 1e-6)
  # a gradient for a name that is no parameter of f still stops
  bad <- op_custom_gradient(function(input, weight) {
    tuple(input %*% weight, function(upstream) list(
      input = upstream %*% t(weight), weight = t(input) %*% upstream,
      bias = upstream))
  })
  expect_error(pycg_grad(function(w) sum(bad(x, w)))(w),
               "a gradient for 'bias', which is not a parameter")
})

test_each_backend("function(upstream) for two outputs gets the list of their upstream gradients", {
  two <- op_custom_gradient(function(x) {
    tuple(list(sin(x), x^2), function(upstream) {
      expect_true(is.list(upstream))
      expect_length(upstream, 2L)
      upstream[[1L]] * cos(x) + upstream[[2L]] * 2 * x
    })
  })
  x <- c(0.3, -1.2, 2)
  f_r <- function(v) sum(3 * sin(v)) + sum(v^2 * v)
  g <- pycg_grad(function(x) {
    out <- two(x)
    sum(3 * out[[1L]]) + sum(out[[2L]] * op_stop_gradient(x))
  })(x)
  expect_equal(as.vector(as.array(g)), 3 * cos(x) + 2 * x * x, tolerance = 1e-10)
  # one output: upstream is that tensor
  one <- op_custom_gradient(function(x) {
    tuple(sin(x), function(upstream) {
      expect_true(is_tensor(upstream))
      upstream * cos(x)
    })
  })
  g <- pycg_grad(function(x) sum(one(x)))(x)
  expect_equal(as.vector(as.array(g)), fd_grad(function(v) sum(sin(v)), x),
               tolerance = 1e-6)
})
