# Precomputes the vignettes and prints the numbers they show. Used by
# `make demo`, which then builds the documentation site (`make docs`:
# tools/site/build.py), where the vignettes are the articles:
#
#   Rscript tools/render-docs.R
#
# Run from the repository root with the R package installed (R_LIBS) and
# PYCG_PYTHON or RETICULATE_PYTHON naming a Python that can import pycg.
#
# The walkthroughs need Python, so their sources are vignettes/*.Rmd.orig:
# each is knitted here into vignettes/<name>.Rmd, its code with the output
# and the figures (vignettes/<name>-*.png) of this run, the usual route for
# packages whose vignettes need Python. R CMD build renders those .Rmd files
# without running any code, so an installed package shows the results even
# where no Python was found. Commit the refreshed .Rmd and .png files.
#
# All vignettes are knitted in this one R process, so Python and TensorFlow
# start once. The headline numbers are read from variables the vignettes
# compute (named below), so what is printed is what the pages show.

if (!file.exists(file.path("vignettes", "pycg.Rmd.orig")))
  stop("run tools/render-docs.R from the root of a pycg checkout",
       call. = FALSE)
for (pkg in c("knitr", "pycg")) {
  if (!requireNamespace(pkg, quietly = TRUE))
    stop("the R package `", pkg, "` is not installed; `make demo` installs ",
         "it (R_LIBS=", Sys.getenv("R_LIBS"), ")", call. = FALSE)
}
if (!pycg::pycg_available()) {
  pycg::pycg_config()
  stop("pycg's Python side is not available (above), so the walkthroughs ",
       "would render without their results", call. = FALSE)
}

# The pages overflow exp() on purpose; NumPy's RuntimeWarnings about it would
# only clutter the console (set before Python starts, on first pycg use).
if (!nzchar(Sys.getenv("PYTHONWARNINGS")))
  Sys.setenv(PYTHONWARNINGS = "ignore::RuntimeWarning")

# vignettes/<name>.Rmd.orig knitted into vignettes/<name>.Rmd (markdown
# with the results; the front matter and the vignette engine are kept), its
# figures written beside it, the variables it makes left in `env`.
precompute <- function(name, env) {
  old <- setwd("vignettes")
  on.exit(setwd(old))
  unlink(list.files(".", paste0("^", name, "-.*[.]png$")))
  knitr::opts_chunk$set(fig.path = paste0(name, "-"), dev = "png", dpi = 96)
  on.exit(knitr::opts_chunk$restore(), add = TRUE)
  knitr::knit(paste0(name, ".Rmd.orig"), output = paste0(name, ".Rmd"),
              envir = env, quiet = TRUE)
}

vignettes <- c("pycg", "custom-gradients", "r-and-python", "fitting-a-model",
               "training")
envs <- list()
started <- Sys.time()
for (name in vignettes) {
  env <- new.env(parent = globalenv())
  t0 <- Sys.time()
  precompute(name, env)
  cat(sprintf("knitted %-18s in %5.1f s\n", name,
              as.numeric(Sys.time() - t0, units = "secs")))
  envs[[name]] <- env
}

headline <- function(vignette, names) {
  env <- envs[[vignette]]
  missing <- names[!vapply(names, exists, NA, envir = env, inherits = FALSE)]
  if (length(missing))
    stop("vignettes/", vignette, ".Rmd no longer defines ",
         paste0("`", missing, "`", collapse = ", "),
         ", which tools/render-docs.R prints", call. = FALSE)
  mget(names, envir = env)
}
g <- headline("pycg", c("naive_at_100", "custom_at_100"))
m <- headline("fitting-a-model", c("accuracy_pycg", "accuracy_glm",
                                   "max_coef_diff"))
tr <- headline("training", c("final_pycg", "keras_ready"))

cat(sprintf(paste0("\nThe walkthroughs (%.0f s in all) are the articles of ",
                   "the site that `make docs` builds (site/articles/).\n"),
            as.numeric(Sys.time() - started, units = "secs")))
cat("Headline numbers, as the pages show them:\n")
cat(sprintf("  gradient of log(1 + exp(x)) at x = 100: naive %s, custom %s\n",
            format(g$naive_at_100), format(g$custom_at_100)))
cat(sprintf(paste0("  logistic regression on mtcars (am ~ wt + hp): ",
                   "accuracy %.4f with pycg, %.4f with glm;\n",
                   "  largest coefficient difference from glm %.2g\n"),
            m$accuracy_pycg, m$accuracy_glm, m$max_coef_diff))
cat(sprintf("  iris MLP trained with optimizer_adam(): final loss %.6f%s\n",
            tr$final_pycg, if (isTRUE(tr$keras_ready)) sprintf(
              ", Keras from the same weights %.6f (difference %.1e)",
              envs$training$final_keras,
              abs(tr$final_pycg - envs$training$final_keras)) else
              " (Keras not available for the comparison)"))
