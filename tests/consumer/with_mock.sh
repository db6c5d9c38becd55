#!/usr/bin/env bash
# Runs a command against a fresh webdata-mock and returns the command's exit status.
#
#   with_mock.sh MOCK [MOCK-ARGS...] -- COMMAND [ARGS...]
#
# The mock listens on a free port (--port 0) and writes its URL to a ready file once it accepts
# connections; the command sees WEBDATA_API_URL and WEBDATA_API_KEY (test-key).
set -euo pipefail
mock="$1"
shift
mock_args=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  mock_args+=("$1")
  shift
done
[ $# -gt 1 ] || { echo "usage: with_mock.sh MOCK [MOCK-ARGS...] -- COMMAND [ARGS...]" >&2; exit 2; }
shift

dir="$(mktemp -d)"
"$mock" --port 0 --quiet --ready-file "$dir/url" "${mock_args[@]}" >"$dir/mock.log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$dir"' EXIT
for _ in $(seq 1 300); do
  [ -s "$dir/url" ] && break
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "with_mock.sh: webdata-mock exited; its log:" >&2
    cat "$dir/mock.log" >&2
    exit 1
  fi
  sleep 0.1
done
[ -s "$dir/url" ] || { echo "with_mock.sh: webdata-mock not ready after 30 s" >&2; exit 1; }

WEBDATA_API_URL="$(cat "$dir/url")"
export WEBDATA_API_URL WEBDATA_API_KEY=test-key
"$@"
