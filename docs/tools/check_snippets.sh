#!/usr/bin/env bash
# Checks the shell snippets of README.md and docs/ as docs/writing-docs.md describes: every
# ```sh / ```bash block carries a marker on the line before it, and
#   <!-- snippet: run -->                 runs against a mock this script starts (exit 0 needed)
#   <!-- snippet: run; prints: TEXT -->   ... and its output must contain TEXT
#   <!-- snippet: parse -->               is checked by `bash -n` (it needs a deployment, an
#                                         install or a long build)
#
#   bash docs/tools/check_snippets.sh SOURCE_DIR BUILD_DIR [FILE.md ...]
#
# Run snippets run one after another in one scratch directory where `build` is BUILD_DIR, with
# BUILD_DIR's webdata-mock and webdata on PATH, WEBDATA_API_URL and WEBDATA_API_KEY set to the
# mock, and http://127.0.0.1:3002 in their text replaced by the mock's address. Ends with
# "N passed, N failed"; exits 1 when any failed.
set -uo pipefail

if [ $# -lt 2 ]; then
  echo "usage: check_snippets.sh SOURCE_DIR BUILD_DIR [FILE.md ...]" >&2
  exit 2
fi
src=$(cd "$1" && pwd) || exit 2
build=$(cd "$2" && pwd) || exit 2
shift 2
files=("$@")
if [ ${#files[@]} -eq 0 ]; then
  files=(README.md)
  while IFS= read -r f; do files+=("${f#"$src"/}"); done < <(find "$src/docs" -name '*.md' | sort)
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/webdata-snippets.XXXXXX")
cleanup() {
  [ -s "$work/mock.pid" ] && kill "$(cat "$work/mock.pid")" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

# Every marked or unmarked block as $work/blocks/N.sh, and one index line per block:
# N <tab> file <tab> line <tab> marker line (empty when there is none).
extract() {
  mkdir -p "$work/blocks"
  : > "$work/index"
  local n=0 file
  for file in "${files[@]}"; do
    awk -v file="$file" -v dir="$work/blocks" -v start="$n" '
      function flush() { close(out) }
      /^```/ {
        if (inside) { inside = 0; flush(); next }
        if (!fence && $0 ~ /^```(sh|bash)[ \t]*$/) {
          inside = 1; count++
          out = dir "/" (start + count) ".sh"
          printf "" > out
          printf "%d\t%s\t%d\t%s\n", start + count, file, NR, (last ~ /^<!-- snippet:/ ? last : "")
          next
        }
        fence = !fence
        next
      }
      inside { print > out; next }
      NF { last = $0 }
    ' "$src/$file" >> "$work/index"
    n=$(wc -l < "$work/index")
  done
}

start_mock() {
  mkdir -p "$work/run"
  ln -s "$build" "$work/run/build"
  export PATH="$build/mockserver:$build/cli:$PATH"
  mock_url=$("$build/mockserver/webdata-mock" --detach --port 0 --quiet \
             --pid-file "$work/mock.pid" --log-file "$work/mock.log") || {
    echo "check_snippets: the mock did not start: $(cat "$work/mock.log" 2>/dev/null)" >&2
    exit 1
  }
  export WEBDATA_API_URL="$mock_url" WEBDATA_API_KEY=test-key
}

passed=0
failed=0
fail() {
  echo "FAIL $1: $2"
  [ -n "${3:-}" ] && sed 's/^/    /' "$3" | tail -n 20
  failed=$((failed + 1))
}

# Runs block $1 (the marker in $3) for $2 ("file:line").
check() {
  local block=$1 where=$2 marker=$3 mode prints rc
  if ! bash -n "$block" 2> "$work/out"; then
    fail "$where" "not valid shell" "$work/out"
    return
  fi
  mode=$(sed -n 's/^<!-- snippet: \(run\|parse\)[;[:space:]].*$/\1/p; s/^<!-- snippet: \(run\|parse\) -->$/\1/p' <<< "$marker")
  prints=$(sed -n 's/^<!-- snippet: run; prints: \(.*\) -->$/\1/p' <<< "$marker")
  case $mode in
    parse) ;;
    run)
      sed "s#http://127.0.0.1:3002#$mock_url#g; s#127.0.0.1:3002#${mock_url#http://}#g" \
        "$block" > "$work/run/snippet.sh"
      rc=0
      (cd "$work/run" && timeout 120 bash -e snippet.sh) > "$work/out" 2>&1 || rc=$?
      if [ "$rc" -ne 0 ]; then
        fail "$where" "exited $rc when run" "$work/out"
        return
      fi
      if [ -n "$prints" ] && ! grep -qF -- "$prints" "$work/out"; then
        fail "$where" "did not print '$prints'" "$work/out"
        return
      fi
      ;;
    *)
      fail "$where" "no marker: put <!-- snippet: run --> or <!-- snippet: parse --> on the line before the fence (docs/writing-docs.md)"
      return
      ;;
  esac
  echo "ok   $where (${mode})"
  passed=$((passed + 1))
}

extract
if grep -q 'snippet: run' "$work/index"; then start_mock; fi
while IFS=$'\t' read -r n file line marker; do
  check "$work/blocks/$n.sh" "$file:$line" "$marker"
done < "$work/index"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
