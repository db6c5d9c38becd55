#!/usr/bin/env bash
# webdata-mock's start-up checks, as a script sees them:
#   mock_startup_check.sh WEBDATA-MOCK
# 1. a missing or empty --web-root / --api-stubs stops it at once: exit 2, the path named;
# 2. a --ready-file left by a killed run is removed at start, so the documented wait loop
#    (until [ -s FILE ]) waits for this run, and a run that cannot start leaves no such file;
# 3. the ready file appears whole (it is renamed into place), and holds the URL that answers.
set -euo pipefail
mock="$1"
fail() { echo "FAIL: $*" >&2; exit 1; }
dir="$(mktemp -d)"
pid=""
trap '[ -n "$pid" ] && { kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; }; rm -rf "$dir"' EXIT

# 1. Missing and empty fixture roots.
mkdir -p "$dir/empty"
for args in "--web-root $dir/nonexistent" "--api-stubs $dir/nonexistent" \
            "--web-root $dir/empty" "--api-stubs $dir/empty"; do
  rc=0
  # shellcheck disable=SC2086
  out="$(timeout 10 "$mock" --port 0 $args 2>&1)" || rc=$?
  [ "$rc" -eq 2 ] || fail "webdata-mock $args: exit $rc, expected 2 ($out)"
  path="${args#* }"
  grep -qF "'$path'" <<<"$out" || fail "webdata-mock $args does not name the path: $out"
  echo "ok: $args refused: $(head -n 1 <<<"$out")"
done

# 2. A stale ready file from a killed run.
echo "http://127.0.0.1:1" >"$dir/url"
rc=0
"$mock" --port 0 --web-root "$dir/nonexistent" --ready-file "$dir/url" >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] || fail "a bad start exited $rc"
[ ! -e "$dir/url" ] || fail "a run that could not start left the stale --ready-file in place"
echo "ok: a failed start removes a stale --ready-file"

echo "http://127.0.0.1:1" >"$dir/url"
"$mock" --port 0 --quiet --ready-file "$dir/url" >"$dir/mock.log" 2>&1 &
pid=$!
# The stale file goes before the server starts listening: wait for it to go, then come back.
for _ in $(seq 1 300); do
  # Read once: the file may go between a test of it and a read of it.
  seen="$(cat "$dir/url" 2>/dev/null || true)"
  if [ -n "$seen" ] && [ "$seen" != "http://127.0.0.1:1" ]; then break; fi
  kill -0 "$pid" 2>/dev/null || { cat "$dir/mock.log" >&2; fail "webdata-mock exited"; }
  sleep 0.1
done
url="$(cat "$dir/url")"
[[ "$url" =~ ^http://127\.0\.0\.1:[0-9]+$ ]] || fail "--ready-file holds '$url'"
curl -fsS "$url/health" >/dev/null || fail "no answer at the ready file's URL $url"
# 3. Written by a rename: no temporary file is left beside it.
ls "$dir" | grep -q '^url\.tmp' && fail "a temporary ready file was left: $(ls "$dir")"
echo "ok: the ready file holds $url, written atomically"
