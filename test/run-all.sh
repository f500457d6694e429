#!/usr/bin/env bash
# The whole suite, as CI runs it on a fresh clone: build, typecheck (tests included), unit tests,
# prerequisites, e2e tests.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== build"
npm run build
echo "== typecheck (the tests too: tsx runs them without checking types)"
npx tsc -p tsconfig.test.json
echo "== unit tests"
bash test/run-unit.sh
echo "== prerequisites (cached after the first run)"
bash test/setup-prerequisites.sh
echo "== e2e tests"
bash test/run-e2e.sh
