# A tensor owns its value: an R vector changed in place after it reached
# pycg (R writes into a vector that one name holds without copying it, as
# `x[1] <- 10` inside a function does) changes no tensor, no variable and
# no recorded gradient, and an R array made from a tensor is R's own to
# change. (tests/test_tensor_owns_value.py is the Python side.) Sizes: a
# small vector, one of 2^18 elements and a larger one (R/convert.R sends
# it in pieces).

sizes <- c(3L, 2L^18L, 2L^20L)  # (the last crosses in pieces)

# 1..n as a plain R vector, which `x[i] <- v` then writes in place (checked
# with tracemem(), which reports no copy); seq_len(n)'s compact form alone
# would be copied on the first write, hiding a shared buffer.
fresh <- function(n) seq_len(n) + 0

# Ways an R vector reaches pycg; each returns what the op is given.
makers <- list(
  op_argument = function(x) x,
  op_convert_to_tensor = function(x) op_convert_to_tensor(x),
  op_convert_to_tensor_float32 = function(x)
    op_convert_to_tensor(x, dtype = "float32"))

# d/dw sum(w * x), recorded with x made by `make` from fresh(n), which is
# then overwritten in place before the gradient is asked.
gradient_after_overwrite <- function(make, n) {
  w <- pycg_variable(rep(1, n), dtype = "float32")
  x <- fresh(n)
  with(gradient_tape() %as% tape, y <- op_sum(op_multiply(w, make(x))))
  x[1L] <- 10
  x[n] <- -7
  as.vector(as.array(tape$gradient(y, w)))
}

test_each_backend("a recorded gradient keeps the value the R vector had", {
  for (n in sizes) for (name in names(makers)) {
    expect_identical(gradient_after_overwrite(makers[[name]], n),
                     as.double(seq_len(n)), label = paste(name, n))
  }
})

test_each_backend("a tensor and a variable keep the value the R vector had", {
  for (n in sizes) {
    x <- fresh(n)
    t <- op_convert_to_tensor(x)
    v <- pycg_variable(x)
    x[1L] <- 10
    x[n] <- -7
    expect_identical(as.vector(as.array(t)), as.double(seq_len(n)))
    expect_identical(as.vector(as.array(v)), as.double(seq_len(n)))
  }
})

test_each_backend("an R array made from a tensor is R's to change", {
  for (n in sizes) {
    t <- op_convert_to_tensor(array(fresh(n)))
    for (to_r in list(as.array, as.vector, as.double)) {
      a <- to_r(t)
      a[1L] <- 10
      a[n] <- -7
      expect_identical(as.vector(as.array(t)), as.double(seq_len(n)))
    }
  }
})
