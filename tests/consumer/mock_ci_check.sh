#!/usr/bin/env bash
# The CI one-liners of docs/mockserver.md, checked: --detach returns once the mock answers and
# prints its URL; --pid-file and --ready-file are written while it runs and removed when it
# stops; a mock that cannot start makes --detach fail.
#
#   mock_ci_check.sh WEBDATA-MOCK WORK-DIR
set -euo pipefail
mock="$1"
dir="$2"
rm -rf "$dir"
mkdir -p "$dir"
fail() { echo "FAIL: $*" >&2; exit 1; }

# 1. --detach: returns with the URL; the server already answers.
url="$("$mock" --detach --port 0 --pid-file "$dir/mock.pid" --ready-file "$dir/url" \
        --log-file "$dir/mock.log")"
[[ "$url" =~ ^http://127\.0\.0\.1:[0-9]+$ ]] || fail "--detach printed '$url'"
pid="$(cat "$dir/mock.pid")"
trap 'kill "$pid" 2>/dev/null || true' EXIT
curl -fsS "$url/health" | grep -q '"status"' || fail "no /health answer right after --detach"
[ "$(cat "$dir/url")" = "$url" ] || fail "--ready-file holds '$(cat "$dir/url")', not $url"
curl -fsS -o /dev/null -H "Authorization: Bearer test-key" "$url/v2/crawl/active" ||
  fail "the detached mock refuses API calls"
grep -q '"GET /v2/crawl/active"' "$dir/mock.log" || fail "--log-file has no access log line"

# 2. Stopping it removes the files, so a later script does not find a stale URL.
kill "$pid"
for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$pid" 2>/dev/null && fail "the mock did not stop on SIGTERM"
[ ! -e "$dir/url" ] || fail "--ready-file left behind"
[ ! -e "$dir/mock.pid" ] || fail "--pid-file left behind"

# 3. The documented background + wait loop, without --detach.
"$mock" --port 0 --quiet --ready-file "$dir/url2" >/dev/null &
pid=$!
until [ -s "$dir/url2" ]; do kill -0 "$pid" || fail "mock exited"; sleep 0.1; done
curl -fsS "$(cat "$dir/url2")/health" >/dev/null || fail "not healthy after --ready-file"
kill "$pid"
wait "$pid" || true

# 4. A mock that cannot start (bad config) makes --detach fail, with the reason.
echo '{"nonsense": 1}' >"$dir/bad.json"
if out="$("$mock" --detach --config "$dir/bad.json" 2>&1)"; then fail "--detach succeeded: $out"; fi
# A port that is taken: the server itself fails after the fork, and --detach reports it.
"$mock" --port 0 --quiet --ready-file "$dir/url3" >/dev/null &
pid=$!
until [ -s "$dir/url3" ]; do kill -0 "$pid" || fail "mock exited"; sleep 0.1; done
taken="$(cat "$dir/url3")"
if out="$("$mock" --detach --port "${taken##*:}" 2>&1)"; then fail "--detach on a taken port succeeded: $out"; fi
echo "$out" | grep -q "did not start" || fail "no reason given: $out"
kill "$pid"
wait "$pid" || true

# 5. Kill one, start the next on the same --pid-file at once: the first, still stopping, must not
# remove the file the second wrote.
"$mock" --detach --port 0 --quiet --pid-file "$dir/next.pid" >/dev/null || fail "first mock"
first="$(cat "$dir/next.pid")"
kill "$first"
"$mock" --detach --port 0 --quiet --pid-file "$dir/next.pid" >/dev/null || fail "second mock"
second="$(cat "$dir/next.pid")"
while kill -0 "$first" 2>/dev/null; do sleep 0.05; done
[ "$(cat "$dir/next.pid" 2>/dev/null)" = "$second" ] || fail "the first mock removed the second's --pid-file"
kill "$second"
trap - EXIT
echo "mock CI one-liners: all checks passed"
