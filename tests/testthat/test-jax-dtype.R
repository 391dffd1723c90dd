# R data with a dtype on the jax backend with JAX's 64-bit mode off: the
# dtype applies while the R data is converted (NumPy first), so a float32
# tensor arrives, as pycg.convert_to_tensor(np.array([1., 2.]),
# dtype="float32") in Python; without a dtype R doubles are float64, which
# stays pycg's error, its advice in R's syntax. Run in a fresh R process with
# JAX_ENABLE_X64=0 (this process's JAX may have 64-bit mode on).

test_that("a dtype applies to R data on jax with 64-bit mode off", {
  skip_if_no_pycg()
  res <- run_r(c(
    "library(pycg)",
    "config_set_backend('jax')",
    "show <- function(t) cat(op_dtype(t), as.vector(as.array(t)), '\\n')",
    "cat('x64', reticulate::import('jax')$config$jax_enable_x64, '\\n')",
    "show(op_convert_to_tensor(c(1, 2.5), dtype = 'float32'))",
    "show(op_convert_to_tensor(matrix(c(1, 2, 3, 4), 2), dtype = 'float32'))",
    "show(op_convert_to_tensor(c(TRUE, FALSE), dtype = 'float32'))",
    "show(op_convert_to_tensor(c(3, -2), dtype = 'int32'))",
    "show(op_array(list(c(1, 2), c(3, 4)), dtype = 'float32'))",
    "show(pycg_variable(c(0.5, 2), dtype = 'float32'))",
    "show(op_full(2L, c(1.5, 2.5), dtype = 'float32'))",
    "show(op_full_like(c(1, 2), 3, dtype = 'float32'))",
    "show(op_zeros_like(c(1, 2), dtype = 'float32'))",
    "show(op_ones_like(c(1, 2), dtype = 'float32'))",
    "show(op_exp(op_convert_to_tensor(c(0, 1), dtype = 'float32')))",
    "e <- tryCatch(op_convert_to_tensor(c(1, 2)), error = conditionMessage)",
    "cat('E1', e, '\\n')",
    "e <- tryCatch(op_array(c(1, 2), dtype = 'foo'), error = conditionMessage)",
    "cat('E2', e, '\\n')",
    "e <- tryCatch(op_convert_to_tensor(c(1, 2), dtype = 'int64'),",
    "              error = conditionMessage)",
    "cat('E3', e, '\\n')"),
    # (this process's Python and its sys.path: PYTHONPATH, a source tree)
    env = c("JAX_ENABLE_X64=0", paste0("RETICULATE_PYTHON=",
                                       reticulate::py_config()$python)))
  expect_identical(res$status, 0L, info = res$output)
  out <- res$output
  expect_match(out, "x64 FALSE", fixed = TRUE)
  for (line in c("float32 1 2.5 \n", "float32 1 2 3 4 \n", "float32 1 0 \n",
                 "int32 3 -2 \n", "float32 1 3 2 4 \n", "float32 0.5 2 \n",
                 "float32 1.5 2.5 \n", "float32 3 3 \n", "float32 0 0 \n",
                 "float32 1 1 \n"))
    expect_match(out, line, fixed = TRUE)
  # exp(1) in float32, from base R's value
  e1 <- as.numeric(regmatches(out, regexec("float32 1 (2\\.7[0-9]*) ",
                                            out))[[1]][2])
  expect_equal(e1, exp(1), tolerance = 1e-6)
  # no dtype: float64 stays an error (no silent cut to 32 bits), its advice
  # in R's syntax
  expect_match(out, paste0(
    "E1 op_convert_to_tensor: pycg (jax backend): float64 needs JAX's ",
    "64-bit mode"), fixed = TRUE)
  expect_match(out, paste0(
    "call reticulate::import(\"jax\")$config$update(\"jax_enable_x64\", ",
    "TRUE) at start-up (or Sys.setenv(JAX_ENABLE_X64 = \"1\") before Python ",
    "starts), or use a 32-bit dtype (R numbers are float64: ask for float32, ",
    "e.g. op_convert_to_tensor(x, dtype = \"float32\"))"), fixed = TRUE)
  expect_no_match(out, "jax.config.update", fixed = TRUE)
  # int64 asked for: the same advice in R's syntax, without the float hint
  expect_match(out, paste0(
    "E3 op_convert_to_tensor: pycg (jax backend): int64 needs JAX's 64-bit ",
    "mode, which is off (JAX would silently make it int32); call ",
    "reticulate::import(\"jax\")$config$update(\"jax_enable_x64\", TRUE) at ",
    "start-up (or Sys.setenv(JAX_ENABLE_X64 = \"1\") before Python starts), ",
    "or use a 32-bit dtype. pycg does not"), fixed = TRUE)
  # a bad dtype is still the op's own error (ops.array is convert_to_tensor)
  expect_match(out, "E2 op_convert_to_tensor: dtype 'foo' is not a dtype",
               fixed = TRUE)
})
