# The loss wrappers (R/ops-losses.R, ctc_decode's face kept by hand): 1-based
# labels and blank, values against R's own arithmetic.

test_each_backend("one_hot and sparse crossentropy take 1-based labels", {
  expect_equal(op_convert_to_numpy(op_one_hot(c(2, 1), 3)),
               rbind(c(0, 1, 0), c(1, 0, 0)))
  p <- rbind(c(0.1, 0.7, 0.2), c(0.6, 0.3, 0.1))
  expect_equal(as.numeric(op_sparse_categorical_crossentropy(c(2, 1),
                                                             tensor(p))),
               -log(c(0.7, 0.6)), tolerance = 1e-12)
  expect_equal(as.numeric(op_multi_hot(c(3, 1), 4)), c(1, 0, 1, 0))
})

test_each_backend("ctc_loss takes 1-based labels and blank", {
  # two time steps, classes (blank, a): p(a) = alignments aa, a-, -a
  z <- tensor(array(c(0, 0, 0, 0), c(1, 2, 2)))
  loss <- op_ctc_loss(matrix(2, 1, 1), z, 1, 2)
  expect_equal(as.numeric(loss), -log(3 / 4), tolerance = 1e-12)
})

test_each_backend("ctc_decode gives 1-based labels", {
  # steps: class 2, 2, blank, 3 -> labels 2, 3
  z <- array(0, c(1, 4, 3))
  z[1, 1, 2] <- 5; z[1, 2, 2] <- 5; z[1, 3, 1] <- 5; z[1, 4, 3] <- 5
  res <- op_ctc_decode(tensor(z), 4)
  expect_equal(as.numeric(res[[1]]), c(2, 3, -1, -1))
  expect_equal(as.numeric(res[[2]]), -20)
})
