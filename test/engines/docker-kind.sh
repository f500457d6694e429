#!/usr/bin/env bash
# A dockerd for the kind tests, beside test/engines/docker.sh's: kind's node containers are
# --privileged, which asks runc for every capability; where this machine's capability bounding
# set lacks some (CAP_SYS_RESOURCE in some sandboxes), runc refuses them. This engine's default
# runtime is runc minus the missing capabilities (runc-capbnd, written here). Elsewhere it is
# plain runc. Idempotent: prints the DOCKER_HOST value.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="${KWOKTS_TEST_ENGINES:-/var/lib/kwokts-test}/kind-engine"
run="${KWOKTS_TEST_ENGINES_RUN:-/run/kwokts-test}/kind-engine"
sock="$run/docker.sock"
host="unix://$sock"
mkdir -p "$root" "$run"
for tool in jq capsh; do
  command -v "$tool" >/dev/null 2>&1 || { apt-get update -qq >&2; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq jq libcap2-bin >/dev/null; }
done
wrapper="$root/runc-capbnd"
cat >"$wrapper" <<'WRAP'
#!/bin/bash
# runc, minus the capabilities the machine's bounding set lacks (see docker-kind.sh).
args=("$@")
# A container's config (create/run: --bundle DIR) or an exec's process (exec: --process FILE).
file=""
filter=""
for ((i = 0; i < ${#args[@]}; i++)); do
  case "${args[i]}" in
    --bundle|-b) file="${args[i+1]}/config.json"; filter=".process.capabilities" ;;
    --bundle=*) file="${args[i]#--bundle=}/config.json"; filter=".process.capabilities" ;;
    --process|-p) file="${args[i+1]}"; filter=".capabilities" ;;
    --process=*) file="${args[i]#--process=}"; filter=".capabilities" ;;
  esac
done
if [ -n "$file" ] && [ -f "$file" ]; then
  bnd=$(awk '/^CapBnd/ {print $2}' /proc/self/status)
  last=$(cat /proc/sys/kernel/cap_last_cap)
  lacking=$(( (1 << (last + 1)) - 1 - 0x$bnd ))
  if [ "$lacking" -ne 0 ]; then
    drop=$(capsh --decode=$(printf '0x%x' "$lacking") | sed 's/.*=//' | tr ',' '\n' | tr a-z A-Z | jq -R . | jq -s -c .)
    jq --argjson drop "$drop" "$filter |= (if . then with_entries(.value |= map(select(. as \$c | \$drop | index(\$c) | not))) else . end)" \
      "$file" >"$file.kwokts-tmp" && mv "$file.kwokts-tmp" "$file"
  fi
fi
exec runc "$@"
WRAP
chmod 0755 "$wrapper"
if curl -sf --unix-socket "$sock" http://localhost/_ping >/dev/null 2>&1; then echo "$host"; exit 0; fi
bash "$here/docker.sh" >/dev/null # installs Debian's docker.io when dockerd is missing
cd /
nohup dockerd --host "$host" --data-root "$root/docker" --exec-root "$run/exec" --pidfile "$run/docker.pid" --bridge=none \
  --add-runtime "capbnd=$wrapper" --default-runtime capbnd >"$root/dockerd.log" 2>&1 &
for _ in $(seq 1 100); do
  if curl -sf --unix-socket "$sock" http://localhost/_ping >/dev/null 2>&1; then
    bash "$here/clear-leftovers.sh" "$sock" io.x-k8s.kind.cluster
    echo "$host"; exit 0
  fi
  sleep 0.2
done
echo "dockerd (kind) did not answer on $sock; see $root/dockerd.log" >&2
tail -20 "$root/dockerd.log" >&2
exit 1
