#!/usr/bin/env bash
# Builds with ThreadSanitizer (g++, -DWEBDATA_SANITIZE=thread) in build-tsan/ and runs the
# threaded tests under load: the mock's HTTP server, job engine and scheduler, webhook delivery,
# the SDK shared across threads, and the load tool at 64 connections. Any TSan report fails.
#   scripts/tsan.sh [LOAD_SECONDS]     default 15
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${WEBDATA_TSAN_BUILD_DIR:-$root/build-tsan}"
load_seconds="${1:-15}"
jobs="${WEBDATA_TSAN_BUILD_JOBS:-2}"

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_UNITY_BUILD=ON \
  -DWEBDATA_SANITIZE=thread -DWEBDATA_BUILD_TESTS=ON -DWEBDATA_BUILD_EXAMPLES=OFF >/dev/null
cmake --build "$build" -j "$jobs" --target \
  webdata_mock_tests webdata_mock_reliability_tests webdata_mock_webhooks_tests \
  webdata_sdk_tests webdata-load

# halt_on_error: the first race fails the run; the report names both stacks.
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 history_size=4 ${TSAN_OPTIONS:-}"
status=0
run() {
  local name="$1"
  shift
  printf '\n==> %s\n' "$name"
  if "$@"; then
    echo "tsan: $name clean"
  else
    echo "tsan: $name FAILED (exit $?)"
    status=1
  fi
}

# Everything of the mock that runs threads: server, jobs (scheduler, cancel, persistence),
# webhooks through the API; then bad input (slowloris, 1,000 idle connections), faults, security.
run "mock: server, jobs, webhooks, api" \
  "$build/mockserver/tests/webdata_mock_tests" "[http],[jobs],[webhooks],[api]"
run "mock: bad input, faults, security" "$build/mockserver/tests/webdata_mock_reliability_tests"
run "webhook dispatcher" "$build/mockserver/webhooks/tests/webdata_mock_webhooks_tests"
run "sdk: client and transport shared across threads, integration" \
  "$build/sdk/tests/webdata_sdk_tests" "[threads],[transport],[integration],[client]"
run "load: 64 connections, 2 rounds of ${load_seconds}s" \
  "$build/tests/load/webdata-load" --seconds "$load_seconds" --connections 64 --rounds 2

if [ "$status" -eq 0 ]; then echo; echo "tsan: all clean"; fi
exit "$status"
