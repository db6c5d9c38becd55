#!/usr/bin/env bash
# The benchmarks of issue 10, one command from a fresh clone (run on demand, never in the tests):
#
#   bash bench/run.sh                 everything: setup, Release build, HTTP, crawl, SDK, content
#   bash bench/run.sh http crawl      only some parts (http, server, crawl, sdk, content)
#
# Environment: BENCH_DURATION (wrk run, default 10s), BENCH_ROUNDS (default 3), BENCH_WARMUP
# (wrk warm-up per candidate before the rounds, default 8s), BENCH_JOBS
# (build jobs, default 2), BENCH_SKIP_SETUP=1 / BENCH_SKIP_BUILD=1 (already done),
# WEBDATA_BENCH_BUILD_DIR (default build-bench), BENCH_BASELINE_MOCK (a webdata-mock built from
# another tree, in Release: the http part runs it as two more candidates, its cache hit and its
# GET /health, interleaved with this tree's in every round, and reports this tree's figures over
# the baseline's round by round; see docs/performance.md).
#
# Installs (only what is missing): wrk, nginx, Java 17, node/npm, python3 from Debian, and
# WireMock 3.13, Prism 5 and turndown from npm into bench/tools/node_modules. Every server
# listens on 127.0.0.1 only. Results: printed, and written to bench/results/<UTC date>.md.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${WEBDATA_BENCH_BUILD_DIR:-$root/build-bench}"
duration="${BENCH_DURATION:-10s}"
rounds="${BENCH_ROUNDS:-3}"
# The JVM and V8 need several seconds of traffic before their JIT settles.
warmup="${BENCH_WARMUP:-8s}"
jobs="${BENCH_JOBS:-2}"
tools="$root/bench/tools"
key="bench-key"
page="https://docs.example.test/getting-started/quickstart"

parts=("$@")
[ ${#parts[@]} -eq 0 ] && parts=(http server crawl sdk content)
want() { local p; for p in "${parts[@]}"; do [ "$p" = "$1" ] && return 0; done; return 1; }

step() { printf '\n==> %s\n' "$*" >&2; }
die() { echo "bench: $*" >&2; exit 1; }

# ---------------------------------------------------------------------------------------------
# Setup and build

apt_install() {
  local sudo_cmd=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || die "need root or sudo to install: $*"
    sudo_cmd=(sudo)
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "$@"
}

setup() {
  step "setup: build dependencies"
  bash "$root/scripts/setup.sh"
  # By command, not by package: node and npm may come from another package than Debian's.
  local missing=()
  need() { command -v "$1" >/dev/null 2>&1 || missing+=("$2"); }
  need wrk wrk
  need nginx nginx
  need java openjdk-17-jre-headless
  need node nodejs
  need npm npm
  need python3 python3
  need ps procps
  if [ ${#missing[@]} -gt 0 ]; then
    step "setup: installing ${missing[*]}"
    apt_install "${missing[@]}"
  fi
  if [ ! -x "$tools/node_modules/.bin/prism" ] || [ ! -d "$tools/node_modules/turndown" ] ||
     ! ls "$tools"/node_modules/wiremock/build/wiremock-standalone-*.jar >/dev/null 2>&1; then
    step "setup: npm ci in bench/tools (WireMock, Prism, turndown)"
    (cd "$tools" && npm ci --no-audit --no-fund --loglevel=error)
  fi
}

build_targets() {
  step "build: Release in $build ($jobs jobs)"
  local generator=()
  [ -f "$build/CMakeCache.txt" ] || generator=(-G Ninja)
  # Options another checkout may not know yet are harmless (CMake only warns).
  cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DCMAKE_UNITY_BUILD=ON \
    -DWEBDATA_BUILD_BENCH=ON -DWEBDATA_BUILD_TESTS=OFF -DWEBDATA_BUILD_EXAMPLES=OFF \
    -DWEBDATA_BUILD_CLI=OFF -DWEBDATA_BUILD_CONFORMANCE=OFF -DWEBDATA_BUILD_DOCS=OFF \
    -Wno-dev >/dev/null
  cmake --build "$build" -j "$jobs" --target webdata-mock crawl_bench sdk_bench content_bench
}

# ---------------------------------------------------------------------------------------------
# Servers

work="$build/bench-run"
pids=()
cleanup() {
  local pid
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
}
trap cleanup EXIT

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

wait_http() {  # URL PID NAME
  local i
  for i in $(seq 1 600); do
    curl -s -o /dev/null "$1" 2>/dev/null && return 0
    kill -0 "$2" 2>/dev/null || die "$3 exited; see $work/$3.log"
    sleep 0.1
  done
  die "$3 did not answer at $1 within 60 s"
}

# Peak RSS (VmHWM) of a process and its descendants, in MiB.
tree_hwm_mib() {
  local total=0 pid kib
  for pid in "$1" $(ps -o pid= --ppid "$1" 2>/dev/null); do
    kib="$(awk '/^VmHWM:/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)"
    total=$((total + ${kib:-0}))
  done
  echo $((total / 1024))
}

start_mock() {  # NAME PORT [flags...]
  local name="$1" port="$2" exe="${MOCK_EXE:-$build/mockserver/webdata-mock}"
  shift 2
  "$exe" --host 127.0.0.1 --port "$port" --quiet \
    --api-key "$key" --credits 1000000000000 "$@" >"$work/$name.log" 2>&1 &
  pids+=($!)
  eval "pid_$name=$!"
  wait_http "http://127.0.0.1:$port/health" "$!" "$name"
  [ -s "$work/mock-health.json" ] || curl -s "http://127.0.0.1:$port/health" >"$work/mock-health.json"
}

# ---------------------------------------------------------------------------------------------
# HTTP: POST /v2/scrape, webdata-mock against WireMock, Prism and nginx

http_bench() {
  local wiremock_jar
  wiremock_jar="$(ls "$tools"/node_modules/wiremock/build/wiremock-standalone-*.jar | head -n 1)"
  local p_hit p_miss p_wm p_wmj p_prism p_nginx
  p_hit="$(free_port)"; p_miss="$(free_port)"; p_wm="$(free_port)"; p_wmj="$(free_port)"
  p_prism="$(free_port)"; p_nginx="$(free_port)"

  step "http: starting webdata-mock (x2), WireMock (x2), Prism, nginx on 127.0.0.1"
  start_mock mock_hit "$p_hit"
  start_mock mock_miss "$p_miss"
  local p_base=""
  if [ -n "${BENCH_BASELINE_MOCK:-}" ]; then
    [ -x "$BENCH_BASELINE_MOCK" ] || die "BENCH_BASELINE_MOCK: no program at $BENCH_BASELINE_MOCK"
    p_base="$(free_port)"
    MOCK_EXE="$BENCH_BASELINE_MOCK" start_mock base_hit "$p_base"
  fi

  printf '{"url":"%s","formats":["markdown"]}' "$page" >"$work/body-hit.json"
  printf '{"url":"%s","formats":["markdown"],"maxAge":0}' "$page" >"$work/body-miss.json"
  local warm_port
  for warm_port in "$p_hit" $p_base; do
    curl -sf -X POST "http://127.0.0.1:$warm_port/v2/scrape" -H "Authorization: Bearer $key" \
      -H 'Content-Type: application/json' --data-binary @"$work/body-hit.json" >/dev/null
  done
  # The bytes every peer serves: the mock's own answer (a cache hit) for the page.
  curl -sf -X POST "http://127.0.0.1:$p_hit/v2/scrape" -H "Authorization: Bearer $key" \
    -H 'Content-Type: application/json' --data-binary @"$work/body-hit.json" >"$work/scrape.json"
  grep -q '"cacheState":"hit"' "$work/scrape.json" || die "second scrape was not a cache hit"
  response_bytes="$(wc -c <"$work/scrape.json")"

  for mode in journal nojournal; do
    mkdir -p "$work/wiremock-$mode/mappings" "$work/wiremock-$mode/__files"
    python3 - "$work/scrape.json" "$work/wiremock-$mode/mappings/scrape.json" <<'EOF'
import json, sys
body = open(sys.argv[1], encoding="utf-8").read()
mapping = {"request": {"method": "POST", "url": "/v2/scrape"},
           "response": {"status": 200, "headers": {"Content-Type": "application/json"},
                        "body": body}}
json.dump(mapping, open(sys.argv[2], "w", encoding="utf-8"))
EOF
  done
  java -jar "$wiremock_jar" --port "$p_wm" --bind-address 127.0.0.1 --disable-banner \
    --no-request-journal --root-dir "$work/wiremock-nojournal" >"$work/wiremock_nj.log" 2>&1 &
  pids+=($!); pid_wiremock_nj=$!
  java -jar "$wiremock_jar" --port "$p_wmj" --bind-address 127.0.0.1 --disable-banner \
    --root-dir "$work/wiremock-journal" >"$work/wiremock.log" 2>&1 &
  pids+=($!); pid_wiremock=$!
  # Prism logs every request at its default level; warn keeps logging out of the comparison
  # (the mock runs --quiet too).
  "$tools/node_modules/.bin/prism" mock -h 127.0.0.1 -p "$p_prism" -v warn \
    "$root/schemas/openapi.v2.json" >"$work/prism.log" 2>&1 &
  pids+=($!); pid_prism=$!

  mkdir -p "$work/nginx/html/v2" "$work/nginx/logs"
  cp "$work/scrape.json" "$work/nginx/html/v2/scrape"
  cat >"$work/nginx/nginx.conf" <<EOF
daemon off;
worker_processes auto;
pid $work/nginx/nginx.pid;
error_log $work/nginx/logs/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  keepalive_requests 1000000;
  client_body_temp_path $work/nginx/body;
  proxy_temp_path $work/nginx/proxy;
  fastcgi_temp_path $work/nginx/fastcgi;
  uwsgi_temp_path $work/nginx/uwsgi;
  scgi_temp_path $work/nginx/scgi;
  server {
    listen 127.0.0.1:$p_nginx;
    # The static module answers POST with 405; error_page turns it into a GET of the same file.
    location = /v2/scrape {
      root $work/nginx/html;
      default_type application/json;
      error_page 405 =200 \$uri;
    }
  }
}
EOF
  chmod -R a+rX "$work/nginx/html"
  nginx -p "$work/nginx" -c "$work/nginx/nginx.conf" >"$work/nginx.log" 2>&1 &
  pids+=($!); pid_nginx=$!

  wait_http "http://127.0.0.1:$p_wm/__admin/health" "$pid_wiremock_nj" wiremock_nj
  wait_http "http://127.0.0.1:$p_wmj/__admin/health" "$pid_wiremock" wiremock
  wait_http "http://127.0.0.1:$p_prism/" "$pid_prism" prism
  wait_http "http://127.0.0.1:$p_nginx/v2/scrape" "$pid_nginx" nginx

  # With a baseline, its candidates run right after this tree's in every round: each pair's ratio
  # is taken seconds apart, on the same machine load.
  local names=(mock_hit ${p_base:+base_hit} mock_miss wiremock_nj wiremock prism nginx mock_health
               ${p_base:+base_health})
  declare -A url body
  url[mock_hit]="http://127.0.0.1:$p_hit/v2/scrape"; body[mock_hit]="$work/body-hit.json"
  url[mock_miss]="http://127.0.0.1:$p_miss/v2/scrape"; body[mock_miss]="$work/body-miss.json"
  url[wiremock_nj]="http://127.0.0.1:$p_wm/v2/scrape"; body[wiremock_nj]="$work/body-hit.json"
  url[wiremock]="http://127.0.0.1:$p_wmj/v2/scrape"; body[wiremock]="$work/body-hit.json"
  url[prism]="http://127.0.0.1:$p_prism/v2/scrape"; body[prism]="$work/body-hit.json"
  url[nginx]="http://127.0.0.1:$p_nginx/v2/scrape"; body[nginx]="$work/body-hit.json"
  # The mock's HTTP layer with no work behind it (same process as the cache-hit candidate).
  url[mock_health]="http://127.0.0.1:$p_hit/health"; body[mock_health]=""
  if [ -n "$p_base" ]; then
    url[base_hit]="http://127.0.0.1:$p_base/v2/scrape"; body[base_hit]="$work/body-hit.json"
    url[base_health]="http://127.0.0.1:$p_base/health"; body[base_health]=""
  fi

  local name code bytes
  for name in "${names[@]}"; do
    [ -z "${body[$name]}" ] && continue  # GET /health: nothing to check
    read -r code bytes < <(curl -s -o "$work/check-$name.json" -w '%{http_code} %{size_download}\n' \
      -X POST "${url[$name]}" -H "Authorization: Bearer $key" \
      -H 'Content-Type: application/json' --data-binary @"${body[$name]}")
    [ "$code" = 200 ] || die "$name answered $code to POST /v2/scrape: $(head -c 300 "$work/check-$name.json")"
    echo "$name $bytes" >>"$work/response-bytes.txt"
  done
  grep -q '"cacheState":"miss"' "$work/check-mock_miss.json" || die "maxAge 0 did not miss the cache"

  run_wrk() {  # NAME SECONDS ROUND
    local method=POST
    [ -z "${body[$1]}" ] && method=GET
    WRK_METHOD="$method" WRK_BODY_FILE="${body[$1]}" WRK_API_KEY="$key" wrk -t2 -c32 -d"$2" --timeout 5s \
      -s "$root/bench/wrk/post.lua" "${url[$1]}" >"$work/wrk-$1-$3.txt" 2>&1 ||
      die "wrk against $1 failed: $(cat "$work/wrk-$1-$3.txt")"
    local line load
    line="$(grep '^wrk-result:' "$work/wrk-$1-$3.txt" | sed 's/^wrk-result: //')"
    load="$(cut -d' ' -f1 /proc/loadavg)"
    echo "round=$3 name=$1 load1=$load $line" >>"$work/wrk.txt"
    echo "  round $3 $1: $line (load $load)" >&2
  }

  step "http: warm-up ($warmup each: JIT, caches, connection pools)"
  : >"$work/wrk.txt"
  for name in "${names[@]}"; do run_wrk "$name" "$warmup" warmup; done
  : >"$work/wrk.txt"
  local round
  for round in $(seq 1 "$rounds"); do
    step "http: round $round of $rounds (wrk -t2 -c32 -d$duration, candidates interleaved)"
    for name in "${names[@]}"; do run_wrk "$name" "$duration" "$round"; done
  done
  for name in "${names[@]}"; do
    [ -z "${body[$name]}" ] && continue  # GET /health: the hit candidate's process
    local pidvar="pid_$name"
    echo "result: hwm_$name=$(tree_hwm_mib "${!pidvar}")" >>"$work/results.txt"
  done
  echo "result: response_bytes=$response_bytes" >>"$work/results.txt"
  echo "result: prism_bytes=$(awk '$1=="prism" {print $2}' "$work/response-bytes.txt")" >>"$work/results.txt"
  cleanup
  pids=()
}

# ---------------------------------------------------------------------------------------------
# Server: what TLS costs, and how long /health waits behind slow scrapes (issues 21, 22)

server_bench() {
  local p_plain p_tls i
  p_plain="$(free_port)"; p_tls="$(free_port)"
  step "server: webdata-mock plain and with --tls-self-signed on 127.0.0.1"
  start_mock srv_plain "$p_plain"
  "$build/mockserver/webdata-mock" --host 127.0.0.1 --port "$p_tls" --quiet --tls-self-signed \
    --api-key "$key" --credits 1000000000000 >"$work/srv_tls.log" 2>&1 &
  pids+=($!); pid_srv_tls=$!
  for i in $(seq 1 600); do
    grep -q 'listening on https://' "$work/srv_tls.log" 2>/dev/null && break
    kill -0 "$pid_srv_tls" 2>/dev/null || die "srv_tls exited; see $work/srv_tls.log"
    sleep 0.1
  done
  local ca
  ca="$(sed -n 's/.*trust it as the CA): //p' "$work/srv_tls.log" | head -n 1)"
  [ -f "$ca" ] || die "the TLS mock printed no certificate; see $work/srv_tls.log"
  curl -sf --cacert "$ca" "https://127.0.0.1:$p_tls/health" >/dev/null ||
    die "HTTPS /health failed with the printed certificate as CA"
  printf '{"url":"%s","formats":["markdown"]}' "$page" >"$work/body-hit.json"
  local base
  for base in "http://127.0.0.1:$p_plain" "https://127.0.0.1:$p_tls"; do
    for i in 1 2; do
      curl -sf --cacert "$ca" -X POST "$base/v2/scrape" -H "Authorization: Bearer $key" \
        -H 'Content-Type: application/json' --data-binary @"$work/body-hit.json" >"$work/srv-hit.json"
    done
    grep -q '"cacheState":"hit"' "$work/srv-hit.json" || die "no cache hit from $base"
  done

  local names=(plain_health tls_health plain_hit tls_hit)
  declare -A url body
  url[plain_health]="http://127.0.0.1:$p_plain/health"; body[plain_health]=""
  url[tls_health]="https://127.0.0.1:$p_tls/health"; body[tls_health]=""
  url[plain_hit]="http://127.0.0.1:$p_plain/v2/scrape"; body[plain_hit]="$work/body-hit.json"
  url[tls_hit]="https://127.0.0.1:$p_tls/v2/scrape"; body[tls_hit]="$work/body-hit.json"
  server_wrk() {  # NAME SECONDS ROUND
    local method=POST
    [ -z "${body[$1]}" ] && method=GET
    # wrk keeps its connections: the TLS handshake is paid once per connection, as with any
    # keep-alive client; what is measured is record encryption and the extra reads and writes.
    WRK_METHOD="$method" WRK_BODY_FILE="${body[$1]}" WRK_API_KEY="$key" wrk -t2 -c32 -d"$2" --timeout 5s \
      -s "$root/bench/wrk/post.lua" "${url[$1]}" >"$work/wrk-server-$1-$3.txt" 2>&1 ||
      die "wrk against $1 failed: $(cat "$work/wrk-server-$1-$3.txt")"
    local line
    line="$(grep '^wrk-result:' "$work/wrk-server-$1-$3.txt" | sed 's/^wrk-result: //')"
    echo "round=$3 name=$1 load1=$(cut -d' ' -f1 /proc/loadavg) $line" >>"$work/wrk-server.txt"
    echo "  round $3 $1: $line" >&2
  }
  step "server: warm-up, then $rounds interleaved rounds of wrk -t2 -c32 -d$duration"
  local name round
  for name in "${names[@]}"; do server_wrk "$name" 3s warmup; done
  : >"$work/wrk-server.txt"
  for round in $(seq 1 "$rounds"); do
    for name in "${names[@]}"; do server_wrk "$name" "$duration" "$round"; done
  done

  # /health and a cache hit, one request per connection, first on an idle mock, then with 16
  # scrapes of a page that answers after 15 s in flight (each on its own synthetic host; 15 s so
  # that all 40 measurements, curl start-up included, fall inside the window on a loaded machine).
  latencies() {  # LABEL COUNT -> result: server_LABEL_{health,hit}_ms_{p50,max}
    local kind
    for kind in health hit; do
      : >"$work/lat-$1-$kind.txt"
      for i in $(seq 1 "$2"); do
        if [ "$kind" = health ]; then
          curl -s -o /dev/null -w '%{time_total}\n' "http://127.0.0.1:$p_plain/health"
        else
          curl -s -o /dev/null -w '%{time_total}\n' -X POST "http://127.0.0.1:$p_plain/v2/scrape" \
            -H "Authorization: Bearer $key" -H 'Content-Type: application/json' \
            --data-binary @"$work/body-hit.json"
        fi >>"$work/lat-$1-$kind.txt"
      done
      python3 -c '
import statistics, sys
ms = [float(x) * 1000 for x in open(sys.argv[1]).read().split()]
print(f"result: server_{sys.argv[2]}_{sys.argv[3]}_ms_p50={statistics.median(ms):.2f}")
print(f"result: server_{sys.argv[2]}_{sys.argv[3]}_ms_max={max(ms):.2f}")
' "$work/lat-$1-$kind.txt" "$1" "$kind" >>"$work/results.txt"
    done
  }
  step "server: /health and a cache hit, idle, then behind 16 scrapes of a 15 s page"
  latencies idle 20
  local slow=()
  for i in $(seq 1 16); do
    curl -s -o /dev/null -X POST "http://127.0.0.1:$p_plain/v2/scrape" \
      -H "Authorization: Bearer $key" -H 'Content-Type: application/json' \
      --data "{\"url\":\"https://delay-15000.bench$i.r$RANDOM.synthetic.test/\",\"formats\":[\"markdown\"]}" &
    slow+=($!)
  done
  sleep 0.5
  local t0 t1
  t0="$(date +%s%N)"
  latencies slow16 20
  t1="$(date +%s%N)"
  # Under 15000 ms: every figure above was taken while the slow scrapes were still in flight.
  echo "result: server_slow16_window_ms=$(( (t1 - t0) / 1000000 + 500 ))" >>"$work/results.txt"
  for i in "${slow[@]}"; do wait "$i" || true; done

  # Heap allocations per request (issue 22: none of the HTTP layer's own on the hot path),
  # counted by an LD_PRELOAD shim in a third mock, 1000 requests on one keep-alive connection,
  # after a warm-up that fills the request journal's ring (1000 entries) and caches the page.
  step "server: heap allocations per GET /health and per cache hit"
  cc -O2 -shared -fPIC -o "$work/malloc_count.so" "$root/bench/malloc_count.c" ||
    die "could not build bench/malloc_count.c"
  local p_count pid_count
  p_count="$(free_port)"
  LD_PRELOAD="$work/malloc_count.so" "$build/mockserver/webdata-mock" --host 127.0.0.1 \
    --port "$p_count" --quiet --api-key "$key" --credits 1000000000000 >"$work/srv_count.log" 2>&1 &
  pids+=($!); pid_count=$!
  wait_http "http://127.0.0.1:$p_count/health" "$pid_count" srv_count
  requests() {  # KIND COUNT, on one connection
    local args=() n
    for n in $(seq 1 "$2"); do
      if [ "$1" = health ]; then
        args+=(-s -o /dev/null "http://127.0.0.1:$p_count/health")
      else
        args+=(-s -o /dev/null -X POST "http://127.0.0.1:$p_count/v2/scrape"
               -H "Authorization: Bearer $key" -H 'Content-Type: application/json'
               --data-binary @"$work/body-hit.json")
      fi
      [ "$n" -lt "$2" ] && args+=(--next)
    done
    curl "${args[@]}"
  }
  count_now() { kill -USR2 "$pid_count"; sleep 0.3; }
  requests health 1100; requests hit 200
  count_now; requests health 1000; count_now; requests hit 1000; count_now
  grep '^mallocs=' "$work/srv_count.log" | tail -n 3 | cut -d= -f2 | tr '\n' ' ' |
    awk '{ printf "result: server_mallocs_health=%.1f\nresult: server_mallocs_hit=%.1f\n", \
           ($2 - $1) / 1000, ($3 - $2) / 1000 }' >>"$work/results.txt"
  grep '^result: server_' "$work/results.txt" >&2
  cleanup
  pids=()
}

# ---------------------------------------------------------------------------------------------
# Crawl, SDK, content

crawl_bench() {
  step "crawl: 10,000-page synthetic site, --page-pacing 0 (3 crawls on one fresh mock)"
  local port
  port="$(free_port)"
  start_mock mock_crawl "$port" --page-pacing 0
  "$build/bench/crawl_bench" --api "http://127.0.0.1:$port" --key "$key" \
    --mock-pid "$pid_mock_crawl" --site pages-10000.fanout-10.synthetic.test --limit 10000 \
    --runs "$rounds" | tee "$work/crawl.md" >&2
  grep '^result:' "$work/crawl.md" >>"$work/results.txt"
  grep -v '^result:' "$work/crawl.md" | sed '/^$/d' >"$work/crawl-table.md"
  cleanup
  pids=()
}

sdk_bench() {
  step "sdk: 100,000-document crawl, documents(), per-call overhead, chunk parse"
  local port job
  port="$(free_port)"
  start_mock mock_sdk "$port" --page-pacing 0
  local api="http://127.0.0.1:$port"
  "$build/bench/sdk_bench" prepare --api "$api" --key "$key" \
    --site pages-100000.fanout-10.synthetic.test --limit 100000 | tee -a "$work/results.txt" >&2
  job="$(sed -n 's/^result: job=//p' "$work/results.txt" | tail -n 1)"
  echo "result: mock_sdk_hwm_mib=$(tree_hwm_mib "$pid_mock_sdk")" >>"$work/results.txt"
  "$build/bench/sdk_bench" iterate --api "$api" --key "$key" --job "$job" |
    tee -a "$work/results.txt" >&2
  "$build/bench/sdk_bench" overhead --api "$api" --key "$key" --page "$page" --calls 3000 |
    tee -a "$work/results.txt" >&2
  "$build/bench/sdk_bench" parse --api "$api" --key "$key" --job "$job" |
    tee -a "$work/results.txt" >&2
  cleanup
  pids=()
}

content_bench() {
  # Short measurements, many rounds: each round's ratio compares two runs seconds apart, and the
  # median of the ratios is reported (the machine's load moves within a minute).
  local content_rounds=$((rounds * 3)) round
  step "content: HTML to markdown, webdata-mock's pipeline and turndown, $content_rounds rounds interleaved"
  [ -f "$work/results.txt" ] && sed -i '/^result: r[0-9]*\.\(content\|turndown\)_/d' "$work/results.txt"
  for round in $(seq 1 "$content_rounds"); do
    "$build/bench/content_bench" --fixtures "$root/mockserver/fixtures/web/__files" \
      --out "$work/content" --seconds 1 | sed "s/^result: /result: r$round./" |
      tee -a "$work/results.txt" >&2
    NODE_PATH="$tools/node_modules" node "$root/bench/turndown_bench.js" "$work/content" 1 |
      sed "s/^result: /result: r$round./" | tee -a "$work/results.txt" >&2
  done
}

# ---------------------------------------------------------------------------------------------

[ "${BENCH_SKIP_SETUP:-}" = 1 ] || setup
[ "${BENCH_SKIP_BUILD:-}" = 1 ] || build_targets
# BENCH_KEEP=1 reruns some parts on top of the previous run's figures (later figures win).
[ "${BENCH_KEEP:-}" = 1 ] || rm -rf "$work"
mkdir -p "$work"
[ -s "$work/load-start.txt" ] || cat /proc/loadavg >"$work/load-start.txt"
[ -s "$work/started.txt" ] || date -u +%s >"$work/started.txt"

want http && http_bench
want server && server_bench
want crawl && crawl_bench
want sdk && sdk_bench
want content && content_bench

cat /proc/loadavg >"$work/load-end.txt"
mkdir -p "$root/bench/results"
out="$root/bench/results/$(date -u +%F).md"
python3 "$root/bench/report.py" --work "$work" --root "$root" --build "$build" \
  --duration "$duration" --rounds "$rounds" --parts "${parts[*]}" >"$out"
cat "$out"
echo >&2
echo "bench: results written to ${out#"$root"/}" >&2
