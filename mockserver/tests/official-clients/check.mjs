// Drives a running mock with the official JavaScript SDK and CLI (pinned in package.json) the way
// applications use them against a deployment. Every call here is one a deployment accepts; the
// check fails (exit 1) when an official client fails on it or reads something a deployment
// would not send. Usage: node check.mjs BASE_URL API_KEY
import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

import Firecrawl, { FirecrawlAppV1 } from "@mendable/firecrawl-js";

const [baseUrl, apiKey] = process.argv.slice(2);
if (!baseUrl || !apiKey) {
  console.error("usage: node check.mjs BASE_URL API_KEY");
  process.exit(2);
}

const app = new Firecrawl({ apiKey, apiUrl: baseUrl });
const failures = [];
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
    const detail = err?.details ? ` ${JSON.stringify(err.details).slice(0, 400)}` : "";
    failures.push(name);
    console.log(`FAIL ${name}: ${err?.status ?? ""} ${err?.message ?? err}${detail}`);
  }
}

const page = "https://shop.example.test/products/trail-kettle";
const docs = "https://docs.example.test/";

await step("sdk scrape: markdown, html, rawHtml, links, images, summary", async () => {
  const doc = await app.scrape(page, {
    formats: ["markdown", "html", "rawHtml", "links", "images", "summary"],
  });
  for (const key of ["markdown", "html", "rawHtml", "summary"]) {
    check(typeof doc[key] === "string" && doc[key].length > 0, `${key} text`);
  }
  check(Array.isArray(doc.links) && doc.links.length > 0, "links");
  check(Array.isArray(doc.images), "images");
  check(doc.metadata?.statusCode === 200, "metadata.statusCode 200");
});

await step("sdk scrape: json with a schema, screenshot, branding, changeTracking", async () => {
  const doc = await app.scrape(page, {
    formats: [
      "markdown",
      { type: "json", prompt: "name and price", schema: { type: "object", properties: { name: { type: "string" } } } },
      { type: "screenshot", fullPage: true },
      "branding",
      { type: "changeTracking", modes: ["git-diff"] },
    ],
  });
  check(doc.json && typeof doc.json === "object", "json object");
  check(typeof doc.screenshot === "string" && doc.screenshot.length > 0, "screenshot");
  check(doc.branding && typeof doc.branding === "object", "branding");
  check(doc.changeTracking?.changeStatus, "changeTracking.changeStatus");
});

await step("sdk scrape: attributes, question, highlights, audio; newer options", async () => {
  const doc = await app.scrape(page, {
    formats: [
      "markdown",
      { type: "attributes", selectors: [{ selector: "a", attribute: "href" }] },
      { type: "question", question: "What does the kettle cost?" },
      { type: "highlights", query: "kettle price" },
      "audio",
      "product",
      "menu",
      "video",
    ],
    lockdown: false,
    redactPII: true,
    profile: { name: "compat", saveChanges: false },
    minAge: 0,
    proxy: "stealth",
    parsers: ["pdf", { type: "pdf", mode: "fast", maxPages: 5 }],
  });
  check(Array.isArray(doc.attributes) && doc.attributes[0].values.length > 0, "attribute values");
  check(typeof doc.answer === "string", "answer");
  check(typeof doc.highlights === "string", "highlights");
  check(typeof doc.warning === "string" && doc.warning.includes("audio"), "a warning for audio");
  const raw = await app.scrape(page, { formats: ["rawBase64"] });
  check(typeof raw.rawBase64 === "string", "rawBase64");
});

await step("sdk scrape: a URL without a scheme", async () => {
  const doc = await app.scrape("docs.example.test/", { formats: ["markdown"] });
  check(doc.metadata?.sourceURL === "http://docs.example.test/", "http:// prepended");
});

await step("sdk errors: a bad request is an SdkError with status 400 and details", async () => {
  let error;
  try {
    await app.scrape(page, { waitFor: 20000, timeout: 30000 });
  } catch (err) {
    error = err;
  }
  check(error, "an error");
  check(error.status === 400, `status 400 (got ${error.status})`);
  check(Array.isArray(error.details) && error.details[0]?.path?.[0] === "waitFor", "details naming waitFor");
  let missing;
  try {
    await app.getCrawlStatus("00000000-0000-4000-8000-000000000000");
  } catch (err) {
    missing = err;
  }
  check(missing?.status === 404, "404 for an unknown job");
});

await step("sdk crawl: waits, follows every next page", async () => {
  const job = await app.crawl("http://pages-30.synthetic.test/", {
    limit: 30,
    scrapeOptions: { formats: ["markdown"] },
    pollInterval: 1,
    timeout: 120,
  });
  check(job.status === "completed", `completed (got ${job.status})`);
  check(job.total === 30, `total 30 (got ${job.total})`);
  check(job.data.length === 30, `30 documents over the pages (got ${job.data.length})`);
});

await step("sdk crawl: manual pagination with next", async () => {
  const started = await app.startCrawl("http://pages-30.synthetic.test/", { limit: 30 });
  let status;
  for (let i = 0; i < 120; i += 1) {
    status = await app.getCrawlStatus(started.id, { autoPaginate: false });
    if (status.status !== "scraping") break;
    await new Promise((r) => setTimeout(r, 250));
  }
  check(status.status === "completed", "completed");
  check(typeof status.next === "string" && status.next.startsWith(baseUrl), "an absolute next URL");
  const all = await app.getCrawlStatus(started.id, { autoPaginate: true });
  check(all.data.length === 30, `30 documents (got ${all.data.length})`);
});

await step("sdk watcher: documents and done", async () => {
  const started = await app.startCrawl("http://pages-10.synthetic.test/", { limit: 10 });
  const watcher = app.watcher(started.id, { kind: "crawl", pollInterval: 1, timeout: 60 });
  const seen = new Set();
  let done;
  watcher.on("document", (doc) => seen.add(doc.metadata?.sourceURL ?? doc.metadata?.url));
  watcher.on("done", (state) => {
    done = state;
  });
  await watcher.start();
  check(done?.status === "completed", `done (got ${JSON.stringify(done)?.slice(0, 200)})`);
  check(seen.size === 10, `10 documents (got ${seen.size})`);
});

await step("sdk batch: invalid URLs reported, failed pages left out", async () => {
  const started = await app.startBatchScrape([page, docs, "not a url", "http://nowhere.invalid/"], {
    ignoreInvalidURLs: true,
    options: { formats: ["markdown"] },
  });
  check(Array.isArray(started.invalidURLs) && started.invalidURLs.includes("not a url"), "invalidURLs");
  let job;
  for (let i = 0; i < 120; i += 1) {
    job = await app.getBatchScrapeStatus(started.id);
    if (job.status !== "scraping") break;
    await new Promise((r) => setTimeout(r, 250));
  }
  check(job.status === "completed", "completed");
  check(job.total === 2 && job.completed === 2, `2/2 (got ${job.completed}/${job.total})`);
  const errors = await app.getBatchScrapeErrors(started.id);
  check(errors.errors.some((e) => e.url === "http://nowhere.invalid/"), "the failed URL in errors");
  const waited = await app.batchScrape([page, docs], { options: { formats: ["links"] }, pollInterval: 1 });
  check(waited.status === "completed" && waited.data.length === 2, "batchScrape waits for 2 documents");
});

await step("sdk cancel, active, errors", async () => {
  const started = await app.startCrawl("http://pages-500.synthetic.test/", { limit: 500 });
  const active = await app.getActiveCrawls();
  check(active.success === true, "active success");
  const entry = active.crawls.find((c) => c.id === started.id);
  check(entry, "the running crawl is listed");
  check(Array.isArray(entry.options?.includePaths), "options.includePaths");
  check(await app.cancelCrawl(started.id), "cancelCrawl true");
  const status = await app.getCrawlStatus(started.id, { autoPaginate: false });
  check(status.status === "cancelled", "cancelled");
  const errors = await app.getCrawlErrors(started.id);
  check(Array.isArray(errors.errors) && Array.isArray(errors.robotsBlocked), "errors shape");
});

await step("sdk search: web and news, with scraping", async () => {
  const results = await app.search("trail kettle", {
    sources: ["web", "news"],
    limit: 3,
    highlights: true,
    scrapeOptions: { formats: ["markdown"] },
  });
  check(Array.isArray(results.web) && results.web.length > 0, "web results");
  check(typeof results.web[0].url === "string", "result url");
});

await step("sdk agent: start, poll, result", async () => {
  const result = await app.agent({
    prompt: "What does the trail kettle cost?",
    urls: [page],
    model: "spark-1-mini",
    strictConstrainToURLs: true,
    pollInterval: 1,
    timeout: 60,
  });
  check(result.status === "completed", `completed (got ${result.status})`);
  check(result.data !== undefined, "data");
});

await step("sdk agent: listAgents, getAgentTrace, getAgentSnapshot", async () => {
  const started = await app.startAgent({ prompt: "What does the trail kettle cost?", urls: [page] });
  check(typeof started.id === "string" && typeof started.threadId === "string", "id and threadId");
  check(started.threadTurn === 1, `threadTurn 1 (got ${started.threadTurn})`);
  const list = await app.listAgents();
  check(list.success === true && Array.isArray(list.agents), "agents");
  const item = list.agents.find((a) => a.id === started.id);
  check(item !== undefined, "the run listed");
  check(list.agents[0].id === started.id, "newest first");
  check(typeof item.createdAt === "string" && item.options?.prompt === "What does the trail kettle cost?",
    "createdAt and options.prompt");
  const older = await app.listAgents({ before: Date.parse(item.createdAt) });
  check(Array.isArray(older.agents) && older.agents.every((a) => a.id !== started.id),
    "before pages past the run");
  const trace = await app.getAgentTrace(started.id, { liveView: true });
  check(trace.success === true && Array.isArray(trace.events), "events");
  const types = trace.events.map((e) => e.type);
  check(types[0] === "run.started" && types[types.length - 1] === "run.finished",
    `run.started ... run.finished (got ${types.join(",")})`);
  check(types.includes("tool_call.started"), "a tool call per page read");
  check(Array.isArray(trace.activeBrowserSessions), "activeBrowserSessions with liveView");
  const artifact = trace.events.find((e) => e.type === "artifact.updated");
  check(artifact?.artifact?.snapshotId, "an artifact with a snapshot");
  const snapshot = await app.getAgentSnapshot(started.id, artifact.artifact.snapshotId);
  check(typeof snapshot.snapshot === "string" && snapshot.snapshot.length > 0, "snapshot content");
});

await step("sdk agent: a thread continued in chat mode, getAgentThread", async () => {
  const first = await app.agent({ prompt: "What does the trail kettle cost?", urls: [page], pollInterval: 1, timeout: 60 });
  check(first.status === "completed", `completed (got ${first.status})`);
  const next = await app.startAgent({ prompt: "How heavy is it?", threadId: first.threadId, mode: "chat",
    exchange: { enabled: true, toolkits: ["news"], maxCalls: 3 } });
  check(next.threadId === first.threadId && next.threadTurn === 2, `turn 2 (got ${next.threadTurn})`);
  const status = await app.getAgentStatus(next.id);
  check(status.mode === "chat" && typeof status.message === "string", "chat answers in message");
  check(status.exchange?.enabled === true && status.exchange?.paidCalls === 0, "exchange summary");
  const thread = await app.getAgentThread(first.threadId, { includeData: true });
  check(thread.success === true && thread.thread?.id === first.threadId, "thread");
  check(thread.thread.runs.length === 2 && thread.thread.runs[1].turn === 2, "two turns");
  check(thread.thread.runs[0].status === "succeeded" && thread.thread.runs[0].data !== undefined,
    "includeData gives the first run's data");
  let refused = null;
  try {
    await app.startAgent({ prompt: "x", exchange: { maxCalls: 31 } });
  } catch (err) {
    refused = err;
  }
  check(refused?.status === 400, `maxCalls 31 refused with 400 (got ${refused?.status})`);
});

await step("sdk map: links with titles, limit, sitemap, search", async () => {
  const all = await app.map("http://pages-30.synthetic.test/", {
    sitemap: "include",
    includeSubdomains: false,
    ignoreQueryParameters: true,
    limit: 10,
    timeout: 30000,
    threatProtection: { mode: "off" },
  });
  check(Array.isArray(all.links), "links");
  check(all.links.length === 10, `limit 10 honoured (got ${all.links.length})`);
  check(all.links.every((l) => typeof l.url === "string" && l.url.startsWith("http://pages-30.synthetic.test/")),
    "every link an absolute URL of the site");
  check(all.links.some((l) => typeof l.title === "string" && l.title.length > 0), "titles");
  const shop = await app.map("https://shop.example.test/", { search: "kettle", sitemap: "include" });
  check(shop.links.length > 0 && shop.links[0].url.includes("kettle"),
    `the kettle page first for "kettle" (got ${shop.links[0]?.url})`);
});

const productSchema = {
  type: "object",
  properties: { name: { type: "string" }, price: { type: "string" } },
  required: ["name"],
};

await step("sdk extract: a glob over the shop, waited for, data fits the schema", async () => {
  const result = await app.extract({
    urls: ["https://shop.example.test/*"],
    prompt: "The product name and price",
    schema: productSchema,
    systemPrompt: "Answer from the page only.",
    showSources: true,
    allowExternalLinks: false,
    enableWebSearch: false,
    ignoreInvalidURLs: true,
    agent: { model: "FIRE-1" },
    scrapeOptions: { formats: ["markdown"], onlyMainContent: true },
    integration: "compat-check",
    pollInterval: 1,
    timeout: 60,
  });
  check(result.success === true, `success (got ${JSON.stringify(result).slice(0, 300)})`);
  check(result.status === "completed", `completed (got ${result.status})`);
  check(result.data && typeof result.data.name === "string" && result.data.name.length > 0, "data.name");
  check(result.data.price === undefined || typeof result.data.price === "string", "data.price a string");
  check(result.sources && typeof result.sources === "object", "sources");
  check(typeof result.expiresAt === "string" && typeof result.creditsUsed === "number", "expiresAt, creditsUsed");
  const started = await app.startExtract({ urls: ["https://shop.example.test/products/trail-kettle"], prompt: "the price" });
  check(typeof started.id === "string" && started.id.length > 0, "an id from startExtract");
  const status = await app.getExtractStatus(started.id);
  check(["processing", "completed"].includes(status.status), `processing or completed (got ${status.status})`);
  let missing;
  try {
    await app.getExtractStatus("00000000-0000-4000-8000-000000000000");
  } catch (err) {
    missing = err;
  }
  check(missing?.status === 404, `404 for an unknown extract id (got ${missing?.status})`);
});

await step("sdk v1 extract: the v1 client's body and polling", async () => {
  const v1 = new FirecrawlAppV1({ apiKey, apiUrl: baseUrl });
  const result = await v1.extract(["https://shop.example.test/products/trail-kettle"], {
    prompt: "The product name and price",
    schema: productSchema,
    includeSubdomains: false,
    showSources: false,
    agent: { model: "FIRE-1" },
  });
  check(result.success === true, `success (got ${JSON.stringify(result).slice(0, 300)})`);
  check(typeof result.data?.name === "string" && result.data.name.includes("Kettle"), "data.name of the kettle");
});

await step("sdk v1 deepResearch: activities, sources, final analysis", async () => {
  const v1 = new FirecrawlAppV1({ apiKey, apiUrl: baseUrl });
  const activities = [];
  const sources = [];
  const result = await v1.deepResearch("trail kettle", { maxDepth: 2, maxUrls: 3 },
    (a) => activities.push(a), (s) => sources.push(s));
  check(result.success === true && result.status === "completed",
    `a completed research (got ${JSON.stringify(result).slice(0, 300)})`);
  check(typeof result.data?.finalAnalysis === "string" && result.data.finalAnalysis.length > 0,
    "data.finalAnalysis");
  check(activities.length >= 3 && activities.every((a) => a.type && a.message && a.timestamp),
    `activities through the callback (got ${activities.length})`);
  check(sources.length > 0 && sources.every((s) => s.url.startsWith("http")), "sources through the callback");
  const status = await v1.checkDeepResearchStatus(result.id ?? (await v1.asyncDeepResearch("kettle", {})).id);
  check(status.success === true, "checkDeepResearchStatus");
});

await step("sdk v1 generateLLMsText: llms.txt and llms-full.txt", async () => {
  const v1 = new FirecrawlAppV1({ apiKey, apiUrl: baseUrl });
  const result = await v1.generateLLMsText("http://pages-5.synthetic.test/", { maxUrls: 3, showFullText: true });
  check(result.success === true && result.status === "completed",
    `a completed generation (got ${JSON.stringify(result).slice(0, 300)})`);
  check(result.data?.llmstxt?.includes("](http://pages-5.synthetic.test/"), "page lines in data.llmstxt");
  check(typeof result.data?.llmsfulltxt === "string" && result.data.llmsfulltxt.length > 0, "data.llmsfulltxt");
  const started = await v1.asyncGenerateLLMsText("http://pages-5.synthetic.test/", {});
  const status = await v1.checkGenerateLLMsTextStatus(started.id);
  check(status.success === true && ["processing", "completed"].includes(status.status), "checkGenerateLLMsTextStatus");
});

await step("sdk monitors: create, list, get, update, run, checks, check, delete", async () => {
  const monitor = await app.createMonitor({
    name: "Kettle price",
    schedule: { text: "every 30 minutes", timezone: "UTC" },
    targets: [{ type: "scrape", urls: [page] }],
  });
  check(typeof monitor.id === "string" && monitor.schedule.cron === "*/30 * * * *",
    `a monitor with its cron (got ${JSON.stringify(monitor).slice(0, 300)})`);
  const listed = await app.listMonitors({ limit: 10 });
  check(Array.isArray(listed) && listed.some((m) => m.id === monitor.id), "the monitor in the list");
  check((await app.getMonitor(monitor.id)).name === "Kettle price", "the monitor by id");
  const paused = await app.updateMonitor(monitor.id, { status: "paused", goal: null });
  check(paused.status === "paused", "paused");
  const queued = await app.runMonitor(monitor.id);
  check(queued.monitorId === monitor.id && queued.trigger === "manual", "a manual check");
  let detail;
  for (let i = 0; i < 100; i += 1) {
    detail = await app.getMonitorCheck(monitor.id, queued.id);
    if (!["queued", "running"].includes(detail.status)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  check(detail.status === "completed", `a completed check (got ${detail.status})`);
  check(detail.pages.length === 1 && detail.pages[0].status === "new", "the page, new");
  const checks = await app.listMonitorChecks(monitor.id, { limit: 5 });
  check(checks.length === 1 && checks[0].summary.new === 1, "the check in the list");
  check((await app.deleteMonitor(monitor.id)) === true, "deleted");
});

await step("sdk browser: browser, browserExecute, listBrowsers, deleteBrowser", async () => {
  const session = await app.browser({ ttl: 120, activityTtl: 60 });
  check(session.success === true && typeof session.id === "string", `a session id (got ${JSON.stringify(session).slice(0, 300)})`);
  check(typeof session.cdpUrl === "string" && typeof session.liveViewUrl === "string", "cdpUrl and liveViewUrl");
  const ran = await app.browserExecute(session.id, { code: `open ${page}\nget title`, language: "bash" });
  check(ran.exitCode === 0 && typeof ran.result === "string" && ran.result.length > 0,
    `the page title (got ${JSON.stringify(ran).slice(0, 300)})`);
  const node = await app.browserExecute(session.id, { code: "console.log(await page.url())", language: "node" });
  check(node.stdout?.includes("trail-kettle"), `the page URL from Playwright code (got ${node.stdout})`);
  const active = await app.listBrowsers({ status: "active" });
  check(active.sessions?.some((s) => s.id === session.id), "the session among the active ones");
  const ended = await app.deleteBrowser(session.id);
  check(ended.success === true && ended.status === "destroyed", `destroyed (got ${JSON.stringify(ended)})`);
  check(typeof ended.creditsBilled === "number", "creditsBilled");
  const destroyed = await app.listBrowsers({ status: "destroyed" });
  check(destroyed.sessions?.some((s) => s.id === session.id), "the session among the destroyed ones");
});

await step("sdk interact: a prompt and code on a scrape's page, stopInteraction", async () => {
  const doc = await app.scrape(page, { formats: ["markdown"] });
  const scrapeId = doc.metadata?.scrapeId;
  check(typeof scrapeId === "string", "the scrape's id");
  const acted = await app.interact(scrapeId, { prompt: "scroll down" });
  check(acted.exitCode === 0 && acted.result?.includes("URL: " + page), `the page state (got ${JSON.stringify(acted).slice(0, 300)})`);
  const code = await app.interact(scrapeId, { code: "await page.title()" });
  check(typeof code.result === "string" && code.result.length > 0, "the title from code");
  const stopped = await app.stopInteraction(scrapeId);
  check(stopped.success === true && stopped.status === "destroyed", `stopped (got ${JSON.stringify(stopped)})`);
});

// ---- The CLI: the same service through `firecrawl`, as a user runs it.
const require = createRequire(import.meta.url);
const cliPath = join(require.resolve("firecrawl-cli/package.json"), "..", "dist", "index.js");
const home = mkdtempSync(join(tmpdir(), "webdata-cli-home-"));
const run = promisify(execFile);
async function cli(args) {
  const { stdout } = await run(process.execPath, [cliPath, ...args], {
    cwd: home,
    timeout: 120000,
    env: {
      ...process.env,
      HOME: home,
      FIRECRAWL_API_KEY: apiKey,
      FIRECRAWL_API_URL: baseUrl,
      FIRECRAWL_NO_UPDATE_CHECK: "1",
      FIRECRAWL_NO_TELEMETRY: "1",
      NO_COLOR: "1",
    },
  });
  return stdout;
}

await step("cli scrape", async () => {
  const out = await cli(["scrape", page, "--format", "markdown"]);
  check(out.includes("Kettle") || out.includes("kettle"), "the page's markdown on stdout");
});

await step("cli scrape --query --redact-pii --lockdown", async () => {
  const answer = await cli(["scrape", page, "--query", "What does the kettle cost?", "--redact-pii"]);
  check(answer.trim().length > 0, "an answer on stdout");
  // The page was just scraped, so lockdown finds it in the cache.
  const cached = await cli(["scrape", page, "--format", "markdown", "--lockdown"]);
  check(cached.trim().length > 0, "the cached page");
});

await step("cli crawl --wait", async () => {
  const out = await cli(["crawl", "http://pages-5.synthetic.test/", "--limit", "5", "--wait", "--poll-interval", "1"]);
  check(out.includes("pages-5.synthetic.test"), "the crawled pages in the output");
});

await step("cli search", async () => {
  const out = await cli(["search", "trail kettle", "--limit", "3"]);
  check(out.includes("example.test"), "results on stdout");
});

await step("cli agent", async () => {
  const out = await cli(["agent", "What does the trail kettle cost?", "--urls", page, "--wait", "--poll-interval", "1"]);
  check(out.length > 0, "an answer on stdout");
});

await step("cli map", async () => {
  const out = await cli(["map", "http://pages-10.synthetic.test/", "--limit", "5"]);
  const urls = out.split("\n").map((l) => l.trim()).filter((l) => l.startsWith("http"));
  check(urls.length === 5, `5 URLs on stdout (got ${urls.length}: ${out.slice(0, 300)})`);
  check(urls.every((u) => u.startsWith("http://pages-10.synthetic.test/")), "URLs of the site");
  const json = JSON.parse(await cli(["map", "https://shop.example.test/", "--search", "kettle", "--json"]));
  const links = json.data?.links ?? json.links;
  check(Array.isArray(links) && links.length > 0, `links in the JSON (got ${JSON.stringify(json).slice(0, 300)})`);
  check(links[0].url.includes("kettle"), `the kettle page first (got ${links[0]?.url})`);
});

await step("cli credit-usage", async () => {
  const out = await cli(["credit-usage", "--json"]);
  const usage = JSON.parse(out);
  const data = usage.data ?? usage;
  check(typeof data.remainingCredits === "number", `remainingCredits (got ${out.slice(0, 300)})`);
  check(typeof data.planCredits === "number", "planCredits");
  check(typeof data.billingPeriodStart === "string" && typeof data.billingPeriodEnd === "string",
    "the billing period");
  const text = await cli(["credit-usage"]);
  check(text.includes("Remaining Credits: " + data.remainingCredits.toLocaleString("en-US")),
    `the remaining credits in the text output (got ${text.slice(0, 300)})`);
});

await step("cli monitor create|list|get|update|run|checks|check|delete", async () => {
  const created = JSON.parse(await cli(["monitor", "create", "--name", "Kettle", "--cron", "0 * * * *", "--page", page]));
  const id = created.data?.id;
  check(typeof id === "string", `a monitor id (got ${JSON.stringify(created).slice(0, 300)})`);
  const listed = JSON.parse(await cli(["monitor", "list", "--limit", "5"]));
  check(listed.data.some((m) => m.id === id), "the monitor in the list");
  check(JSON.parse(await cli(["monitor", "get", id])).data.schedule.cron === "0 * * * *", "get");
  const updated = JSON.parse(await cli(["monitor", "update", id, "--state", "paused", "--timezone", "Europe/Paris"]));
  check(updated.data.status === "paused" && updated.data.schedule.timezone === "Europe/Paris", "update");
  const run = JSON.parse(await cli(["monitor", "run", id]));
  const checkId = run.data?.id;
  check(typeof checkId === "string", "a check id");
  let detail;
  for (let i = 0; i < 100; i += 1) {
    detail = JSON.parse(await cli(["monitor", "check", id, checkId, "--limit", "10"])).data;
    if (!["queued", "running"].includes(detail.status)) break;
  }
  check(detail.status === "completed" && detail.pages.length === 1, `the check's page (got ${detail.status})`);
  const checks = JSON.parse(await cli(["monitor", "checks", id]));
  check(checks.data.length === 1, "one check");
  check(JSON.parse(await cli(["monitor", "delete", id])).success === true, "deleted");
});

// ---- Research, developer search, feedback and support ask (the bundled corpus of the mock).
const someUuid = "0e8b1f5e-8c1d-4b35-9a0e-1c7d3f0a2b44";

await step("sdk research: searchPapers, getPaper (metadata and read), similarPapers, searchGithub", async () => {
  const found = await app.research.searchPapers("graph neural networks for molecules", { k: 3 });
  check(found.success && found.results.length === 3, `3 papers (got ${JSON.stringify(found).slice(0, 300)})`);
  const id = found.results[0].primaryId;
  const meta = await app.research.getPaper(id);
  check(meta.paper?.title === found.results[0].title, "the paper's metadata");
  const read = await app.research.getPaper("arxiv:2101.00101", { query: "which dataset", k: 1 });
  check(read.passages?.length === 1 && read.passages[0].text.includes("QM9"), "the passage that answers");
  const related = await app.research.similarPapers("1001", { intent: "molecule property prediction", k: 2 });
  check(related.results.length === 2 && typeof related.poolSize === "number", "related papers");
  check(typeof related.results[0].signals?.structural === "number", "signals");
  const gh = await app.research.searchGithub("retry backoff", { k: 2 });
  check(gh.results[0]?.repo === "acme/flowpipe", `the flowpipe repo (got ${JSON.stringify(gh).slice(0, 300)})`);
});

await step("sdk developerSearch, feedback, searchFeedback", async () => {
  const dev = await app.developerSearch("configure webhooks", { k: 3, passages: 2 });
  check(dev.success && dev.results.length > 0 && dev.results[0].passages.length > 0, "developer results");
  const doc = await app.scrape(page, { formats: ["markdown"] });
  const fb = await app.feedback({ endpoint: "scrape", jobId: doc.metadata.scrapeId, rating: "bad", note: "price missing" });
  check(fb.success && typeof fb.feedbackId === "string" && fb.creditsRefunded === 0, "feedback stored");
  const sf = await app.searchFeedback(someUuid, { rating: "good", valuableSources: [{ url: page }] });
  check(sf.success && typeof sf.feedbackId === "string", "search feedback stored");
});

await step("cli research search-papers|inspect-paper|related-papers|read-paper|search-github", async () => {
  const found = JSON.parse(await cli(["research", "search-papers", "graph neural networks", "--limit", "2", "--json"]));
  const list = found.results ?? found.data?.results;
  check(Array.isArray(list) && list.length === 2, `2 papers (got ${JSON.stringify(found).slice(0, 300)})`);
  const inspected = await cli(["research", "inspect-paper", "arxiv:2101.00101"]);
  check(inspected.includes("Molecular Property Prediction"), `the title (got ${inspected.slice(0, 300)})`);
  const related = await cli(["research", "related-papers", "1001", "--intent", "molecules", "--limit", "2"]);
  check(related.length > 0, "related papers on stdout");
  const read = await cli(["research", "read-paper", "1001", "--question", "which dataset", "--limit", "1"]);
  check(read.includes("QM9"), `the passage (got ${read.slice(0, 300)})`);
  const gh = await cli(["research", "search-github", "retry backoff", "--limit", "2"]);
  check(gh.includes("acme/flowpipe"), `the repo (got ${gh.slice(0, 300)})`);
});

await step("cli developer, feedback scrape, search-feedback, doctor <job-id>", async () => {
  const dev = await cli(["developer", "configure webhooks", "--limit", "3"]);
  check(dev.includes("docs.example.test"), `docs results (got ${dev.slice(0, 300)})`);
  const doc = await app.scrape(page, { formats: ["markdown"] });
  const fb = await cli(["feedback", "scrape", doc.metadata.scrapeId, "--rating", "good", "--note", "fine", "--json"]);
  check(fb.includes("feedbackId"), `the feedback id (got ${fb.slice(0, 300)})`);
  const sf = await cli(["search-feedback", someUuid, "--rating", "partial", "--json"]);
  check(sf.includes("feedbackId"), `the search feedback id (got ${sf.slice(0, 300)})`);
  const started = await app.startBatchScrape([page, "https://shop.example.test/missing-page"], { options: { formats: ["markdown"] } });
  const answer = await cli(["doctor", started.id]);
  check(answer.includes(started.id), `an answer about the batch (got ${answer.slice(0, 300)})`);
});

await step("cli browser launch-session, execute, list, close", async () => {
  const launched = await cli(["browser", "launch-session", "--ttl", "120"]);
  check(launched.includes("Session ID:"), `the session on stdout (got ${launched.slice(0, 300)})`);
  await cli(["browser", "execute", `open ${page}`]);
  const title = await cli(["browser", "execute", "get title"]);
  check(title.trim().length > 0, "the page title on stdout");
  const listed = await cli(["browser", "list", "active"]);
  check(listed.includes("  active  "), `an active session (got ${listed.slice(0, 300)})`);
  await cli(["browser", "close"]);
});

await step("cli interact: a prompt on a scrape's page, then stop", async () => {
  const doc = await app.scrape(page, { formats: ["markdown"] });
  const scrapeId = doc.metadata?.scrapeId;
  const out = await cli(["interact", scrapeId, "scroll down"]);
  check(out.includes("URL: " + page), `the page state on stdout (got ${out.slice(0, 300)})`);
  const stopped = await cli(["interact", "stop", scrapeId]);
  check(stopped.includes("stopped"), `stopped (got ${stopped.slice(0, 300)})`);
});

console.log(`\n${passed} passed, ${failures.length} failed`);
if (failures.length) {
  console.log(`failed: ${failures.join("; ")}`);
  process.exit(1);
}
