#!/usr/bin/env bash
# Unit tests: pure modules and fakes, no binaries needed. Runs from the TypeScript sources.
set -euo pipefail
cd "$(dirname "$0")/.."
shopt -s globstar nullglob
files=(test/unit/**/*.test.ts)
exec node --import tsx --test --test-concurrency=2 "${files[@]}"
