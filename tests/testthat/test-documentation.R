# Every name a user reaches after library(pycg) has a help page. R CMD
# check asks it of exports and warns ("missing documentation entries") about
# a base R function .onAttach puts on the search path (R/tensor-masked.R)
# without an \alias; this test says so within make test's testthat run,
# before the check. It needs no Python.

rd_aliases <- function() {
  db <- tools::Rd_db("pycg")
  unlist(lapply(db, function(rd) {
    tags <- vapply(rd, function(x) attr(x, "Rd_tag"), "")
    vapply(rd[tags == "\\alias"], function(x) paste(unlist(x), collapse = ""),
           "")
  }), use.names = FALSE)
}

test_that("every function library(pycg) attaches has a help page", {
  aliases <- rd_aliases()
  attached <- names(pycg:::attached_functions())
  expect_gt(length(attached), 0L)
  expect_identical(setdiff(attached, aliases), character(0))
})
