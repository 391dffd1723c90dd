# A tensor that cannot fit is refused before any backend allocates, by the
# R function's name (on jax the R session itself died of jaxlib's abort).

test_that("a huge tensor is refused by name on every backend", {
  skip_if_no_pycg()
  previous <- config_backend()
  on.exit(config_set_backend(previous))
  for (backend in c(backends, if (reticulate::py_module_available("jax"))
    "jax")) {
    config_set_backend(backend)
    # (2**90 elements: past int64, where jaxlib aborted)
    expect_error(op_zeros(c(2^30, 2^30, 2^30)), paste0(
      "^op_zeros: cannot allocate [0-9]{28} bytes ",
      "\\(\\S+ EiB\\) for a tensor of shape c\\(1073741824, ",
      "1073741824, 1073741824\\) and dtype float(32|64): not enough memory ",
      "\\(.* available\\)$"), info = backend)
    expect_error(op_eye(2^30), "^op_eye: cannot allocate", info = backend)
    expect_error(op_arange(3e9, 3e9 + 3, dtype = "int32"), paste0(
      "^op_arange: 3e\\+09 does not fit in int32 \\(from -2147483648 to ",
      "2147483647\\); pass a wider dtype, such as int64$"), info = backend)
  }
})
