#!/usr/bin/env bash
# The official-client compatibility test (ctest -R "official clients"): installs the pinned
# official JavaScript SDK, CLI and MCP server (package-lock.json) with npm into WORK_DIR in the
# build tree, starts the mock and runs check.mjs (SDK, CLI: every command of it, each CLI
# process preloading cli-guard.cjs) and mcp.mjs (MCP server) against it. Skipped (exit 77) only
# when node is missing.
# Usage: run.sh MOCK_BINARY WORK_DIR
set -euo pipefail

mock_binary="$1"
work="$2"
self="${BASH_SOURCE[0]}"
[[ "$self" == */* ]] || self="./$self"
here="$(cd "${self%/*}" && pwd)"
key="fc-0123456789abcdef0123456789abcdef"

if ! command -v node >/dev/null 2>&1; then
  echo "SKIPPED: node is not installed; the official clients are JavaScript (install nodejs and npm)"
  exit 77
fi
if ! command -v npm >/dev/null 2>&1; then
  echo "FAILED: node is installed but npm is not; npm installs the pinned official clients" >&2
  exit 1
fi

mkdir -p "$work"
# Install again only when the pinned set changed since the last install.
if ! cmp -s "$here/package-lock.json" "$work/package-lock.json" || [ ! -d "$work/node_modules" ]; then
  cp "$here/package.json" "$here/package-lock.json" "$work/"
  echo "official-clients: npm ci in $work"
  if ! (cd "$work" && npm ci --no-audit --no-fund --loglevel=error); then
    rm -f "$work/package-lock.json"  # try again next time
    echo "FAILED: npm ci could not install the pinned official clients (is the npm registry reachable?)" >&2
    exit 1
  fi
fi
cp "$here/check.mjs" "$here/cli-guard.cjs" "$here/mcp.mjs" "$work/"

ready="$work/mock.ready"
pid_file="$work/mock.pid"
rm -f "$ready" "$pid_file"
# Small chunks, so that a 30-page crawl's status comes in several pages the clients must follow.
"$mock_binary" --port 0 --quiet --api-key "$key" --chunk-bytes 8192 \
  --ready-file "$ready" --pid-file "$pid_file" >"$work/mock.log" 2>&1 &
mock_pid=$!
trap 'kill "$mock_pid" 2>/dev/null || true; wait "$mock_pid" 2>/dev/null || true' EXIT
for _ in $(seq 1 300); do
  [ -s "$ready" ] && break
  if ! kill -0 "$mock_pid" 2>/dev/null; then
    echo "FAILED: the mock did not start:" >&2
    cat "$work/mock.log" >&2
    exit 1
  fi
  sleep 0.1
done
[ -s "$ready" ] || { echo "FAILED: the mock did not report ready within 30 s" >&2; exit 1; }
base_url="$(cat "$ready")"
echo "official-clients: mock at $base_url"
status=0
node "$work/check.mjs" "$base_url" "$key" || status=1
node "$work/mcp.mjs" "$base_url" "$key" || status=1
exit "$status"
