-- wrk script of bench/run.sh: POSTs the body in $WRK_BODY_FILE (JSON) with a bearer key, and
-- prints one machine-readable line at the end (requests/s, latency percentiles, errors).
-- WRK_METHOD=GET sends no body (the HTTP-layer ceiling: GET /health).
wrk.method = os.getenv("WRK_METHOD") or "POST"
if wrk.method == "POST" then
  local f = assert(io.open(os.getenv("WRK_BODY_FILE"), "rb"))
  wrk.body = f:read("*a")
  f:close()
end
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. (os.getenv("WRK_API_KEY") or "test-key")

function done(summary, latency, requests)
  local seconds = summary.duration / 1e6
  io.write(string.format(
    "wrk-result: requests=%d rps=%.1f p50_ms=%.3f p90_ms=%.3f p99_ms=%.3f max_ms=%.3f " ..
    "bytes=%d non2xx=%d connect_errors=%d read_errors=%d write_errors=%d timeouts=%d\n",
    summary.requests, summary.requests / seconds,
    latency:percentile(50) / 1000, latency:percentile(90) / 1000,
    latency:percentile(99) / 1000, latency.max / 1000, summary.bytes,
    summary.errors.status, summary.errors.connect, summary.errors.read,
    summary.errors.write, summary.errors.timeout))
end
