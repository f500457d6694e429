#!/usr/bin/env bash
# A dockerd of the test suite's own, on its own socket and state directories, so tests never
# touch (or depend on) a system Docker. Idempotent: prints the DOCKER_HOST value and returns at
# once when it already answers. Installs Debian's docker.io when dockerd is missing.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="${KWOKTS_TEST_ENGINES:-/var/lib/kwokts-test}"
run="${KWOKTS_TEST_ENGINES_RUN:-/run/kwokts-test}"
sock="$run/docker.sock"
host="unix://$sock"
mkdir -p "$root" "$run"
if DOCKER_HOST="$host" timeout 5 docker version >/dev/null 2>&1 || \
   curl -sf --unix-socket "$sock" http://localhost/_ping >/dev/null 2>&1; then
  echo "$host"; exit 0
fi
if ! command -v dockerd >/dev/null 2>&1; then
  echo "installing docker.io from Debian packages" >&2
  apt-get update -qq >&2
  # policy-rc.d exit 101: the package must not start a system dockerd (we run our own).
  created_policy=""
  if [ ! -e /usr/sbin/policy-rc.d ]; then printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d; chmod +x /usr/sbin/policy-rc.d; created_policy=1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends docker.io >/dev/null
  if [ -n "$created_policy" ]; then rm -f /usr/sbin/policy-rc.d; fi
fi
# The service outlives this checkout: run it from /, since conmon fails in a working directory
# that has since been deleted ("Failed to get working directory").
cd /
# --bridge=none: no docker0 on the host; clusters use their own user-defined networks.
nohup dockerd --host "$host" --data-root "$root/docker" --exec-root "$run/docker-exec" \
  --pidfile "$run/docker.pid" --bridge=none >"$root/dockerd.log" 2>&1 &
for _ in $(seq 1 100); do
  if curl -sf --unix-socket "$sock" http://localhost/_ping >/dev/null 2>&1; then
    bash "$here/clear-leftovers.sh" "$sock" io.kwokts.cluster
    echo "$host"; exit 0
  fi
  sleep 0.2
done
echo "dockerd did not answer on $sock; see $root/dockerd.log" >&2
tail -20 "$root/dockerd.log" >&2
exit 1
