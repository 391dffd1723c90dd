# The Fourier wrappers (R/ops-spectral.R) against R's fft().

v <- c(2.5, -1, 4, 0.25, 3)

test_each_backend("fft matches R's fft()", {
  z <- op_fft(list(tensor(v), tensor(v * 0)))
  expect_equal(as.numeric(z[[1]]), Re(fft(v)))
  expect_equal(as.numeric(z[[2]]), Im(fft(v)))
})
