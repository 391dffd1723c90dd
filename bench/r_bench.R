# What the R side costs, all in one R process:
#
# 1. One op: op_exp() from R against the same Python function called
#    through bare reticulate.
# 2. Training steps written in R with pycg's R API against the same steps
#    written in Python (bench/r_steps.py), each language timing its own loop
#    (Python's loop runs inside one Python call, so neither side pays for
#    the other's loop): bench/train.py's MLP step (20-64-3 tanh, sparse
#    softmax cross-entropy, batch 512, float32, Adam) eager on both backends
#    and compiled (pycg_function() against pycg.function) on tensorflow; and
#    a tape over keras3's log1pexp custom gradient, its rule written in R
#    against the rule written in Python.
# 3. Where the R step's extra microseconds go: its calls into Python
#    (counted) at the cost of a bare reticulate call, its calls from Python
#    into R (the log1pexp forward and rule) at the cost of an R identity
#    function that pycg calls back, and the rest: R code in the wrappers and
#    conversions.
# 4. The resident memory before and after 10,000 R-side gradient calls
#    (Linux), which shows R's garbage collection releasing Python objects.
#
# Each pair is timed in alternating batches, so that load on the machine
# hits both sides alike; the tables give medians over the batches, of wall
# time and of the process's CPU time (user + system, R's proc.time() and
# Python's time.process_time()).
#
# Run from the repository root (after installing the package into
# .venv/lib/R):
#   R_LIBS=.venv/lib/R PYCG_PYTHON=.venv/bin/python Rscript bench/r_bench.R

suppressMessages(library(pycg))

# Minor page faults of this process so far (Linux; else NA).
page_faults <- function() {
  if (!file.exists("/proc/self/stat")) return(NA_real_)
  stat <- readLines("/proc/self/stat")
  as.numeric(strsplit(sub(".*\\) ", "", stat), " ")[[1L]][8L])
}

# c(wall s, cpu s, minor page faults) per call of f over n calls.
r_run <- function(f, n) {
  faults <- page_faults()
  t0 <- proc.time()
  for (i in seq_len(n)) f()
  t <- proc.time() - t0
  c(t[["elapsed"]], t[["user.self"]] + t[["sys.self"]],
    page_faults() - faults) / n
}

# The same for a Python callable, looped inside Python.
py_run <- function(f, n) {
  unlist(reticulate::py_to_r(steps$run(f, as.integer(n))))
}

# Medians (microseconds; page faults per call) of r_run(f) and run_g(g)
# timed in alternating batches of n calls, and of their ratios.
paired <- function(f, g, n, run_g = py_run, batches = 15L) {
  r_run(f, max(n %/% 5L, 2L))
  run_g(g, max(n %/% 5L, 2L))
  t <- vapply(seq_len(batches), function(b) c(r_run(f, n), run_g(g, n)),
              numeric(6)) * c(1e6, 1e6, 1)
  c(r_wall = median(t[1L, ]), py_wall = median(t[4L, ]),
    wall_ratio = median(t[1L, ] / t[4L, ]),
    r_cpu = median(t[2L, ]), py_cpu = median(t[5L, ]),
    cpu_ratio = median(t[2L, ] / t[5L, ]),
    r_faults = median(t[3L, ]), py_faults = median(t[6L, ]))
}

invisible(config_backend())  # starts Python the way the package does
steps <- reticulate::import_from_path("r_steps", "bench", convert = FALSE)

r_mlp_step <- function(x, y, vars, opt) {
  function() {
    with(gradient_tape() %as% tape, {
      # (op_add: a bias along the last axis, NumPy's broadcasting; R's `+`
      # would recycle it down the columns)
      hidden <- op_tanh(op_add(op_matmul(x, vars[[1L]]), vars[[2L]]))
      logits <- op_add(op_matmul(hidden, vars[[3L]]), vars[[4L]])
      loss <- op_mean(op_sparse_categorical_crossentropy(
        y, logits, from_logits = TRUE))
    })
    optimizer_apply(opt, tape$gradient(loss, vars), vars)
    loss
  }
}

log1pexp <- op_custom_gradient(\(x) {
  e <- op_exp(x)
  grad <- function(upstream) upstream * (1 - 1 / (1 + e))
  tuple(op_log(1 + e), grad)
})

r_log1pexp_step <- function(x) {
  function() {
    with(gradient_tape() %as% tape, {
      tape$watch(x)
      y <- log1pexp(x)
    })
    tape$gradient(y, x)
  }
}

# How many calls from R into Python one call of f makes.
python_calls <- function(f) {
  n <- 0L
  suppressMessages(trace(reticulate:::py_call_impl, function() n <<- n + 1L,
                         print = FALSE, where = asNamespace("reticulate")))
  on.exit(suppressMessages(untrace(reticulate:::py_call_impl,
                                   where = asNamespace("reticulate"))))
  f()
  n
}

mlp <- function(compiled = FALSE) {
  d <- steps$mlp_setup()
  r_step <- r_mlp_step(d["x"], d["y1"], reticulate::py_to_r(d["r_vars"]),
                       d["r_opt"])
  py_step <- steps$mlp_step(d["x"], d["y"], d["py_vars"], d["py_opt"])
  if (compiled) {
    r_step <- pycg_function(r_step)
    py_step <- steps$compiled(py_step)
  }
  stopifnot(all.equal(as.numeric(r_step()),
                      as.numeric(reticulate::py_call(py_step))))
  list(r_step, py_step)
}

rows <- list()
calls <- list()
for (backend in c("numpy", "tensorflow")) {
  config_set_backend(backend)
  x <- op_convert_to_tensor(c(0.5, 1, 2), dtype = "float64")
  bare_exp <- reticulate::import("pycg.ops", convert = FALSE)$exp
  stopifnot(all.equal(as.numeric(op_exp(x)), exp(c(0.5, 1, 2))),
            all.equal(as.numeric(r_log1pexp_step(x)()),
                      1 / (1 + exp(-c(0.5, 1, 2)))))
  rows[[paste(backend, "exp(x): op_exp() / bare reticulate")]] <-
    paired(function() op_exp(x), function(n) r_run(function() bare_exp(x), n),
           1000L, run_g = function(g, n) g(n))
  eager <- mlp()
  rows[[paste(backend, "MLP step, eager")]] <- paired(eager[[1L]],
                                                      eager[[2L]], 30L)
  calls[[paste(backend, "MLP step, eager")]] <- c(python_calls(eager[[1L]]), 0)
  if (backend == "tensorflow") {
    compiled <- mlp(compiled = TRUE)
    rows[[paste(backend, "MLP step, compiled")]] <-
      paired(compiled[[1L]], compiled[[2L]], 100L)
    calls[[paste(backend, "MLP step, compiled")]] <-
      c(python_calls(compiled[[1L]]), 0)
  }
  rows[[paste(backend, "log1pexp tape step")]] <-
    paired(r_log1pexp_step(x), steps$log1pexp_step(x), 200L)
  calls[[paste(backend, "log1pexp tape step")]] <-
    c(python_calls(r_log1pexp_step(x)), 2)
}
table <- as.data.frame(round(do.call(rbind, rows), 2))
cat("Microseconds per call, R against Python (the first row: against bare",
    "reticulate)\n")
print(table)

# ---- where the R step's microseconds go --------------------------------------
# The cost of one call R -> Python (bare reticulate, a no-op), of one call
# Python -> R (an R identity function as pycg calls an R rule back, timed
# by a Python loop), and of the same through bare reticulate; then per step:
# its extra CPU time over Python's split into the calls into Python, the
# callbacks, and the rest (R code: wrappers, conversions, S3 dispatch).
config_set_backend("numpy")
x <- op_convert_to_tensor(c(0.5, 1, 2), dtype = "float64")
noop <- steps$noop
identity_r <- function(x) x
pycg_callback <- pycg:::r_callable(identity_r, "identity_r",
                                   pycg:::py_signature(identity_r))
bare_callback <- reticulate::r_to_py(identity_r, convert = FALSE)
into_python <- paired(function() noop(x), steps$calling(noop, x), 2000L)
callback <- paired(function() noop(x), steps$calling(pycg_callback, x), 2000L)
bare <- paired(function() noop(x), steps$calling(bare_callback, x), 2000L)
cat(sprintf(paste0(
  "\nOne call R -> Python (a no-op through bare reticulate): %.1f us CPU ",
  "(%.1f wall)\nOne call Python -> R (an R identity function as pycg calls ",
  "a rule back): %.1f us CPU (%.1f wall); through bare reticulate: %.1f us ",
  "CPU (%.1f wall)\n\n"), into_python[["r_cpu"]], into_python[["r_wall"]],
  callback[["py_cpu"]], callback[["py_wall"]], bare[["py_cpu"]],
  bare[["py_wall"]]))
where <- t(vapply(names(calls), function(k) {
  row <- rows[[k]]
  extra <- row[["r_cpu"]] - row[["py_cpu"]]
  into <- calls[[k]][1L] * into_python[["r_cpu"]]
  back <- calls[[k]][2L] * callback[["py_cpu"]]
  c(extra_cpu_us = extra, calls_into_python = calls[[k]][1L],
    their_floor_us = into, callbacks = calls[[k]][2L],
    callbacks_us = back, rest_us = extra - into - back,
    extra_page_faults = row[["r_faults"]] - row[["py_faults"]])
}, numeric(7)))
cat(paste0("Where the R step's extra CPU microseconds go, per step (the ",
           "rest: R code in wrappers and conversions, and fresh memory: R ",
           "frees a Python tensor only when its garbage collector runs, so ",
           "each new one takes new pages)\n"))
print(round(where, 1))

if (file.exists("/proc/self/status")) {
  rss_mb <- function() {
    line <- grep("^VmRSS", readLines("/proc/self/status"), value = TRUE)
    as.numeric(gsub("[^0-9]", "", line)) / 1024
  }
  step <- r_log1pexp_step(op_convert_to_tensor(seq(-2, 2, length.out = 100)))
  for (i in seq_len(500L)) step()
  invisible(gc())
  before <- rss_mb()
  t0 <- proc.time()[["elapsed"]]
  for (i in seq_len(10000L)) step()
  invisible(gc())
  cat(sprintf(paste0("\n10,000 log1pexp gradients from R (numpy): %.1f s, ",
                     "RSS %.1f MB -> %.1f MB (%+.1f MB)\n"),
              proc.time()[["elapsed"]] - t0, before, rss_mb(),
              rss_mb() - before))
}
