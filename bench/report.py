#!/usr/bin/env python3
"""Turns the raw output of bench/run.sh (wrk lines, `result:` lines) into the markdown results
file: a header with the machine and every candidate's version, the tables of medians and
ratios, and each target with its figure and verdict."""

import argparse
import datetime
import os
import platform
import re
import statistics
import subprocess

CANDIDATES = [
    ("mock_hit", "webdata-mock, cache hit"),
    ("mock_miss", "webdata-mock, cache miss (maxAge 0)"),
    ("wiremock_nj", "WireMock, --no-request-journal"),
    ("wiremock", "WireMock, default journal"),
    ("prism", "Prism, openapi.v2.json"),
    ("nginx", "nginx, static file (ceiling)"),
    ("mock_health", "webdata-mock GET /health (its HTTP layer, no work)"),
    ("base_hit", "baseline webdata-mock (BENCH_BASELINE_MOCK), cache hit"),
    ("base_health", "baseline webdata-mock GET /health"),
]


def sh(*cmd, stderr=False):
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        text = (done.stderr if stderr else done.stdout) or done.stdout or done.stderr
        return text.strip()
    except (OSError, subprocess.TimeoutExpired):
        return "n/a"


def first_line(text):
    return text.splitlines()[0] if text else "n/a"


def read(path, default=""):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError:
        return default


def results(work):
    out = {}
    for line in read(os.path.join(work, "results.txt")).splitlines():
        m = re.match(r"^result: ([\w.]+)=(.*)$", line.strip())
        if m:
            out[m.group(1)] = m.group(2)
    return out


def wrk_runs(work):
    runs = []
    for line in read(os.path.join(work, "wrk.txt")).splitlines():
        fields = dict(kv.split("=", 1) for kv in line.split() if "=" in kv)
        runs.append(fields)
    return runs


def num(value, default=None):
    try:
        return float(value)
    except (TypeError, ValueError):
        return default


def med(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def f(value, spec=".0f", suffix=""):
    return "n/a" if value is None else format(value, spec) + suffix


def verdict(ok):
    if ok is None:
        return "not measured"
    return "**met**" if ok else "**missed**"


def header(args, r):
    cpu = "n/a"
    for line in read("/proc/cpuinfo").splitlines():
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
    mem_kib = 0
    for line in read("/proc/meminfo").splitlines():
        if line.startswith("MemTotal:"):
            mem_kib = int(line.split()[1])
    cache = read(os.path.join(args.build, "CMakeCache.txt"))
    m = re.search(r"^CMAKE_CXX_COMPILER:\w+=(.*)$", cache, re.M)
    cxx = m.group(1) if m else "c++"
    m = re.search(r"^CMAKE_BUILD_TYPE:\w+=(.*)$", cache, re.M)
    build_type = m.group(1) if m else "n/a"
    tools = os.path.join(args.root, "bench", "tools", "node_modules")
    jar = "n/a"
    wm_dir = os.path.join(tools, "wiremock", "build")
    if os.path.isdir(wm_dir):
        jars = [j for j in os.listdir(wm_dir) if j.endswith(".jar")]
        if jars:
            jar = jars[0].replace("wiremock-standalone-", "").replace(".jar", "")
    health = read(os.path.join(args.work, "mock-health.json"))
    m = re.search(r'"version"\s*:\s*"([^"]+)"', health)
    mock_version = m.group(1) if m else "n/a"
    head = sh("git", "-C", args.root, "rev-parse", "--short", "HEAD")
    dirty = sh("git", "-C", args.root, "status", "--porcelain", "--", "mockserver", "sdk")
    started = read(os.path.join(args.work, "started.txt")).strip()
    when = (datetime.datetime.fromtimestamp(int(started), datetime.timezone.utc)
            if started else datetime.datetime.now(datetime.timezone.utc))
    lines = [
        f"# Benchmarks, {when:%Y-%m-%d %H:%M} UTC",
        "",
        "Made by `bash bench/run.sh` (parts: " + args.parts + "). Medians of "
        f"{args.rounds} interleaved rounds; wrk -t2 -c32 -d{args.duration} per candidate and "
        "round, on loopback.",
        "",
        "| | |",
        "|---|---|",
        f"| machine | {platform.machine()}, {os.cpu_count()} cores, "
        f"{mem_kib / 1024 / 1024:.0f} GiB |",
        f"| CPU | {cpu} |",
        f"| kernel | {platform.release()} |",
        f"| compiler | {first_line(sh(cxx, '--version'))} ({build_type}) |",
        f"| load average at start / end | {read(os.path.join(args.work, 'load-start.txt')).strip()}"
        f" / {read(os.path.join(args.work, 'load-end.txt')).strip()} |",
        f"| tree | {head}{' + uncommitted edits in mockserver/ or sdk/' if dirty else ''} |",
        f"| webdata-mock | {mock_version} |",
        f"| WireMock | {jar} (npm `wiremock`), {first_line(sh('java', '-version', stderr=True))} |",
        f"| Prism | {sh(os.path.join(tools, '.bin', 'prism'), '--version')} "
        f"(npm `@stoplight/prism-cli`), node {sh('node', '--version')} |",
        f"| nginx | {sh('nginx', '-v', stderr=True).replace('nginx version: ', '')} |",
        f"| wrk | {first_line(sh('wrk', '-v'))} |",
        f"| turndown | {r.get('r1.turndown_version', 'n/a')} (npm, domino DOM) |",
        f"| libraries | gumbo {sh('pkg-config', '--modversion', 'gumbo')}, "
        f"libcurl {sh('curl-config', '--version').replace('libcurl ', '')} |",
        "",
    ]
    return lines


def http_section(args, r, runs, targets):
    if not runs:
        return []
    by = {}
    for run in runs:
        by.setdefault(run["name"], []).append(run)
    rps = {n: med([num(x.get("rps")) for x in by.get(n, [])]) for n, _ in CANDIDATES}
    hit = rps.get("mock_hit")
    lines = [
        "## HTTP: POST /v2/scrape",
        "",
        f"The page: `docs.example.test/getting-started/quickstart`, `formats: [\"markdown\"]`. "
        f"Every peer serves the mock's own answer ({r.get('response_bytes', '?')} bytes) except "
        f"Prism, which answers the example it builds from the schema "
        f"({r.get('prism_bytes', '?')} bytes) after validating the request and the bearer key.",
        "",
        "| candidate | req/s (median) | rounds | p50 ms | p99 ms | peak RSS | non-2xx | mock hit is |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, label in CANDIDATES:
        xs = by.get(name, [])
        if not xs:
            continue
        rounds = " / ".join(f(num(x.get("rps"))) for x in xs)
        p50 = med([num(x.get("p50_ms")) for x in xs])
        p99 = med([num(x.get("p99_ms")) for x in xs])
        errors = sum(int(num(x.get("non2xx"), 0)) + int(num(x.get("timeouts"), 0)) +
                     int(num(x.get("connect_errors"), 0)) + int(num(x.get("read_errors"), 0))
                     for x in xs)
        ratio = f"{hit / rps[name]:.2f}x" if hit and rps.get(name) else "n/a"
        lines.append(
            f"| {label} | {f(rps[name])} | {rounds} | {f(p50, '.2f')} | {f(p99, '.2f')} | "
            f"{r.get('hwm_' + name, r.get('hwm_mock_hit', 'n/a'))} MiB | {errors} | {ratio} |")
    loads = [num(x.get("load1")) for x in runs]
    lines += ["", f"Load average (1 min) during the runs: {f(min(loads), '.2f')} to "
              f"{f(max(loads), '.2f')}.", ""]

    def ratio(name):
        return hit / rps[name] if hit and rps.get(name) else None

    for name, label, goal in (("prism", "Prism", 15), ("wiremock_nj", "WireMock without journal", 1.5),
                              ("wiremock_nj", "WireMock without journal (issue 22's bound)", 1.2),
                              ("nginx", "nginx", 0.4)):
        value = ratio(name)
        targets.append((f"mock cache hit >= {goal}x {label}", f(value, ".2f", "x"),
                        None if value is None else value >= goal))
    # The HTTP layer alone against the ceiling (issue 22): the mock's GET /health vs nginx.
    health = rps.get("mock_health")
    value = health / rps["nginx"] if health and rps.get("nginx") else None
    targets.append(("mock GET /health >= 0.6x nginx", f(value, ".2f", "x"),
                    None if value is None else value >= 0.6))
    return lines + baseline_lines(by, targets)


def baseline_lines(by, targets):
    """This tree's figures over the baseline binary's, taken in the same round seconds apart."""
    if not by.get("base_hit"):
        return []
    lines = ["### This tree beside the baseline binary", "",
             "Each round runs the baseline right after this tree's candidate; the ratio is this "
             "tree's req/s over the baseline's in that round (1.00: the same).", "",
             "| what | ratio per round | median |", "|---|---|---|"]
    for ours, theirs, label in (("mock_hit", "base_hit", "POST /v2/scrape, cache hit"),
                                ("mock_health", "base_health", "GET /health")):
        rounds = {x.get("round"): num(x.get("rps")) for x in by.get(theirs, [])}
        ratios = [num(x.get("rps")) / rounds[x.get("round")] for x in by.get(ours, [])
                  if rounds.get(x.get("round")) and num(x.get("rps"))]
        value = med(ratios)
        lines.append(f"| {label} | {' / '.join(f(v, '.3f') for v in ratios)} | "
                     f"{f(value, '.3f')} |")
        targets.append((f"{label}: this tree >= 0.95x the baseline, side by side",
                        f(value, ".3f", "x"), None if value is None else value >= 0.95))
    return lines + [""]


def server_section(args, r, targets):
    runs = []
    for line in read(os.path.join(args.work, "wrk-server.txt")).splitlines():
        runs.append(dict(kv.split("=", 1) for kv in line.split() if "=" in kv))
    lines = []
    if runs:
        by = {}
        for run in runs:
            by.setdefault(run["name"], []).append(run)
        rps = {n: med([num(x.get("rps")) for x in xs]) for n, xs in by.items()}
        lines += ["## Server: TLS", "",
                  "One mock plain, one with `--tls-self-signed`, interleaved rounds of "
                  "`wrk -t2 -c32` (keep-alive: one handshake per connection).", "",
                  "| candidate | req/s (median) | rounds | p50 ms | p99 ms | TLS / plain |",
                  "|---|---|---|---|---|---|"]
        for name, label, plain in (("plain_health", "GET /health, HTTP", None),
                                   ("tls_health", "GET /health, HTTPS", "plain_health"),
                                   ("plain_hit", "POST /v2/scrape cache hit, HTTP", None),
                                   ("tls_hit", "POST /v2/scrape cache hit, HTTPS", "plain_hit")):
            xs = by.get(name, [])
            if not xs:
                continue
            ratio = (f"{rps[name] / rps[plain]:.2f}x"
                     if plain and rps.get(plain) and rps.get(name) else "")
            lines.append(f"| {label} | {f(rps[name])} | "
                         f"{' / '.join(f(num(x.get('rps'))) for x in xs)} | "
                         f"{f(med([num(x.get('p50_ms')) for x in xs]), '.2f')} | "
                         f"{f(med([num(x.get('p99_ms')) for x in xs]), '.2f')} | {ratio} |")
        lines.append("")
    if "server_slow16_health_ms_max" in r:
        lines += ["## Server: answers behind slow scrapes", "",
                  "20 requests each, one connection per request (curl), on an idle mock and with "
                  "16 scrapes of a page that answers after 15 s in flight (default `--threads` and "
                  "`--workers`); all of them within (must be under 15,000) "
                  f"{r.get('server_slow16_window_ms', '?')} ms of starting the slow scrapes.", "",
                  "| request | idle p50 ms | idle max ms | 16 slow in flight p50 ms | max ms |",
                  "|---|---|---|---|---|"]
        for kind, label in (("health", "GET /health"), ("hit", "POST /v2/scrape cache hit")):
            lines.append(f"| {label} | {r.get(f'server_idle_{kind}_ms_p50', 'n/a')} | "
                         f"{r.get(f'server_idle_{kind}_ms_max', 'n/a')} | "
                         f"{r.get(f'server_slow16_{kind}_ms_p50', 'n/a')} | "
                         f"{r.get(f'server_slow16_{kind}_ms_max', 'n/a')} |")
        lines.append("")
        for kind, label in (("health", "GET /health"), ("hit", "cache hit")):
            worst = num(r.get(f"server_slow16_{kind}_ms_max"))
            targets.append((f"{label} under 50 ms with 16 slow scrapes in flight (max of 20)",
                            f(worst, ".1f", " ms"), None if worst is None else worst < 50))
    if "server_mallocs_health" in r:
        lines += ["## Server: heap allocations per request", "",
                  "Counted by an `LD_PRELOAD` shim (`bench/malloc_count.c`: malloc, calloc, "
                  "realloc; operator new included) over 1000 requests on one keep-alive "
                  "connection, after a warm-up that fills the request journal's ring.", "",
                  "| request | allocations per request |", "|---|---|",
                  f"| GET /health | {r['server_mallocs_health']} |",
                  f"| POST /v2/scrape cache hit | {r.get('server_mallocs_hit', 'n/a')} |", ""]
    return lines


def crawl_section(args, r, targets):
    if "crawl_s" not in r:
        return []
    table = read(os.path.join(args.work, "crawl-table.md")).strip()
    crawl_s = num(r.get("crawl_s"))
    worst = num(r.get("chunk_max_ms"))
    targets.append(("10,000-page crawl completed < 2 s (median)", f(crawl_s, ".2f", " s"),
                    crawl_s < 2))
    targets.append(("every chunk < 50 ms (worst of all runs)", f(worst, ".1f", " ms"), worst < 50))
    return [
        "## Crawl: `pages-10000.fanout-10.synthetic.test`, `--page-pacing 0`",
        "",
        "From the POST to the first status saying `completed` (polled every 5 ms with `limit=1`), "
        "then every chunk fetched by following `next` (time of the HTTP exchange, bare libcurl). "
        "The runs share one mock, so its peak RSS grows with the jobs it keeps.",
        "",
        table,
        "",
        f"Median: {f(crawl_s, '.2f')} s, {r.get('pages_per_s')} pages/s; chunks median "
        f"{r.get('chunk_median_ms')} ms, worst {r.get('chunk_max_ms')} ms; mock RSS idle "
        f"{r.get('idle_rss_mib')} MiB, after the first crawl {r.get('first_run_hwm_mib')} MiB.",
        "",
    ]


def sdk_section(args, r, targets):
    lines = []
    if "sdk_documents" in r:
        hwm_ratio = num(r.get("sdk_hwm_over_chunk"))
        targets.append(("SDK peak RSS iterating 100k documents < 3x one chunk",
                        f(hwm_ratio, ".2f", "x"), hwm_ratio < 3))
        lines += [
            "## SDK",
            "",
            f"A crawl of `pages-100000.fanout-10.synthetic.test` ({r.get('job_pages')} pages, "
            f"{r.get('job_seconds')} s to complete; mock peak RSS {r.get('mock_sdk_hwm_mib')} MiB), "
            "then walked in a fresh process with `CrawlJob::documents()`.",
            "",
            "| figure | value |",
            "|---|---|",
            f"| documents iterated | {r.get('sdk_documents')} in {r.get('sdk_iterate_s')} s "
            f"({r.get('sdk_docs_per_s')}/s), {r.get('sdk_markdown_mib')} MiB of markdown |",
            f"| chunks / largest chunk | {r.get('sdk_chunks')} / {r.get('sdk_chunk_mib')} MiB |",
            f"| client RSS before / peak (VmHWM) | {r.get('sdk_rss_before_mib')} / "
            f"{r.get('sdk_hwm_mib')} MiB |",
            f"| peak RSS / one chunk | {r.get('sdk_hwm_over_chunk')}x (growth while iterating: "
            f"{r.get('sdk_growth_over_chunk')}x) |",
        ]
    if "sdk_overhead_pct" in r:
        pct = num(r.get("sdk_overhead_pct"))
        targets.append(("SDK per-call overhead vs raw libcurl < 5%", f(pct, ".1f", " %"), pct < 5))
        lines += [
            f"| POST /v2/scrape per call, raw libcurl (median / p99) | {r.get('raw_us_median')} / "
            f"{r.get('raw_us_p99')} us |",
            f"| the same through `Client::scrape` (median / p99) | {r.get('sdk_us_median')} / "
            f"{r.get('sdk_us_p99')} us |",
            f"| SDK overhead (medians, {r.get('overhead_calls')} calls each, interleaved in blocks "
            f"of 100) | {r.get('sdk_overhead_pct')} % |",
        ]
    if "parse_sdk_mb_s" in r:
        lines += [
            f"| status chunk of {r.get('parse_chunk_mb')} MB ({r.get('parse_chunk_docs')} documents): "
            f"SDK parse to `JobStatus` | {r.get('parse_sdk_mb_s')} MB/s |",
            f"| the same chunk, nlohmann::json DOM parse / validation only | "
            f"{r.get('parse_nlohmann_dom_mb_s')} / {r.get('parse_nlohmann_accept_mb_s')} MB/s |",
        ]
    return lines + [""] if lines else []


def content_section(args, r, targets):
    rounds = sorted({k.split(".")[0] for k in r if re.match(r"^r\d+\.content_", k)},
                    key=lambda rd: int(rd[1:]))
    if not rounds:
        return []

    def m(key):
        return med([num(r.get(f"{rd}.{key}")) for rd in rounds])

    def ratio(ours, theirs):
        # Median of the per-round ratios: the two sides of one round ran seconds apart.
        values = []
        for rd in rounds:
            a, b = num(r.get(f"{rd}.{ours}")), num(r.get(f"{rd}.{theirs}"))
            if a and b:
                values.append(a / b)
        return med(values)

    ours_b, ours_l = m("content_bundled_mb_s"), m("content_large_mb_s")
    td_b, td_l = m("turndown_bundled_mb_s"), m("turndown_large_mb_s")
    rb = ratio("content_bundled_mb_s", "turndown_bundled_mb_s")
    rl = ratio("content_large_mb_s", "turndown_large_mb_s")
    targets.append(("HTML to markdown >= 10x turndown (bundled pages)", f(rb, ".1f", "x"),
                    None if rb is None else rb >= 10))
    targets.append(("HTML to markdown >= 10x turndown (large page)", f(rl, ".1f", "x"),
                    None if rl is None else rl >= 10))
    r1 = rounds[0]
    return [
        "## Content pipeline: HTML to markdown",
        "",
        f"Input MB per second, parse included; medians of {len(rounds)} rounds, and the ratio is "
        f"the median of the per-round ratios. Bundled: the {r.get(r1 + '.content_bundled_files')} "
        f"HTML pages of `mockserver/fixtures/web` ({r.get(r1 + '.content_bundled_kb')} KB). Large: "
        f"one generated {r.get(r1 + '.content_large_kb')} KB documentation page (bench/content_bench"
        ".cpp). The mock converts the whole page here (`onlyMainContent: false`), as turndown "
        "does; the scrape default (main content only) is shown too.",
        "",
        "| input | webdata-mock | main content only | turndown | ratio |",
        "|---|---|---|---|---|",
        f"| bundled pages | {f(ours_b, '.1f')} MB/s | {f(m('content_bundled_main_mb_s'), '.1f')} MB/s "
        f"| {f(td_b, '.2f')} MB/s | {f(rb, '.1f', 'x')} |",
        f"| large page | {f(ours_l, '.1f')} MB/s | {f(m('content_large_main_mb_s'), '.1f')} MB/s "
        f"| {f(td_l, '.2f')} MB/s | {f(rl, '.1f', 'x')} |",
        "",
        f"Markdown out (bundled / large): webdata-mock {r.get(r1 + '.content_bundled_md_kb')} / "
        f"{r.get(r1 + '.content_large_md_kb')} KB, turndown {r.get(r1 + '.turndown_bundled_md_kb')} / "
        f"{r.get(r1 + '.turndown_large_md_kb')} KB.",
        "",
    ]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--work", required=True)
    parser.add_argument("--root", required=True)
    parser.add_argument("--build", required=True)
    parser.add_argument("--duration", default="10s")
    parser.add_argument("--rounds", default="3")
    parser.add_argument("--parts", default="")
    args = parser.parse_args()
    r = results(args.work)
    runs = wrk_runs(args.work)
    targets = []
    body = []
    body += http_section(args, r, runs, targets)
    body += server_section(args, r, targets)
    body += crawl_section(args, r, targets)
    body += sdk_section(args, r, targets)
    body += content_section(args, r, targets)
    out = header(args, r)
    if targets:
        out += ["## Targets", "", "| target | figure | verdict |", "|---|---|---|"]
        out += [f"| {t} | {v} | {verdict(ok)} |" for t, v, ok in targets]
        out += [""]
    out += body
    notes = read(os.path.join(args.root, "bench", "analysis.md")).strip()
    if notes:
        out += [notes, ""]
    print("\n".join(out))


if __name__ == "__main__":
    main()
