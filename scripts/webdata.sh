#!/usr/bin/env bash
# The project's entry script.
#   scripts/webdata.sh demo   set up, build the mock and the two example programs it runs (no
#                             tests), start the mock on 127.0.0.1:3002 with the bundled virtual
#                             web, and show the SDK working against it
#   scripts/webdata.sh test   set up, build with ASan+UBSan (build-test/), and run the whole
#                             test suite under the sanitizers; then the concurrency tests
#                             under ThreadSanitizer (build-tsan/)
#   scripts/webdata.sh stop   stop a mock started by 'demo'
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${WEBDATA_BUILD_DIR:-$root/build}"
# The test command builds apart from the demo: everything under AddressSanitizer and
# UndefinedBehaviorSanitizer (docs/reliability.md), -Og and unity sources so that a clean build
# stays quick on two cores (docs/adr/0004-unity-builds.md).
test_build="${WEBDATA_TEST_BUILD_DIR:-$root/build-test}"
jobs="$(nproc 2>/dev/null || echo 2)"
pidfile="$build/webdata-mock.pid"
port="${WEBDATA_MOCK_PORT:-3002}"

step() { printf '\n==> %s\n' "$*"; }

# "1 min 07 s" for a number of seconds.
duration() { printf '%d min %02d s' "$(($1 / 60))" "$(($1 % 60))"; }

configure() {
  local werror=OFF
  [ "${CI:-}" = "true" ] && werror=ON
  step "configure ($build)"
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_UNITY_BUILD=ON -DWEBDATA_WERROR="$werror" "$@" >/dev/null
}

configure_and_build() {
  configure "$@"
  step "build ($jobs jobs)"
  cmake --build "$build" -j "$jobs"
}

# What the demo runs, and nothing else: the mock and two examples (a clean build of everything,
# tests included, took several times as long).
demo_targets=(webdata-mock health_check example_getting_started)

stop_mock() {
  if [ -f "$pidfile" ]; then
    local pid
    pid="$(cat "$pidfile")"
    if kill -0 "$pid" 2>/dev/null; then
      kill "$pid" && echo "stopped webdata-mock (pid $pid)"
    fi
    rm -f "$pidfile"
  fi
}

cmd_demo() {
  # The demo reports its own time, split, so that the figure in README can be checked on any
  # machine (setup is apt, build is the compiler, the rest is the mock and the examples).
  local t_start=$SECONDS t_setup t_build
  step "setup"
  bash "$root/scripts/setup.sh"
  t_setup=$SECONDS
  configure -DWEBDATA_BUILD_TESTS=OFF
  step "build ${demo_targets[*]} ($jobs jobs)"
  cmake --build "$build" -j "$jobs" --target "${demo_targets[@]}"
  t_build=$SECONDS
  stop_mock
  step "start webdata-mock on 127.0.0.1:$port"
  # --detach returns once the mock accepts connections (or says why it could not start).
  if ! "$build/mockserver/webdata-mock" --detach --host 127.0.0.1 --port "$port" \
       --pid-file "$pidfile" --log-file "$build/webdata-mock.log" >/dev/null; then
    echo "webdata-mock did not start; its log:" >&2
    cat "$build/webdata-mock.log" >&2 || true
    exit 1
  fi
  step "SDK examples against the mock"
  "$build/examples/health_check" "http://127.0.0.1:$port"
  echo
  # The program of docs/getting-started.md: a page of the bundled virtual web (docs.example.test
  # lives in mockserver/fixtures/web), with the address and key from the environment.
  WEBDATA_API_URL="http://127.0.0.1:$port" WEBDATA_API_KEY=test-key \
    "$build/examples/getting_started" https://docs.example.test/getting-started/quickstart
  echo
  echo "webdata-mock is running on http://127.0.0.1:$port (pid $(cat "$pidfile"), log $build/webdata-mock.log)."
  echo "Stop it with: bash scripts/webdata.sh stop"
  echo "demo took $(duration $((SECONDS - t_start))): setup $(duration $((t_setup - t_start))), configure and build $(duration $((t_build - t_setup))), run $(duration $((SECONDS - t_build)))"
}

cmd_test() {
  # Like demo, the command reports its time split, so the build-and-test budget
  # (docs/performance.md) can be checked on any machine.
  local t_start=$SECONDS t_setup t_build t_tests
  step "setup"
  bash "$root/scripts/setup.sh"
  # Real WireMock (Java 17 + npm package) for the fixture compatibility test.
  bash "$root/scripts/setup-wiremock.sh"
  t_setup=$SECONDS
  build="$test_build"
  configure_and_build -DWEBDATA_BUILD_TESTS=ON -DWEBDATA_SANITIZE=address,undefined \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-Og -g1 -DNDEBUG"
  t_build=$SECONDS
  export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1}"
  export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
  step "tests"
  # Two tests per core: most of them wait on servers and timers (ctest -j2 kept a 2-core machine
  # at about half its CPU), and they wait on conditions, not on fixed sleeps (docs/performance.md).
  local log="$build/ctest.log" rc=0
  (cd "$build" && ctest -j "$((jobs * 2))" --output-on-failure --timeout 600) 2>&1 | tee "$log" || rc=$?
  rc=${PIPESTATUS[0]:-$rc}
  local line total failed
  line="$(grep -E 'tests passed, [0-9]+ tests? failed out of [0-9]+' "$log" | tail -n 1 || true)"
  if [ -z "$line" ]; then
    echo "0 passed, 1 failed"
    echo "test: ctest printed no summary" >&2
    exit 1
  fi
  failed="$(sed -E 's/.*tests passed, ([0-9]+) tests? failed out of ([0-9]+).*/\1/' <<<"$line")"
  total="$(sed -E 's/.*tests passed, ([0-9]+) tests? failed out of ([0-9]+).*/\2/' <<<"$line")"
  t_tests=$SECONDS
  echo "$((total - failed)) passed, $failed failed"
  [ "$failed" -eq 0 ] && [ "$total" -gt 0 ] || exit 1
  test_tsan
  echo "test took $(duration $((SECONDS - t_start))): setup $(duration $((t_setup - t_start))), configure and build $(duration $((t_build - t_setup))), tests $(duration $((t_tests - t_build))), ThreadSanitizer $(duration $((SECONDS - t_tests)))"
}

# The concurrency tests again under ThreadSanitizer, in their own build (build-tsan/, only the
# targets that hold them: docs/reliability.md). A report fails the command.
test_tsan() {
  step "ThreadSanitizer: concurrency tests (build-tsan/)"
  local started=$SECONDS
  if ! WEBDATA_TSAN_BUILD_JOBS="$jobs" bash "$root/scripts/tsan.sh" --ci; then
    echo "tsan: FAILED"
    exit 1
  fi
  echo "tsan: build and run took $(duration $((SECONDS - started)))"
}

case "${1:-}" in
  demo) cmd_demo ;;
  test) cmd_test ;;
  stop) stop_mock ;;
  *)
    echo "usage: scripts/webdata.sh demo|test|stop" >&2
    exit 2
    ;;
esac
