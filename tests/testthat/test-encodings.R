# R strings reach Python as the text they declare, whatever the R session's
# locale: in a C-locale session (ASCII only) "poids_\u00e9" is a UTF-8-marked
# string, and one read from a latin1 file a latin1-marked one. Each test runs
# the R side in a fresh C-locale R (run_r()).

utf8_names <- c("poids_\u00e9", "\u00fc")
latin1_names <- c("gr\u00f6\u00dfe", "\u00e0")  # made latin1 in the C session

# R code for the strings `x`, written with \u escapes only (an R in a C
# locale reads other bytes as its own ASCII).
escaped <- function(x) {
  sprintf("c(%s)", paste(vapply(x, function(s) sprintf('"%s"', paste(
    sprintf("\\u%04x", utf8ToInt(enc2utf8(s))), collapse = "")), ""),
    collapse = ", "))
}

in_locale <- function(locale, code) {
  run_r(c("suppressMessages(library(pycg))", "config_set_backend('numpy')",
          code),
        env = c(paste0("LC_ALL=", locale), paste0(
          "PYCG_PYTHON=", Sys.getenv("PYCG_PYTHON", reticulate::py_exe()))))
}

# `code` run in a C-locale R where `utf8` holds utf8_names (UTF-8-marked)
# and `latin1` latin1_names (latin1-marked, as read from a latin1 file).
c_locale <- function(code) {
  in_locale("C", c(
    sprintf("utf8 <- %s", escaped(utf8_names)),
    sprintf("latin1 <- iconv(%s, 'UTF-8', 'latin1')", escaped(latin1_names)),
    "stopifnot(Encoding(utf8) == 'UTF-8', Encoding(latin1) == 'latin1')",
    code))
}

# The member names of an .npz file, as Python reads them.
npz_members <- function(path) {
  reticulate::py_eval(sprintf("sorted(__import__('numpy').load(%s).files)",
                              deparse(path)))
}

test_that("names of a list saved from a C-locale session load in UTF-8 and Python", {
  skip_if_no_pycg()
  path <- tempfile(fileext = ".npz")
  on.exit(unlink(path))
  res <- c_locale(c(
    "vars <- lapply(1:4, function(i) pycg_variable(i * 10))",
    "names(vars) <- c(utf8, latin1)",
    sprintf("pycg_save_variables(%s, vars)", deparse(path)),
    "back <- lapply(1:4, function(i) pycg_variable(0))",
    "names(back) <- c(utf8, latin1)",
    sprintf("pycg_load_variables(%s, back)", deparse(path)),
    "cat('C locale loads:', vapply(back, as.numeric, 0), '\\n')"))
  expect_match(res$output, "C locale loads: 10 20 30 40", info = res$output)
  expect_setequal(npz_members(path), c(utf8_names, latin1_names))
  utf8 <- in_locale("C.UTF-8", c(
    "back <- lapply(1:4, function(i) pycg_variable(0))",
    sprintf("names(back) <- %s", escaped(c(utf8_names, latin1_names))),
    sprintf("pycg_load_variables(%s, back)", deparse(path)),
    "cat('UTF-8 locale loads:', vapply(back, as.numeric, 0), '\\n')"))
  expect_match(utf8$output, "UTF-8 locale loads: 10 20 30 40",
               info = utf8$output)
})

test_that("a string argument from a C-locale session reaches Python as its text", {
  skip_if_no_pycg()
  path <- tempfile(fileext = ".npz")
  on.exit(unlink(path))
  res <- c_locale(c(
    "vars <- lapply(c(utf8[1], latin1[1]), function(n) pycg_variable(1, name = n))",
    "seen <- vapply(vars, function(v) reticulate::py_to_r(v$name), '')",
    "cat('names read back:', identical(seen, enc2utf8(c(utf8[1], latin1[1]))), '\\n')",
    # an unnamed list is saved under the variables' own names
    sprintf("pycg_save_variables(%s, vars)", deparse(path))))
  expect_match(res$output, "names read back: TRUE", info = res$output)
  expect_setequal(npz_members(path), c(utf8_names[1], latin1_names[1]))
})

test_that("names of a dict Python returns read as its keys in a C-locale session", {
  skip_if_no_pycg()
  res <- c_locale(c(
    "args <- list(1, 2, 3, 4)",
    "names(args) <- c(utf8, latin1)",
    "g <- pycg_grad(function(p) op_sum(op_stack(unname(p))))(args)",
    "cat('gradient names:', identical(names(g), enc2utf8(c(utf8, latin1))),",
    "    Encoding(names(g)), '\\n')"))
  expect_match(res$output, "gradient names: TRUE UTF-8 UTF-8 UTF-8 UTF-8",
               info = res$output)
})
