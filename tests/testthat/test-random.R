# random_*(): seeds, shapes and rough distributions (wide bounds).

test_each_backend("the same integer seed gives identical draws", {
  a <- as.array(random_normal(c(3, 4), seed = 11))
  b <- as.array(random_normal(c(3, 4), seed = 11))
  expect_identical(a, b)
  expect_identical(dim(a), c(3L, 4L))
  expect_false(identical(a, as.array(random_normal(c(3, 4), seed = 12))))
  expect_identical(as.array(random_uniform(5, seed = 3)),
                   as.array(random_uniform(5, seed = 3)))
})

test_each_backend("a seed generator moves on and replays from its seed", {
  gen <- random_seed_generator(42)
  a <- as.array(random_uniform(4, seed = gen))
  b <- as.array(random_uniform(4, seed = gen))
  expect_false(any(a == b))
  again <- random_seed_generator(42)
  expect_identical(as.array(random_uniform(4, seed = again)), a)
})

test_each_backend("draws have the asked-for mean, spread and range", {
  x <- as.numeric(random_normal(20000, mean = 3, stddev = 2, seed = 1))
  expect_equal(mean(x), 3, tolerance = 0.1 / 3)
  expect_equal(sd(x), 2, tolerance = 0.05)
  u <- as.numeric(random_uniform(20000, minval = -1, maxval = 4, seed = 2))
  expect_true(all(u >= -1 & u < 4))
  expect_equal(mean(u), 1.5, tolerance = 0.05)
  t <- as.numeric(random_truncated_normal(5000, stddev = 1, seed = 3))
  expect_true(all(abs(t) <= 2))
  expect_identical(op_dtype(random_normal(2, seed = 1)), "float64")
  expect_identical(op_dtype(random_normal(2, dtype = "float32", seed = 1)),
                   "float32")
})

test_each_backend("integers, categories, shuffles and dropout", {
  i <- as.array(random_integer(1000, 2, 5, seed = 4))
  expect_setequal(unique(as.vector(i)), 2:4)
  logits <- matrix(log(c(0.001, 0.999, 0.5, 0.5)), 2, byrow = TRUE)
  k <- as.array(random_categorical(logits, 200, seed = 5))
  expect_identical(dim(k), c(2L, 200L))
  expect_true(mean(k[1, ] == 2) > 0.95)   # 1-based classes
  expect_setequal(unique(k[2, ]), 1:2)
  k0 <- as.array(random_categorical(logits, 200, seed = 5,
                                    zero_indexed = TRUE))
  expect_identical(k0, k - 1L)
  m <- matrix(1:6, 3)
  s <- as.array(random_shuffle(tensor(m), seed = 6))
  expect_identical(sort(s[, 1]), c(1, 2, 3))
  expect_identical(s[, 2] - s[, 1], c(3, 3, 3))  # rows move together
  d <- as.numeric(random_dropout(op_ones(4000), 0.25, seed = 7))
  expect_setequal(round(unique(d), 6), round(c(0, 4 / 3), 6))
  expect_equal(mean(d == 0), 0.25, tolerance = 0.1)
})

test_that("a seed that is not a whole number is refused by name", {
  skip_if_no_pycg()
  expect_error(random_normal(2, seed = 1.5),
               "random_normal: `seed` must be a whole number")
  expect_error(random_normal(2, seed = "a"),
               "random_normal: `seed` must be a whole number")
})

test_each_backend("set.seed() governs draws with seed = NULL", {
  set.seed(123)
  a <- as.array(random_normal(c(2, 3)))
  b <- as.array(random_uniform(4))
  set.seed(123)
  expect_identical(as.array(random_normal(c(2, 3))), a)
  expect_identical(as.array(random_uniform(4)), b)
  # the stream moves on between draws, as R's does
  expect_false(identical(as.array(random_normal(c(2, 3))), a))
  set.seed(124)
  expect_false(identical(as.array(random_normal(c(2, 3))), a))
  set.seed(7)
  gen <- random_seed_generator()
  first <- as.array(random_uniform(3, seed = gen))
  set.seed(7)
  expect_identical(as.array(random_uniform(3, seed = random_seed_generator())),
                   first)
})
