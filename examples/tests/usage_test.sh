#!/usr/bin/env bash
# An example run without a page (no argument, no WEBDATA_EXAMPLE_URL) says how to give one and
# exits 2, before it sends anything:
#   usage_test.sh PROGRAM...
set -uo pipefail
unset WEBDATA_EXAMPLE_URL
for program in "$@"; do
  err="$(WEBDATA_API_URL=http://127.0.0.1:1 "$program" 2>&1 >/dev/null)"
  rc=$?
  [ "$rc" -eq 2 ] || { echo "FAIL: $program exited $rc, expected 2: $err" >&2; exit 1; }
  grep -q "^usage: " <<<"$err" || { echo "FAIL: $program printed no usage: $err" >&2; exit 1; }
  grep -q "WEBDATA_EXAMPLE_URL" <<<"$err" || { echo "FAIL: $program: $err" >&2; exit 1; }
  echo "ok: $(basename "$program"): $(head -n 1 <<<"$err")"
done
