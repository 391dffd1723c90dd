# The R side's cost: an op_exp() call from R against the same Python function
# called through bare reticulate, and the cost of a log1pexp custom gradient
# written in R against the same rule written in Python (tape driven from
# Python). Each pair is timed in alternating batches, so that load on the
# machine hits both sides alike; the table gives medians over the batches.
# Last, the resident memory before and after 10,000 R-side gradient calls
# (Linux), which shows R's garbage collection releasing the Python objects.
#
# Run from the repository root (after installing the package into
# .venv/lib/R):
#   R_LIBS=.venv/lib/R PYCG_PYTHON=.venv/bin/python Rscript bench/r_bench.R

suppressMessages(library(pycg))

# Median microseconds per call of f and g, timed in alternating batches.
paired_us <- function(f, g, n = 1000L, batches = 21L) {
  for (i in seq_len(100L)) {
    f()
    g()
  }
  batch <- function(h) {
    t0 <- proc.time()[["elapsed"]]
    for (i in seq_len(n)) h()
    (proc.time()[["elapsed"]] - t0) / n * 1e6
  }
  times <- vapply(seq_len(batches), function(b) c(batch(f), batch(g)),
                  numeric(2))
  c(f = stats::median(times[1L, ]), g = stats::median(times[2L, ]),
    ratio = stats::median(times[2L, ] / times[1L, ]))
}

invisible(config_backend())  # starts Python the way the package does

py_rules <- reticulate::py_run_string("
import pycg
from pycg import ops

@pycg.custom_gradient
def log1pexp(x):
    e = ops.exp(x)
    def grad(upstream):
        return upstream * (1 - 1 / (1 + e))
    return ops.log(1 + e), grad

def tape_grad(f, x):
    with pycg.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, x)
", convert = FALSE)

log1pexp <- op_custom_gradient(\(x) {
  e <- op_exp(x)
  grad <- function(..., upstream = NULL) {
    upstream <- upstream %||% ..1
    op_multiply(upstream, 1.0 - 1.0 / op_add(1, e))
  }
  tuple(op_log(1 + e), grad)
})

r_tape_grad <- function(f, x) {
  with(gradient_tape() %as% tape, {
    tape$watch(x)
    y <- f(x)
  })
  tape$gradient(y, x)
}

rows <- list()
for (backend in c("numpy", "tensorflow")) {
  config_set_backend(backend)
  x <- op_convert_to_tensor(c(0.5, 1, 2), dtype = "float64")
  bare_exp <- reticulate::import("pycg.ops", convert = FALSE)$exp
  stopifnot(all.equal(as.numeric(op_exp(x)), exp(c(0.5, 1, 2))),
            all.equal(as.numeric(r_tape_grad(log1pexp, x)),
                      1 / (1 + exp(-c(0.5, 1, 2)))))

  e <- paired_us(function() bare_exp(x), function() op_exp(x))
  g <- paired_us(function() py_rules$tape_grad(py_rules$log1pexp, x),
                 function() r_tape_grad(log1pexp, x), n = 200L)
  rows <- c(rows, list(data.frame(
    backend = backend,
    what = c("exp(x): bare reticulate", "exp(x): op_exp() from R",
             "log1pexp gradient: rule and tape in Python",
             "log1pexp gradient: rule and tape in R"),
    us_per_call = round(c(e[["f"]], e[["g"]], g[["f"]], g[["g"]]), 1),
    ratio = round(c(1, e[["ratio"]], 1, g[["ratio"]]), 2))))
}
print(do.call(rbind, rows), row.names = FALSE)

if (file.exists("/proc/self/status")) {
  rss_mb <- function() {
    line <- grep("^VmRSS", readLines("/proc/self/status"), value = TRUE)
    as.numeric(gsub("[^0-9]", "", line)) / 1024
  }
  config_set_backend("numpy")
  x <- op_convert_to_tensor(seq(-2, 2, length.out = 100))
  for (i in seq_len(500L)) r_tape_grad(log1pexp, x)
  invisible(gc())
  before <- rss_mb()
  t0 <- proc.time()[["elapsed"]]
  for (i in seq_len(10000L)) r_tape_grad(log1pexp, x)
  invisible(gc())
  cat(sprintf(paste0("\n10,000 log1pexp gradients from R (numpy): %.1f s, ",
                     "RSS %.1f MB -> %.1f MB (%+.1f MB)\n"),
              proc.time()[["elapsed"]] - t0, before, rss_mb(),
              rss_mb() - before))
}
