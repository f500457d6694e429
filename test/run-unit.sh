#!/usr/bin/env bash
# Unit tests: pure modules and fakes, no binaries needed. Runs from the TypeScript sources.
set -euo pipefail
cd "$(dirname "$0")/.."
shopt -s globstar nullglob
files=(test/unit/**/*.test.ts)
# Tests make their scratch directories under os.tmpdir(), and not every test removes its own: one
# directory per run, removed at the end, so that runs leave nothing behind in /tmp.
scratch=$(mktemp -d "${TMPDIR:-/tmp}/kwokts-unit-XXXXXX")
trap 'rm -rf "$scratch"' EXIT
TMPDIR=$scratch node --import tsx --test --test-concurrency=2 "${files[@]}"
