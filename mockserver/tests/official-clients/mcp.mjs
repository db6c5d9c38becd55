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

// Tools whose mock surface another group is building; each name maps to that group.
const PENDING = {
  firecrawl_interact: "interact",
  firecrawl_interact_stop: "interact",
  firecrawl_monitor_create: "monitor",
  firecrawl_monitor_list: "monitor",
  firecrawl_monitor_get: "monitor",
  firecrawl_monitor_update: "monitor",
  firecrawl_monitor_delete: "monitor",
  firecrawl_monitor_run: "monitor",
  firecrawl_monitor_checks: "monitor",
  firecrawl_monitor_check: "monitor",
  firecrawl_research_search_papers: "research",
  firecrawl_research_inspect_paper: "research",
  firecrawl_research_related_papers: "research",
  firecrawl_research_read_paper: "research",
  firecrawl_research_search_github: "research",
  firecrawl_developer_search: "developer search",
  firecrawl_feedback: "feedback",
  firecrawl_search_feedback: "feedback",
};

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
