# R's operators on tensors against base R on the same data (the harness is
# helper-conformance.R): recycling of R vectors of every length on either
# side, tensors on both sides, types, NA, and the gradients.

test_conformance("operators, an R value on either side", function()
  family_cases(conformance_families()$ops, conformance_inputs(),
               conformance_partners()), budget = 1000L)

test_conformance("operators, tensors on both sides", function()
  tensor_pair_cases(setdiff(group_members$Ops, "!"), conformance_inputs()),
  budget = 400L)

test_conformance("operators, gradients", function()
  gradient_cases(c("+", "-", "*", "/", "^", "%%", "%/%", "-unary")),
  kind = "grad", budget = 150L)
