#pragma once

// Every rule the suite checks: an id, the section of the API reference (docs/reference/) that
// defines the behaviour, and what the rule demands. A failure prints its rule (RULE() in
// target.hpp): "rule CHUNK-NEXT-UNIQUE (docs/reference/jobs.md#next): following next ...".
// docs/reference/conformance-rules.md has a section per id (what is checked, which variants are
// accepted); the test "conformance: every rule has a section in conformance-rules.md" keeps the
// two in step.

namespace webdata::conformance {

struct Rule {
  const char* id;
  const char* section;  ///< "jobs.md#next": a page of docs/reference/ and a heading anchor.
  const char* statement;
};

}  // namespace webdata::conformance

// X(constant, id, reference section, statement). One list, so that the table of every rule
// (kAll, --list-rules, the verdict table) cannot miss one.
#define WEBDATA_CONFORMANCE_RULES(X)                                                               \
  /* Envelope */                                                                                   \
  X(kSchema, "ENV-SCHEMA", "README.md#requests-and-responses",                                     \
    "every answer matches its JSON schema under schemas/")                                         \
  X(kContentType, "ENV-CONTENT-TYPE", "README.md#requests-and-responses",                          \
    "every JSON answer has Content-Type application/json")                                         \
  X(kErrorBody, "ENV-ERROR-BODY", "errors.md#error-body",                                          \
    "an error answer is {success:false, error, code?, details?}")                                  \
  X(kUnknownJob, "JOB-UNKNOWN-ID", "jobs.md#job-ids",                                              \
    "an unknown job id answers 404 \"Job not found\"")                                             \
  X(kOtherTeamJob, "JOB-OTHER-TEAM", "auth.md#teams",                                              \
    "another team's job is not served: status 404, cancel and errors 403 or 404")                  \
  X(kIdempotency, "JOB-IDEMPOTENCY", "jobs.md#idempotency",                                        \
    "a reused x-idempotency-key answers 409")                                                      \
  /* Authentication */                                                                             \
  X(kAuth401, "AUTH-401", "auth.md#api-keys",                                                      \
    "every endpoint answers 401 to an unknown key, and to no key where a key is required")         \
  X(kAuthMessages, "AUTH-MESSAGES", "auth.md#failures",                                            \
    "401 errors are Unauthorized / Unauthorized: Token missing / Unauthorized: Invalid token")     \
  /* Validation */                                                                                 \
  X(kMalformedJson, "VAL-JSON", "errors.md#status-codes",                                          \
    "malformed JSON answers 400 BAD_REQUEST_INVALID_JSON, before authentication")                  \
  X(kUnknownField, "VAL-STRICT", "errors.md#validation-details",                                   \
    "an unknown field answers 400 BAD_REQUEST with an unrecognized_keys issue")                    \
  X(kWrongType, "VAL-TYPE", "errors.md#validation-details",                                        \
    "a field of the wrong type answers 400 with an invalid_type issue at its path (maybe inside "  \
    "an invalid_union issue)")                                                                     \
  X(kOutOfRange, "VAL-RANGE", "limits.md#timeouts",                                                \
    "a v2 scrape timeout above 300000 ms answers 400 too_big")                                     \
  X(kBadEnum, "VAL-ENUM", "scrape.md#proxy",                                                       \
    "a proxy outside the allowed values answers 400 with an enum issue")                           \
  X(kBadUrl, "VAL-URL", "scrape.md#request-v2", "a url that is not a URL answers 400")             \
  X(kMissingField, "VAL-REQUIRED", "errors.md#validation-details",                                 \
    "a missing required field answers 400")                                                        \
  X(kOriginAccepted, "VAL-ORIGIN", "README.md#requests-and-responses",                             \
    "every endpoint accepts origin; integration is a known field (its values may be restricted)")  \
  /* Fidelity: what deployments share where the specification is silent (fidelity_test.cpp) */     \
  X(kBodyContentType, "VAL-BODY-CONTENT-TYPE", "README.md#requests-and-responses",                 \
    "a POST body sent without Content-Type application/json answers 4xx")                          \
  X(kCrossField, "VAL-CROSS-FIELD", "scrape.md#cross-field-rules",                                 \
    "waitFor over half of timeout, two screenshot formats, or a wait action with both "            \
    "milliseconds and selector answer 400 with a custom issue")                                    \
  X(kSchemelessUrl, "VAL-SCHEMELESS-URL", "README.md#requests-and-responses",                      \
    "a page URL without a scheme is accepted (http:// is assumed)")                                \
  X(kCors, "ENV-CORS", "README.md#requests-and-responses",                                         \
    "an OPTIONS preflight answers 2xx with Access-Control-Allow-Origin")                           \
  X(kCancelBody, "CANCEL-BODY", "jobs.md#cancel",                                                  \
    "cancelling a running job answers status cancelled (success optional)")                        \
  X(kTotalWithoutFailed, "JOB-TOTAL-FAILED", "jobs.md#counters",                                   \
    "after a batch with a failing URL total equals completed (failed pages leave total)")          \
  X(kExpiresSeconds, "RETENTION-SECONDS", "jobs.md#retention",                                     \
    "expiresAt carries no fraction of a second other than .000")                                   \
  X(kActiveOngoing, "ACTIVE-ONGOING", "jobs.md#active-crawls",                                     \
    "/v2/crawl/ongoing answers like /v2/crawl/active")                                             \
  X(kActivePaths, "ACTIVE-PATHS", "jobs.md#active-crawls",                                         \
    "an active crawl's options carry the includePaths and excludePaths sent")                      \
  X(kV1Extract, "SCRAPE-V1-EXTRACT", "scrape.md#formats-in-v1",                                    \
    "the v1 extract format answers in data.extract")                                               \
  /* Defaults */                                                                                   \
  X(kDefaultFormat, "DEF-FORMAT", "scrape.md#formats",                                             \
    "without formats a scrape returns markdown only")                                              \
  X(kDefaultMainContent, "DEF-MAIN-CONTENT", "scrape.md#content-options",                          \
    "onlyMainContent defaults to true (no navigation, no footer)")                                 \
  X(kDefaultMaxAgeV2, "DEF-MAXAGE-V2", "scrape.md#cache",                                          \
    "v2 maxAge defaults to 2 days: a deployment with a result cache serves a second scrape from "  \
    "it")                                                                                          \
  X(kDefaultMaxAgeV1, "DEF-MAXAGE-V1", "scrape.md#cache",                                          \
    "v1 maxAge defaults to 0: every scrape fetches the page")                                      \
  X(kDefaultInvalidUrls, "DEF-IGNORE-INVALID", "batch-scrape.md#invalid-urls",                     \
    "batch ignoreInvalidURLs defaults to true in v2 (bad URLs are dropped) and false in v1 "       \
    "(bad URLs answer 400)")                                                                       \
  /* Scrape */                                                                                     \
  X(kScrapeShape, "SCRAPE-SHAPE", "scrape.md#response",                                            \
    "a scrape answers {success:true, data:<scrape document>}")                                     \
  X(kScrapeMarkdown, "SCRAPE-MARKDOWN", "scrape.md#formats",                                       \
    "markdown renders the page's headings, emphasis, lists and links")                             \
  X(kScrapeHtml, "SCRAPE-HTML", "scrape.md#formats",                                               \
    "html is the cleaned page, rawHtml the page as served")                                        \
  X(kScrapeLinks, "SCRAPE-LINKS", "scrape.md#links-and-images",                                    \
    "links are absolute URLs without duplicates; fragment-only links (#top) are dropped")          \
  X(kScrapeImages, "SCRAPE-IMAGES", "scrape.md#links-and-images",                                  \
    "images are absolute image URLs")                                                              \
  X(kScrapeMetadata, "SCRAPE-METADATA", "scrape.md#metadata",                                      \
    "title, description, language, keywords, robots, og* and ogLocaleAlternate come from the "     \
    "page")                                                                                        \
  X(kScrapeStatusCode, "SCRAPE-STATUS-CODE", "scrape.md#metadata",                                 \
    "metadata has sourceURL, url, statusCode and scrapeId")                                        \
  X(kScrapeTarget404, "SCRAPE-TARGET-404", "errors.md#page-failures",                              \
    "a target answering 404 gives a document with metadata.statusCode 404, not an API error")      \
  X(kScrapeRedirect, "SCRAPE-REDIRECT", "scrape.md#metadata",                                      \
    "sourceURL is the URL requested, url the one after redirects")                                 \
  X(kScrapeTimeout, "SCRAPE-TIMEOUT", "errors.md#status-codes",                                    \
    "a scrape slower than its timeout answers 408 SCRAPE_TIMEOUT at about that time")              \
  X(kScrapeTags, "SCRAPE-TAGS", "scrape.md#content-options",                                       \
    "excludeTags removes, includeTags keeps only, the matching elements")                          \
  X(kScrapeDns, "SCRAPE-DNS", "errors.md#page-failures",                                           \
    "a target host that does not resolve is an API error with success:false")                      \
  X(kScrapePdf, "SCRAPE-PDF", "scrape.md#pdfs", "a PDF is converted to markdown")                  \
  X(kScrapeV1Fields, "SCRAPE-V1-FIELDS", "versions.md#differences",                                \
    "v1 documents carry no summary or branding")                                                   \
  X(kModelFormats, "SCRAPE-MODEL-FORMATS", "scrape.md#formats",                                    \
    "summary, json, changeTracking, branding and screenshot have their documented shapes")         \
  X(kActions, "SCRAPE-ACTIONS", "scrape.md#actions-result",                                        \
    "actions results list the scrapes in action order")                                            \
  X(kScrapeById, "SCRAPE-GET-BY-ID", "scrape.md#a-past-scrape-by-its-id",                          \
    "GET /scrape/{id} with a scrape's scrapeId answers that scrape's document, v1 and v2; an "     \
    "unknown id answers 404")                                                                      \
  /* Parse */                                                                                      \
  X(kParseDocument, "PARSE-DOCUMENT", "parse.md#response",                                         \
    "an uploaded HTML file answers {success:true, data:<scrape document>} made from the file, "    \
    "with the formats asked for and metadata.sourceURL naming the file")                           \
  X(kParseRefusals, "PARSE-REFUSALS", "parse.md#errors",                                           \
    "a body without a file part, or a file type the service cannot read, answers 4xx with "        \
    "success:false")                                                                               \
  /* Batch scrape */                                                                               \
  X(kBatchStart, "BATCH-START", "batch-scrape.md#response",                                        \
    "a batch answers {success, id, url, invalidURLs}")                                             \
  X(kBatchInvalidTrue, "BATCH-INVALID-TRUE", "batch-scrape.md#invalid-urls",                       \
    "with ignoreInvalidURLs true the job starts and invalidURLs lists the dropped URLs (an "       \
    "array, maybe empty)")                                                                         \
  X(kBatchInvalidFalse, "BATCH-INVALID-FALSE", "batch-scrape.md#invalid-urls",                     \
    "with ignoreInvalidURLs false an invalid URL answers 400; a valid batch has no invalidURLs "   \
    "list")                                                                                        \
  X(kBatchDocuments, "BATCH-DOCUMENTS", "jobs.md#documents",                                       \
    "one document per fetched URL; a failed fetch is no document but an entry of the errors "      \
    "endpoint")                                                                                    \
  /* Crawl */                                                                                      \
  X(kCrawlStart, "CRAWL-START", "crawl.md#response",                                               \
    "a crawl answers {success, id, url} with url the status address")                              \
  X(kCrawlScope, "CRAWL-SCOPE", "crawl.md#scope",                                                  \
    "by default only children of the start path are crawled, the sitemap is read, external "       \
    "links are not followed")                                                                      \
  X(kCrawlEntireDomain, "CRAWL-ENTIRE-DOMAIN", "crawl.md#scope",                                   \
    "crawlEntireDomain includes pages outside the start path")                                     \
  X(kCrawlLimit, "CRAWL-LIMIT", "crawl.md#request-v2", "limit caps the pages")                     \
  X(kCrawlPaths, "CRAWL-PATHS", "crawl.md#scope", "excludePaths drops the matching paths")         \
  X(kCrawlHttpError, "CRAWL-HTTP-ERROR", "jobs.md#documents",                                      \
    "a page answering 404 is in data with metadata.statusCode 404")                                \
  X(kCrawlRobots, "CRAWL-ROBOTS", "jobs.md#errors-endpoint",                                       \
    "a page robots.txt disallows is never fetched, not in data, and listed in robotsBlocked")      \
  /* Jobs */                                                                                       \
  X(kJobStates, "JOB-STATES", "jobs.md#states",                                                    \
    "status is scraping/completed/failed/cancelled and a terminal state never changes by itself")  \
  X(kJobCounters, "JOB-COUNTERS", "jobs.md#counters",                                              \
    "total >= completed = the job's documents, creditsUsed >= completed")                          \
  X(kNextWhileRunning, "JOB-NEXT-RUNNING", "jobs.md#next",                                         \
    "a status of a running job carries next")                                                      \
  X(kChunkSize, "CHUNK-SIZE", "jobs.md#chunking",                                                  \
    "a chunk holds at most 10 MiB of documents (a larger single document comes alone)")            \
  X(kNextAbsolute, "CHUNK-NEXT-ABSOLUTE", "jobs.md#next",                                          \
    "next is an absolute URL of the same resource with skip")                                      \
  X(kNextUnique, "CHUNK-NEXT-UNIQUE", "jobs.md#next",                                              \
    "following next never returns a document twice nor skips one")                                 \
  X(kNextAbsent, "CHUNK-NEXT-ABSENT", "jobs.md#next",                                              \
    "next is absent (not null) on the last chunk of a finished job")                               \
  X(kSkipOffset, "CHUNK-SKIP", "jobs.md#parameters", "skip=N starts the chunk at document N")      \
  X(kCancel, "CANCEL", "jobs.md#cancel",                                                           \
    "DELETE of a running job answers status cancelled and the job stays cancelled")                \
  X(kCancelFinished, "CANCEL-FINISHED", "jobs.md#cancel",                                          \
    "cancelling a finished job answers 409 and leaves it unchanged, or answers 200 cancelled and " \
    "marks it cancelled")                                                                          \
  X(kErrorsShape, "ERRORS-SHAPE", "jobs.md#errors-endpoint",                                       \
    "the errors endpoint answers {errors:[{id?, timestamp?, url, code?, error}], "                 \
    "robotsBlocked:[...]}")                                                                        \
  X(kActive, "ACTIVE", "jobs.md#active-crawls",                                                    \
    "a running crawl is listed with id, teamId, url and options.scrapeOptions; a cancelled one "   \
    "is not")                                                                                      \
  X(kRetention, "RETENTION", "jobs.md#retention", "expiresAt is about 24 h after completion")      \
  X(kExpired, "RETENTION-EXPIRED", "jobs.md#retention",                                            \
    "after expiresAt the job answers 404 \"Job expired\"")                                         \
  /* Search, agent */                                                                              \
  X(kSearchShape, "SEARCH-SHAPE", "search.md#response-v2",                                         \
    "search answers {success, data:{web?, images?, news?}, creditsUsed}")                          \
  X(kSearchLimit, "SEARCH-LIMIT", "search.md#request-v2",                                          \
    "limit (1..100) caps the results per source; out of range is a 4xx/5xx with success:false")    \
  X(kSearchSources, "SEARCH-SOURCES", "search.md#sources-and-categories",                          \
    "only the requested sources appear in data")                                                   \
  X(kSearchV1, "SEARCH-V1", "search.md#response-v1",                                               \
    "v1 search answers {success, data:[web items]}")                                               \
  X(kAgentShape, "AGENT-SHAPE", "agent.md#answer",                                                 \
    "agent answers {success, data:{result, sources}}, at once or through a job id")                \
  X(kAgentJob, "AGENT-JOB", "agent.md#agent-jobs",                                                 \
    "an agent job's status matches its schema and ends completed (with data) or failed")           \
  X(kAgentCancel, "AGENT-CANCEL", "agent.md#cancelling-a-job",                                     \
    "DELETE /v2/agent/{id} answers {success}; a cancelled job ends cancelled, without data")       \
  X(kAgentList, "AGENT-LIST", "agent.md#listing-runs",                                             \
    "GET /v2/agent lists the team's runs newest first; before=<ms> pages to older ones")           \
  X(kAgentTrace, "AGENT-TRACE", "agent.md#trace",                                                  \
    "GET /v2/agent/{id}/trace answers the run's events, run.started first; unknown id 404")        \
  X(kAgentThread, "AGENT-THREAD", "agent.md#threads",                                              \
    "a run's threadId names a thread that lists the run as its turn; unknown thread 404")          \
  /* Webhooks */                                                                                   \
  X(kHookEvents, "HOOK-EVENTS", "webhooks.md#events",                                              \
    "started first, one page event per document, completed once and last")                         \
  X(kHookPayload, "HOOK-PAYLOAD", "webhooks.md#payload",                                           \
    "{success, type, id, data, metadata, error?}; metadata echoes the webhook's metadata")         \
  X(kHookHeaders, "HOOK-HEADERS", "webhooks.md#subscribing",                                       \
    "the webhook's headers and Content-Type application/json are sent")                            \
  X(kHookSignature, "HOOK-SIGNATURE", "webhooks.md#signature",                                     \
    "the signature header is sha256=<hex HMAC-SHA256(secret, body)> and verifies only with that "  \
    "secret and body")                                                                             \
  X(kHookFilter, "HOOK-FILTER", "webhooks.md#subscribing",                                         \
    "events limits the deliveries to the chosen kinds")                                            \
  /* Map, extract, team usage, crawl params preview */                                             \
  X(kMapShape, "MAP-SHAPE", "map.md#answer",                                                       \
    "map answers {success, links}: v2 links are {url, title?, description?}, v1 links are URLs")   \
  X(kMapSitemap, "MAP-SITEMAP", "map.md#request-fields-v2",                                        \
    "the sitemap's URLs are listed unless sitemap is skip; only lists nothing a page alone links " \
    "to; skip lists no page only the sitemap names")                                               \
  X(kMapLimit, "MAP-LIMIT", "map.md#request-fields-v2", "limit caps the links")                    \
  X(kMapSearch, "MAP-SEARCH", "map.md#request-fields-v2",                                          \
    "with search, the links that match the words come first")                                      \
  X(kExtractStart, "EXTRACT-START", "extract.md#answers", "an extract answers {success:true, id}") \
  X(kExtractStatus, "EXTRACT-STATUS", "extract.md#answers",                                        \
    "the extract status is {success, status, data, expiresAt, creditsUsed?} and the job ends "     \
    "completed")                                                                                   \
  X(kExtractData, "EXTRACT-DATA", "extract.md#answers",                                            \
    "a completed extract's data validates against the request's schema")                           \
  X(kExtractUnknown, "EXTRACT-UNKNOWN-ID", "extract.md#endpoints",                                 \
    "an unknown extract id answers 404 with success:false")                                        \
  X(kExtractInvalid, "EXTRACT-INVALID", "extract.md#request",                                      \
    "an extract request with urls of the wrong type answers 400 with details naming urls")         \
  X(kCreditUsage, "TEAM-CREDIT-USAGE", "usage.md#v2-credit-usage",                                 \
    "credit-usage answers {success, data:{remainingCredits, planCredits?, billingPeriodStart?, "   \
    "billingPeriodEnd?}}")                                                                         \
  X(kTokenUsage, "TEAM-TOKEN-USAGE", "usage.md#v2-token-usage",                                    \
    "token-usage answers {success, data:{remainingTokens, planTokens?, billingPeriodStart?, "      \
    "billingPeriodEnd?}}")                                                                         \
  X(kUsageHistory, "TEAM-USAGE-HISTORY", "usage.md#v2-credit-usage-historical",                    \
    "historical usage answers {success, periods:[{startDate, endDate, apiKey?, creditsUsed or "    \
    "tokensUsed}]}, also with byApiKey=true")                                                      \
  X(kQueueStatus, "TEAM-QUEUE", "usage.md#v2-queue-status",                                        \
    "queue-status answers non-negative counts with jobsInQueue = active + waiting")                \
  X(kConcurrencyCheck, "TEAM-CONCURRENCY", "usage.md#v2-concurrency-check",                        \
    "concurrency-check answers {success, concurrency, maxConcurrency}, non-negative integers")     \
  X(kCrawlPreview, "CRAWL-PREVIEW", "crawl-params-preview.md#answer",                              \
    "params-preview answers {success, data}: data is a crawl request POST /v2/crawl accepts")      \
  X(kV1DeepResearch, "V1-DEEP-RESEARCH", "v1-jobs.md#deep-research",                               \
    "a v1 deep research answers {success, id} and its status ends completed with a final "        \
    "analysis and sources")                                                                        \
  X(kV1LlmsTxt, "V1-LLMSTXT", "v1-jobs.md#llmstxt",                                                \
    "a v1 llms.txt answers {success, id} and its status ends completed with data.llmstxt")        \
  X(kResearchPapers, "RESEARCH-PAPERS", "research.md#endpoints",                                  \
    "paper search answers {success, results:[{paperId, primaryId, title, abstract, score}]}; an "  \
    "unknown paper answers 404")                                                                   \
  X(kDeveloperSearch, "DEVELOPER-SEARCH", "research.md#endpoints",                                 \
    "developer search answers {success, results:[{id, url, passages}]}, at most k results")       \
  X(kFeedback, "FEEDBACK", "research.md#in-the-mock",                                              \
    "feedback on the team's scrape answers {success, feedbackId, creditsRefunded}; a bad rating "  \
    "answers 400 with details")                                                                    \
  X(kSupportAsk, "SUPPORT-ASK", "research.md#in-the-mock",                                         \
    "support ask about the team's batch scrape answers {success, answer}; an unknown job 404")     \
  /* Monitors */                                                                                   \
  X(kMonitorCrud, "MONITOR-CRUD", "monitors.md#fields",                                            \
    "monitor create, get, list and update answer {success, data} of their schemas; a deleted "      \
    "monitor answers 404")                                                                         \
  X(kMonitorCheck, "MONITOR-CHECK", "monitors.md#targets-and-checks",                              \
    "a check run now ends completed, its page new the first time and same when unchanged")        \
  X(kMonitorInvalid, "MONITOR-INVALID", "monitors.md#schedule",                                    \
    "a monitor with a bad cron expression answers 400 with details naming the schedule")          \
  X(kBrowserShape, "BROWSER-SHAPE", "browser.md#endpoints",                                        \
    "a browser session starts {success, id, cdpUrl, liveViewUrl, expiresAt}, is listed, "          \
    "runs code and ends destroyed")                                                                \
  X(kBrowserErrors, "BROWSER-ERRORS", "browser.md#endpoints",                                      \
    "a session body with a ttl of the wrong type answers 400 with details naming ttl; an "         \
    "unknown session id answers 404")                                                              \
  /* Credits */                                                                                    \
  X(kCredits, "CREDITS-FIELDS", "limits.md#credits",                                               \
    "creditsUsed is a non-negative integer on job status and search; a page costs at least 1")     \
  X(kCreditsBilling, "CREDITS-BILLING", "limits.md#running-out-of-credits",                        \
    "a page costs 1 credit and a team out of credits gets 402")                                    \
  /* The mock's own surface */                                                                     \
  X(kMockChunkBytes, "MOCK-CHUNK-BYTES", "jobs.md#chunking",                                       \
    "with a small chunk limit next and skip still cover every document once")                      \
  X(kMockFault, "MOCK-FAULT", "conformance-rules.md#mock-fault",                                   \
    "an API stub mapping with a fault breaks the connection")                                      \
  X(kMockHealth, "MOCK-HEALTH", "conformance-rules.md#mock-health",                                \
    "the mock's GET /health answers 200 application/json {status: ok}")

namespace webdata::conformance::rules {

#define WEBDATA_CONFORMANCE_DEFINE_RULE(name, id, section, statement) \
  inline constexpr Rule name{id, section, statement};
WEBDATA_CONFORMANCE_RULES(WEBDATA_CONFORMANCE_DEFINE_RULE)
#undef WEBDATA_CONFORMANCE_DEFINE_RULE

#define WEBDATA_CONFORMANCE_RULE_ADDRESS(name, id, section, statement) &name,
/// Every rule, in the order of the list above.
inline constexpr const Rule* kAll[] = {WEBDATA_CONFORMANCE_RULES(WEBDATA_CONFORMANCE_RULE_ADDRESS)};
#undef WEBDATA_CONFORMANCE_RULE_ADDRESS

}  // namespace webdata::conformance::rules
