# op_rearrange (R/ops-einops.R's page, its face kept by hand).

test_each_backend("op_rearrange splits and merges axes", {
  x <- op_reshape(tensor(1:24), c(2, 3, 4))
  y <- op_rearrange(x, "b h (w1 w) -> (b w1) h w", w1 = 2)
  expect_identical(op_shape(y), c(4L, 3L, 2L))
  expect_equal(as.numeric(op_ravel(op_rearrange(x, "b h w -> b w h"))),
               as.numeric(op_ravel(op_transpose(x, c(1, 3, 2)))))
})
