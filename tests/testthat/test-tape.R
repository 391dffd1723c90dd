test_each_backend("gradient of a tensor source is a tensor", {
  x <- tensor(c(1, 2, 3))
  with(gradient_tape() %as% tape, {
    tape$watch(x)
    y <- op_sum(x^3)
  })
  expect_equal(as.numeric(tape$gradient(y, x)), 3 * c(1, 2, 3)^2)
})

test_each_backend("list sources give a list with the same names", {
  a <- tensor(2)
  b <- tensor(c(1, 5))
  with(gradient_tape() %as% tape, {
    tape$watch(list(a, b))
    y <- op_sum(a * b^2)
  })
  g <- tape$gradient(y, list(first = a, second = b))
  expect_named(g, c("first", "second"))
  expect_equal(as.numeric(g$first), sum(c(1, 5)^2))
  expect_equal(as.numeric(g$second), 2 * 2 * c(1, 5))
})

test_each_backend("unnamed list sources give an unnamed list", {
  a <- tensor(2)
  b <- tensor(3)
  with(gradient_tape() %as% tape, {
    tape$watch(list(a, b))
    y <- a * b
  })
  g <- tape$gradient(y, list(a, b))
  expect_null(names(g))
  expect_equal(vapply(g, as.numeric, 0), c(3, 2))
})

test_each_backend("unconnected sources get NULL, or zeros when asked", {
  a <- tensor(2)
  b <- tensor(c(1, 1))
  with(gradient_tape(persistent = TRUE) %as% tape, {
    tape$watch(list(a, b))
    y <- a * 3
  })
  expect_null(tape$gradient(y, list(a, b))[[2]])
  z <- tape$gradient(y, list(a, b), unconnected_gradients = "zero")[[2]]
  expect_equal(as.numeric(z), c(0, 0))
})

test_each_backend("a persistent tape computes several gradients", {
  x <- tensor(1.5)
  with(gradient_tape(persistent = TRUE) %as% tape, {
    tape$watch(x)
    y <- x^2
    z <- sin(x)
  })
  expect_equal(as.numeric(tape$gradient(y, x)), 3)
  expect_equal(as.numeric(tape$gradient(z, x)), cos(1.5))
})

test_each_backend("a non-persistent tape refuses a second gradient", {
  x <- tensor(1)
  with(gradient_tape() %as% tape, {
    tape$watch(x)
    y <- x * 2
  })
  tape$gradient(y, x)
  expect_error(tape$gradient(y, x), "only be called once on a non-persistent",
               class = "pycg_python_error")
})

test_each_backend("nested tapes give second derivatives", {
  x <- tensor(c(0.5, 2))
  with(gradient_tape() %as% outer, {
    outer$watch(x)
    with(gradient_tape() %as% inner, {
      inner$watch(x)
      y <- op_sum(x^3)
    })
    dy <- inner$gradient(y, x)
  })
  expect_equal(as.numeric(dy), 3 * c(0.5, 2)^2)
  expect_equal(as.numeric(outer$gradient(dy, x)), 6 * c(0.5, 2))
})

test_each_backend("jacobian has shape c(dim(target), dim(source))", {
  m <- matrix(c(1, 2, 3, 4, 5, 6), 3, 2)
  x <- tensor(c(0.5, -1))
  with(gradient_tape() %as% tape, {
    tape$watch(x)
    y <- op_matmul(tensor(m), x)
  })
  j <- tape$jacobian(y, x)
  expect_equal(dim(j), c(3L, 2L))
  expect_equal(as.array(j), m)
})

test_each_backend("output_gradients weight the targets", {
  x <- tensor(c(1, 2))
  with(gradient_tape() %as% tape, {
    tape$watch(x)
    y <- x^2
  })
  g <- tape$gradient(y, x, output_gradients = c(10, 100))
  expect_equal(as.numeric(g), c(10, 100) * 2 * c(1, 2))
})

test_each_backend("stop_recording hides ops from the tape", {
  x <- tensor(3)
  with(gradient_tape() %as% tape, {
    tape$watch(x)
    y <- x * 2
    with(tape$stop_recording(), z <- x * y)
    w <- y + z
  })
  expect_equal(as.numeric(tape$gradient(w, x)), 2)
})

test_each_backend("trainable variables are watched automatically", {
  v <- pycg_variable(c(1, 2))
  with(gradient_tape() %as% tape, {
    y <- op_sum(v * v)
  })
  expect_equal(as.numeric(tape$gradient(y, v)), c(2, 4))
  expect_length(tape$watched_variables(), 1L)
})

test_each_backend("the tape is exited when the block fails", {
  x <- tensor(1)
  expect_error(with(gradient_tape() %as% tape, {
    tape$watch(x)
    stop("block failed")
  }), "block failed")
  expect_error(tape$watch(x), "not recording", class = "pycg_python_error")
})

test_each_backend("gradients match finite differences computed in R", {
  f_r <- function(v) sum(tanh(v) * exp(-v^2) + v^2 / 3)
  v <- c(-0.8, 0.1, 1.3)
  x <- tensor(v)
  with(gradient_tape() %as% tape, {
    tape$watch(x)
    y <- op_sum(tanh(x) * exp(-x^2) + x^2 / 3)
  })
  expect_equal(as.numeric(tape$gradient(y, x)), fd_grad(f_r, v),
               tolerance = 1e-8)
})

test_that("%as% works for any context and names the value", {
  obj <- structure(new.env(), class = "pycg_gradient_tape")
  marked <- obj %as% my_tape
  expect_identical(attr(marked, "as"), "my_tape")
})

test_that("a tape's methods work before its with() block, as in Python", {
  skip_if_no_pycg()
  # the Python tape is made by the first method that needs it (or by
  # with(), which makes and enters it in one call)
  tape <- gradient_tape(persistent = TRUE)
  x <- tensor(c(1, 2))
  expect_length(tape$watched_variables(), 0L)
  with(tape %as% tape, {
    tape$watch(x)
    y <- op_sum(x^3)
  })
  expect_equal(as.numeric(tape$gradient(y, x)), 3 * c(1, 2)^2)
  expect_equal(as.numeric(tape$gradient(y, x)), 3 * c(1, 2)^2)
})
