// Drives a running mock with the official MCP server (firecrawl-mcp, pinned in package.json) the
// way an MCP host does: starts it over stdio with FIRECRAWL_API_URL pointing at the mock, lists its
// tools and calls each one, asserting a meaningful answer. Usage: node mcp.mjs BASE_URL API_KEY
//
// Every tool the server lists must be accounted for. A tool is either TESTED (a step below calls
// it) or PENDING (in the PENDING table with the group building its surface). The final step
// FAILS for any listed tool that is neither, so a tool a new firecrawl-mcp version adds cannot
// slip by untested: add a step for it (or, while its surface is being built, a PENDING entry).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const [baseUrl, apiKey] = process.argv.slice(2);
if (!baseUrl || !apiKey) {
  console.error("usage: node mcp.mjs BASE_URL API_KEY");
  process.exit(2);
}

// Tools whose mock surface another group is building; each name maps to that group. Empty while
// every tool firecrawl-mcp lists has a step below.
const PENDING = {};

const require = createRequire(import.meta.url);
const serverEntry = join(dirname(require.resolve("firecrawl-mcp/package.json")), "dist", "index.js");
const transport = new StdioClientTransport({
  command: process.execPath,
  args: [serverEntry],
  env: { ...process.env, FIRECRAWL_API_KEY: apiKey, FIRECRAWL_API_URL: baseUrl },
  stderr: "pipe",
});
let serverLog = "";
transport.stderr?.on("data", (chunk) => { serverLog += chunk; });
const client = new Client({ name: "webdata-mcp-check", version: "1.0.0" });

const failures = [];
const tested = new Set();
let passed = 0;

function check(condition, what) {
  if (!condition) throw new Error(`expected ${what}`);
}

async function step(name, body) {
  try {
    await body();
    passed += 1;
    console.log(`ok   ${name}`);
  } catch (err) {
    failures.push(name);
    console.log(`FAIL ${name}: ${err?.message ?? err}`);
  }
}

function textOf(result) {
  return (result?.content ?? []).filter((c) => c.type === "text").map((c) => c.text).join("\n");
}

// Calls a tool; a tool-level error (isError) fails the step unless expectError is set. An
// expected error is read as sent: the client's callTool() would check the error's structured
// details against the tool's output schema (which describes answers, not errors) and throw.
async function call(tool, args, { expectError = false } = {}) {
  tested.add(tool);
  const params = { name: tool, arguments: args };
  const options = { timeout: 120000 };
  const result = expectError
    ? await client.request({ method: "tools/call", params }, CallToolResultSchema, options)
    : await client.callTool(params, undefined, options);
  const text = textOf(result);
  if (!!result.isError !== expectError) {
    throw new Error(`${tool}: isError=${!!result.isError}: ${text.slice(0, 400)}`);
  }
  return { result, text };
}

// The JSON answer of a tool: its structured content, or its text parsed.
function answer({ result, text }) {
  if (result.structuredContent) return result.structuredContent;
  try {
    return JSON.parse(text);
  } catch {
    return { text };
  }
}

const page = "https://shop.example.test/products/trail-kettle";
let listed = [];

await step("mcp: connect and list tools", async () => {
  await client.connect(transport);
  const tools = await client.listTools();
  listed = tools.tools.map((t) => t.name);
  check(listed.includes("firecrawl_scrape"), `firecrawl_scrape listed (got ${listed.join(", ")})`);
  console.log(`     ${listed.length} tools: ${listed.join(", ")}`);
});

await step("mcp firecrawl_scrape: markdown of a page", async () => {
  const out = await call("firecrawl_scrape", { url: page, formats: ["markdown"] });
  check(/kettle/i.test(out.text), `the page's markdown (got ${out.text.slice(0, 300)})`);
});

await step("mcp firecrawl_map: the site's URLs", async () => {
  const out = answer(await call("firecrawl_map", { url: "http://pages-10.synthetic.test/", limit: 5 }));
  const links = out.links ?? out.data?.links ?? [];
  check(links.length === 5, `5 links (got ${JSON.stringify(out).slice(0, 300)})`);
});

await step("mcp firecrawl_search: web results (falls back without Exchange)", async () => {
  const out = await call("firecrawl_search", { query: "trail kettle", limit: 3 });
  check(out.text.includes("example.test"), `results (got ${out.text.slice(0, 300)})`);
});

await step("mcp firecrawl_find_tools: Exchange not enabled for the team", async () => {
  const out = await call("firecrawl_find_tools", {}, { expectError: true });
  check(out.text.includes("Exchange is not enabled for this team."), `the 403 message (got ${out.text.slice(0, 300)})`);
});

await step("mcp firecrawl_crawl (polls to the end) + firecrawl_check_crawl_status", async () => {
  const crawled = answer(await call("firecrawl_crawl", { url: "http://pages-5.synthetic.test/", limit: 5 }));
  const crawlId = crawled.id ?? crawled.data?.id ?? crawled.text?.match(/[0-9a-f]{8}-[0-9a-f-]{27}/)?.[0];
  check(typeof crawlId === "string", `a crawl id (got ${JSON.stringify(crawled).slice(0, 300)})`);
  const status = answer(await call("firecrawl_check_crawl_status", { id: crawlId }));
  check(status.status === "completed", `a completed crawl (got ${JSON.stringify(status).slice(0, 300)})`);
  check(JSON.stringify(status).includes("pages-5.synthetic.test"), "the crawled pages");
});

// firecrawl-mcp 3.26 lists firecrawl_extract but answers every call itself, without the API:
// extract is deprecated there (firecrawl_scrape with a json format or firecrawl_agent instead).
await step("mcp firecrawl_extract: deprecated by the MCP server itself", async () => {
  const out = await call("firecrawl_extract", {
    urls: [page], prompt: "name and price",
    schema: { type: "object", properties: { name: { type: "string" } } },
  }, { expectError: true });
  check(out.text.includes("deprecated"), `the deprecation message (got ${out.text.slice(0, 300)})`);
});

await step("mcp firecrawl_agent + firecrawl_agent_status", async () => {
  const started = answer(await call("firecrawl_agent", { prompt: "What does the trail kettle cost?", urls: [page] }));
  const id = started.id ?? started.jobId ?? started.data?.id;
  check(typeof id === "string", `an agent job id (got ${JSON.stringify(started).slice(0, 300)})`);
  let status;
  for (let i = 0; i < 120; i++) {
    status = answer(await call("firecrawl_agent_status", { id }));
    if (["completed", "failed"].includes(status.status)) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  check(status.status === "completed", `a completed agent job (got ${JSON.stringify(status).slice(0, 300)})`);
});

await step("mcp firecrawl_parse: a local HTML file", async () => {
  const dir = mkdtempSync(join(tmpdir(), "webdata-mcp-parse-"));
  const file = join(dir, "notes.html");
  writeFileSync(file, "<html><head><title>Field notes</title></head><body><h1>Field notes</h1>" +
    "<p>The kettle boils in four minutes.</p></body></html>");
  const out = await call("firecrawl_parse", { filePath: file, formats: ["markdown"] });
  check(out.text.includes("four minutes"), `the file's markdown (got ${out.text.slice(0, 300)})`);
});

await step("mcp firecrawl_credit_usage: the team's credits", async () => {
  const out = await call("firecrawl_credit_usage", {});
  check(/remaining/i.test(out.text), `remaining credits (got ${out.text.slice(0, 300)})`);
});

await step("mcp firecrawl_interact (url, then scrapeId with code) + firecrawl_interact_stop", async () => {
  const opened = answer(await call("firecrawl_interact", { url: page, prompt: "scroll down" }));
  const scrapeId = opened.scrapeId;
  check(typeof scrapeId === "string", `the session's scrapeId (got ${JSON.stringify(opened).slice(0, 300)})`);
  check(opened.exitCode === 0 && String(opened.result ?? "").includes("URL: " + page),
    `the page state (got ${JSON.stringify(opened).slice(0, 300)})`);
  const code = answer(await call("firecrawl_interact", { scrapeId, code: "await page.title()" }));
  check(typeof code.result === "string" && code.result.length > 0, `the title from code (got ${JSON.stringify(code).slice(0, 300)})`);
  // The tool's output schema keeps success (and message, scrapeId) of the API's answer.
  const stopped = answer(await call("firecrawl_interact_stop", { scrapeId }));
  check(stopped.success === true, `stopped (got ${JSON.stringify(stopped).slice(0, 300)})`);
  const again = await call("firecrawl_interact_stop", { scrapeId }, { expectError: true });
  // The server reports only the status of the API's 404 ("No interaction session for this scrape").
  check(again.text.includes("status code 404"), `no session left to stop (got ${again.text.slice(0, 300)})`);
});

await step("mcp firecrawl_monitor_create|list|get|update|run|check|checks|delete", async () => {
  const created = answer(await call("firecrawl_monitor_create", {
    page, goal: "Tell me when the price changes", name: "Kettle price", scheduleText: "every 30 minutes",
  }));
  const monitor = created.data ?? created;
  check(typeof monitor.id === "string" && monitor.schedule?.cron === "*/30 * * * *",
    `a monitor with its cron (got ${JSON.stringify(created).slice(0, 300)})`);
  const id = monitor.id;
  const listed = answer(await call("firecrawl_monitor_list", { limit: 10 }));
  check(Array.isArray(listed.data) && listed.data.some((m) => m.id === id), `the monitor in the list (got ${JSON.stringify(listed).slice(0, 300)})`);
  const got = answer(await call("firecrawl_monitor_get", { id }));
  check(got.data?.name === "Kettle price" && got.data?.goal === "Tell me when the price changes",
    `the monitor by id (got ${JSON.stringify(got).slice(0, 300)})`);
  const updated = answer(await call("firecrawl_monitor_update", { id, body: { status: "paused" } }));
  check(updated.data?.status === "paused", `paused (got ${JSON.stringify(updated).slice(0, 300)})`);
  const run = answer(await call("firecrawl_monitor_run", { id }));
  const checkId = run.data?.id;
  check(typeof checkId === "string" && run.data?.monitorId === id && run.data?.trigger === "manual",
    `a manual check (got ${JSON.stringify(run).slice(0, 300)})`);
  let detail;
  for (let i = 0; i < 100; i += 1) {
    detail = answer(await call("firecrawl_monitor_check", { id, checkId, limit: 10 })).data;
    if (!["queued", "running"].includes(detail?.status)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  check(detail?.status === "completed", `a completed check (got ${JSON.stringify(detail).slice(0, 300)})`);
  check(detail.pages?.length === 1 && detail.pages[0].url === page && detail.pages[0].status === "new", "the page, new");
  const newOnly = answer(await call("firecrawl_monitor_check", { id, checkId, pageStatus: "changed" })).data;
  check(newOnly?.pages?.length === 0, `no changed page (got ${JSON.stringify(newOnly).slice(0, 300)})`);
  const checks = answer(await call("firecrawl_monitor_checks", { id, limit: 5 }));
  check(checks.data?.length === 1 && checks.data[0].id === checkId && checks.data[0].summary?.new === 1,
    `the check in the list (got ${JSON.stringify(checks).slice(0, 300)})`);
  const deleted = answer(await call("firecrawl_monitor_delete", { id }));
  check(deleted.success === true, `deleted (got ${JSON.stringify(deleted).slice(0, 300)})`);
  const gone = await call("firecrawl_monitor_get", { id }, { expectError: true });
  check(/not found/i.test(gone.text), `the deleted monitor not found (got ${gone.text.slice(0, 300)})`);
});

await step("mcp firecrawl_research_search_papers|inspect_paper|related_papers|read_paper", async () => {
  const found = answer(await call("firecrawl_research_search_papers", { query: "graph neural networks for molecules", k: 3 }));
  check(found.results?.length === 3, `3 papers (got ${JSON.stringify(found).slice(0, 300)})`);
  const first = found.results[0];
  const meta = await call("firecrawl_research_inspect_paper", { paperId: first.primaryId });
  check(answer(meta).paper?.title === first.title && meta.text.includes(`# ${first.title}`),
    `the paper's metadata (got ${meta.text.slice(0, 300)})`);
  const inspected = await call("firecrawl_research_inspect_paper", { paperId: "arxiv:2101.00101" });
  check(inspected.text.includes("Molecular Property Prediction"), `the title (got ${inspected.text.slice(0, 300)})`);
  const related = answer(await call("firecrawl_research_related_papers", {
    seed_ids: ["1001"], intent: "molecule property prediction", k: 2,
  }));
  check(related.results?.length === 2 && typeof related.poolSize === "number",
    `2 related papers and the pool size (got ${JSON.stringify(related).slice(0, 300)})`);
  const read = await call("firecrawl_research_read_paper", { paperId: "arxiv:2101.00101", question: "which dataset", k: 1 });
  const passages = answer(read).passages;
  check(passages?.length === 1 && read.text.includes("QM9"), `the passage that answers (got ${read.text.slice(0, 300)})`);
});

// firecrawl-mcp 3.26 lists firecrawl_research_search_github but answers every call itself, without
// the API: it is deprecated there in favour of firecrawl_developer_search.
await step("mcp firecrawl_research_search_github: deprecated by the MCP server itself", async () => {
  const out = await call("firecrawl_research_search_github", { query: "retry backoff", k: 2 }, { expectError: true });
  check(out.text.includes("deprecated") && out.result.structuredContent?.code === "DEPRECATED_TOOL",
    `the deprecation answer (got ${out.text.slice(0, 300)})`);
});

await step("mcp firecrawl_developer_search: passages from the docs corpus", async () => {
  const out = await call("firecrawl_developer_search", { query: "configure webhooks", k: 3 });
  const results = answer(out).results;
  check(results?.length > 0 && results.length <= 3 && results[0].passages?.length > 0,
    `ranked results with passages (got ${JSON.stringify(answer(out)).slice(0, 300)})`);
  check(results[0].url === "https://docs.example.test/guides/webhooks", `the webhooks guide first (got ${results[0].url})`);
  check(out.text.includes("## [doc:https://docs.example.test/guides/webhooks] (doc) Sending webhooks") &&
    out.text.includes("webhook sink"), `the passages as markdown (got ${out.text.slice(0, 300)})`);
});

await step("mcp firecrawl_feedback (a scrape job) + firecrawl_search_feedback (a search id)", async () => {
  const scraped = answer(await call("firecrawl_scrape", { url: page, formats: ["markdown"] }));
  const jobId = scraped.metadata?.scrapeId ?? scraped.data?.metadata?.scrapeId;
  check(typeof jobId === "string", `the scrape's id (got ${JSON.stringify(scraped).slice(0, 300)})`);
  const fb = answer(await call("firecrawl_feedback", { endpoint: "scrape", jobId, rating: "bad", note: "price missing" }));
  check(fb.success === true && typeof fb.feedbackId === "string" && fb.creditsRefunded === 0,
    `feedback stored (got ${JSON.stringify(fb).slice(0, 300)})`);
  const searched = answer(await call("firecrawl_search", { query: "trail kettle", limit: 3 }));
  const searchId = searched.id;
  check(typeof searchId === "string", `the search's id (got ${JSON.stringify(searched).slice(0, 300)})`);
  const sf = answer(await call("firecrawl_search_feedback", { searchId, rating: "good", valuableSources: [{ url: page }] }));
  check(sf.success === true && typeof sf.feedbackId === "string", `search feedback stored (got ${JSON.stringify(sf).slice(0, 300)})`);
  const again = answer(await call("firecrawl_search_feedback", { searchId, rating: "partial", valuableSources: [{ url: page }] }));
  check(again.success === true && again.alreadySubmitted === true && again.feedbackId === sf.feedbackId,
    `the record idempotent per search id (got ${JSON.stringify(again).slice(0, 300)})`);
});

await step("mcp: every listed tool is tested or pending", async () => {
  const missing = listed.filter((name) => !tested.has(name) && !(name in PENDING));
  check(missing.length === 0, `a step or a PENDING entry for: ${missing.join(", ")}`);
  const pending = listed.filter((name) => !tested.has(name) && name in PENDING);
  if (pending.length) console.log(`     pending: ${pending.map((n) => `${n} (${PENDING[n]})`).join(", ")}`);
});

await client.close().catch(() => {});
console.log(`\nmcp: ${passed} passed, ${failures.length} failed`);
if (failures.length) {
  console.log(`failed: ${failures.join("; ")}`);
  if (serverLog) console.log(`firecrawl-mcp stderr (tail):\n${serverLog.slice(-2000)}`);
  process.exit(1);
}
