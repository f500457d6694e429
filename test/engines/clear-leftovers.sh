#!/usr/bin/env bash
# Usage: clear-leftovers.sh SOCKET LABEL
# Run by the engine scripts right after they start a test engine's daemon: every container and
# network carrying LABEL is the remains of a run that died with the daemon before (a killed
# session leaves its clusters on disk, and the engine restarts them). A later create of the same
# cluster name would refuse them (kwokts names, never removes, another cluster's containers), so
# the tests' own engines start clean. Through the engine's HTTP API, which docker and podman share.
set -euo pipefail
sock="$1"
label="$2"
api() { curl -sf --unix-socket "$sock" "$@"; }
filter="%7B%22label%22%3A%5B%22${label}%22%5D%7D" # {"label":["LABEL"]}
ids() { grep -o '"Id":"[0-9a-f]*"' | cut -d'"' -f4; }
removed=0
for id in $(api "http://localhost/containers/json?all=1&filters=$filter" | ids); do
  api -X DELETE "http://localhost/containers/$id?force=1&v=1" >/dev/null && removed=$((removed + 1))
done
for id in $(api "http://localhost/networks?filters=$filter" | ids); do
  api -X DELETE "http://localhost/networks/$id" >/dev/null || true
done
if [ "$removed" -gt 0 ]; then echo "removed $removed container(s) labelled $label left by an earlier run" >&2; fi
