#!/usr/bin/env bash
# Builds with ThreadSanitizer (g++, -DWEBDATA_SANITIZE=thread) in build-tsan/ and runs the
# threaded tests. Any TSan report fails (docs/reliability.md).
#   scripts/tsan.sh --ci              the concurrency tests of the test command
#                                     (scripts/webdata.sh test): HTTP server, worker pool, job
#                                     engine, webhooks, the SDK's watcher; a small build
#   scripts/tsan.sh [LOAD_SECONDS]    all threaded tests under load (default 15 s): the above,
#                                     the API, bad input, faults, security, the SDK shared
#                                     across threads, and the load tool at 64 connections
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${WEBDATA_TSAN_BUILD_DIR:-$root/build-tsan}"
jobs="${WEBDATA_TSAN_BUILD_JOBS:-2}"
mode=full
if [ "${1:-}" = "--ci" ]; then
  mode=ci
  shift
fi
load_seconds="${1:-15}"

mock_tests="$build/mockserver/tests/webdata_mock_tests"
server_tests="$build/mockserver/tests/webdata_mock_server_tests"
dispatcher_tests="$build/mockserver/webhooks/tests/webdata_mock_webhooks_tests"
sdk_tests="$build/sdk/tests/webdata_sdk_tests"
if [ "$mode" = ci ]; then
  # The targets that hold only the concurrency tests (docs/adr/0030): a third less to compile.
  targets=(webdata_mock_concurrency_tests webdata_mock_webhooks_tests webdata_sdk_watch_tests)
else
  targets=(webdata_mock_tests webdata_mock_server_tests webdata_mock_reliability_tests
           webdata_mock_webhooks_tests webdata_sdk_tests webdata-load)
fi

werror=OFF
[ "${CI:-}" = "true" ] && werror=ON
# The test command's flags (-Og, line tables, unity sources: a quick clean build), TSan instead
# of ASan+UBSan; only the targets named, not the whole tree.
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_UNITY_BUILD=ON \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-Og -g1 -DNDEBUG" -DWEBDATA_WERROR="$werror" \
  -DWEBDATA_SANITIZE=thread -DWEBDATA_BUILD_TESTS=ON -DWEBDATA_BUILD_EXAMPLES=OFF >/dev/null
cmake --build "$build" -j "$jobs" --target "${targets[@]}"

# halt_on_error: the first race fails the run; the report names both stacks. The mock the SDK's
# tests start inherits the options, and a test fails when that mock does not exit with 0.
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 history_size=4 ${TSAN_OPTIONS:-}"
status=0
run() {
  local name="$1" started=$SECONDS
  shift
  printf '\n==> %s\n' "$name"
  if "$@"; then
    echo "tsan: $name clean ($((SECONDS - started)) s)"
  else
    echo "tsan: $name FAILED (exit $?)"
    status=1
  fi
}

if [ "$mode" = ci ]; then
  # The parts with threads of their own: the server's I/O threads and timers, its worker pool,
  # the job engine's workers and deferred pages, the crawl watchers, webhook delivery.
  # The 10,000-page crawl ([large]) is load, not concurrency, and the 150 servers stopped while
  # watchers connect ([stress]) an ordering check of the ASan run: the full run has both.
  run "mock: server, worker pool, jobs, watchers, webhooks" \
    "$build/mockserver/tests/webdata_mock_concurrency_tests" "~[stress]~[large]"
  run "webhook dispatcher" "$dispatcher_tests"
  run "sdk: watcher" "$build/sdk/tests/webdata_sdk_watch_tests"
else
  run "mock: server, jobs, webhooks, api" "$mock_tests" "[http],[jobs],[webhooks],[api]"
  run "mock: worker pool, timers, TLS" "$server_tests"
  run "mock: bad input, faults, security" "$build/mockserver/tests/webdata_mock_reliability_tests"
  run "webhook dispatcher" "$dispatcher_tests"
  run "sdk: client and transport shared across threads, integration, watcher" \
    "$sdk_tests" "[threads],[transport],[integration],[client],[watch]"
  run "load: 64 connections, 2 rounds of ${load_seconds}s" \
    "$build/tests/load/webdata-load" --seconds "$load_seconds" --connections 64 --rounds 2
fi

if [ "$status" -eq 0 ]; then echo; echo "tsan: all clean"; fi
exit "$status"
