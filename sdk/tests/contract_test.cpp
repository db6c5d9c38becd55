// The SDK against the contract in schemas/: what it sends validates against the request
// schemas, every schema example reads into the models, and no schema property lacks a model
// field (no drift in either direction).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <type_traits>

#include <nlohmann/json.hpp>
#include <webdata/contract/schemas.hpp>

#include "full_scrape_options.hpp"
#include "schema_instances.hpp"
#include "webdata/webdata.hpp"

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const webdata::contract::SchemaSet& schemas() {
  return webdata::contract::SchemaSet::embedded();
}

std::string describe(const std::vector<webdata::contract::Issue>& issues) {
  std::string out;
  for (const auto& i : issues) out += i.message + "\n";
  return out;
}

template <class T>
json wire(const T& model) {
  return json::parse(webdata::to_json(model).text());
}

template <class T>
void check_valid(const std::string& schema, const T& request) {
  const json body = wire(request);
  INFO(schema << ": " << body.dump());
  const auto issues = schemas().validate(schema, body);
  INFO(describe(issues));
  CHECK(issues.empty());
}

/// Sets the members the v1 and v2 crawl requests both have; `scrape` its scrape options.
template <class Crawl, class Options>
void set_shared_crawl(Crawl& crawl, const webdata::WebhookSpec& hook, const Options& scrape) {
  crawl.max_discovery_depth = 3;
  crawl.ignore_robots_txt = false;
  crawl.ignore_query_parameters = true;
  crawl.deduplicate_similar_urls = true;
  crawl.regex_on_full_url = false;
  crawl.limit = 100;
  crawl.allow_external_links = false;
  crawl.allow_subdomains = true;
  crawl.delay = std::chrono::milliseconds(2500);
  crawl.max_concurrency = 4;
  crawl.webhook = hook;
  crawl.scrape_options = scrape;
  crawl.zero_data_retention = false;
  crawl.origin = "webdata-cpp";
  crawl.integration = "contract-test";
}

/// Sets the members the v1 and v2 search requests both have; `scrape` its scrape options.
template <class Search, class Options>
void set_shared_search(Search& search, const Options& scrape) {
  search.limit = 10;
  search.tbs = "cdr:1,cd_min:01/01/2025,cd_max:02/01/2025";
  search.location = "Berlin,Germany";
  search.country = "DE";
  search.timeout = std::chrono::seconds(30);
  search.ignore_invalid_urls = true;
  search.scrape_options = scrape;
  search.origin = "webdata-cpp";
  search.integration = "contract-test";
}

/// The scrape and batch scrape requests of one API version validate against its schemas bare
/// and with every option set.
template <class Scrape, class Batch, class Options>
void check_scrape_requests(const std::string& version, const Options& options,
                           const webdata::WebhookSpec& hook) {
  Scrape scrape;
  scrape.url = "https://site.test/";
  check_valid(version + "/scrape.request", scrape);
  static_cast<Options&>(scrape) = options;
  check_valid(version + "/scrape.request", scrape);

  Batch batch;
  batch.urls = {"https://site.test/a"};
  check_valid(version + "/batch-scrape.request", batch);
  static_cast<Options&>(batch) = options;
  batch.webhook = hook;
  batch.max_concurrency = 2;
  batch.ignore_invalid_urls = false;
  check_valid(version + "/batch-scrape.request", batch);
  batch.webhook = webdata::WebhookSpec(hook.url);  // a webhook object holding only `url`
  check_valid(version + "/batch-scrape.request", batch);
}

json strip_nulls(json j) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end();) {
      if (it->is_null()) {
        it = j.erase(it);
      } else {
        *it = strip_nulls(*it);
        ++it;
      }
    }
  } else if (j.is_array()) {
    for (auto& e : j) e = strip_nulls(e);
  }
  return j;
}

// Counts the keys a model kept without a field for them.
// Metadata is open by design (any <meta> of a page); examples carry such keys, the schema's
// maximal instance does not, so only the drift test counts them.
bool count_metadata_extras = true;
std::size_t extras(const webdata::Metadata& m) {
  return count_metadata_extras ? m.extras.size() : 0;
}
std::size_t extras(const webdata::Document& d) {
  std::size_t n = d.extras.size() + extras(d.metadata);
  if (d.actions) n += d.actions->extras.size();
  if (d.change_tracking) n += d.change_tracking->extras.size();
  return n;
}
template <class T>
std::size_t extras_of_items(const std::optional<std::vector<T>>& items) {
  std::size_t n = 0;
  if (items) {
    for (const auto& i : *items) n += i.extras.size() + (i.metadata ? extras(*i.metadata) : 0);
  }
  return n;
}
std::size_t extras(const webdata::JobStatus& s) {
  std::size_t n = s.extras.size();
  for (const auto& d : s.data) n += extras(d);
  return n;
}
std::size_t extras(const webdata::SearchResults& r) {
  std::size_t n = r.extras.size() + extras_of_items(r.web) + extras_of_items(r.news);
  if (r.images) {
    for (const auto& i : *r.images) n += i.extras.size();
  }
  return n;
}
std::size_t extras(const webdata::v1::SearchResults& r) {
  std::size_t n = r.extras.size();
  for (const auto& i : r.data) n += i.extras.size() + (i.metadata ? extras(*i.metadata) : 0);
  return n;
}
std::size_t extras(const webdata::JobErrors& e) {
  std::size_t n = e.extras.size();
  for (const auto& x : e.errors) n += x.extras.size();
  return n;
}
std::size_t extras(const webdata::webhooks::Event& e) {
  std::size_t n = e.extras.size();
  for (const auto& d : e.data) n += extras(d);
  return n;
}
// Requests have no extras: an unknown key is dropped, which the equality checks below catch.
template <class T, class = void>
struct HasExtras : std::false_type {};
template <class T>
struct HasExtras<T, std::void_t<decltype(std::declval<const T&>().extras)>> : std::true_type {};
template <class T>
std::size_t extras(const T& model) {
  if constexpr (HasExtras<T>::value) {
    return model.extras.size();
  } else {
    return 0;
  }
}

/// How one schema maps onto the SDK: its model and, for list answers, the key holding items.
struct Binding {
  std::function<json(const json&, std::size_t& extras)> read;  ///< parse, count extras, write
};

template <class T>
Binding bind() {
  return Binding{[](const json& value, std::size_t& n) {
    auto model = webdata::from_json<T>(value.dump());
    if (!model.ok()) {
      FAIL_CHECK(model.error().describe());
      return json();
    }
    n = extras(*model);
    return wire(*model);
  }};
}

// Answers whose useful part is nested: the scrape answer's `data`, the active list's `crawls`.
Binding bind_scrape_answer() {
  return Binding{[](const json& value, std::size_t& n) {
    json out = value;
    auto doc = webdata::from_json<webdata::Document>(value.at("data").dump());
    if (!doc.ok()) {
      FAIL_CHECK(doc.error().describe());
      return json();
    }
    n = extras(*doc);
    out["data"] = wire(*doc);
    return out;
  }};
}
Binding bind_active_answer() {
  return Binding{[](const json& value, std::size_t& n) {
    json out = value;
    out["crawls"] = json::array();
    n = 0;
    for (const auto& c : value.at("crawls")) {
      auto crawl = webdata::from_json<webdata::ActiveCrawl>(c.dump());
      if (!crawl.ok()) {
        FAIL_CHECK(crawl.error().describe());
        return json();
      }
      n += crawl->extras.size();
      out["crawls"].push_back(wire(*crawl));
    }
    return out;
  }};
}

const std::map<std::string, Binding>& bindings() {
  static const std::map<std::string, Binding> map = [] {
    std::map<std::string, Binding> m;
    for (const char* v : {"v1", "v2"}) {
      const std::string p = std::string(v) + "/";
      m[p + "scrape.response"] = bind_scrape_answer();
      m[p + "scrape-status.response"] = bind_scrape_answer();  // the same answer, read back
      m[p + "crawl.response"] = bind<webdata::JobStarted>();
      m[p + "batch-scrape.response"] = bind<webdata::JobStarted>();
      m[p + "crawl-status.response"] = bind<webdata::JobStatus>();
      m[p + "batch-scrape-status.response"] = bind<webdata::JobStatus>();
      m[p + "crawl-errors.response"] = bind<webdata::JobErrors>();
      m[p + "batch-scrape-errors.response"] = bind<webdata::JobErrors>();
      m[p + "crawl-active.response"] = bind_active_answer();
    }
    m["v2/search.response"] = bind<webdata::SearchResults>();
    m["v1/search.response"] = bind<webdata::v1::SearchResults>();
    m["v2/agent.response"] = bind<webdata::AgentResult>();
    m["v2/agent-status.response"] = bind<webdata::AgentResult>();
    m["common/scrape-document"] = bind<webdata::Document>();
    m["common/metadata"] = bind<webdata::Metadata>();
    m["common/change-tracking"] = bind<webdata::ChangeTracking>();
    m["common/actions-result"] = bind<webdata::ActionsResult>();
    m["common/job-start"] = bind<webdata::JobStarted>();
    m["common/job-status"] = bind<webdata::JobStatus>();
    m["common/crawl-errors"] = bind<webdata::JobErrors>();
    m["common/active-crawl"] = bind<webdata::ActiveCrawl>();
    m["common/agent-result"] = bind<webdata::AgentResult>();
    m["common/webhook-event"] = bind<webdata::webhooks::Event>();
    m["common/search-web-item"] = bind<webdata::WebResult>();
    m["common/search-image-item"] = bind<webdata::ImageResult>();
    m["common/search-news-item"] = bind<webdata::NewsResult>();
    m["common/location"] = bind<webdata::Location>();
    m["common/webhook-spec"] = bind<webdata::WebhookSpec>();
    m["common/action"] = bind<webdata::Action>();
    m["common/format-entry.v2"] = bind<webdata::FormatEntry>();
    m["v2/scrape.request"] = bind<webdata::ScrapeRequest>();
    m["v2/scrape-options"] = bind<webdata::ScrapeOptions>();
    m["v2/batch-scrape.request"] = bind<webdata::BatchScrapeRequest>();
    m["v2/crawl.request"] = bind<webdata::CrawlRequest>();
    m["v2/search.request"] = bind<webdata::SearchRequest>();
    m["v2/agent.request"] = bind<webdata::AgentRequest>();
    m["v1/scrape.request"] = bind<webdata::v1::ScrapeRequest>();
    m["v1/scrape-options"] = bind<webdata::v1::ScrapeOptions>();
    m["v1/batch-scrape.request"] = bind<webdata::v1::BatchScrapeRequest>();
    m["v1/crawl.request"] = bind<webdata::v1::CrawlRequest>();
    m["v1/search.request"] = bind<webdata::v1::SearchRequest>();
    return m;
  }();
  return map;
}

// Examples of accepted alternative forms that the SDK writes canonically: the wrapped errors
// object, `{type}` objects for sources/categories, a webhook object holding only `url`.
const std::set<std::string> kNormalised = {
    "crawl-errors.response.valid.wrapped.json", "crawl-errors.valid.wrapped.json",
    "batch-scrape-errors.response.valid.wrapped.json", "search.request.valid.object-sources.json",
    "batch-scrape.request.valid.json"};

std::string example_schema(const fs::path& file, const fs::path& root) {
  const std::string rel = fs::relative(file, root).generic_string();
  const auto cut = rel.find(".valid");
  return cut == std::string::npos ? "" : rel.substr(0, cut);
}

json load(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream s;
  s << in.rdbuf();
  return json::parse(s.str());
}

}  // namespace

TEST_CASE("every SDK request, minimal and fully set, validates against its schema", "[contract]") {
  const webdata::ScrapeOptions options = webdata::testing::full_scrape_options();
  webdata::WebhookSpec hook("https://hooks.site.test/in");
  hook.headers = std::map<std::string, std::string>{{"X-Token", "t"}};
  hook.metadata = webdata::Json::object(std::map<std::string, std::string>{{"run", "1"}});
  hook.events = {webdata::WebhookEventKind::started(), webdata::WebhookEventKind::page(),
                 webdata::WebhookEventKind::completed(), webdata::WebhookEventKind::failed()};

  SECTION("v2") {
    check_scrape_requests<webdata::ScrapeRequest, webdata::BatchScrapeRequest>("v2", options, hook);

    webdata::CrawlRequest crawl;
    crawl.url = "https://site.test/";
    check_valid("v2/crawl.request", crawl);
    crawl.prompt = "only docs";
    crawl.include_paths = {"^/docs/.*"};
    crawl.exclude_paths = {"^/blog/.*"};
    crawl.sitemap = webdata::SitemapMode::include();
    crawl.crawl_entire_domain = true;
    set_shared_crawl(crawl, hook, options);
    check_valid("v2/crawl.request", crawl);

    webdata::SearchRequest search;
    search.query = "webdata sdk";
    check_valid("v2/search.request", search);
    search.sources = {webdata::SearchSource::web(), webdata::SearchSource::images(),
                      webdata::SearchSource::news()};
    search.categories = {webdata::SearchCategory::github(), webdata::SearchCategory::research(),
                         webdata::SearchCategory::pdf()};
    set_shared_search(search, options);
    check_valid("v2/search.request", search);

    webdata::AgentRequest agent;
    agent.prompt = "Who maintains it?";
    check_valid("v2/agent.request", agent);
    agent.urls = {"https://site.test/about"};
    agent.schema = webdata::Json::parse(R"({"type":"object"})").value();
    agent.max_credits = 20;
    agent.origin = "webdata-cpp";
    agent.integration = "contract-test";
    check_valid("v2/agent.request", agent);
    agent.model = "spark-1-mini";
    agent.effort = "low";
    agent.strict_constrain_to_urls = true;
    check_valid("v2/agent.request", agent);
    agent.threat_protection = webdata::Json::parse(R"({"mode":"normal"})").value();
    agent.audit_metadata = webdata::Json::parse(R"({"username":"alice"})").value();
    agent.override_whitelist = "team-allow-list";
    check_valid("v2/agent.request", agent);

    // The newer fields the official clients send.
    webdata::ScrapeRequest newer;
    newer.url = "https://site.test/";
    webdata::FormatEntry attributes(webdata::FormatType::attributes());
    attributes.selectors = std::vector<webdata::AttributeSelector>{{"a", "href"}};
    webdata::FormatEntry question(webdata::FormatType::question());
    question.question = "What does it cost?";
    webdata::FormatEntry highlights(webdata::FormatType::highlights());
    highlights.query = "price";
    webdata::FormatEntry query("query");
    query.prompt = "price";
    query.mode = "directQuote";
    webdata::FormatEntry checked = webdata::FormatEntry::json_extraction(std::nullopt, "p");
    checked.check_prompt_injection = true;
    newer.formats = {"markdown", attributes, question, highlights, query, checked, "audio"};
    newer.lockdown = false;
    newer.redact_pii = webdata::Json::parse(R"({"replaceStyle":"mask","entities":["EMAIL"]})").value();
    newer.profile = webdata::BrowserProfile{"shop", false};
    newer.min_age = std::chrono::milliseconds(1000);
    newer.only_clean_content = true;
    webdata::Parser ocr("pdf");
    ocr.mode = "ocr";
    newer.parsers = {ocr, webdata::Parser("image")};
    newer.proxy = webdata::ProxyMode::stealth();
    newer.threat_protection =
        webdata::Json::parse(R"({"mode":"manual-only","blockedTlds":["zip"]})").value();
    newer.audit_metadata = webdata::Json::parse(R"({"username":"alice"})").value();
    newer.safe_mode = true;
    check_valid("v2/scrape.request", newer);
    newer.formats = {webdata::FormatEntry::json_extraction(std::nullopt, "p")};
    newer.formats->front().type = webdata::FormatType::deterministic_json();
    check_valid("v2/scrape.request", newer);
    webdata::BatchScrapeRequest appended;
    appended.urls = {"https://site.test/"};
    appended.append_to_id = "0b6e2a1c-6a49-4d8e-9a57-3d1f0e7c2b11";
    check_valid("v2/batch-scrape.request", appended);
    webdata::SearchRequest highlighted;
    highlighted.query = "price";
    highlighted.highlights = true;
    highlighted.include_domains = std::vector<std::string>{"site.test"};
    highlighted.enterprise = std::vector<std::string>{"anon"};
    highlighted.async_scraping = false;
    highlighted.categories = {webdata::SearchCategory::developer()};
    check_valid("v2/search.request", highlighted);
  }

  SECTION("v1") {
    webdata::v1::ScrapeOptions v1;
    v1.formats = {"markdown", "html",       "rawHtml",
                  "links",    "screenshot", "screenshot@fullPage",
                  "json",     "extract",    "changeTracking"};
    webdata::testing::set_shared_scrape_options(v1);
    v1.parse_pdf = true;
    v1.json_options = webdata::v1::JsonOptions{webdata::Json::parse(R"({"type":"object"})").value(),
                                               std::string("system"), std::string("prompt")};
    v1.extract = v1.json_options;
    v1.change_tracking_options = webdata::v1::ChangeTrackingOptions{
        std::vector<std::string>{"git-diff"}, webdata::Json::parse("{}").value(), std::string("p"),
        std::string("tag")};
    v1.actions = {webdata::Action::wait_for("#app"), webdata::Action::click("#b")};
    v1.proxy = webdata::ProxyMode::basic();

    check_scrape_requests<webdata::v1::ScrapeRequest, webdata::v1::BatchScrapeRequest>("v1", v1,
                                                                                       hook);

    webdata::v1::CrawlRequest crawl;
    crawl.url = "https://site.test/";
    check_valid("v1/crawl.request", crawl);
    crawl.include_paths = {"docs"};
    crawl.exclude_paths = {"blog"};
    crawl.max_depth = 3;
    crawl.ignore_sitemap = true;
    crawl.allow_backward_links = true;
    set_shared_crawl(crawl, hook, v1);
    check_valid("v1/crawl.request", crawl);

    webdata::v1::SearchRequest search;
    search.query = "q";
    check_valid("v1/search.request", search);
    search.lang = "en";
    set_shared_search(search, v1);
    check_valid("v1/search.request", search);
  }
}

TEST_CASE("every valid schema example reads into the SDK models and round-trips", "[contract]") {
  count_metadata_extras = false;
  const fs::path root = WEBDATA_SCHEMA_EXAMPLES_DIR;
  REQUIRE(fs::is_directory(root));
  int read = 0;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".json") continue;
    const std::string schema = example_schema(entry.path(), root);
    if (schema.empty()) continue;  // an invalid example
    auto binding = bindings().find(schema);
    if (binding == bindings().end()) continue;  // error bodies and cancel answers: no model
    INFO(entry.path().generic_string());
    const json example = load(entry.path());
    std::size_t unknown = 0;
    const json written = binding->second.read(example, unknown);
    CHECK(unknown == 0);  // every key of a contract example has a model field
    if (kNormalised.count(entry.path().filename().string()) == 0) {
      CHECK(written == strip_nulls(example));
    } else {
      // An alternative form the SDK accepts and writes in its canonical form; writing is stable.
      std::size_t ignored = 0;
      CHECK(binding->second.read(written, ignored) == written);
    }
    CHECK(describe(schemas().validate(schema, written)).empty());
    ++read;
  }
  CHECK(read >= 60);
  count_metadata_extras = true;
}

TEST_CASE("no drift: every schema property has a model field", "[contract]") {
  webdata::testing::SchemaInstances instances;
  for (const auto& [schema, binding] : bindings()) {
    INFO(schema);
    json instance = instances.maximal(schema);
    if (schema == "v1/scrape.response" || schema == "v2/scrape.response") {
      REQUIRE(instance.contains("data"));
    }
    INFO(instance.dump());
    std::size_t unknown = 0;
    const json written = binding.read(instance, unknown);
    CHECK(unknown == 0);
    CHECK(written == strip_nulls(instance));
  }
}

namespace {

/// The wire values an enumeration of enums.json names: each value's first word.
std::set<std::string> wire_values(const json& enumeration) {
  std::set<std::string> wires;
  for (const auto& value : enumeration.at("values")) {
    std::istringstream words(value.get<std::string>());
    std::string wire;
    words >> wire;
    wires.insert(wire);
  }
  return wires;
}

}  // namespace

TEST_CASE("no drift: every value a schema lists has a constant in its SDK enumeration",
          "[contract]") {
  std::ifstream in(WEBDATA_SDK_ENUMS_JSON);
  const json enums = json::parse(in);
  for (const auto& enumeration : enums.at("enums")) {
    const std::string name = enumeration.at("name").get<std::string>();
    const std::set<std::string> known = wire_values(enumeration);
    REQUIRE_FALSE(enumeration.value("schemas", json::array()).empty());
    for (const auto& place : enumeration.at("schemas")) {
      const std::string ref = place.get<std::string>();
      const auto hash = ref.find('#');
      const json& document = schemas().document(ref.substr(0, hash));
      const json& listed = document.at(json::json_pointer(ref.substr(hash + 1)));
      for (const auto& value : listed) {
        INFO(name << " and " << ref);
        CHECK(known.count(value.get<std::string>()) == 1);
      }
    }
  }
}
