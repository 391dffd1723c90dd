# A tensor that pycg_grad() differentiates never silently becomes R
# numbers: every function of base and stats that gives numbers for a
# numeric vector or matrix, applied to it beside another term of it, gives
# the gradient of central finite differences or stops (the harness and the
# list of functions never called are in helper-tape-border.R).

test_that("the tape border suite reads its functions from base and stats", {
  found <- tape_border_functions()
  expect_true(all(c("as.vector", "as.numeric", "matrix", "array", "sweep",
                    "mahalanobis", "apply", "sd", "quantile", "xtfrm") %in%
                    found))
  expect_false(any(c("q", "quit", "Sys.time", "file.remove", "write",
                     "set.seed", "plot.ts", ".Internal") %in% found))
  expect_gt(length(found), 1000L)
})

# numpy runs every case; tensorflow and jax a share of them (each backend
# its own), unless PYCG_CONFORMANCE=full.
tape_border_share <- c(numpy = 1L, tensorflow = 2L, jax = 20L, torch = 4L)

for (backend in conformance_backends()) {
  test_that(sprintf("no tensor leaves the tape silently: base and stats functions [%s]", backend), {
    skip_if_no_pycg()
    with_backend(backend, {
      started <- proc.time()[["elapsed"]]
      every <- if (conformance_full()) 1L else tape_border_share[[backend]]
      results <- run_tape_border(tape_border_cases(
        every, match(backend, names(tape_border_share))))
      report_tape_border(results, backend, started)
      different <- results[results$outcome == "different", ]
      expect(!nrow(different), sprintf(
        "tape border [%s]: %d cases give a gradient that is not the finite differences' (printed above): %s",
        backend, nrow(different), paste(unique(different$call), collapse = ", ")))
      expect_gt(sum(results$outcome == "equal"), 0L)
    })
  })
}
