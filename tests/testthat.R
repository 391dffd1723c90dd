library(testthat)
library(pycg)

test_check("pycg")
