#!/usr/bin/env bash
# Issue 33's acceptance count: the hand-written, non-test source files that
# name an option (boost-ec by default) in any spelling (boost-ec, boost_ec,
# boostEc, BoostEc, boostEC, BOOST_EC...). Prints the files, then the count.
#
#   tools/contract/count_option_spellings.sh [OPTION]   (OPTION as in WIT: boost-ec, min-size, ...)
#
# Counted: files git tracks with the extensions .rs .js .mjs .ts .py .pyi .wit
# .html .toml .go .java. Left out: tests (test/, tests/, testing/, typecheck/,
# dist-test/, dist_test/, src/test/, *_test.go, test_*.py, *.test.*, *Test.java,
# conftest.py), benches (bench/, benches/, bench*.py, bench_test.go),
# experiments/, the fuzz crate (fuzz/: its targets and seed maker are tests that decode
# their own input layouts), and files whose first five lines say they are generated.
set -euo pipefail
cd "$(dirname "$0")/../.."
option="${1:-boost-ec}"
# boost-ec -> boost[-_]?ec, matched without regard to case.
pattern="$(printf '%s' "$option" | sed 's/-/[-_]?/g')"
files="$(git ls-files -- '*.rs' '*.js' '*.mjs' '*.ts' '*.py' '*.pyi' '*.wit' '*.html' '*.toml' '*.go' '*.java' |
  grep -Ev '(^|/)(tests?|testing|typecheck|dist-test|dist_test|bench|benches|experiments)/|^fuzz/' |
  grep -Ev '(^|/)src/test/|_test\.go$|(^|/)test_[^/]*\.py$|(^|/)conftest\.py$|\.test\.[a-z]+$|Test\.java$|(^|/)bench[^/]*\.py$' |
  while IFS= read -r file; do
    head -n 5 "$file" | grep -qi 'generated' && continue
    grep -Eqi "$pattern" "$file" && printf '%s\n' "$file"
  done | sort)"
printf '%s\n' "$files"
echo "files naming $option: $(printf '%s' "$files" | grep -c .)"
