#!/usr/bin/env bash
# End-to-end tests: real etcd/kube-* binaries, real clusters, the built CLI (bin/run.cjs).
set -euo pipefail
cd "$(dirname "$0")/.."
shopt -s globstar nullglob
files=(test/e2e/**/*.e2e.ts)
# One file at a time: clusters are heavy on a 2-core machine.
exec node --import tsx --test --test-concurrency=1 "${files[@]}"
