#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ with clang (ASan + UBSan + coverage) in build-fuzz/ and
# runs each one after the other for a given time, one process (-jobs=1), seeded from the fixtures.
#   scripts/fuzz.sh [SECONDS] [TARGET...]    default: 60 s each, every target
#   scripts/fuzz.sh 600 http content        ten minutes each for two targets
# Corpora grow in build-fuzz/corpus/<target>/ (not committed). A crash, leak, timeout or OOM
# input is written to build-fuzz/findings/<target>/; once fixed, copy it to
# fuzz/regressions/<target>/ so the replay test (built with g++, part of the test command) keeps
# it fixed. Figures of each run go to build-fuzz/fuzz-summary.txt.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${WEBDATA_FUZZ_BUILD_DIR:-$root/build-fuzz}"
seconds="${1:-60}"
shift || true
all_targets=(contract http content stub_store sdk_codec)
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${all_targets[@]}")

if ! command -v clang++ >/dev/null 2>&1; then
  echo "fuzz: installing clang (libFuzzer)"
  sudo_cmd=()
  [ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends clang
fi

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_UNITY_BUILD=ON \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG" \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DWEBDATA_FUZZ=ON \
  -DWEBDATA_BUILD_TESTS=OFF -DWEBDATA_BUILD_EXAMPLES=OFF -DWEBDATA_BUILD_CLI=OFF \
  -DWEBDATA_BUILD_DOCS=OFF >/dev/null
cmake --build "$build" -j "${WEBDATA_FUZZ_BUILD_JOBS:-2}" --target "${targets[@]/#/fuzz_}"

seeds() {
  case "$1" in
    contract | sdk_codec) echo "$root/schemas/examples" ;;
    http) echo "$root/fuzz/corpus/http" ;;
    content) echo "$root/mockserver/fixtures/web/__files $root/mockserver/content/tests/data" ;;
    stub_store) echo "$root/mockserver/fixtures/web/mappings $root/mockserver/web/tests/wiremock/matchers-root/mappings" ;;
  esac
}

summary="$build/fuzz-summary.txt"
status=0
for t in "${targets[@]}"; do
  corpus="$build/corpus/$t"
  findings="$build/findings/$t"
  mkdir -p "$corpus" "$findings"
  log="$build/fuzz-$t.log"
  echo "==> fuzz_$t for ${seconds}s (log $log)"
  rc=0
  # One process (libFuzzer's default; -jobs would fork workers): the machine is shared.
  # shellcheck disable=SC2046
  "$build/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=30 -rss_limit_mb=3072 \
    -max_len=65536 -print_final_stats=1 -artifact_prefix="$findings/" \
    "$corpus" $(seeds "$t") "$root/fuzz/regressions/$t" >"$log" 2>&1 || rc=$?
  execs="$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}' | tail -1)"
  cov="$(grep -E '#[0-9]+.*cov:' "$log" | tail -1 | sed -E 's/.*cov: ([0-9]+).*/\1/')"
  found="$(find "$findings" -type f | wc -l)"
  line="$(date -u +%FT%TZ) $t seconds=$seconds execs=${execs:-?} cov=${cov:-?} corpus=$(find "$corpus" -type f | wc -l) findings=$found rc=$rc"
  echo "$line" | tee -a "$summary"
  [ "$rc" -eq 0 ] && [ "$found" -eq 0 ] || status=1
done
exit "$status"
