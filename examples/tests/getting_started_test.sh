#!/usr/bin/env bash
# The program of docs/getting-started.md, step 2, against a mock it can only reach through the
# environment:
#   getting_started_test.sh MOCK PROGRAM DOC SOURCE
# 1. the page shows the program exactly as examples/getting_started.cpp has it;
# 2. with WEBDATA_API_URL / WEBDATA_API_KEY naming the mock (a free port, a key that is not the
#    mock's default) it scrapes the page given as its argument, or in WEBDATA_EXAMPLE_URL;
# 3. a wrong WEBDATA_API_KEY gets 401 and exit 1, and a WEBDATA_API_URL where nothing listens
#    fails: the program uses neither a built-in address (a demo mock on 127.0.0.1:3002 would
#    answer) nor a built-in key.
set -euo pipefail
mock="$1" program="$2" doc="$3" source="$4"
page=https://docs.example.test/getting-started/quickstart
fail() { echo "FAIL: $*" >&2; exit 1; }

dir="$(mktemp -d)"
pid=""
trap '[ -n "$pid" ] && { kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; }; rm -rf "$dir"' EXIT

# 1. The code block of step 2 is the example's source, byte for byte.
awk '/^## 2\./ {in_step = 1; next}
     in_step && /^## / {exit}
     in_step && /^```cpp$/ {in_code = 1; next}
     in_code && /^```$/ {exit}
     in_code {print}' "$doc" >"$dir/from-doc.cpp"
[ -s "$dir/from-doc.cpp" ] || fail "no \`\`\`cpp block under '## 2.' in $doc"
diff -u "$source" "$dir/from-doc.cpp" || fail "the program in $doc differs from $source"
echo "ok: $doc shows $source"

# 2. A mock on a free port that knows only the key gs-key.
"$mock" --port 0 --quiet --page-pacing 0 --api-key gs-key --ready-file "$dir/url" \
  >"$dir/mock.log" 2>&1 &
pid=$!
for _ in $(seq 1 300); do
  [ -s "$dir/url" ] && break
  kill -0 "$pid" 2>/dev/null || { cat "$dir/mock.log" >&2; fail "webdata-mock exited"; }
  sleep 0.1
done
[ -s "$dir/url" ] || fail "webdata-mock not ready after 30 s"
url="$(cat "$dir/url")"

out="$(WEBDATA_API_URL="$url" WEBDATA_API_KEY=gs-key "$program" "$page")" ||
  fail "exit $? against $url"
grep -q "Quickstart" <<<"$out" || fail "no page title in the output: $out"
echo "ok: scraped $page through WEBDATA_API_URL=$url with WEBDATA_API_KEY"
out="$(WEBDATA_API_URL="$url" WEBDATA_API_KEY=gs-key WEBDATA_EXAMPLE_URL="$page" "$program")" ||
  fail "exit $? with WEBDATA_EXAMPLE_URL"
grep -q "Quickstart" <<<"$out" || fail "no page title with WEBDATA_EXAMPLE_URL: $out"
echo "ok: the page from WEBDATA_EXAMPLE_URL"

# 3. The environment is what decides.
rc=0
err="$(WEBDATA_API_URL="$url" WEBDATA_API_KEY=not-the-key "$program" "$page" 2>&1 >/dev/null)" ||
  rc=$?
[ "$rc" -eq 1 ] || fail "a wrong key: exit $rc, expected 1"
grep -q "401" <<<"$err" || fail "a wrong key: no 401 in: $err"
echo "ok: WEBDATA_API_KEY is the key sent"

rc=0
out="$(WEBDATA_API_URL=http://127.0.0.1:1 WEBDATA_API_KEY=gs-key "$program" "$page" 2>"$dir/err")" ||
  rc=$?
[ "$rc" -eq 1 ] || fail "nothing listening: exit $rc, expected 1 (output: $out)"
echo "ok: WEBDATA_API_URL is the address used ($(head -c 120 "$dir/err"))"
