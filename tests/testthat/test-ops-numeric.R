test_that("op_polar is base R's complex(modulus =, argument =)", {
  skip_if_no_pycg()
  r <- c(1, 2, 0.5, 3)
  theta <- c(0, pi / 2, -1, 4)
  z <- as.vector(as.array(op_polar(r, theta)))
  expect_equal(z, complex(modulus = r, argument = theta))
})
