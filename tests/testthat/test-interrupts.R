# Interrupts and time limits reach R code that Python calls (a rule, a
# forward, a function under pycg_grad()): Python unwinds, no tape is left
# recording, and R gets the condition back at the top.

spinning_rule <- function() {
  op_custom_gradient(function(x) tuple(x * 2, function(upstream) repeat {}))
}

test_each_backend("setTimeLimit() stops a runaway R rule under pycg_grad()", {
  spin <- spinning_rule()
  df <- pycg_grad(function(x) op_sum(spin(x)))
  started <- proc.time()[["elapsed"]]
  err <- tryCatch({
    setTimeLimit(elapsed = 1, transient = TRUE)
    df(c(1, 2))
  }, error = identity)
  setTimeLimit()
  expect_s3_class(err, "error")
  expect_match(conditionMessage(err),
               "in the gradient of spin: reached elapsed time limit")
  expect_lt(proc.time()[["elapsed"]] - started, 10)  # not the loop's end
  expect_false(py_recording())
  expect_equal(as.numeric(pycg_grad(function(x) op_sum(x^2))(c(1, 2))),
               c(2, 4))
})

test_each_backend("setTimeLimit() stops a runaway forward and function", {
  spin_forward <- op_custom_gradient(function(x) {
    repeat {}
  })
  for (f in list(function(x) op_sum(spin_forward(x)),
                 function(x) {
                   repeat {}
                 })) {
    err <- tryCatch({
      setTimeLimit(elapsed = 0.5, transient = TRUE)
      pycg_grad(f)(c(1, 2))
    }, error = identity)
    setTimeLimit()
    expect_match(conditionMessage(err), "reached elapsed time limit")
    expect_false(py_recording())
  }
  expect_equal(as.numeric(pycg_grad(function(x) op_sum(x^2))(c(1, 2))),
               c(2, 4))
})

test_that("SIGINT stops a looping rule and reaches the prompt", {
  skip_if_no_pycg()
  skip_on_os("windows")  # no SIGINT to send
  pid_file <- tempfile()
  loop_file <- tempfile()  # written as the rule enters its loop
  out_file <- tempfile()
  script <- tempfile(fileext = ".R")
  on.exit(unlink(c(pid_file, loop_file, out_file, script)))
  writeLines(c(
    "library(pycg)",
    sprintf(paste0("spin <- op_custom_gradient(function(x) tuple(x * 2, ",
                   "function(upstream) { writeLines('in', '%s'); repeat {} }))"),
            loop_file),
    "df <- pycg_grad(function(x) op_sum(spin(x)))",
    "invisible(pycg_grad(function(x) op_sum(x^2))(c(1, 2)))",
    sprintf("writeLines(as.character(Sys.getpid()), '%s')", pid_file),
    "withCallingHandlers(df(c(1, 2)), interrupt = function(e) {",
    "  cat(sprintf('returned at %.6f\\n', as.numeric(Sys.time())))",
    "  cat('recording:', reticulate::import('pycg.core.recorder')$is_recording(), '\\n')",
    "})",
    "cat('not reached\\n')"), script)
  lib <- paste(.libPaths(), collapse = .Platform$path.sep)
  python <- Sys.getenv("RETICULATE_PYTHON")
  env <- c(paste0("R_LIBS=", lib),
           if (nzchar(python)) paste0("RETICULATE_PYTHON=", python))
  system2(file.path(R.home("bin"), "Rscript"), script, stdout = out_file,
          stderr = out_file, env = env, wait = FALSE)
  for (i in 1:600) {  # (not a fixed wait: a loaded machine is slow)
    if (file.exists(loop_file) && file.exists(pid_file) &&
        length(readLines(pid_file))) break
    Sys.sleep(0.1)
  }
  Sys.sleep(0.1)  # from writeLines() into the loop
  sent <- as.numeric(Sys.time())
  tools::pskill(as.integer(readLines(pid_file)), tools::SIGINT)
  for (i in 1:300) {
    if (any(grepl("Execution halted", readLines(out_file)))) break
    Sys.sleep(0.1)
  }
  output <- readLines(out_file)
  expect_true(any(grepl("^Error: interrupted while pycg was running R code",
                        output)), info = paste(output, collapse = "\n"))
  expect_true(any(grepl("recording: FALSE", output)))
  expect_false(any(grepl("not reached", output)))
  returned <- as.numeric(sub("returned at ", "",
                             grep("returned at", output, value = TRUE)))
  expect_length(returned, 1L)
  message(sprintf("SIGINT to return: %.3f s", returned - sent))
})

test_each_backend("time limits at random points leave no tape recording", {
  # setTimeLimit() lands where an interrupt would: in R rules, forwards,
  # Python ops and the backward pass, at random points of each run
  rule <- op_custom_gradient(function(x) {
    y <- x
    for (i in 1:100) y <- op_sin(y) + 0.1 * x
    tuple(y, function(upstream) {
      g <- upstream
      for (i in 1:100) g <- g * 0.99
      g
    })
  })
  f <- function(x) {
    y <- op_sum(rule(x) * x)
    for (i in 1:100) y <- y + op_sum(op_tanh(x * i))
    y
  }
  took <- system.time(
    reference <- as.numeric(pycg_grad(f)(c(0.3, -0.2))))[["elapsed"]]
  set.seed(11)
  outcomes <- character()
  for (limit in stats::runif(30, 0.05, 1.5) * max(took, 0.01)) {
    outcome <- tryCatch({
      setTimeLimit(elapsed = limit, transient = TRUE)
      g <- as.numeric(pycg_grad(f)(c(0.3, -0.2)))
      setTimeLimit()
      if (isTRUE(all.equal(g, reference))) "finished" else "wrong"
    }, error = function(e) {
      setTimeLimit()
      if (grepl("time limit", conditionMessage(e))) "stopped" else
        conditionMessage(e)
    })
    outcomes <- c(outcomes, outcome)
    expect_false(py_recording())
  }
  message("time limits (", config_backend(), "): ",
          paste(names(table(outcomes)), table(outcomes), collapse = ", "))
  expect_true(all(outcomes %in% c("finished", "stopped")),
              label = paste(unique(outcomes), collapse = "; "))
  expect_true(any(outcomes == "stopped"))
  expect_equal(as.numeric(pycg_grad(f)(c(0.3, -0.2))), reference)
})
