# Messages in R's terms: the function and argument named, axes and
# positions 1-based, shapes as R writes them, no Python words.

m_r <- matrix(1:6 + 0, 2, 3)

test_each_backend("a repeated or zero axis is an R error naming op and argument", {
  m <- tensor(m_r)
  expect_error(op_sum(m, axis = c(1, 1)),
               "^op_sum: `axis` names axis 1 twice; each axis may appear once$")
  expect_error(op_mean(m, axis = c(1, -2)), "^op_mean: axis -2 appears twice")
  expect_error(op_sum(m, axis = 0), "^op_sum: `axis` is 1-based in R")
  expect_error(op_max(m, axis = 2.5), "^op_max: `axis` must be whole numbers")
})

test_each_backend("pycg_grad() names the argument that is NULL or a factor", {
  f <- function(x, y = 1) sum(x^2)
  expect_error(pycg_grad(f)(NULL),
               "^pycg_grad: argument 1 \\(`x`\\) is NULL; pass numbers")
  expect_error(pycg_grad(f)(1, NULL), "^pycg_grad: argument 2 \\(`y`\\) is NULL")
  expect_error(pycg_grad(f)(factor(c("a", "b"))),
               "^pycg_grad: argument 1 \\(`x`\\) must be numbers.*not a factor")
  expect_error(pycg_value_and_grad(f)(data.frame(a = 1)),
               "^pycg_value_and_grad: argument 1 \\(`x`\\) .*data.frame")
})

test_each_backend("shapes read as R writes them: c(2, 3)", {
  m <- tensor(m_r)
  expect_error(op_add(m, op_ones(c(3, 2))),
               "^op_add: shapes c\\(2, 3\\) and c\\(3, 2\\) cannot be broadcast together$")
  expect_error(op_reshape(m, c(4, 2)),
               "^op_reshape: cannot reshape a tensor of shape c\\(2, 3\\) \\(6 elements\\) into shape c\\(4, 2\\)$")
  expect_error(op_matmul(m, m),
               "^op_matmul: shapes c\\(2, 3\\) and c\\(2, 3\\) are incompatible \\(3 != 2\\)$")
  bad <- op_custom_gradient(function(x) list(x^2, function(dy) op_ones(c(3))))
  expect_error(pycg_grad(function(x) bad(x))(tensor(2)),
               "gradient for \"x\" has shape c\\(3\\) but \"x\" has shape c\\(\\) \\(a scalar\\)")
})

test_each_backend("shape, axis and position messages of ops are R's, 1-based", {
  m <- tensor(m_r)
  o42 <- op_ones(c(4, 2))
  expect_error(op_squeeze(m, 1),
               "^op_squeeze: axis 1 has length 2, not 1 \\(shape c\\(2, 3\\)\\)$")
  expect_error(op_broadcast_to(m, c(3, 3)),
               "^op_broadcast_to: cannot broadcast shape c\\(2, 3\\) to c\\(3, 3\\)$")
  expect_error(op_concatenate(list(m, o42), axis = 2),
               "^op_concatenate: shapes c\\(2, 3\\) and c\\(4, 2\\) differ outside axis 2$")
  expect_error(op_stack(list(m, o42)),
               "^op_stack: shapes c\\(2, 3\\) and c\\(4, 2\\) differ$")
  expect_error(op_matmul(tensor(2), m),
               "^op_matmul: operands must be at least 1-d, got shapes c\\(\\) \\(a scalar\\) and c\\(2, 3\\)$")
  expect_error(op_matmul(op_ones(c(2, 2, 3)), op_ones(c(3, 3, 2))),
               "^op_matmul: batch shapes of c\\(2, 2, 3\\) and c\\(3, 3, 2\\) do not broadcast$")
  expect_error(op_dot(m, o42),
               "^op_dot: shapes c\\(2, 3\\) and c\\(4, 2\\) are incompatible \\(3 != 4\\)$")
  expect_error(op_tensordot(m, o42, list(2, 1)),
               "^op_tensordot: shapes c\\(2, 3\\) and c\\(4, 2\\) do not match on axes 2 and 1$")
  expect_error(op_tensordot(op_ones(c(2, 3, 4)), op_ones(c(3, 5)), list(c(1, 2), c(1, 2))),
               "do not match on axes c\\(1, 2\\) and c\\(1, 2\\)$")
  expect_error(op_slice_update(m, c(2, 2), op_ones(c(2, 2))),
               "^op_slice_update: updates of shape c\\(2, 2\\) at c\\(2, 2\\) do not fit inside shape c\\(2, 3\\)$")
})

test_each_backend("axes in lists and shapes after `=` are R's too", {
  m <- tensor(m_r)
  expect_error(op_moveaxis(m, c(1, 2), 1),
               "^op_moveaxis: source c\\(1, 2\\) and destination 1 differ in length$")
  expect_error(op_max(op_zeros(c(2, 0)), axis = 2),
               "\\(x has shape c\\(2, 0\\), axis 2\\); pass initial= for one$")
  expect_error(op_argmax(m, axis = c(1, 2)),
               "^op_argmax: axis must be one axis or NULL, got c\\(1, 2\\)$")
  expect_error(op_diagonal(m, axis1 = 2, axis2 = 2),
               "^op_diagonal: axis1 and axis2 are both 2$")
  expect_error(op_psnr(m, tensor(c(1, 2)), 1),
               "^op_psnr: x1 and x2 must have the same shape, got c\\(2, 3\\) and c\\(2\\)$")
  expect_error(op_binary_crossentropy(m, tensor(c(1, 2))),
               "got target.shape=c\\(2, 3\\) and output.shape=c\\(2\\)$")
  expect_error(op_batch_normalization(m, tensor(c(1, 2)), tensor(c(1, 2, 3)), axis = 2),
               "^op_batch_normalization: mean must have shape c\\(3\\) \\(the size of x along axis 2\\), got c\\(2\\)$")
  expect_error(op_argpartition(tensor(c(3, 1, 2)), 4),
               "^op_argpartition: kth=4 is out of range for axis 1 of length 3$")
  expect_error(op_average(m, weights = tensor(c(1, 2))),
               "^op_average: weights of shape c\\(2\\) differ from x's c\\(2, 3\\); pass")
  expect_error(op_stft(tensor(1:16 + 0), 8, 4, 8, window = c(1, 2)),
               "^op_stft: window must have shape c\\(8\\), got c\\(2\\)$")
  expect_error(op_sparse_categorical_crossentropy(op_convert_to_tensor(c(1L, 2L)), m, axis = 1),
               "only the last axis can hold the classes \\(axis=-1\\), got axis=1$")
  expect_error(random_categorical(op_ones(c(3)), 2),
               "^random_categorical: `logits` must be 2-D \\(batch_size, num_classes\\), got shape c\\(3\\)$")
  expect_error(op_einsum("ijk,jk->i", m, m),
               "^op_einsum: \"ijk\" names 3 axes for an operand of shape c\\(2, 3\\)$")
})

test_each_backend("a position below 1 in an index tensor names the op and argument", {
  expect_error(op_take(tensor(c(1, 2, 3)), op_convert_to_tensor(c(0L, 1L))),
               "^op_take: `indices` holds 0: positions are 1-based")
  expect_error(op_one_hot(op_convert_to_tensor(c(0L, 2L)), 3),
               "^op_one_hot: `x` holds 0")
})

test_each_backend("a Python warning reaches R every time the call happens", {
  big <- op_convert_to_tensor(.Machine$integer.max)
  for (i in 1:3)
    expect_warning(big + 1L, "NAs produced by integer overflow")
})

test_each_backend("Python names in messages become R's: op_logical_xor(), grad", {
  b <- op_convert_to_tensor(c(TRUE, FALSE))
  expect_error(op_subtract(b, b),
               "^op_subtract: bool tensors cannot be subtracted .*use op_logical_xor\\(\\)")
  expect_identical(translate_message("pycg.random.normal: bad"),
                   "random_normal: bad")
  expect_identical(translate_message("f: grad_fn returned 2 gradients"),
                   "f: grad returned 2 gradients")
})

test_that("shapes in other Python messages read as R writes them", {
  expect_identical(
    translate_message("v: value has shape (3,) but the variable has shape (2, 4)"),
    "v: value has shape c(3) but the variable has shape c(2, 4)")
  expect_identical(translate_message("f: shapes (2, None) and () differ"),
                   "f: shapes c(2, NA) and c() (a scalar) differ")
})

# The calls active when `expr` fails (what traceback() shows), and the error.
calls_at_error <- function(expr) {
  depth <- sys.nframe()
  calls <- NULL
  err <- tryCatch(withCallingHandlers(expr,
    error = function(e) calls <<- sys.calls()), error = identity)
  # less the calls above the expression (testthat's, this helper's) and the
  # handler's own
  heads <- vapply(calls, function(cl) deparse(cl[[1L]])[1L], "")
  top <- depth + match("withCallingHandlers", heads[-seq_len(depth)])
  list(error = err, calls = calls[(top + 1L):(length(calls) - 1L)])
}

deparsed <- function(calls) {
  vapply(calls, function(cl) paste(deparse(cl), collapse = " "), "")
}

test_each_backend("a stop() in an R rule reads as the rule's call, as R shows it", {
  scaled <- op_custom_gradient(function(x) {
    g <- function(upstream) stop("bad rule")
    tuple(x * 2, g)
  })
  at <- calls_at_error(pycg_grad(function(x) op_sum(scaled(x)))(c(1, 2)))
  expect_equal(conditionMessage(at$error), "in the gradient of scaled: bad rule")
  expect_identical(conditionCall(at$error), quote(g(upstream)))
  # traceback() ends in the user's rule, under a few short pycg frames
  shown <- deparsed(at$calls)
  n <- length(shown)
  expect_identical(shown[c(1L, n - 1L, n)],
                   c("pycg_grad(function(x) op_sum(scaled(x)))(c(1, 2))",
                     "g(upstream)", "stop(cond)"))
  expect_lte(n, 8L)
  expect_false(any(grepl("<environment>|py_call_impl|structure\\(", shown)))
  expect_true(all(nchar(shown) < 80L))
})

test_each_backend("an R rule's call names its arguments as the rule receives them", {
  keras_style <- op_custom_gradient(function(x, y) {
    tuple(x * y, function(..., upstream = NULL) stop("keras-style rule"))
  })
  x <- tensor(c(1, 2))
  with(gradient_tape() %as% tape, {
    tape$watch(x)
    y <- op_sum(keras_style(x, x))
  })
  at <- calls_at_error(tape$gradient(y, x))
  expect_identical(conditionCall(at$error),
                   quote(grad(x, y, upstream = upstream)))
  shown <- deparsed(at$calls)
  expect_identical(shown[c(1L, length(shown))],
                   c("tape$gradient(y, x)", "stop(cond)"))
  expect_false(any(grepl("<environment>", shown)))
})

test_each_backend("an error in a function under pycg_grad() reads as its call", {
  loss <- function(w) stop("loss broke")
  at <- calls_at_error(pycg_grad(loss)(1))
  expect_identical(conditionCall(at$error), quote(loss(w)))
  expect_identical(tail(deparsed(at$calls), 2L), c("loss(w)", "stop(cond)"))
  forward_fails <- op_custom_gradient(function(x) stop("forward broke"))
  err <- tryCatch(forward_fails(1), error = identity)
  expect_identical(conditionCall(err), quote(forward_fails(x)))
})

test_each_backend("Variable, op_solve, op_rearrange and saving messages are R's", {
  v <- pycg_variable(c(1, 2), name = "w")
  expect_error(v$assign(c(1, 2, 3)), paste0(
    "^v\\$assign: value has shape c\\(3\\) but variable \"w\" has shape ",
    "c\\(2\\)$"))
  expect_error(v$assign_add(c(1, 2, 3)), paste0(
    "^v\\$assign_add: delta has shape c\\(3\\), which does not broadcast to ",
    "the shape c\\(2\\) of variable \"w\"$"))
  expect_error(pycg_variable(c(1, 2))$assign(matrix(1, 2, 2)),
               "but the variable has shape c\\(2\\)$")
  expect_error(op_solve(diag(2), c(1, 2, 3)), paste0(
    "^op_solve: `a` has shape c\\(2, 2\\) but `b` has shape c\\(3\\)$"))
  x <- op_zeros(c(2, 3, 4))
  expect_error(op_rearrange(x, "b h w"),
               "^op_rearrange: `pattern` must have one '->', got \"b h w\"$")
  expect_error(op_rearrange(x, "b h (w1 w) -> b h w1 w", w1 = 3), paste0(
    "^op_rearrange: axes c\\(\"w1\", \"w\"\\) of lengths c\\(3, 1\\) do not ",
    "make an axis of length 4$"))
  expect_error(op_rearrange(x, "b h (w1 w2) -> b h w1 w2"), paste0(
    "^op_rearrange: pass the lengths of all but one of c\\(\"w1\", \"w2\"\\) ",
    "by name$"))
  expect_error(op_rearrange(x, "b h w -> b h v"), paste0(
    "name different axes: c\\(\"b\", \"h\", \"w\"\\) and ",
    "c\\(\"b\", \"h\", \"v\"\\)$"))
  path <- tempfile(fileext = ".npz")
  # R's positions: the second item of the list is item 2
  expect_error(pycg_save_variables(path, list(v, 3)), paste0(
    "^pycg_save_variables: item 2 \\(\"variable_1\"\\) is a double, not a ",
    "pycg_variable\\(\\)$"))
  expect_error(pycg_save_variables(path, list(v, v)), paste0(
    "^pycg_save_variables: two variables are named \"w\"; names must be ",
    "unique \\(pass a named list to rename\\)$"))
})

test_each_backend("optimizer_apply() errors name R's positions and R's function", {
  opt <- optimizer_sgd(0.1)
  a <- pycg_variable(c(1, 2))
  b <- pycg_variable(c(1, 2, 3), name = "b")
  # the second variable of the R list is variable 2 (was Python's 1)
  expect_error(optimizer_apply(opt, list(c(1, 1), c(1, 1)), list(a, b)),
               paste0("^optimizer_apply: the gradient for variable 2 ",
                      "\\(\"b\"\\) has shape c\\(2\\) but the variable has ",
                      "shape c\\(3\\)$"))
  expect_error(optimizer_apply(opt, list(c(1, 1), 3), list(a, 5)),
               paste0("^optimizer_apply: variable 2 is a double, not a ",
                      "pycg_variable\\(\\); optimizers update Variables in ",
                      "place$"))
  expect_identical(as.array(a), array(c(1, 2)))  # nothing applied
  # a warning says R's positions too (Python's message says 1 and 2 here)
  c3 <- pycg_variable(c(1, 2, 3))
  opt <- optimizer_sgd(0.1)   # (a new one: the first was built with a, b)
  expect_warning(optimizer_apply(opt, list(c(1, 1), NULL, NULL),
                                 list(a, b, c3)),
                 paste0("^optimizer_apply: no gradients for variables 2 ",
                        "\\(\"b\"\\), 3; they are left unchanged$"))
  expect_equal(as.numeric(as.array(a)), c(0.9, 1.9), tolerance = 1e-6)
})
