# R's Math, Summary and Complex groups on tensors against base R (the
# harness is helper-conformance.R), with their gradients.

test_conformance("Math group", function()
  family_cases(conformance_families()$math, conformance_inputs(),
               conformance_partners()), budget = 800L)

test_conformance("Summary and Complex groups", function()
  family_cases(conformance_families()$summary, conformance_inputs(),
               conformance_partners()[c("dbl1", "dbl3", "int2", "lgl1", "na")]),
  budget = 400L)

# (signif() is left out: its 6 digits step within a finite difference's
# reach, while its gradient is 0 between the steps)
test_conformance("Math and Summary groups, gradients", function()
  gradient_cases(c(setdiff(group_members$Math, "signif"),
                   "sum", "prod", "max", "min", "range")),
  kind = "grad", budget = 200L)
