#!/usr/bin/env bash
# What the e2e tests need on a fresh machine, installed idempotently:
# - Go (to build the control-plane binaries from their modules: there is no other source here)
# - Prometheus from Debian's package (its release archives cannot be downloaded here, and it
#   cannot reasonably be built from its module); its service is kept from starting
# - the binaries themselves, built by kwokts's own `artifacts build` into the shared cache
#   (the control plane, and metrics-server).
# - container engines of the tests' own (docker.io's dockerd and podman's API service on sockets
#   under /run/kwokts-test); the container e2e files start them again (idempotent) and make
#   their images. A machine that cannot run them still runs every other test.
# - kectl, the e2e tests' own copy (see below).
# - scheduler-plugins' scheduler and controller, also the e2e tests' own copy (see below).
set -euo pipefail
cd "$(dirname "$0")/.."
export KWOK_CACHE_DIR="${KWOK_CACHE_DIR:-$HOME/.kwok/cache}"
# Optional artifacts that take half an hour each to build cold (jaeger, the kind node image) get
# what is left of this budget, counted from here, so that a first run on a fresh machine stays
# within CI's time limit. One that is not built in time is written to .kwokts-test/unbuilt/<name>
# with the reason, and its e2e case is skipped saying so; the Go build cache keeps what was
# compiled, so the next run gets further. Warm, these builds are checks of a few seconds.
budget_end=$(( $(date +%s) + ${KWOKTS_SETUP_BUDGET_MINUTES:-50} * 60 ))
unbuilt=.kwokts-test/unbuilt
rm -rf "$unbuilt"; mkdir -p "$unbuilt"
optional_build() { # name, command...
  local name=$1 reason="" rc=0; shift
  local left=$(( budget_end - $(date +%s) ))
  if [ "$left" -lt 120 ]; then
    reason="the setup's time budget (KWOKTS_SETUP_BUDGET_MINUTES=${KWOKTS_SETUP_BUDGET_MINUTES:-50}) was spent before its build"
  else
    timeout --signal=INT "$left" "$@" >/dev/null || rc=$?
    if [ "$rc" -eq 124 ]; then reason="its build did not finish within the setup's time budget (KWOKTS_SETUP_BUDGET_MINUTES=${KWOKTS_SETUP_BUDGET_MINUTES:-50})"
    elif [ "$rc" -ne 0 ]; then reason="its build failed (exit $rc, output above)"; fi
  fi
  if [ -n "$reason" ]; then echo "$name not built: $reason; build it with: $*" | tee "$unbuilt/$name" >&2; fi
}
apt_updated=""
apt_install() {
  if [ -z "$apt_updated" ]; then apt-get update -qq; apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}
# Tools the e2e tests call (ss: iproute2, fuser: psmisc, curl, zsh, fish); some are on most
# images, but a fresh machine is not promised to have them.
# zsh and fish: the completion e2e runs the scripts `completion zsh|fish` prints in the real shells.
for tool in ss:iproute2 fuser:psmisc curl:curl zsh:zsh fish:fish; do
  command -v "${tool%%:*}" >/dev/null 2>&1 || apt_install "${tool##*:}"
done
if ! command -v go >/dev/null 2>&1; then
  echo "installing Go from Debian packages"
  apt_install golang-go
fi
if ! command -v prometheus >/dev/null 2>&1; then
  echo "installing Prometheus from Debian packages"
  # policy-rc.d exit 101: packages may not start services (we run our own Prometheus per cluster).
  created_policy=""
  if [ ! -e /usr/sbin/policy-rc.d ]; then printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d; chmod +x /usr/sbin/policy-rc.d; created_policy=1; fi
  apt_install prometheus
  if [ -n "$created_policy" ]; then rm -f /usr/sbin/policy-rc.d; fi
fi
node bin/run.cjs artifacts build
# metrics-server for test/e2e/metrics-server.e2e.ts (--enable metrics-server); its release cannot
# be downloaded here, so it is built from sigs.k8s.io/metrics-server (cached; a cold build took
# about 16 minutes on 2 loaded cores, a few seconds once cached).
node bin/run.cjs artifacts build metrics-server
# jaeger for the --jaeger-port e2e case, built from github.com/jaegertracing/jaeger (cached; a cold
# build took about 28 minutes on 2 heavily loaded cores). Its go.sum is seeded from the module's
# own, because the checksum database here does not answer for its OpenTelemetry dependencies.
optional_build jaeger node bin/run.cjs artifacts build jaeger
# cluster-autoscaler with its kwok provider, for test/e2e/autoscaler.e2e.ts. Optional: where the Go
# module proxy does not serve sigs.k8s.io/cluster-autoscaler this fails at once and that e2e case
# is skipped, saying why.
node bin/run.cjs artifacts build cluster-autoscaler >/dev/null || echo "cluster-autoscaler could not be built here; its e2e case will be skipped"
# kectl (github.com/kwok-ci/kectl, kubectl-like straight against etcd) for the kectl case of
# test/e2e/kwok-acceptance.e2e.ts, which finds it here. kwokts never downloads it; this is the
# tests' own copy. Built in a throwaway module because `go install kectl@version` also asks the
# proxy for the module's version list, which the proxy here refuses; GONOSUMDB for kectl itself
# because the checksum database here does not answer for it (its dependencies are still checked).
kectl_version=v0.0.10
kectl="$KWOK_CACHE_DIR/test-tools/kectl/$kectl_version/kectl"
if [ ! -x "$kectl" ]; then
  kectl_src=$(mktemp -d)
  if kectl_log=$(cd "$kectl_src" && go mod init kwokts.local/kectl-test-tool 2>&1 &&
      GONOSUMDB=github.com/kwok-ci/kectl GOFLAGS=-mod=mod go get "github.com/kwok-ci/kectl/cmd/kectl@$kectl_version" 2>&1 &&
      CGO_ENABLED=0 go build -trimpath -o "$kectl_src/kectl" github.com/kwok-ci/kectl/cmd/kectl 2>&1); then
    mkdir -p "$(dirname "$kectl")" && mv "$kectl_src/kectl" "$kectl"
  else
    printf '%s\n' "$kectl_log" | tail -5 >&2
    echo "warning: kectl $kectl_version could not be built (output above); the kectl e2e case will be skipped" >&2
  fi
  rm -rf "$kectl_src"
fi
# scheduler-plugins (sigs.k8s.io/scheduler-plugins, kwokctl's default version) for the
# --enable scheduler-plugins e2e: its scheduler and controller, from which the container e2e files
# make its two images (its own images cannot be pulled here). The tests' own copy, kept in
# $KWOK_CACHE_DIR/test-tools/scheduler-plugins/. Its k8s.io replaces are pinned to a patch release
# the module proxy serves when it does not serve the published one (the tool says which). A cold
# build took about 6 minutes on 2 loaded cores (empty Go build cache, modules already downloaded),
# seconds with the Go build cache.
optional_build scheduler-plugins node --import tsx test/engines/scheduler-plugins.ts
for engine in docker podman; do
  bash test/engines/$engine.sh >/dev/null || echo "warning: could not start $engine; its e2e tests will fail and say why" >&2
done
# The kind runtime's e2e (test/e2e/kind-runtime.e2e.ts): kind from its Go module and a kind node
# image made here (debootstrap of Debian packages + the Go-built Kubernetes, etcd, CoreDNS), in
# the kind tests' dockerd. Cached under $KWOK_CACHE_DIR and in that dockerd: cold it took about
# 30 minutes on 2 loaded cores (mostly CoreDNS and kubelet/kubeadm compiles), 3 minutes with the
# Go builds cached, seconds when the image is up to date.
command -v debootstrap >/dev/null 2>&1 || apt_install debootstrap
if kind_host=$(bash test/engines/docker-kind.sh); then
  node bin/run.cjs artifacts build kind >/dev/null
  DOCKER_HOST="$kind_host" optional_build kind-node-image node bin/run.cjs artifacts build kind-node-image
else
  echo "warning: could not start the kind tests' dockerd; the kind e2e will fail and say why" >&2
fi
