#!/usr/bin/env bash
# Fails when NAMESPACE or man/ differ from what roxygen2 makes of R/: the
# roxygen comments are the source, the generated files must be committed.
# Runs roxygen in a scratch copy, so the working tree is never touched.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cp -r DESCRIPTION NAMESPACE R man "$scratch"/
(cd "$scratch" && Rscript -e 'invisible(roxygen2::roxygenise())' \
  >roxygen.log 2>&1) || { cat "$scratch/roxygen.log"; exit 1; }
if ! diff -ru NAMESPACE "$scratch/NAMESPACE" || ! diff -ru man "$scratch/man"
then
  echo "NAMESPACE or man/ is out of date with the roxygen comments in R/:" >&2
  echo "run Rscript -e 'roxygen2::roxygenise()' and commit the result." >&2
  exit 1
fi
