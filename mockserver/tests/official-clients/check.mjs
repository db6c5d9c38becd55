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

import Firecrawl from "@mendable/firecrawl-js";

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

console.log(`\n${passed} passed, ${failures.length} failed`);
if (failures.length) {
  console.log(`failed: ${failures.join("; ")}`);
  process.exit(1);
}
