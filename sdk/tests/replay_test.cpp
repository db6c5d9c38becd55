// The SDK on the exchanges recorded from a real deployment (tests/data/real/, README there):
// every recorded answer decodes as the SDK promises (one test case per record), every recorded
// job sequence followed through pages(), documents(), the waits and the watcher's polling gives
// exactly the documents of its final state, and every error answer becomes its typed error.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "fakes.hpp"
#include "replay_transport.hpp"
#include "webdata/webdata.hpp"

using webdata::testing::FakeClock;
using webdata::testing::FakeTransport;
using webdata::testing::RecordedExchange;
using webdata::testing::ReplayTransport;

namespace {

const std::vector<RecordedExchange>& recordings() {
  static const std::vector<RecordedExchange> all =
      webdata::testing::load_recordings(WEBDATA_REAL_RECORDINGS);
  return all;
}

webdata::ClientOptions replay_options(std::shared_ptr<webdata::Transport> transport) {
  webdata::ClientOptions options;
  options.api_url = "http://127.0.0.1:3302";  // where the deployment was; `next` names it
  options.transport = std::move(transport);
  options.clock = std::make_shared<FakeClock>();  // polling intervals pass at once
  return options;
}

webdata::HttpResponse response_of(const RecordedExchange& e) {
  webdata::HttpResponse r;
  r.status = e.status;
  r.headers = e.headers;
  r.body = e.body;
  return r;
}

// What a call gave: its error, or the diagnostics of the model it read.
struct Outcome {
  std::optional<webdata::Error> error;
  webdata::Diagnostics diagnostics;
};

template <class T>
webdata::Diagnostics diagnostics_of(const T& value) {
  if constexpr (std::is_same_v<T, webdata::CrawlJob> ||
                std::is_same_v<T, webdata::BatchScrapeJob>) {
    return value.started().diagnostics;
  } else if constexpr (std::is_same_v<T, std::vector<webdata::ActiveCrawl>>) {
    webdata::Diagnostics all;
    for (const auto& c : value) all.insert(all.end(), c.diagnostics.begin(), c.diagnostics.end());
    return all;
  } else if constexpr (std::is_same_v<T, webdata::JobState>) {
    return {};
  } else {
    return value.diagnostics;
  }
}

template <class T>
Outcome outcome(const webdata::Result<T>& result) {
  if (!result.ok()) return {result.error(), {}};
  return {std::nullopt, diagnostics_of(result.value())};
}

// The segment after `prefix` in `path` ("/v1/crawl/" of "/v1/crawl/ID/errors" gives ID).
std::string id_after(const std::string& path, const std::string& prefix) {
  const std::string rest = path.substr(prefix.size());
  return rest.substr(0, rest.find_first_of("/?"));
}

bool starts(const std::string& text, const std::string& prefix) {
  return text.rfind(prefix, 0) == 0;
}

// The call of `client` (a webdata::Client or webdata::v1::Client) that sends what `e` recorded.
template <class Client, class Request>
std::optional<Outcome> job_call(const Client& client, const RecordedExchange& e,
                                const std::string& base, const Request& start) {
  const std::string path = e.route_path();
  const std::string crawl = base + "/crawl";
  const std::string batch = base + "/batch/scrape";
  const bool is_batch = starts(path, batch);
  const std::string resource = is_batch ? batch : crawl;
  if (e.method == "POST" && path == batch) {
    return outcome(client.start_batch_scrape(std::vector<std::string>{"https://a.test/"}));
  }
  if (e.method == "POST" && path == crawl) return outcome(client.start_crawl(start));
  if (path == crawl + "/active") return outcome(client.active_crawls());
  if (!starts(path, resource + "/")) return std::nullopt;
  const std::string id = id_after(path, resource + "/");
  const bool errors = path.size() > 7 && path.compare(path.size() - 7, 7, "/errors") == 0;
  if (e.method == "DELETE") {
    return is_batch ? outcome(client.cancel_batch_scrape(id)) : outcome(client.cancel_crawl(id));
  }
  if (errors) {
    return is_batch ? outcome(client.batch_scrape_errors(id)) : outcome(client.crawl_errors(id));
  }
  return is_batch ? outcome(client.batch_scrape_status(id)) : outcome(client.crawl_status(id));
}

template <class Client, class Map, class Extract>
std::optional<Outcome> other_call(const Client& client, const RecordedExchange& e,
                                  const std::string& base, const Map& map, const Extract& extract) {
  const std::string path = e.route_path();
  if (path == base + "/scrape" && e.method == "POST") {
    return outcome(client.scrape("https://a.test/"));
  }
  if (path == base + "/map") return outcome(client.map(map));
  if (path == base + "/search") return outcome(client.search("kettle"));
  if (path == base + "/extract") return outcome(client.start_extract(extract));
  if (starts(path, base + "/extract/")) {
    return outcome(client.extract_status(id_after(path, base + "/extract/")));
  }
  if (path == base + "/team/credit-usage") return outcome(client.credit_usage());
  if (path == base + "/team/token-usage") return outcome(client.token_usage());
  if (path == base + "/team/queue-status") return outcome(client.queue_status());
  if (path == base + "/concurrency-check") return outcome(client.concurrency());
  return std::nullopt;
}

// The SDK call that sends the request `e` recorded, answered with `e`'s answer; nullopt for a
// request no SDK call sends (an unknown route, GET on a POST route, a CORS preflight).
std::optional<Outcome> replay_call(const RecordedExchange& e) {
  auto transport = std::make_shared<FakeTransport>(
      [e](const webdata::HttpRequest&) -> webdata::Result<webdata::HttpResponse> {
        return response_of(e);
      });
  const auto options = replay_options(transport);
  const webdata::Client v2(options);
  const bool is_v1 = starts(e.path, "/v1/");
  const std::string base = is_v1 ? "/v1" : "/v2";
  // The SDK has these calls in v2 only; a v1 record's answer is read by the v2 call.
  if (e.route_path() == base + "/agent") {
    webdata::AgentRequest agent;
    agent.prompt = "a question";
    return outcome(v2.start_agent(agent));
  }
  if (e.route_path() == base + "/crawl/params-preview") {
    webdata::CrawlParamsPreviewRequest preview;
    preview.url = "https://a.test/";
    preview.prompt = "only the docs";
    return outcome(v2.crawl_params_preview(preview));
  }
  if (is_v1) {
    const webdata::v1::Client v1(options);
    webdata::v1::ExtractRequest extract;
    extract.urls = {"https://a.test/"};
    webdata::v1::CrawlRequest crawl;
    crawl.url = "https://a.test/";
    webdata::v1::MapRequest map;
    map.url = "https://a.test/";
    if (auto o = job_call(v1, e, base, crawl)) return o;
    return other_call(v1, e, base, map, extract);
  }
  webdata::ExtractRequest extract;
  extract.urls = {"https://a.test/"};
  webdata::CrawlRequest crawl;
  crawl.url = "https://a.test/";
  webdata::MapRequest map;
  map.url = "https://a.test/";
  if (auto o = job_call(v2, e, base, crawl)) return o;
  return other_call(v2, e, base, map, extract);
}

// What the deployment's quirks leave in the diagnostics of an answer the SDK reads whole.
const std::map<std::size_t, std::string>& expected_diagnostics() {
  static const std::map<std::size_t, std::string> quirks = {
      {156, "at error: expected a string, got an object; kept as raw JSON in extras"},
  };
  return quirks;
}

void check_non_json(const RecordedExchange& e, const webdata::Error& error) {
  CHECK(error.kind == webdata::ErrorKind::kNotJson);
  CHECK(error.http_status == e.status);
  CHECK(error.message.find('<') == std::string::npos);
  CHECK(error.message.find('\n') == std::string::npos);
  CHECK(error.message.find("HTTP " + std::to_string(e.status)) != std::string::npos);
  if (e.status == 404) CHECK(starts(error.message, "this deployment has no "));
  CHECK(error.describe() == error.message);
}

void check_error_answer(const RecordedExchange& e, const webdata::Error& error) {
  CHECK(error.kind == webdata::ErrorKind::kHttp);
  CHECK(error.http_status == e.status);
  CHECK(error.code == e.json->value("code", ""));
  const auto message = e.json->find("error");
  if (message != e.json->end() && message->is_string()) CHECK(error.message == *message);
}

void check_record(const RecordedExchange& e) {
  INFO("record " << e.index << " " << e.scenario << " / " << e.step << ": " << e.method << " "
                 << e.path << " -> " << e.status << " " << e.body.substr(0, 300));
  const auto result = replay_call(e);
  if (!result) {
    // No SDK call sends this request; what an SDK call would say of its answer:
    const auto line = webdata::describe_non_json_answer(e.method, e.path, response_of(e));
    REQUIRE_FALSE(e.json.has_value());
    REQUIRE(line.has_value());
    CHECK(line->find('<') == std::string::npos);
    return;
  }
  if (!e.json) {
    REQUIRE(result->error.has_value());
    check_non_json(e, *result->error);
  } else if (e.status >= 400) {
    REQUIRE(result->error.has_value());
    check_error_answer(e, *result->error);
  } else {
    if (result->error) FAIL_CHECK(result->error->describe());
    const auto quirk = expected_diagnostics().find(e.index);
    CHECK(result->diagnostics == (quirk == expected_diagnostics().end()
                                      ? webdata::Diagnostics{}
                                      : webdata::Diagnostics{quirk->second}));
  }
}

// One Catch test case per record, so that each is run, listed and reported on its own.
class RecordTest : public Catch::ITestInvoker {
 public:
  explicit RecordTest(std::size_t index) : index_(index) {}
  void invoke() const override { check_record(recordings().at(index_)); }

 private:
  std::size_t index_;
};

struct RecordTests {
  RecordTests() {
    static std::vector<std::string> names;  // Catch keeps the names by reference
    try {
      const auto& all = recordings();
      names.reserve(all.size());
      for (const auto& e : all) {
        std::string name = "replay: record " + std::to_string(e.index) + " (" + e.scenario + ": " +
                           e.step + ") reads as the deployment answered";
        name.erase(std::remove(name.begin(), name.end(), ','), name.end());  // a comma separates Catch test names
        names.push_back(std::move(name));
        Catch::AutoReg(new RecordTest(e.index), CATCH_INTERNAL_LINEINFO, Catch::StringRef(),
                       Catch::NameAndTags{names.back(), "[replay]"});
      }
    } catch (...) {  // the recordings cannot be read: Catch reports it and runs nothing
      Catch::getMutableRegistryHub().registerStartupException();
    }
  }
} const register_record_tests;

}  // namespace

namespace {

// A job as recorded from the first instant: its start, then every status it went through.
struct JobSequence {
  std::string version;  ///< "v1" or "v2"
  bool batch = false;   ///< A batch scrape, else a crawl.
  std::string id;
  std::vector<RecordedExchange> exchanges;  ///< The start, then the status polls.

  const nlohmann::json& final_state() const { return *exchanges.back().json; }
  std::string name() const {
    return version + (batch ? " batch " : " crawl ") + id + " ending " +
           final_state().at("status").get<std::string>();
  }
};

std::vector<JobSequence> job_sequences() {
  std::vector<JobSequence> out;
  for (const auto& start : recordings()) {
    const std::string path = start.route_path();
    const std::string version = path.substr(1, 2);
    const bool batch = path == "/" + version + "/batch/scrape";
    if (start.method != "POST" || (!batch && path != "/" + version + "/crawl")) continue;
    if (!start.json || !start.json->contains("id")) continue;
    JobSequence seq{version, batch, start.json->at("id").get<std::string>(), {start}};
    for (const auto& e : recordings()) {
      if (e.method == "GET" && e.step == "poll" && e.path == path + "/" + seq.id) {
        seq.exchanges.push_back(e);
      }
    }
    if (seq.exchanges.size() > 1) out.push_back(std::move(seq));
  }
  return out;
}

std::vector<std::string> scrape_ids(const nlohmann::json& data) {
  std::vector<std::string> ids;
  for (const auto& doc : data) ids.push_back(doc.at("metadata").at("scrapeId").get<std::string>());
  return ids;
}

std::string scrape_id_of(const webdata::Document& doc) {
  return doc.metadata.scrape_id.value_or("?");
}

bool unique(std::vector<std::string> ids) {
  std::sort(ids.begin(), ids.end());
  return std::adjacent_find(ids.begin(), ids.end()) == ids.end();
}

webdata::PollingPolicy quarter_second() {
  webdata::PollingPolicy policy;
  policy.interval = std::chrono::milliseconds(250);
  return policy;
}

// Calls `use(client, job)` with the sequence's client (v1 or v2) and job handle, on a replay of
// its exchanges.
template <class Use>
void with_job(const JobSequence& seq, const std::shared_ptr<ReplayTransport>& transport, Use use) {
  const auto options = replay_options(transport);
  if (seq.version == "v1") {
    const webdata::v1::Client client(options);
    if (seq.batch) return use(client, client.batch_scrape_job(seq.id));
    return use(client, client.crawl_job(seq.id));
  }
  const webdata::Client client(options);
  if (seq.batch) return use(client, client.batch_scrape_job(seq.id));
  use(client, client.crawl_job(seq.id));
}

// Replays every recorded job and reads it with `read(job, ids)`, which collects the scrape ids of
// the documents it is given and returns the last status it saw (none where it sees no status):
// the ids are exactly the final state's documents, none twice, and the last status is the final
// one.
template <class Read>
void check_replayed_reads(Read read) {
  for (const auto& seq : job_sequences()) {
    INFO(seq.name());
    auto transport = std::make_shared<ReplayTransport>(seq.exchanges);
    std::vector<std::string> ids;
    std::optional<std::string> last_state;
    with_job(seq, transport, [&](const auto&, const auto& job) { last_state = read(job, ids); });
    INFO("requests: " << Catch::Detail::stringify(transport->requests()));
    if (last_state) CHECK(*last_state == seq.final_state().at("status"));
    CHECK(ids == scrape_ids(seq.final_state().at("data")));
    CHECK(unique(ids));
  }
}

}  // namespace

TEST_CASE("replay: the recordings hold the job sequences the tests follow", "[replay]") {
  const auto sequences = job_sequences();
  std::multiset<std::string> kinds;
  for (const auto& seq : sequences) {
    kinds.insert(seq.version + (seq.batch ? " batch " : " crawl ") +
                 seq.final_state()["status"].get<std::string>());
  }
  // Per version: a batch that completed and one cancelled while running, two crawls that
  // completed and one cancelled while running.
  CHECK(kinds == std::multiset<std::string>{"v1 batch cancelled", "v1 batch completed",
                                            "v1 crawl cancelled", "v1 crawl completed",
                                            "v1 crawl completed", "v2 batch cancelled",
                                            "v2 batch completed", "v2 crawl cancelled",
                                            "v2 crawl completed", "v2 crawl completed"});
}

TEST_CASE("replay: documents() gives exactly the final state's documents of every recorded job",
          "[replay][jobs]") {
  check_replayed_reads([](const auto& job, std::vector<std::string>& ids) {
    for (auto& doc : job.documents(quarter_second())) {
      REQUIRE(doc.ok());
      ids.push_back(scrape_id_of(*doc));
    }
    return std::optional<std::string>();  // documents() shows no status
  });
}

TEST_CASE("replay: pages() reaches the final state with its documents, none twice",
          "[replay][jobs]") {
  check_replayed_reads([](const auto& job, std::vector<std::string>& ids) {
    std::string last_state;
    for (auto& page : job.pages(quarter_second())) {
      REQUIRE(page.ok());
      for (const auto& doc : page->data) ids.push_back(scrape_id_of(doc));
      last_state = page->status.value();
    }
    return std::optional<std::string>(last_state);
  });
}

TEST_CASE("replay: the waits end in the final state with exactly its documents", "[replay][jobs]") {
  for (const auto& seq : job_sequences()) {
    INFO(seq.name());
    const std::string state = seq.final_state().at("status");
    const auto expected = scrape_ids(seq.final_state().at("data"));
    with_job(seq, std::make_shared<ReplayTransport>(seq.exchanges),
             [&](const auto&, const auto& job) {
               auto done = job.poll_until_done(quarter_second());
               REQUIRE(done.ok());
               CHECK(done->status == state);
               CHECK(done->data.empty());
             });
    with_job(seq, std::make_shared<ReplayTransport>(seq.exchanges),
             [&](const auto&, const auto& job) {
               auto all = job.wait(quarter_second());
               REQUIRE(all.ok());
               CHECK(all->status == state);
               std::vector<std::string> ids;
               for (const auto& doc : all->data) ids.push_back(scrape_id_of(doc));
               CHECK(ids == expected);
             });
    // Start and wait in one call: the recorded start answer names the job.
    with_job(seq, std::make_shared<ReplayTransport>(seq.exchanges),
             [&](const auto& client, const auto&) {
               auto all = seq.batch
                              ? client.batch_scrape(std::vector<std::string>{"https://a.test/"},
                                                    quarter_second())
                              : client.crawl("https://a.test/", quarter_second());
               REQUIRE(all.ok());
               CHECK(all->status == state);
               CHECK(all->data.size() == expected.size());
             });
  }
}

TEST_CASE("replay: the watcher's polling delivers every document once and the final state",
          "[replay][jobs][watch]") {
  webdata::WatchPolicy polling;
  polling.mode = webdata::WatchMode::kPolling;
  polling.polling = quarter_second();
  for (const auto& seq : job_sequences()) {
    if (seq.batch) continue;  // the watcher is a crawl's
    INFO(seq.name());
    auto transport = std::make_shared<ReplayTransport>(seq.exchanges);
    std::vector<std::string> ids;
    std::optional<webdata::WatchEvent> last;
    with_job(seq, transport, [&](const auto&, const auto& job) {
      if constexpr (std::is_same_v<std::decay_t<decltype(job)>, webdata::CrawlJob>) {
        for (auto& event : job.watch(polling)) {
          REQUIRE(event.ok());
          if (event->document) ids.push_back(scrape_id_of(*event->document));
          last = *event;
        }
      }
    });
    REQUIRE(last.has_value());
    CHECK(last->kind == webdata::WatchEvent::Kind::kFinished);
    CHECK(last->status.status == seq.final_state().at("status").get<std::string>());
    CHECK(ids == scrape_ids(seq.final_state().at("data")));
  }
}

TEST_CASE(
    "replay: a status without next while the job runs is asked again, later, from the "
    "documents received",
    "[replay][jobs]") {
  const auto sequences = job_sequences();
  const auto crawl = std::find_if(sequences.begin(), sequences.end(), [](const JobSequence& s) {
    return s.version == "v2" && !s.batch && s.final_state()["status"] == "completed";
  });
  REQUIRE(crawl != sequences.end());
  // The deployment's first status: running, total 0, no `next`.
  REQUIRE(crawl->exchanges.at(1).json->at("total") == 0);
  REQUIRE_FALSE(crawl->exchanges.at(1).json->contains("next"));
  auto transport = std::make_shared<ReplayTransport>(crawl->exchanges);
  auto options = replay_options(transport);
  auto clock = std::make_shared<FakeClock>();
  options.clock = clock;
  std::size_t count = 0;
  for (auto& doc : webdata::Client(options).crawl_job(crawl->id).documents(quarter_second())) {
    REQUIRE(doc.ok());
    ++count;
  }
  CHECK(count == 9);
  const auto requests = transport->requests();
  REQUIRE(requests.size() >= 2);
  const std::string status = "GET /v2/crawl/" + crawl->id;
  CHECK(requests[0] == status);
  CHECK(requests[1] == status + "?skip=0");
  REQUIRE_FALSE(clock->sleeps().empty());
  CHECK(clock->sleeps().front() == std::chrono::milliseconds(250));
}

TEST_CASE("replay: a job that stays running without next is bounded by max_wait",
          "[replay][jobs]") {
  const auto sequences = job_sequences();
  const auto crawl = std::find_if(sequences.begin(), sequences.end(),
                                  [](const JobSequence& s) { return !s.batch; });
  REQUIRE(crawl != sequences.end());
  // Only the first status, answered again and again: the job never gets further.
  auto transport = std::make_shared<ReplayTransport>(
      std::vector<RecordedExchange>{crawl->exchanges.at(0), crawl->exchanges.at(1)});
  auto policy = quarter_second();
  policy.max_wait = std::chrono::seconds(10);
  std::vector<webdata::ErrorKind> errors;
  std::size_t count = 0;
  const auto options = replay_options(transport);
  const auto job = crawl->version == "v1" ? webdata::v1::Client(options).crawl_job(crawl->id)
                                          : webdata::Client(options).crawl_job(crawl->id);
  for (auto& doc : job.documents(policy)) {
    if (!doc.ok()) errors.push_back(doc.error().kind);
    ++count;
  }
  CHECK(errors == std::vector<webdata::ErrorKind>{webdata::ErrorKind::kTimeout});
  CHECK(count == 1);
  CHECK(transport->requests().size() == 40);  // one at once, then one every 250 ms until 10 s
}

TEST_CASE("replay: the failed extract job is a result with its state, its error {} in extras",
          "[replay][extract]") {
  auto exchanges = webdata::testing::select(recordings(), "v2-misc", {"extract start", "poll"});
  REQUIRE(exchanges.size() == 3);
  webdata::ExtractRequest request;
  request.urls = {"http://127.0.0.10:18091/p1"};
  request.prompt = "the page's heading";
  auto result = webdata::Client(replay_options(std::make_shared<ReplayTransport>(exchanges)))
                    .extract(request, quarter_second());
  REQUIRE(result.ok());
  CHECK(result->status == "failed");
  CHECK_FALSE(result->success);
  CHECK_FALSE(result->error.has_value());
  REQUIRE(result->extras.count("error") == 1);
  CHECK(result->extras.at("error").text() == "{}");
  CHECK(result->diagnostics ==
        webdata::Diagnostics{
            "at error: expected a string, got an object; kept as raw JSON in extras"});
}
