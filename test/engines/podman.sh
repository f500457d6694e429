#!/usr/bin/env bash
# Podman's Docker-compatible API service for the tests, on its own socket and storage. Three defaults
# are changed through a containers.conf of ours (CONTAINERS_CONF): runc instead of crun (crun refuses
# hosts with hybrid cgroups), no default ulimits (setrlimit is refused in some sandboxes), and the
# netavark network backend (with aardvark-dns: container names resolve).
# Idempotent: prints the CONTAINER_HOST value and returns at once when the service answers.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="${KWOKTS_TEST_ENGINES:-/var/lib/kwokts-test}"
run="${KWOKTS_TEST_ENGINES_RUN:-/run/kwokts-test}"
sock="$run/podman.sock"
host="unix://$sock"
conf="$root/containers.conf"
mkdir -p "$root" "$run"
if curl -sf --unix-socket "$sock" http://localhost/_ping >/dev/null 2>&1; then echo "$host"; exit 0; fi
missing=()
command -v podman >/dev/null 2>&1 || missing+=(podman)
command -v runc >/dev/null 2>&1 || [ -x /usr/sbin/runc ] || missing+=(runc)
# Networks need DNS (components reach each other by container name). Debian's podman only
# recommends netavark, and without recommends apt satisfies its network stack with the CNI
# plugins, which have no DNS: netavark with aardvark-dns is installed and chosen explicitly.
command -v iptables >/dev/null 2>&1 || missing+=(iptables)
for pkg in netavark aardvark-dns; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]} from Debian packages" >&2
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
runc_path="$(command -v runc || echo /usr/sbin/runc)"
cat >"$conf" <<CONF
[containers]
default_ulimits = []
[network]
network_backend = "netavark"
[engine]
runtime = "runc"
[engine.runtimes]
runc = ["$runc_path"]
CONF
# Storage of its own: the tests' images stay out of the machine's default podman storage.
storage="$root/storage.conf"
cat >"$storage" <<CONF
[storage]
driver = "overlay"
graphroot = "$root/podman/storage"
runroot = "$run/podman/runroot"
CONF
# The service outlives this checkout: run it from /, since conmon fails in a working directory
# that has since been deleted ("Failed to get working directory").
cd /
CONTAINERS_CONF="$conf" CONTAINERS_STORAGE_CONF="$storage" nohup podman system service --time=0 "$host" >"$root/podman-service.log" 2>&1 &
for _ in $(seq 1 100); do
  if curl -sf --unix-socket "$sock" http://localhost/_ping >/dev/null 2>&1; then
    bash "$here/clear-leftovers.sh" "$sock" io.kwokts.cluster
    echo "$host"; exit 0
  fi
  sleep 0.2
done
echo "podman system service did not answer on $sock; see $root/podman-service.log" >&2
tail -20 "$root/podman-service.log" >&2
exit 1
