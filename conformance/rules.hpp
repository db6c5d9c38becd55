#pragma once

// Every rule the suite checks: "ID (source): statement". Failures print the rule (RULE()), and
// docs/conformance.md traces each ID to its test cases. "spec" is the interface specification,
// "WD" ../shared/spec/wire-decisions.md.

namespace webdata::conformance::rules {

// Envelope
inline constexpr const char* kSchema =
    "ENV-SCHEMA (spec 2, 4; WD 1-7): every answer matches its schema under schemas/";
inline constexpr const char* kContentType =
    "ENV-CONTENT-TYPE (WD 1): every JSON answer has Content-Type application/json";
inline constexpr const char* kErrorBody =
    "ENV-ERROR-BODY (WD 1): an error answer is {success:false, error, code?, details?}";
inline constexpr const char* kUnknownJob =
    "JOB-UNKNOWN-ID (WD 1, 3): an unknown job id answers 404 \"Job not found\"";
inline constexpr const char* kOtherTeamJob =
    "JOB-OTHER-TEAM (WD 1, 3): another team's job answers 404";
inline constexpr const char* kIdempotency =
    "JOB-IDEMPOTENCY (WD 1): a reused x-idempotency-key answers 409";

// Authentication
inline constexpr const char* kAuth401 =
    "AUTH-401 (spec 5.1-5.2, WD 2): every endpoint answers 401 without a valid bearer key";
inline constexpr const char* kAuthMessages =
    "AUTH-MESSAGES (WD 1): 401 errors are Unauthorized / Unauthorized: Token missing / "
    "Unauthorized: Invalid token";

// Validation
inline constexpr const char* kMalformedJson =
    "VAL-JSON (WD 1): malformed JSON answers 400 BAD_REQUEST_INVALID_JSON, before auth";
inline constexpr const char* kUnknownField =
    "VAL-STRICT (WD 1): an unknown field answers 400 BAD_REQUEST with an unrecognized_keys issue";
inline constexpr const char* kWrongType =
    "VAL-TYPE (WD 1): a field of the wrong type answers 400 with an invalid_type issue at its path";
inline constexpr const char* kOutOfRange =
    "VAL-RANGE (spec 4.1, 8): scrape timeout above 300000 answers 400 too_big";
inline constexpr const char* kBadEnum =
    "VAL-ENUM (spec 4.1): a proxy outside basic/enhanced/auto answers 400 invalid_enum_value";
inline constexpr const char* kBadUrl =
    "VAL-URL (spec 4.1, WD 1): a url that is not a URI answers 400";
inline constexpr const char* kMissingField =
    "VAL-REQUIRED (spec 4.1, 4.4, 4.7): a missing required field answers 400";
inline constexpr const char* kOriginAccepted =
    "VAL-ORIGIN (WD 7): every endpoint accepts origin and integration";

// Defaults
inline constexpr const char* kDefaultFormat =
    "DEF-FORMAT (spec 2.5): without formats a scrape returns markdown only";
inline constexpr const char* kDefaultMainContent =
    "DEF-MAIN-CONTENT (spec 4.1): onlyMainContent defaults to true (no nav, no footer)";
inline constexpr const char* kDefaultMaxAgeV2 =
    "DEF-MAXAGE-V2 (spec 4.1, 8): v2 maxAge defaults to 2 days: a second scrape is a cache hit";
inline constexpr const char* kDefaultMaxAgeV1 =
    "DEF-MAXAGE-V1 (spec 4.2, 8): v1 maxAge defaults to 0: every scrape fetches the page";
inline constexpr const char* kDefaultInvalidUrls =
    "DEF-IGNORE-INVALID (spec 4.4, WD 3): batch ignoreInvalidURLs defaults to true in v2, false in "
    "v1";

// Scrape
inline constexpr const char* kScrapeShape =
    "SCRAPE-SHAPE (spec 4.1, 4.2): a scrape answers {success:true, data:<scrape document>}";
inline constexpr const char* kScrapeMarkdown =
    "SCRAPE-MARKDOWN (spec 1, 2.1): markdown renders the page's headings, emphasis and lists";
inline constexpr const char* kScrapeHtml =
    "SCRAPE-HTML (spec 2.1): html is the cleaned page, rawHtml the page as served";
inline constexpr const char* kScrapeLinks =
    "SCRAPE-LINKS (spec 2.1, WD 7): links are absolute, without fragments or duplicates";
inline constexpr const char* kScrapeImages =
    "SCRAPE-IMAGES (spec 2.5, WD 7): images are absolute image URLs";
inline constexpr const char* kScrapeMetadata =
    "SCRAPE-METADATA (spec 2.3): title, description, language, keywords, robots, og* and "
    "ogLocaleAlternate come from the page";
inline constexpr const char* kScrapeStatusCode =
    "SCRAPE-STATUS-CODE (spec 2.3, 7.1; WD 7): metadata has sourceURL, url, statusCode, scrapeId";
inline constexpr const char* kScrapeTarget404 =
    "SCRAPE-TARGET-404 (spec 4.7.1, WD 1): a target 404 is a document with metadata.statusCode 404";
inline constexpr const char* kScrapeRedirect =
    "SCRAPE-REDIRECT (spec 2.3, WD 7): sourceURL is the URL requested, url the one after redirects";
inline constexpr const char* kScrapeTimeout =
    "SCRAPE-TIMEOUT (spec 4.1, WD 1): a scrape slower than timeout answers 408 SCRAPE_TIMEOUT";
inline constexpr const char* kScrapeTags =
    "SCRAPE-TAGS (spec 4.1): excludeTags removes, includeTags keeps only, the matching elements";
inline constexpr const char* kScrapeDns =
    "SCRAPE-DNS (WD 1): a target host that does not resolve is an API error with success:false";
inline constexpr const char* kScrapePdf =
    "SCRAPE-PDF (spec 4.1 parsers): a PDF is converted to markdown";
inline constexpr const char* kScrapeV1Fields =
    "SCRAPE-V1-FIELDS (spec 2.1, 4.2): v1 documents carry no summary or branding";
inline constexpr const char* kModelFormats =
    "SCRAPE-MODEL-FORMATS (spec 2.1, 2.4; WD 7): summary, json, changeTracking, branding and "
    "screenshot have their documented shapes";
inline constexpr const char* kActions =
    "SCRAPE-ACTIONS (spec 2.2, 2.6; WD 7): actions results list scrapes in action order";

// Batch scrape
inline constexpr const char* kBatchStart =
    "BATCH-START (spec 2.10, 4.4): a batch answers {success, id, url, invalidURLs}";
inline constexpr const char* kBatchInvalidTrue =
    "BATCH-INVALID-TRUE (spec 4.4, 7.3): with ignoreInvalidURLs the job starts and invalidURLs "
    "lists the dropped URLs (an array, maybe empty)";
inline constexpr const char* kBatchInvalidFalse =
    "BATCH-INVALID-FALSE (spec 4.4, 7.3; WD 1): without ignoreInvalidURLs an invalid URL answers "
    "400 and invalidURLs is left out";
inline constexpr const char* kBatchDocuments =
    "BATCH-DOCUMENTS (spec 4.5, 7.4): one document per fetched URL; a failed fetch is not a "
    "document but an entry of the errors endpoint";

// Crawl
inline constexpr const char* kCrawlStart =
    "CRAWL-START (spec 4.7): a crawl answers {success, id, url} with url the status address";
inline constexpr const char* kCrawlScope =
    "CRAWL-SCOPE (spec 4.7): by default only children of the start path are crawled, the "
    "sitemap is read, external links are not followed";
inline constexpr const char* kCrawlEntireDomain =
    "CRAWL-ENTIRE-DOMAIN (spec 4.7): crawlEntireDomain includes pages outside the start path";
inline constexpr const char* kCrawlLimit = "CRAWL-LIMIT (spec 4.7, 8): limit caps the pages";
inline constexpr const char* kCrawlPaths = "CRAWL-PATHS (WD 7): excludePaths drops matching paths";
inline constexpr const char* kCrawlHttpError =
    "CRAWL-HTTP-ERROR (spec 4.7.1): a page answering 404 is in data with metadata.statusCode 404";
inline constexpr const char* kCrawlRobots =
    "CRAWL-ROBOTS (spec 4.7, 7.4; WD 3): a page robots.txt disallows is not in data and is "
    "listed in robotsBlocked of the errors endpoint";

// Jobs
inline constexpr const char* kJobStates =
    "JOB-STATES (spec 3, WD 3): status is scraping/completed/failed/cancelled and a terminal "
    "state never changes";
inline constexpr const char* kJobCounters =
    "JOB-COUNTERS (spec 2.10, 8; WD 3): total >= completed = documents served, creditsUsed >= "
    "completed";
inline constexpr const char* kNextWhileRunning =
    "JOB-NEXT-RUNNING (spec 4.7.2, WD 3): a status of a running job carries next";
inline constexpr const char* kChunkSize =
    "CHUNK-SIZE (spec 4.7.2, 8; WD 3): a chunk holds at most 10 MiB of documents (a larger single "
    "document comes alone)";
inline constexpr const char* kNextAbsolute =
    "CHUNK-NEXT-ABSOLUTE (spec 4.7.2-3, WD 3): next is an absolute URL of the same resource with "
    "skip";
inline constexpr const char* kNextUnique =
    "CHUNK-NEXT-UNIQUE (WD 3): following next never returns a document twice nor skips one";
inline constexpr const char* kNextAbsent =
    "CHUNK-NEXT-ABSENT (spec 4.7.2, WD 3): next is absent (not null) on the last chunk of a "
    "finished job";
inline constexpr const char* kSkipOffset =
    "CHUNK-SKIP (spec 4.7.3, WD 3): skip=N starts the chunk at document N";
inline constexpr const char* kCancel =
    "CANCEL (spec 4.6, WD 3): DELETE answers status cancelled and the job stays cancelled";
inline constexpr const char* kCancelFinished =
    "CANCEL-FINISHED (WD 3): cancelling a finished job leaves its status unchanged";
inline constexpr const char* kErrorsShape =
    "ERRORS-SHAPE (spec 4.7, WD 3): the errors endpoint answers {errors:[{id, timestamp, url, "
    "code, error}], robotsBlocked:[...]}";
inline constexpr const char* kActive =
    "ACTIVE (spec 4.8, 2.10; WD 3): a running crawl is listed with id, teamId, url and "
    "options.scrapeOptions; a cancelled one is not";
inline constexpr const char* kRetention =
    "RETENTION (spec 3, 4.7.4, 8; WD 3): expiresAt is about 24 h after completion";
inline constexpr const char* kExpired =
    "RETENTION-EXPIRED (WD 3): after expiresAt the job answers 404 \"Job expired\"";

// Search, agent
inline constexpr const char* kSearchShape =
    "SEARCH-SHAPE (spec 4.3, 2.9; WD 5): search answers {success, data:{web?,images?,news?}, "
    "creditsUsed, id}";
inline constexpr const char* kSearchLimit =
    "SEARCH-LIMIT (spec 4.3, 8): limit (1..100) caps the results per source; out of range is a "
    "4xx/5xx with success:false";
inline constexpr const char* kSearchSources =
    "SEARCH-SOURCES (spec 4.3, WD 5): only the requested sources appear in data";
inline constexpr const char* kSearchV1 =
    "SEARCH-V1 (WD 5): v1 search answers {success, data:[web items]}";
inline constexpr const char* kAgentShape =
    "AGENT-SHAPE (spec 4.9, WD 6): agent answers {success, data:{result, sources}} (or a job id)";

// Webhooks
inline constexpr const char* kHookEvents =
    "HOOK-EVENTS (spec 6, WD 4): started first, one page event per document, completed once and "
    "last, in order";
inline constexpr const char* kHookPayload =
    "HOOK-PAYLOAD (spec 6, WD 4): {success, type, id, data, metadata, error}; metadata echoes "
    "the spec's metadata";
inline constexpr const char* kHookHeaders =
    "HOOK-HEADERS (spec 2.8, WD 4): the spec's headers and Content-Type application/json are sent";
inline constexpr const char* kHookSignature =
    "HOOK-SIGNATURE (spec 5.3, WD 4): the signature header is sha256=<hex HMAC-SHA256(secret, "
    "body)>; it does not verify with another secret or body";
inline constexpr const char* kHookFilter =
    "HOOK-FILTER (spec 2.8, 6): events limits the deliveries to the chosen kinds";

// Credits
inline constexpr const char* kCredits =
    "CREDITS-FIELDS (spec 2.10, 8): creditsUsed is a non-negative integer on job status and "
    "search; a scraped page costs at least 1 credit";
inline constexpr const char* kCreditsBilling =
    "CREDITS-BILLING (WD 8): a page costs 1 credit and a team out of credits gets 402";

// Mock-only
inline constexpr const char* kMockChunkBytes =
    "MOCK-CHUNK-BYTES (WD 3, 9): with a small chunk limit next/skip still cover every document "
    "once";
inline constexpr const char* kMockFault =
    "MOCK-FAULT (WD 9, STYLE WireMock): an API stub mapping with a fault breaks the connection";

}  // namespace webdata::conformance::rules
