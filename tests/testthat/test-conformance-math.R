# R's Math, Summary and Complex groups on tensors against base R (the
# harness is helper-conformance.R), with their gradients.

test_conformance("Math group", function()
  family_cases(conformance_families()$math, conformance_inputs(),
               conformance_partners()), budget = 500L)

test_conformance("Summary and Complex groups", function()
  family_cases(conformance_families()$summary, conformance_inputs(),
               conformance_partners()[c("dbl1", "dbl3", "int2", "lgl1", "na")]),
  budget = 300L)

# (round() and signif() are left out: at 1 to 6 digits their steps come
# within a finite difference's reach, while their gradient is 0 between)
test_conformance("Math and Summary groups, gradients", function()
  gradient_cases(c(setdiff(group_members$Math, c("round", "signif")),
                   "sum", "prod", "max", "min", "range")),
  kind = "grad", budget = 150L)
