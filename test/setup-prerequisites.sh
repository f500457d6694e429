#!/usr/bin/env bash
# What the e2e tests need on a fresh machine, installed idempotently:
# - Go (to build the control-plane binaries from their modules: there is no other source here)
# - the binaries themselves, built by kwokts's own `artifacts build` into the shared cache.
set -euo pipefail
cd "$(dirname "$0")/.."
export KWOK_CACHE_DIR="${KWOK_CACHE_DIR:-$HOME/.kwok/cache}"
if ! command -v go >/dev/null 2>&1; then
  echo "installing Go from Debian packages"
  apt-get update -qq && apt-get install -y -qq golang-go >/dev/null
fi
node bin/run.js artifacts build
