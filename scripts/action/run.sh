#!/usr/bin/env bash
# The kwokts GitHub Action (action.yaml): `run.sh main` installs kwokts and creates a cluster,
# `run.sh post` deletes it at the end of the job. It reads what the runner provides: inputs as
# INPUT_<NAME> variables, RUNNER_TEMP, and the GITHUB_ENV, GITHUB_PATH, GITHUB_OUTPUT and
# GITHUB_STATE files (state comes back to the post step as STATE_<name>). Run it by hand with the
# same variables to reproduce what the action does.
set -euo pipefail

ACTION_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

# Inputs keep their hyphens in the variable name (INPUT_CLUSTER-NAME), which bash cannot expand.
input() {
  local value
  value="$(printenv "INPUT_$1" || true)"
  printf '%s' "${value:-${2:-}}"
}

fail() {
  echo "error: $1" >&2
  [[ -n "${2:-}" ]] && echo "hint: $2" >&2
  exit "${3:-2}"
}

# Appends name=value to one of the runner's files (or says it would, outside a runner).
emit() {
  local file="$1" line="$2"
  if [[ -n "$file" ]]; then printf '%s\n' "$line" >>"$file"; else echo "(outside a runner) $line" >&2; fi
}

temp_dir() {
  local dir="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/kwokts-action"
  mkdir -p "$dir"
  printf '%s' "$dir"
}

# Puts a `kwokts` on PATH: this action's own repository at the kwokts-version ref when one is
# given (never a package name from the npm registry, where "kwokts" is not ours to vouch for),
# else this action's own source (the ref named in `uses:`), built with npm if it is not built yet.
# Prints the command to use.
install_kwokts() {
  local version bindir repo
  version="$(input KWOKTS-VERSION)"
  bindir="$(temp_dir)/bin"
  mkdir -p "$bindir"
  if [[ -n "$version" ]]; then
    repo="${GITHUB_ACTION_REPOSITORY:-}"
    [[ -n "$repo" ]] || fail "kwokts-version needs GITHUB_ACTION_REPOSITORY (the repository this action comes from), which the runner sets" "leave kwokts-version empty to use the ref named in \`uses:\`"
    [[ "$version" =~ ^[A-Za-z0-9._/-]+$ ]] || fail "kwokts-version \"$version\" is not a git ref" "give a tag, branch or commit of $repo"
    echo "Installing kwokts from github:${repo}#${version} ..." >&2
    npm install --global --no-audit --no-fund "github:${repo}#${version}" >&2 || fail "npm could not install kwokts from github:${repo}#${version}" "check the kwokts-version input (a tag, branch or commit of $repo)" 1
    printf '%s' "$(command -v kwokts)"
    return
  fi
  if [[ ! -f "$ACTION_ROOT/dist/src/cli/main.js" || ! -f "$ACTION_ROOT/dist/fast/fast-path.js" || ! -d "$ACTION_ROOT/node_modules" ]]; then
    echo "Building kwokts from $ACTION_ROOT ..." >&2
    (cd "$ACTION_ROOT" && npm ci --no-audit --no-fund >&2) || fail "building kwokts from $ACTION_ROOT failed" "see the npm output above" 1
  fi
  # A wrapper rather than `npm link`: nothing global changes, and the post step finds it again.
  # It execs bin/kwokts, the launcher npm would install, so `kwokts kubectl` skips Node there too.
  printf '#!/usr/bin/env bash\nexec %q "$@"\n' "$ACTION_ROOT/bin/kwokts" >"$bindir/kwokts"
  chmod +x "$bindir/kwokts"
  emit "${GITHUB_PATH:-}" "$bindir"
  printf '%s' "$bindir/kwokts"
}

main() {
  local name wait create args kubeconfig kwokts
  name="$(input CLUSTER-NAME kwok)"
  wait="$(input WAIT 2m)"
  create="$(input CREATE-CLUSTER true)"
  kubeconfig="$(input KUBECONFIG)"
  [[ "$create" == "true" || "$create" == "false" ]] || fail "create-cluster must be true or false, not \"$create\""
  if ! command -v node >/dev/null; then fail "node is not on PATH" "add actions/setup-node before this action" 3; fi

  # Downloaded or built binaries go to the runner's tool cache, which self-hosted runners keep
  # between jobs (hosted runners: cache this path with actions/cache, see docs/user/ci.md), so a job
  # does not fetch or rebuild Kubernetes each time.
  if [[ -z "${KWOK_CACHE_DIR:-}" && -n "${RUNNER_TOOL_CACHE:-}" ]]; then
    export KWOK_CACHE_DIR="$RUNNER_TOOL_CACHE/kwokts"
    emit "${GITHUB_ENV:-}" "KWOK_CACHE_DIR=$KWOK_CACHE_DIR"
  fi
  [[ -z "${KWOK_CACHE_DIR:-}" ]] || emit "${GITHUB_OUTPUT:-}" "cache-dir=$KWOK_CACHE_DIR"

  kwokts="$(install_kwokts)"
  "$kwokts" --version >&2 || fail "the installed kwokts does not run" "" 1
  emit "${GITHUB_STATE:-}" "kwokts=$kwokts"
  [[ "$create" == "true" ]] || return 0

  # Extra create flags, split on whitespace (no shell quoting).
  read -r -a args <<<"$(input ARGS)"
  echo "Creating cluster $name (--wait $wait) ..." >&2
  "$kwokts" --name "$name" create cluster --wait "$wait" "${args[@]}"
  # create rolled back anything half-made if it failed (set -e ends the step with its exit code).
  emit "${GITHUB_STATE:-}" "cluster=$name"

  [[ -n "$kubeconfig" ]] || kubeconfig="$(temp_dir)/${name}.kubeconfig"
  mkdir -p "$(dirname "$kubeconfig")"
  (umask 077 && "$kwokts" --name "$name" get kubeconfig >"$kubeconfig")
  chmod 600 "$kubeconfig"
  emit "${GITHUB_ENV:-}" "KUBECONFIG=$kubeconfig"
  emit "${GITHUB_OUTPUT:-}" "kubeconfig=$kubeconfig"
  emit "${GITHUB_OUTPUT:-}" "cluster-name=$name"
  echo "Cluster $name is ready; KUBECONFIG=$kubeconfig" >&2
}

post() {
  local name="${STATE_cluster:-}" kwokts="${STATE_kwokts:-kwokts}"
  if [[ -z "$name" ]]; then
    echo "No cluster was created; nothing to delete." >&2
    return 0
  fi
  if [[ "$(input DELETE-CLUSTER true)" != "true" ]]; then
    echo "Keeping cluster $name (delete-cluster: false)." >&2
    return 0
  fi
  echo "Deleting cluster $name ..." >&2
  "$kwokts" --name "$name" delete cluster
}

case "${1:-}" in
  main) main ;;
  post) post ;;
  *) fail "usage: run.sh main|post" ;;
esac
