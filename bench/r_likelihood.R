# pycg_grad() of a likelihood written in plain R against the numerical
# gradient optim() computes (central differences, ndeps = 1e-3: 2p calls of
# the same R function on R numbers), side by side in one R process:
#
# - a negative binomial regression (146 rows, 7 coefficients and log theta,
#   lgamma() of the data and the parameters, as MASS::glm.nb's likelihood
#   on MASS::quine; the data are simulated here, so no package is needed);
# - a logistic regression on 1,000 x 10 simulated data.
#
# For each, on the numpy and tensorflow backends: one gradient (medians of
# alternating batches), pycg_grad() replayed (pycg/r/replay.py: compiled
# after its first calls, timed once compiled) and with
# options(pycg.replay = FALSE) (R runs at every call, the way before
# replay); and a whole optim(method = "BFGS") fit from the same start, with
# each gradient, its wall time and its counts (pycg's first calls record,
# replay eagerly, then compile: all inside the fit's time).
#
#   R_LIBS=.venv/lib/R PYCG_PYTHON=.venv/bin/python Rscript bench/r_likelihood.R

suppressMessages(library(pycg))

set.seed(42)
n <- 146
X <- cbind(1, matrix(rbinom(n * 6, 1, 0.5), n))
beta0 <- c(2.5, -0.5, 0.3, -0.2, 0.1, 0.4, -0.3)
y <- rnbinom(n, size = 1.3, mu = exp(X %*% beta0))
negbin <- function(p) {
  beta <- p[1:7]
  theta <- exp(p[8])
  mu <- exp(X %*% beta)
  -sum(lgamma(y + theta) - lgamma(theta) - lgamma(y + 1) +
         theta * log(theta) + y * log(mu) - (theta + y) * log(theta + mu))
}
nb_start <- c(log(mean(y)), rep(0, 6), 0)

Z <- cbind(1, matrix(rnorm(1000 * 9), 1000))
yl <- rbinom(1000, 1, plogis(Z %*% seq(-1, 1, length.out = 10)))
logistic <- function(b) {
  eta <- Z %*% b
  -sum(yl * eta - log(1 + exp(eta)))
}
lg_start <- rep(0, 10)

# optim's numerical gradient (optim.c fmingr: ndeps 1e-3, central)
numerical <- function(f) function(p) vapply(seq_along(p), function(i) {
  e <- replace(numeric(length(p)), i, 1e-3)
  (f(p + e) - f(p - e)) / 2e-3
}, 0)

per_call <- function(f, p, n) {
  t0 <- proc.time()[["elapsed"]]
  for (i in seq_len(n)) f(p)
  (proc.time()[["elapsed"]] - t0) / n
}

# Medians (ms) of alternating batches of the two gradient functions.
paired <- function(g1, g2, p, n = 40L, batches = 9L) {
  t <- vapply(seq_len(batches), function(b)
    c(per_call(g1, p, n), per_call(g2, p, n)), numeric(2)) * 1e3
  c(median(t[1L, ]), median(t[2L, ]), median(t[2L, ] / t[1L, ]))
}

fit_time <- function(f, p, gr) {
  t0 <- proc.time()[["elapsed"]]
  fit <- optim(p, f, gr, method = "BFGS", control = list(maxit = 500))
  c(proc.time()[["elapsed"]] - t0, fit$counts[["gradient"]], fit$value)
}

models <- list(negbin = list(negbin, nb_start), logistic = list(logistic,
                                                              lg_start))
rows <- list()
for (backend in c("numpy", "tensorflow")) {
  config_set_backend(backend)
  for (name in names(models)) {
    f <- models[[name]][[1L]]
    p <- models[[name]][[2L]]
    fd <- numerical(f)
    g <- pycg_grad(f)
    old <- options(pycg.replay = FALSE)
    g_eager <- pycg_grad(f)
    options(old)
    stopifnot(all.equal(g(p), fd(p), tolerance = 1e-4),
              all.equal(g_eager(p), fd(p), tolerance = 1e-4))
    for (i in 1:60) g(p)   # (recorded, replayed, compiled)
    one <- paired(fd, g, p)
    eager <- paired(fd, g_eager, p, n = 10L, batches = 5L)
    fit_fd <- fit_time(f, p, NULL)
    fit_pycg <- fit_time(f, p, pycg_grad(f))
    rows[[paste(backend, name)]] <- c(
      fd_ms = one[1L], replay_ms = one[2L], replay_ratio = one[3L],
      no_replay_ratio = eager[3L],
      fit_fd_s = fit_fd[1L], fit_pycg_s = fit_pycg[1L],
      fit_ratio = fit_pycg[1L] / fit_fd[1L],
      grads_fd = fit_fd[2L], grads_pycg = fit_pycg[2L],
      value_diff = abs(fit_fd[3L] - fit_pycg[3L]))
    cat(name, " (", backend, "): ", pycg_explain(g), "\n", sep = "")
  }
}
cat("\nOne gradient: optim's numerical one (ms) against pycg_grad() replayed",
    "\n(ratio: pycg / numerical) and without replay; a whole BFGS fit (s)\n")
print(round(as.data.frame(do.call(rbind, rows)), 3))
