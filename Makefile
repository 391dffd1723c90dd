# The two commands a user types: `make demo` and `make test`. Each sets up
# what it needs on first use (idempotently) under .venv/.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(abspath $(VENV))/bin/python
RLIB := $(abspath $(VENV))/lib/R
RCHECK := $(abspath $(VENV))/rcheck

export R_LIBS := $(RLIB)
export RETICULATE_PYTHON := $(PY)
export PYCG_PYTHON := $(PY)
export TF_CPP_MIN_LOG_LEVEL := 3

.PHONY: demo docs test test-python test-python-main test-processes test-backends test-r test-testthat test-site lint bench \
        soak setup check-r check-r-nopython dist test-dist

# The demo, the vignettes knitted afresh (tools/render-docs.R), and the
# documentation site built from them.
demo: setup
	$(PY) -m pycg
	Rscript tools/render-docs.R
	$(MAKE) --no-print-directory docs

# The documentation site, both languages in one, into site/ (open
# site/index.html; it works offline). On a fresh clone it first runs the
# whole set-up (`make setup`: the virtual environment, pycg, pdoc, R with
# pkgdown, the R package), as `make test` does: the R reference by pkgdown with every
# example run, the vignettes, the guides in docs/, the Python reference by
# pdoc, cross-links and a search. The build checks every link, image and
# anchor and that every R export and Python name has its page, and fails
# naming the page of any problem (tools/site/build.py).
docs: setup
	$(PY) tools/site/build.py site

# The jax backend's own tests (test_jax_backend, test_to_jax, test_to_keras,
# test_backend_layout, test_compile_jax) always run it; the op grid
# (tests/ops/test_<topic>.py) runs it for the finite-difference VJP cases
# and the edge and bool/complex agreement with the other backends only (JAX dispatches and compiles each op
# slowly: the whole grid on jax would add about 15 minutes). The torch
# backend's own file (test_torch_backend) runs in the first line; on torch
# the op grid runs the finite-difference VJP cases, the edge, bool/complex
# and keras.ops sweeps, and the fixture's cases of the optimizers, random
# draws, saving, custom-gradient conventions and tapes (TORCH_TESTS: about
# 30 s on a quiet machine; the whole suite on torch takes about 19
# minutes). make soak runs every test on all four backends.
# pycg.to_torch's files (tests/test_to_torch*.py, test_to_keras_torch.py)
# set the torch backend themselves and run in the first line, as
# test_torch_backend.py does (about 80 s together at load 6: the DDP and
# Keras subprocesses are most of it).
# The Python tests and the R side are independent (check-r builds from a
# copy of the tree): they run side by side, one per core, and each leg and
# each step of the R leg prints its seconds. The jax and torch lines
# (test-backends, about 2 minutes) take the core the R leg frees (it ends
# minutes before the numpy/tensorflow line: 469 s against 727 s on a clean
# clone at load 2). The Python files whose tests each start fresh
# interpreters or R (PROCESS_TESTS: the R bridge, exits, interrupts, quiet
# start-ups, guarded imports; about 200 s) run as their own leg, after the
# jax and torch lines on that core, so that both cores end near the same
# time (the numpy/tensorflow line took 1254 s against the R leg's 686 s in
# CI at bd52a43); make test-python runs both Python legs.
test: setup lint
	$(MAKE) --no-print-directory -j2 timed-test-python-main timed-test-r \
	  timed-test-backends timed-test-processes

PROCESS_TESTS := $(addprefix tests/,test_r_bridge.py test_r_exit.py \
  test_interrupt_soak.py test_interrupt_whole.py test_quiet.py \
  test_imports_guarded.py)

test-python: test-python-main test-processes

test-processes: setup
	PYCG_TEST_BACKENDS=numpy,tensorflow $(PY) -m pytest -q $(PROCESS_TESTS)

timed-%:
	@start=$$(date +%s); $(MAKE) --no-print-directory $*; status=$$?; \
	  echo "make $*: $$(( $$(date +%s) - start )) s (exit $$status)"; \
	  exit $$status

test-python-main: setup
	PYCG_TEST_BACKENDS=numpy,tensorflow $(PY) -m pytest -q tests pycg \
	  --ignore=tests/test_site.py --ignore=tests/test_r_testthat.py \
	  --ignore=tests/test_dist.py $(addprefix --ignore=,$(PROCESS_TESTS))

test-backends: setup
	PYCG_TEST_BACKENDS=jax $(PY) -m pytest -q tests/ops \
	  -k "TestVjp and finite_differences"
	PYCG_TEST_BACKENDS=jax $(PY) -m pytest -q tests/test_edge_agreement.py \
	  tests/test_bool_complex_agreement.py
	PYCG_TEST_BACKENDS=torch $(PY) -m pytest -q $(TORCH_TESTS) -k "torch and \
	  (TestVjp and finite_differences or not op_topic_file) or keras_sweep"

# (tests/ops/: the op topics' files, whose VJP suite, TestVjp, runs its
# finite-difference cases on jax and torch; tests/ops/conftest.py gives
# their tests the keyword op_topic_file)
TORCH_TESTS := $(addprefix tests/,ops test_edge_agreement.py \
  test_bool_complex_agreement.py test_ops_keras_sweep.py test_optimizers.py \
  test_random.py test_saving.py test_custom_gradient_conventions.py \
  test_tape.py)

# The R leg runs each testthat file once, first: under pytest
# (tests/test_r_testthat.py: one pytest test per file, so a failure names its
# file and its testthat report), against the package installed from the
# tree. R CMD check of the tarball runs with --no-tests (the build, the
# install, every example with Python, the vignettes, the documentation and
# code checks), since its own run of the same tests would take as long
# again; the check with no Python (check-r-nopython) runs the tests, which
# there prove that each one skips. The site's test (tests/test_site.py: a
# full build into a temporary folder, its checks, and pages in headless
# Chromium, about 2 minutes) comes last.
test-r: setup
	$(MAKE) --no-print-directory timed-test-testthat
	$(MAKE) --no-print-directory timed-check-r CHECK_TESTS=--no-tests
	$(MAKE) --no-print-directory timed-check-r-nopython
	$(MAKE) --no-print-directory timed-test-site

test-testthat: setup
	$(PY) -m pytest -q tests/test_r_testthat.py

test-site: setup
	$(PY) -m pytest -q tests/test_site.py

# The house habits (STYLE.md): the linter, the type checker over the public
# modules (pyproject.toml's [tool.mypy]; pycg.ops' types are the generated
# stub pycg/ops/__init__.pyi, which must be current), the R op wrappers
# R/ops-*.R as tools/gen_r_ops.py makes them from pycg.ops, and NAMESPACE/man
# in step with the roxygen comments. The line budget and the import-cycle
# checks are tests (tests/test_architecture.py).
lint: setup
	$(VENV)/bin/ruff check pycg tests bench tools
	$(PY) tools/ops_stub.py --check
	$(PY) tools/gen_r_ops.py --check
	$(VENV)/bin/mypy
	bash tools/roxygen-drift.sh

# R CMD build (which runs every vignette) and R CMD check --as-cran on the
# tarball, from a copy of the tree without .venv (R would copy it first);
# CHECK_TESTS=--no-tests leaves out the testthat run (make test's R leg).
# The build bundles pycg/ under inst/python/ (./cleanup), which install_pycg()
# installs. No network and no LaTeX here: remote checks and the PDF manual
# are skipped.
check-r: setup
	rm -rf $(RCHECK) && mkdir -p $(RCHECK)/pycg
	tar --exclude=./.venv --exclude=./.git -cf - . | tar -xf - -C $(RCHECK)/pycg
	cd $(RCHECK) && R CMD build pycg >build.log 2>&1 || { cat build.log; exit 1; }
	cd $(RCHECK) && tar -tzf pycg_*.tar.gz | grep -q '^pycg/inst/python/pycg/__init__.py$$' || \
	  { echo "the tarball lacks inst/python/pycg (the bundled Python sources)"; exit 1; }
	cd $(RCHECK) && $(CHECK) $(CHECK_TESTS) pycg_*.tar.gz >check.log 2>&1; \
	  $(call check_status,check.log,[0-9]* NOTEs\?)

# The same tarball checked as CRAN would, with no Python that has pycg:
# every test that needs pycg skips; the vignettes are precomputed (their
# sources, vignettes/*.Rmd.orig, are run by `make demo`), so they render
# with their results. Status must be OK.
check-r-nopython: setup
	[ -f $(RCHECK)/pycg_*.tar.gz ] || $(MAKE) --no-print-directory check-r
	rm -rf $(RCHECK)/nopython && mkdir -p $(RCHECK)/nopython
	cd $(RCHECK)/nopython && env -u PYCG_PYTHON -u PYTHONPATH \
	  RETICULATE_PYTHON=/nonexistent/bin/python \
	  $(CHECK) ../pycg_*.tar.gz >check.log 2>&1; $(call check_status,check.log)

# ./configure and ./cleanup are checked for bashisms, as on CRAN, by
# checkbashisms (Debian's devscripts, which tools/setup-system.sh installs).
CHECK := _R_CHECK_CRAN_INCOMING_REMOTE_=false _R_CHECK_SYSTEM_CLOCK_=0 \
  R CMD check --as-cran --no-manual
# Prints the Status line and every NOTE, WARNING or ERROR section of a check
# log; fails unless the status is OK (or matches the second argument).
check_status = sed -n '/^Status:/p;/^\* checking.*\(NOTE\|WARNING\|ERROR\)$$/,/^\* /p' $(1); \
  grep -q '^Status: \(OK$(if $(2),\|$(2))\)$$' $(1) || { tail -n 60 $(1); exit 1; }

# The packages, into dist/ (emptied first): the Python wheel (pip's build
# of the tree) and sdist (hatchling, the build backend pyproject.toml names,
# in a throwaway virtual environment), and the R source tarball (R CMD
# build of a copy of the tree without .venv, .git and dist, as check-r
# makes it: pycg/ bundled under inst/python/, the vignettes precomputed).
# README's "Install" says how to install them.
dist: setup
	rm -rf dist && mkdir -p dist
	$(PY) -m pip wheel -q --no-deps -w dist .
	tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	  $(PY) -m venv "$$tmp/venv" && \
	  "$$tmp/venv/bin/python" -m pip install -q hatchling && \
	  "$$tmp/venv/bin/python" -c 'from hatchling.build import build_sdist; \
	    build_sdist("dist")' && \
	  mkdir "$$tmp/pycg" && \
	  tar --exclude=./.venv --exclude=./.git --exclude=./dist --exclude=./site \
	    --exclude=./.rlib -cf - . | tar -xf - -C "$$tmp/pycg" && \
	  (cd "$$tmp" && R CMD build pycg >build.log 2>&1 || { cat build.log; exit 1; }) && \
	  mv "$$tmp"/pycg_*.tar.gz dist/
	@ls -l dist

# Each package of dist/ installed into a clean environment and run
# (tests/test_dist.py, a few minutes, so not part of `make test`): the wheel
# and the sdist into fresh virtual environments, then the README's first
# Python rule; the R tarball into a fresh R library, then the README's R
# rule against the wheel's Python.
test-dist: dist
	$(PY) -m pytest -q -p no:cacheprovider tests/test_dist.py

bench: setup
	bash bench/setup_peers.sh
	$(PY) bench/run.py
	{ printf '\n## R inside Python (pycg.r), microseconds per call\n\n'; \
	  $(PY) bench/bench_pycg_r.py; \
	  printf '\n## The R package: op_exp from R against bare reticulate, '; \
	  printf 'and training steps written in R against Python\n\n```\n'; \
	  Rscript bench/r_bench.R; printf '```\n'; \
	  printf '\n## pycg_grad() of R likelihoods against optim()'\''s '; \
	  printf 'numerical gradient (bench/r_likelihood.R)\n\n```\n'; \
	  Rscript bench/r_likelihood.R; printf '```\n'; \
	  printf '\n## custom_gradient calls by the way they are called '; \
	  printf '(bench/custom_calls.py)\n\n```\n'; \
	  $(PY) bench/custom_calls.py; printf '```\n'; \
	  printf '\n## Forward mode: pycg.jvp, pycg.jacfwd, Hessian-vector products '; \
	  printf '(issue 46, bench/jvp.py)\n\n```\n'; \
	  $(PY) bench/jvp.py; $(PY) bench/jvp.py --backend jax; printf '```\n'; \
	  printf '\n## pycg.to_torch against torch.autograd.Function (issue 44)\n\n'; \
	  $(PY) bench/to_torch_models.py; \
	  printf '\n## Deep graphs (issue 8)\n\n'; $(PY) bench/deep.py; \
	  printf '\n'; cat bench/REPORTS.md; \
	  } >> BENCHMARKS.md

# Longer fuzz and soak runs than `make test` affords (about 25 minutes),
# the memory a compiled jax function keeps per trace (against jax.jit),
# every test on the jax backend and on the torch backend (about 19
# minutes on torch), and the conformance suite's whole grid
# (PYCG_CONFORMANCE=full) on all four backends. The grids make test
# samples (tests/support/grids.py) run whole here.
soak: export PYCG_FULL_GRIDS := 1
soak: setup
	PYCG_FUZZ_EXAMPLES=20000 PYCG_SOAK_ROUNDS=1500 $(PY) -m pytest -q -s \
	  tests/test_fuzz.py tests/test_reliability.py tests/test_hostile.py \
	  tests/test_npz_fuzz.py tests/test_ops_hostile_sweep.py \
	  tests/test_interrupt_soak.py tests/test_saving_faults.py \
	  tests/test_first_use_threads.py tests/test_compiled_steps_atomic.py
	PYCG_SOAK_INSTALL=1 $(PY) -m pytest -q tests/test_install_restart.py
	$(PY) bench/jax_trace_memory.py
	PYCG_TEST_BACKENDS=jax $(PY) -m pytest -q tests
	PYCG_TEST_BACKENDS=torch $(PY) -m pytest -q tests
	PYCG_CONFORMANCE=full PYCG_CONFORMANCE_BACKENDS=numpy,tensorflow,jax,torch \
	  Rscript -e 'testthat::test_dir("tests/testthat", \
	  filter = "conformance", package = "pycg", load_package = "installed")'

setup: $(VENV)/.system-ok $(VENV)/.python-ok $(VENV)/.r-ok

$(VENV)/.system-ok: tools/setup-system.sh
	bash tools/setup-system.sh
	mkdir -p $(VENV) && touch $@

$(VENV)/.python-ok: pyproject.toml $(VENV)/.system-ok
	[ -x $(PY) ] || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[tensorflow-cpu,dev,r,jax]'
	$(PY) -m pip install -q --only-binary=:all: '$(TORCH_CPU)'
	touch $@

# PyTorch's CPU build, pinned to its local version so that pip never
# fetches PyPI's CUDA build (several GB); the index these machines use
# serves it, as does https://download.pytorch.org/whl/cpu
TORCH_CPU := torch==2.13.0+cpu

# R CMD INSTALL runs ./configure, which bundles pycg/ under inst/python/.
$(VENV)/.r-ok: DESCRIPTION NAMESPACE $(wildcard R/*.R) configure pyproject.toml \
               $(shell find pycg -name '*.py') $(VENV)/.python-ok
	mkdir -p $(RLIB)
	R CMD INSTALL --no-test-load -l $(RLIB) . >$(VENV)/r-install.log 2>&1 || \
	  { cat $(VENV)/r-install.log; exit 1; }
	touch $@
