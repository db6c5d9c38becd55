// Drives a running mock with the official JavaScript SDK and CLI (pinned in package.json) the way
// applications use them against a deployment. Every call here is one a deployment accepts; the
// check fails (exit 1) when an official client fails on it or reads something a deployment
// would not send. Usage: node check.mjs BASE_URL API_KEY
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync, chmodSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
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
//
// Every command firecrawl-cli has must be accounted for: a step runs it (cli() records the command
// each call runs) or LOCAL_ONLY names it with the reason it cannot run here. The last step FAILS
// for a command that is neither, so a command a new firecrawl-cli version adds cannot slip by.
// The command list is the CLI's own command tree (hidden commands and subcommands included),
// printed by cli-guard.cjs; cli-guard.cjs also keeps every run off the network but for the mock.
const require = createRequire(import.meta.url);
const cliPath = join(require.resolve("firecrawl-cli/package.json"), "..", "dist", "index.js");
const guardPath = join(dirname(fileURLToPath(import.meta.url)), "cli-guard.cjs");
const home = mkdtempSync(join(tmpdir(), "webdata-cli-home-"));
const run = promisify(execFile);

// Commands no step runs, each with why: they need what a test machine has not (a network
// beyond the mock, a browser, another program).
const LOCAL_ONLY = {
  "create agent": "scaffolds a project from the firecrawl agent template repository it clones " +
    "from GitHub (gh or git) and installs with npm; talks to no Firecrawl API",
};

const cliTested = new Set();
let cliTree = [];

// The command an argument list runs (its path in the tree, aliases resolved), or "" for none.
function commandOf(args) {
  let path = "";
  for (const arg of args) {
    if (arg.startsWith("-")) continue;
    const prefix = path ? `${path} ` : "";
    const next = cliTree.find((c) => c.path.startsWith(prefix) && !c.path.slice(prefix.length).includes(" ") &&
      (c.path.slice(prefix.length) === arg || c.aliases.includes(arg)));
    if (!next) break;
    path = next.path;
  }
  return path;
}

// A fresh HOME (and working directory) for a step that reads or writes the CLI's local state.
function freshHome(name) {
  return mkdtempSync(join(tmpdir(), `webdata-cli-${name}-`));
}

// The CLI's text without its colours (it writes some even with NO_COLOR set).
function plain(text) {
  return text.replace(/\x1b\[[0-9;]*m/g, "");
}

// Runs the CLI with `args`; never throws for an exit status. `options.home` is its HOME and
// working directory (default: the shared one), `options.env` overrides or (undefined) removes
// variables: { FIRECRAWL_API_KEY: undefined } runs it without the key in the environment.
async function cliRun(args, options = {}) {
  const dir = options.home ?? home;
  const env = {
    ...process.env,
    HOME: dir,
    FIRECRAWL_API_KEY: apiKey,
    FIRECRAWL_API_URL: baseUrl,
    FIRECRAWL_NO_UPDATE_CHECK: "1",
    FIRECRAWL_NO_TELEMETRY: "1",
    NO_COLOR: "1",
    WEBDATA_CHECK_ONLY_URL: baseUrl,
    ...options.env,
  };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
  const ran = commandOf(args);
  if (ran) cliTested.add(ran);
  try {
    const { stdout, stderr } = await run(process.execPath, ["-r", guardPath, cliPath, ...args],
      { cwd: options.cwd ?? dir, timeout: 120000, env });
    return { code: 0, stdout: plain(stdout), stderr: plain(stderr) };
  } catch (err) {
    if (typeof err.code !== "number") throw err;
    return { code: err.code, stdout: plain(err.stdout ?? ""), stderr: plain(err.stderr ?? "") };
  }
}

// Runs the CLI and answers its stdout; a non-zero exit fails the step with its stderr.
async function cli(args, options = {}) {
  const out = await cliRun(args, options);
  if (out.code !== 0) {
    throw new Error(`firecrawl ${args.join(" ")}: exit ${out.code}: ${(out.stderr || out.stdout).slice(0, 400)}`);
  }
  return out.stdout;
}

await step("cli: the command tree", async () => {
  const { stdout } = await run(process.execPath, ["-r", guardPath, cliPath, "--help"], {
    cwd: home,
    env: { ...process.env, HOME: home, WEBDATA_CHECK_TREE: "1", FIRECRAWL_NO_UPDATE_CHECK: "1" },
  });
  cliTree = JSON.parse(stdout);
  check(cliTree.some((c) => c.path === "scrape") && cliTree.some((c) => c.path === "monitor create"),
    `scrape and monitor create in the tree (got ${stdout.slice(0, 300)})`);
});

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

// The id of a new search: the JS SDK's search keeps no id, so this asks the API itself.
async function newSearchId(query) {
  const res = await fetch(`${baseUrl}/v2/search`, {
    method: "POST",
    headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" },
    body: JSON.stringify({ query, limit: 2 }),
  });
  const body = await res.json();
  if (typeof body.id !== "string") throw new Error(`a search without an id: ${JSON.stringify(body).slice(0, 300)}`);
  return body.id;
}

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
  const searchId = await newSearchId("trail kettle");
  const sf = await app.searchFeedback(searchId, { rating: "good", valuableSources: [{ url: page }] });
  check(sf.success && typeof sf.feedbackId === "string", "search feedback stored");
  const unknown = await app.searchFeedback(someUuid, { rating: "good", valuableSources: [{ url: page }] })
    .then(() => "accepted", (err) => String(err?.status ?? err?.statusCode ?? err));
  check(unknown.includes("404"), `feedback on a search never made refused (got ${unknown})`);
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
  const sf = await cli(["search-feedback", await newSearchId("trail kettle"), "--rating", "partial",
    "--missing-content", "the kettle's weight", "--json"]);
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
  // The shorthand: `browser <command>` launches a session when none is open, then runs it there.
  const opened = await cliRun(["browser", "open https://shop.example.test/"]);
  check(opened.code === 0 && opened.stderr.includes("Session launched:"), `a session launched (got ${opened.code}: ${opened.stderr.slice(0, 300)})`);
  const shopTitle = await cli(["browser", "get title"]);
  check(shopTitle.includes("Fieldcraft Outdoor Supply"), `the shop's title (got ${shopTitle.slice(0, 300)})`);
  check((await cli(["browser", "close"])).includes("Session closed"), "the session closed");
  // A profile: the next session on it starts where the last one, which saved it, ended.
  await cli(["browser", "--profile", "shop", "open https://shop.example.test/products/trail-kettle"]);
  await cli(["browser", "close"]);
  const resumed = await cli(["browser", "--profile", "shop", "--no-save-changes", "get url"]);
  check(resumed.includes("https://shop.example.test/products/trail-kettle"), `resumed on the profile's page (got ${resumed.slice(0, 300)})`);
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

await step("cli parse: a local HTML file as markdown, as JSON with links, a question about it", async () => {
  const dir = freshHome("parse");
  const file = join(dir, "notes.html");
  writeFileSync(file, "<html><head><title>Field notes</title></head><body><h1>Field notes</h1>" +
    "<p>The kettle boils in four minutes.</p><a href=\"https://shop.example.test/\">shop</a></body></html>");
  const markdown = await cli(["parse", file]);
  check(markdown.includes("# Field notes") && markdown.includes("four minutes"), `the file's markdown (got ${markdown.slice(0, 300)})`);
  const both = JSON.parse(await cli(["parse", file, "--format", "markdown,links"]));
  check(both.markdown?.includes("four minutes") && both.links?.includes("https://shop.example.test/"),
    `markdown and links as JSON (got ${JSON.stringify(both).slice(0, 300)})`);
  const answer = await cli(["parse", file, "--query", "How long does the kettle take to boil?"]);
  check(answer.trim().length > 0 && !answer.includes("<html"), `an answer (got ${answer.slice(0, 300)})`);
  const refused = await cliRun(["parse", join(dir, "notes.txt")]);
  check(refused.code !== 0, "a file that does not exist refused");
});

await step("cli --status: authentication, concurrency and credits", async () => {
  const usage = JSON.parse(await cli(["credit-usage", "--json"]));
  const remaining = (usage.data ?? usage).remainingCredits;
  const out = await cli(["--status"]);
  check(out.includes("Authenticated via FIRECRAWL_API_KEY"), `authenticated (got ${out.slice(0, 400)})`);
  check(/Concurrency: \d+\/\d+ jobs/.test(out), `the concurrency from the queue status (got ${out.slice(0, 400)})`);
  check(out.includes(`Credits: ${remaining.toLocaleString("en-US")}`), `the remaining credits (got ${out.slice(0, 400)})`);
  const anonymous = await cli(["--status"], { home: freshHome("status"), env: { FIRECRAWL_API_KEY: undefined } });
  check(anonymous.includes("Not authenticated"), `not authenticated without a key (got ${anonymous.slice(0, 300)})`);
});

// Every file under `dir`, relative to it.
function filesUnder(dir, prefix = "") {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    return entry.isDirectory() ? filesUnder(dir, rel) : [rel];
  });
}

await step("cli experimental download (x): a site mapped, then each page scraped into .firecrawl/", async () => {
  const dir = freshHome("download");
  const out = await cliRun(["x", "download", "http://pages-10.synthetic.test/", "--limit", "3", "--yes"], { home: dir });
  check(out.code === 0, `exit 0 (got ${out.code}: ${out.stderr.slice(0, 400)})`);
  check(out.stderr.includes("Completed: 3/3 succeeded"), `3 pages scraped (got ${out.stderr.slice(-400)})`);
  const files = filesUnder(join(dir, ".firecrawl")).filter((f) => f.endsWith("index.md"));
  check(files.length === 3 && files.every((f) => f.startsWith("pages-10.synthetic.test")),
    `3 markdown files of the site (got ${files.join(", ")})`);
  const text = readFileSync(join(dir, ".firecrawl", files[0]), "utf-8");
  check(text.trim().length > 0, "a page's markdown in its file");
});

const credentialsFile = (dir) => join(dir, ".config", "firecrawl-cli", "credentials.json");

await step("cli login, view-config, config, logout: stored credentials in a fresh HOME", async () => {
  const dir = freshHome("login");
  const noEnv = { home: dir, env: { FIRECRAWL_API_KEY: undefined, FIRECRAWL_API_URL: undefined } };
  check((await cli(["view-config"], noEnv)).includes("Not authenticated"), "not authenticated at first");
  const login = await cli(["login", "--api-key", apiKey, "--api-url", baseUrl], noEnv);
  check(login.includes("Login successful"), `logged in (got ${login.slice(0, 300)})`);
  const stored = JSON.parse(readFileSync(credentialsFile(dir), "utf-8"));
  check(stored.apiKey === apiKey && stored.apiUrl === baseUrl, `key and URL stored (got ${JSON.stringify(stored)})`);
  const view = await cli(["view-config"], noEnv);
  check(view.includes(`API Key:  ${apiKey.slice(0, 6)}...${apiKey.slice(-4)}`) && view.includes(`API URL:  ${baseUrl}`),
    `the masked key and the URL (got ${view.slice(0, 400)})`);
  // The stored key and URL take the CLI to the mock without any environment variable.
  const usage = JSON.parse(await cli(["credit-usage", "--json"], noEnv));
  check(typeof (usage.data ?? usage).remainingCredits === "number", "credit usage through the stored credentials");
  const config = await cli(["config"], noEnv);
  check(config.includes("Status: ✓ Authenticated") && config.includes("To re-authenticate"),
    `config shows the configuration once logged in (got ${config.slice(0, 300)})`);
  // login stores a key without trying it; the mock refuses one it does not know.
  const wrong = "fc-ffffffffffffffffffffffffffffffff";
  check((await cli(["login", "--api-key", wrong, "--api-url", baseUrl], noEnv)).includes("Login successful"),
    "login with another key");
  const refused = await cliRun(["credit-usage", "--json"], noEnv);
  check(refused.code !== 0 && refused.stderr.includes("Unauthorized"),
    `the mock refuses the other key (got ${refused.code}: ${refused.stderr.slice(0, 200)})`);
  check((await cli(["logout"], noEnv)).includes("Logged out successfully"), "logged out");
  check(!existsSync(credentialsFile(dir)), "the credentials file removed");
  check((await cli(["view-config"], noEnv)).includes("Not authenticated"), "not authenticated after logout");
  check((await cli(["logout"], noEnv)).includes("No credentials found"), "a second logout finds nothing");
});

await step("cli init --yes --skip-install --skip-skills --api-key: the key stored for later runs", async () => {
  const dir = freshHome("init");
  const out = await cli(["init", "--yes", "--skip-install", "--skip-skills", "--api-key", apiKey],
    { home: dir, env: { FIRECRAWL_API_KEY: undefined } });
  check(out.includes("Authenticated"), `authenticated (got ${out.slice(0, 300)})`);
  check(JSON.parse(readFileSync(credentialsFile(dir), "utf-8")).apiKey === apiKey, "the key stored");
  const usage = JSON.parse(await cli(["credit-usage", "--json"], { home: dir, env: { FIRECRAWL_API_KEY: undefined } }));
  check(typeof (usage.data ?? usage).remainingCredits === "number", "credit usage with the stored key");
});

await step("cli env: FIRECRAWL_API_KEY into .env, kept, then overwritten", async () => {
  const dir = freshHome("env");
  check((await cli(["env"], { home: dir })).includes("Created .env"), "created");
  check(readFileSync(join(dir, ".env"), "utf-8") === `FIRECRAWL_API_KEY=${apiKey}\n`, "the key in .env");
  writeFileSync(join(dir, ".env"), "OTHER=1\nFIRECRAWL_API_KEY=old\n");
  check((await cli(["env"], { home: dir })).includes("already exists"), "an existing key kept");
  check((await cli(["env", "--overwrite"], { home: dir })).includes("Updated"), "--overwrite");
  check(readFileSync(join(dir, ".env"), "utf-8") === `OTHER=1\nFIRECRAWL_API_KEY=${apiKey}\n`, "replaced in place");
  check((await cli(["env", "--file", "local.env"], { home: dir })).includes("Created local.env"), "--file");
});

await step("cli version, --version", async () => {
  const version = JSON.parse(readFileSync(join(cliPath, "..", "..", "package.json"), "utf-8")).version;
  check((await cli(["version"])).trim() === `version: ${version}`, "the version");
  const auth = await cli(["version", "--auth-status"]);
  check(auth.includes("authenticated: true"), `authenticated with the key (got ${auth})`);
  const anonymous = await cli(["version", "--auth-status"], { home: freshHome("version"), env: { FIRECRAWL_API_KEY: undefined } });
  check(anonymous.includes("authenticated: false"), `not authenticated without it (got ${anonymous})`);
  check((await cli(["--version"])).trim() === version, "--version");
});

await step("cli setup mcp --agent hermes: the MCP server configured without the key written", async () => {
  const dir = freshHome("setup");
  const out = await cli(["setup", "mcp", "--agent", "hermes"], { home: dir });
  check(out.includes("Hermes Agent MCP configured"), `configured (got ${out.slice(0, 300)})`);
  const config = readFileSync(join(dir, ".hermes", "config.yaml"), "utf-8");
  check(config.includes("firecrawl:") && config.includes("${FIRECRAWL_API_KEY}") && !config.includes(apiKey),
    `the key as a variable reference, never literal (got ${config.slice(0, 300)})`);
  const refused = await cliRun(["setup", "no-such-thing"], { home: dir });
  check(refused.code === 1 && refused.stdout.includes("Available subcommands"), "an unknown subcommand refused");
});

await step("cli make default (and --undo): native web tools of the agents turned off and on", async () => {
  const dir = freshHome("make");
  const out = await cli(["make", "default"], { home: dir });
  check(out.includes("Firecrawl is now the default web provider"), `made default (got ${out.slice(0, 300)})`);
  const claude = JSON.parse(readFileSync(join(dir, ".claude", "settings.json"), "utf-8"));
  check(["WebSearch", "WebFetch"].every((t) => claude.permissions?.deny?.includes(t)), "Claude Code denies its web tools");
  check(readFileSync(join(dir, ".codex", "config.toml"), "utf-8").includes('web_search = "disabled"'), "Codex web search off");
  await cli(["make", "default", "--undo"], { home: dir });
  const restored = JSON.parse(readFileSync(join(dir, ".claude", "settings.json"), "utf-8"));
  check(!restored.permissions?.deny?.includes("WebSearch"), "restored by --undo");
});

await step("cli launch hermes: MCP configured, the agent started with the stored key", async () => {
  const dir = freshHome("launch");
  const bin = join(dir, "bin");
  mkdirSync(bin);
  // A stand-in for the agent: it says how it was started.
  writeFileSync(join(bin, "hermes"), '#!/bin/sh\necho "hermes-stub $* key=$FIRECRAWL_API_KEY"\n');
  chmodSync(join(bin, "hermes"), 0o755);
  const env = { FIRECRAWL_API_KEY: undefined, FIRECRAWL_API_URL: undefined, PATH: `${bin}:${process.env.PATH}` };
  await cli(["login", "--api-key", apiKey, "--api-url", baseUrl], { home: dir, env });
  const out = await cli(["launch", "hermes", "--skip-skills", "--", "--resume", "last"], { home: dir, env });
  check(out.includes(`hermes-stub --resume last key=${apiKey}`), `the agent started with its arguments and the key (got ${out.slice(0, 400)})`);
  const config = readFileSync(join(dir, ".hermes", "config.yaml"), "utf-8");
  check(config.includes("${FIRECRAWL_API_KEY}") && !config.includes(apiKey), "its MCP configuration refers to the key");
  const installed = await cli(["launcher", "hermes", "--install", "--skip-skills"], { home: freshHome("launch2"), env });
  check(installed.includes("Hermes Agent is configured with Firecrawl MCP"), `--install only configures (got ${installed.slice(0, 300)})`);
});

await step("cli doctor: the environment checks against the mock", async () => {
  const out = await cliRun(["doctor", "--json"]);
  const checks = Object.fromEntries(JSON.parse(out.stdout).checks.map((c) => [c.name, c]));
  for (const name of ["API Key", "API Key Validity", "Credits", "Concurrency"]) {
    check(checks[name]?.status === "pass", `${name} passes (got ${JSON.stringify(checks[name])})`);
  }
  // Any URL but the hosted service's is a warning: "custom URL", with the time the mock took.
  const reach = checks["API Reachability"];
  check(reach?.status === "warn" && reach.message.includes(`${baseUrl} (custom URL`),
    `the mock reached (got ${JSON.stringify(reach)})`);
  // The npm registry is out of reach here (cli-guard.cjs): a warning, not a failure.
  check(checks["CLI Version"]?.status === "warn", `the CLI version unchecked (got ${JSON.stringify(checks["CLI Version"])})`);
});

await step("cli: every command is exercised or local-only", async () => {
  check(cliTree.length > 0, "the command tree");
  const runnable = cliTree.filter((c) => c.runs).map((c) => c.path);
  const missing = runnable.filter((path) => !cliTested.has(path) && !(path in LOCAL_ONLY));
  check(missing.length === 0, `a step or a LOCAL_ONLY entry for: ${missing.join(", ")}`);
  const stale = Object.keys(LOCAL_ONLY).filter((path) => !runnable.includes(path) || cliTested.has(path));
  check(stale.length === 0, `LOCAL_ONLY entries the CLI lacks or a step runs: ${stale.join(", ")}`);
  console.log(`     ${runnable.length} commands: ${runnable.length - Object.keys(LOCAL_ONLY).length} run, ` +
    `local-only: ${Object.entries(LOCAL_ONLY).map(([p, why]) => `${p} (${why})`).join("; ")}`);
});

console.log(`\n${passed} passed, ${failures.length} failed`);
if (failures.length) {
  console.log(`failed: ${failures.join("; ")}`);
  process.exit(1);
}
