# No R value crashes R at pycg's border: a value that carries a pycg
# tensor's class but holds no live Python object (base R's marginSums() put
# the class on its plain R vector; `class<-`; a tensor saved by saveRDS() in
# an earlier session) gets a clear error from every method pycg registers
# for tensors. The calls run in a child R process, so that a crash fails
# the test instead of killing the test runner.

# R code for the child: each call of each tensor method on each fake,
# "CALL <label>" printed before it (a crash names its call), then "OK" or
# "ERR <message>", then "DONE".
fuzz_script <- function(saved) {
  sprintf('
suppressPackageStartupMessages(library(pycg))
t <- op_convert_to_tensor(c(1, 2, 3))
cls <- class(t)
fakes <- list(
  double = structure(c(1, 2, 3), class = cls),
  null = suppressWarnings(structure(NULL, class = cls)),
  list = structure(list(1, 2), class = cls),
  character = structure("a", class = cls),
  null_pointer = structure(new("externalptr"), class = cls),
  environment = structure(new.env(), class = cls),
  earlier_session = readRDS("%s"))
s3 <- getNamespaceInfo("pycg", "S3methods")
s3 <- unique(s3[grepl("^pycg[.]tensor[.]", s3[, 2L]), 1L])
s4 <- Filter(function(g) length(methods::findMethods(
  g, classes = "pycg.tensor.Tensor")), methods::getGenerics(asNamespace("pycg")))
attached <- names(pycg:::attached_functions())
special <- list(
  "$" = quote(x$shape), "[" = quote(x[1]), "[[" = quote(x[[1]]),
  "[<-" = quote(x[1] <- 0), "[[<-" = quote(x[[1]] <- 0),
  "dim<-" = quote(dim(x) <- 3L),
  Ops = list(quote(x + 1), quote(1 - x), quote(x == x), quote(!x)),
  Math = list(quote(exp(x)), quote(cumsum(x))), Summary = quote(sum(x)),
  Complex = quote(Re(x)), matrixOps = quote(x %%*%% x),
  py_to_r = quote(reticulate::py_to_r(x)),
  r_to_py = quote(print(reticulate::r_to_py(x))),
  compare_proxy = quote(waldo::compare_proxy(x, quote(x))))
calls <- function(f) {
  s <- special[[f]]
  if (is.call(s)) return(list(s))
  if (!is.null(s)) return(s)
  list(call(f, quote(x)), call(f, quote(x), quote(x)),
       call(f, quote(x), 2), call(f, 2, quote(x)))
}
for (f in sort(unique(c(s3, s4, attached, "matrixOps")))) {
  for (expr in calls(f)) {
    for (kind in names(fakes)) {
      cat("CALL", kind, deparse(expr), "\\n")
      env <- list2env(list(x = fakes[[kind]]), parent = globalenv())
      out <- tryCatch({
        utils::capture.output(suppressWarnings(print(eval(expr, env))))
        "OK"
      }, error = function(e) paste("ERR", gsub("\\n", " ", conditionMessage(e))))
      cat(out, "\\n")
    }
  }
}
cat("DONE\\n")
', saved)
}

test_that("values with a tensor's class and no Python object never crash R", {
  skip_if_no_pycg()
  saved <- tempfile(fileext = ".rds")
  on.exit(unlink(saved))
  saveRDS(op_convert_to_tensor(c(1, 2, 3)), saved)
  res <- run_r(fuzz_script(saved))
  lines <- strsplit(res$output, "\n")[[1L]]
  expect_identical(res$status, 0L, label = paste(
    "the child's status; its last call:", tail(grep("^CALL", lines,
                                                     value = TRUE), 1L)))
  expect_true("DONE" %in% trimws(lines), label = "the child finished")
  calls <- grep("^CALL", lines)
  expect_gt(length(calls), 500L)
  # each call that reaches Python stops at the border check, naming the
  # user's function
  outcome <- trimws(lines[calls + 1L])
  reached <- outcome[grepl("^ERR .*(Python|python|reticulate|pointer)",
                           outcome)]
  expect_gt(length(reached), 300L)
  expect_true(all(grepl("^ERR \\S+: an argument has the class of a pycg tensor ",
                        reached)),
              label = paste(setdiff(reached, grep(
                "an argument has the class", reached, value = TRUE))[1:3],
                collapse = " | "))
  for (kind in c("double", "list", "null_pointer", "earlier_session")) {
    for (call in c("length(x)", "print(x)", "x + 1", "exp(x)", "sum(x)",
                   "dim(x)", "x[1]", "x$shape")) {
      at <- calls[lines[calls] == paste("CALL", kind, call, "")]
      expect_match(lines[at + 1L], "is not a live Python object",
                   label = paste(kind, call))
    }
  }
})
