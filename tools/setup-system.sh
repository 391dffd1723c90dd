#!/usr/bin/env bash
# Installs what pycg needs from the system (Debian): R and the R packages the
# R side uses, pandoc and qpdf for the vignettes and R CMD check, pkgdown
# and Chromium for the documentation site (`make docs`; its test loads pages
# in headless Chromium),
# checkbashisms (devscripts: `R CMD check --as-cran` warns without it, and
# turns _R_CHECK_BASHISMS_ on itself, so it cannot be switched off), and the
# Python venv module. Idempotent: installs only what is missing.
set -euo pipefail
need=()
for p in r-base-core r-base-dev r-cran-reticulate r-cran-testthat \
         r-cran-roxygen2 r-cran-knitr r-cran-rmarkdown pandoc qpdf devscripts \
         r-cran-pkgdown chromium python3-venv; do
  dpkg -s "$p" >/dev/null 2>&1 || need+=("$p")
done
# python3-venv is only needed when the python3 in use lacks venv/ensurepip
if python3 -c "import venv, ensurepip" >/dev/null 2>&1; then
  need=("${need[@]/python3-venv}")
fi
need=($(printf '%s\n' "${need[@]}" | grep -v '^$' || true))
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "pycg needs these Debian packages: ${need[*]}" >&2
  echo "Install them as root, then run make again:" >&2
  echo "  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${need[*]}" >&2
  exit 1
fi
echo "Installing system packages: ${need[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
