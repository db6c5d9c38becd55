// CrawlJob::watch over wss, through an HTTP CONNECT proxy, and its refusals: against a
// webdata-mock process behind an in-test TLS relay (test_servers.hpp), and a scripted service for
// the answers the mock never gives.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <set>

#include "eventually.hpp"
#include "sdk_mock.hpp"
#include "test_servers.hpp"
#include "watched.hpp"
#include "webdata/webdata.hpp"

using webdata::testing::client_through;
using webdata::testing::ConnectProxy;
using webdata::testing::CountingTransport;
using webdata::testing::crawl_of;
using webdata::testing::page_pacing;
using webdata::testing::policy_for;
using webdata::testing::ScriptedService;
using webdata::testing::SdkMock;
using webdata::testing::TestCertificate;
using webdata::testing::TlsRelay;
using webdata::testing::watch_all;
using webdata::testing::Watched;
using Kind = webdata::WatchEvent::Kind;
using namespace std::chrono_literals;

namespace {

/// Environment proxies of the machine running the tests must not change what these tests
/// reach; they are set aside for the test's duration.
class NoEnvironmentProxy {
 public:
  NoEnvironmentProxy() {
    for (const char* name : kNames) {
      if (const char* value = std::getenv(name)) saved_.emplace_back(name, value);
      ::unsetenv(name);
    }
  }
  ~NoEnvironmentProxy() {
    for (const char* name : kNames) ::unsetenv(name);
    for (const auto& [name, value] : saved_) ::setenv(name.c_str(), value.c_str(), 1);
  }

 private:
  static constexpr const char* kNames[] = {"http_proxy", "https_proxy", "HTTPS_PROXY",
                                            "all_proxy",  "ALL_PROXY",   "no_proxy",
                                            "NO_PROXY"};
  std::vector<std::pair<std::string, std::string>> saved_;
};

webdata::Client tls_client(const std::string& url, webdata::CurlTransportOptions tls,
                           std::shared_ptr<CountingTransport>* counter = nullptr) {
  auto counting = std::make_shared<CountingTransport>(webdata::make_curl_transport(std::move(tls)));
  if (counter != nullptr) *counter = counting;
  return client_through(url, counting);
}

void check_streamed(const Watched& w, int pages) {
  if (w.error) FAIL(*w.error);
  REQUIRE(w.events.size() >= 2);
  CHECK(w.events.front().kind == Kind::kStatus);
  CHECK(w.events.back().kind == Kind::kFinished);
  for (const auto& e : w.events) CHECK(e.websocket);
  CHECK(w.events.back().status.status == "completed");
  CHECK(w.urls.size() == static_cast<std::size_t>(pages));
  CHECK(std::set<std::string>(w.urls.begin(), w.urls.end()).size() ==
        static_cast<std::size_t>(pages));
}

/// A watch with a wrong key against `script` ends in a 401 error, without polling instead.
void check_refused_key(const ScriptedService::Script& script) {
  ScriptedService service(script);
  webdata::Client client(service.url(), "wrong");
  const Watched w = watch_all(client.crawl_job("c1").watch(policy_for(webdata::WatchMode::kAuto)));
  REQUIRE(w.error);
  CHECK(w.error->kind == webdata::ErrorKind::kHttp);
  CHECK(w.error->http_status == 401);
  CHECK(w.error->message == "Unauthorized: Invalid token");
  CHECK(service.plain_requests() == 0);
}

}  // namespace

TEST_CASE("watch() streams documents over wss when the CA is given", "[watch][tls]") {
  NoEnvironmentProxy no_proxy;
  SdkMock mock(page_pacing(20));
  TestCertificate certificate({"127.0.0.1", "localhost"});
  TlsRelay relay(certificate, mock.port());

  webdata::CurlTransportOptions tls;
  SECTION("as a CA file") { tls.ca_file = certificate.cert_file(); }
  SECTION("as a CA directory") { tls.ca_path = certificate.ca_dir(); }
  std::shared_ptr<CountingTransport> counter;
  webdata::Client client = tls_client(relay.url(), tls, &counter);
  auto job = client.start_crawl(crawl_of("http://pages-8.synthetic.test/"));
  REQUIRE(job.ok());

  for (auto mode : {webdata::WatchMode::kAuto, webdata::WatchMode::kWebSocket}) {
    const int before = counter->requests;
    const Watched w = watch_all(job->watch(policy_for(mode)));
    check_streamed(w, 8);
    // The documents came over the socket: HTTPS carried only the final status request.
    CHECK(counter->requests - before == 1);
  }
  CHECK(relay.failed_handshakes() == 0);
  CHECK(relay.handshakes() >= 3);  // the HTTPS requests and the two watchers
}

TEST_CASE("watch() over wss fails clearly on an untrusted certificate, in every mode",
          "[watch][tls]") {
  NoEnvironmentProxy no_proxy;
  SdkMock mock(page_pacing(0));
  TestCertificate certificate({"127.0.0.1"});
  TlsRelay relay(certificate, mock.port());
  // The crawl is started over plain HTTP; the watcher then attaches over TLS.
  webdata::Client plain(mock.url(), "test-key");
  const auto id = plain.start_crawl(crawl_of("http://pages-3.synthetic.test/")).value().id();

  for (auto mode : {webdata::WatchMode::kAuto, webdata::WatchMode::kWebSocket}) {
    INFO("mode " << static_cast<int>(mode));
    std::shared_ptr<CountingTransport> counter;
    webdata::Client untrusting = tls_client(relay.url(), {}, &counter);  // the system store only
    const Watched w = watch_all(untrusting.crawl_job(id).watch(policy_for(mode)));
    REQUIRE(w.error);
    CHECK(w.events.empty());
    CHECK(w.error->kind == webdata::ErrorKind::kTransport);
    CHECK_FALSE(w.error->retryable);
    CHECK_THAT(w.error->message,
               Catch::Contains("TLS certificate verification failed") &&
                   Catch::Contains("wss://127.0.0.1:" + std::to_string(relay.port())) &&
                   Catch::Contains("self-signed") && Catch::Contains("ca_file"));
    CHECK(counter->requests == 0);  // no silent fallback to polling
  }
  // The relay counts a refused handshake on its own thread, after the client has given up.
  CHECK(webdata::testing::eventually([&] { return relay.failed_handshakes() == 2; },
                                     std::chrono::seconds(10)));

  SECTION("a certificate for another name is refused even with its CA") {
    TestCertificate other({"other.test"});
    TlsRelay wrong_name(other, mock.port());
    webdata::CurlTransportOptions tls;
    tls.ca_file = other.cert_file();
    webdata::Client client = tls_client(wrong_name.url(), tls);
    const Watched w = watch_all(client.crawl_job(id).watch(policy_for(webdata::WatchMode::kAuto)));
    REQUIRE(w.error);
    CHECK_THAT(w.error->message, Catch::Contains("TLS certificate verification failed") &&
                                     Catch::Contains("IP address mismatch"));
  }
  SECTION("verify_tls = false accepts it, for the watcher as for HTTP") {
    webdata::CurlTransportOptions tls;
    tls.verify_tls = false;
    webdata::Client client = tls_client(relay.url(), tls);
    const Watched w =
        watch_all(client.crawl_job(id).watch(policy_for(webdata::WatchMode::kWebSocket)));
    check_streamed(w, 3);
  }
}

TEST_CASE("watch() over wss goes through the transport's HTTP proxy", "[watch][tls][proxy]") {
  NoEnvironmentProxy no_proxy;
  SdkMock mock(page_pacing(0));
  TestCertificate certificate({"127.0.0.1"});
  TlsRelay relay(certificate, mock.port());
  ConnectProxy proxy("user:p@ss word");
  const std::string target = "127.0.0.1:" + std::to_string(relay.port());

  webdata::CurlTransportOptions tls;
  tls.ca_file = certificate.cert_file();
  tls.proxy = "http://user:p%40ss%20word@127.0.0.1:" + std::to_string(proxy.port());
  webdata::Client client = tls_client(relay.url(), tls);
  auto job = client.start_crawl(crawl_of("http://pages-4.synthetic.test/")).value();
  const Watched w = watch_all(job.watch(policy_for(webdata::WatchMode::kWebSocket)));
  check_streamed(w, 4);
  const auto tunnels = proxy.tunnels();
  CHECK(tunnels.size() >= 2);  // libcurl's and the watcher's
  for (const auto& t : tunnels) CHECK(t == target);
  CHECK(proxy.refused() == 0);

  SECTION("a proxy refusing the credentials is an error, not a fallback") {
    tls.proxy = "http://user:wrong@127.0.0.1:" + std::to_string(proxy.port());
    std::shared_ptr<CountingTransport> counter;
    webdata::Client refused = tls_client(relay.url(), tls, &counter);
    const Watched r =
        watch_all(refused.crawl_job(job.id()).watch(policy_for(webdata::WatchMode::kAuto)));
    REQUIRE(r.error);
    CHECK(r.error->kind == webdata::ErrorKind::kTransport);
    CHECK_THAT(r.error->message, Catch::Contains("refused the tunnel") && Catch::Contains("407"));
    CHECK(counter->requests == 0);
    CHECK(proxy.refused() == 1);
  }
  SECTION("the environment's proxy is used when the options name none") {
    ::setenv("https_proxy", ("http://user:p%40ss%20word@127.0.0.1:" +
                             std::to_string(proxy.port())).c_str(), 1);
    webdata::CurlTransportOptions from_env;
    from_env.ca_file = certificate.cert_file();
    webdata::Client env_client = tls_client(relay.url(), from_env);
    const auto before = proxy.tunnels().size();
    const Watched e =
        watch_all(env_client.crawl_job(job.id()).watch(policy_for(webdata::WatchMode::kWebSocket)));
    check_streamed(e, 4);
    CHECK(proxy.tunnels().size() > before);

    ::setenv("no_proxy", "localhost,127.0.0.1", 1);  // ... unless no_proxy exempts the host
    const auto exempt_before = proxy.tunnels().size();
    const Watched x =
        watch_all(env_client.crawl_job(job.id()).watch(policy_for(webdata::WatchMode::kWebSocket)));
    check_streamed(x, 4);
    CHECK(proxy.tunnels().size() == exempt_before);
    ::unsetenv("no_proxy");
    ::unsetenv("https_proxy");
  }
  SECTION("a SOCKS proxy leaves kAuto to polling and fails kWebSocket clearly") {
    webdata::CurlTransportOptions socks;
    socks.ca_file = certificate.cert_file();
    socks.proxy = "socks5://127.0.0.1:1";
    webdata::ClientOptions options;
    options.api_url = relay.url();
    options.transport = webdata::make_curl_transport(socks);
    options.retry = webdata::RetryPolicy::none();  // the absent proxy fails at once
    webdata::Client socks_client(options);
    const Watched s = watch_all(
        socks_client.crawl_job(job.id()).watch(policy_for(webdata::WatchMode::kWebSocket)));
    REQUIRE(s.error);
    CHECK(s.error->kind == webdata::ErrorKind::kInvalidArgument);
    CHECK_THAT(s.error->message, Catch::Contains("HTTP proxies only") && Catch::Contains("socks5"));
    // kAuto hands the watch to status polling through libcurl, which speaks SOCKS: here it
    // fails to reach the (absent) proxy, which shows the request went that way.
    const Watched a =
        watch_all(socks_client.crawl_job(job.id()).watch(policy_for(webdata::WatchMode::kAuto)));
    REQUIRE(a.error);
    CHECK(a.error->kind == webdata::ErrorKind::kTransport);
    CHECK_THAT(a.error->message, !Catch::Contains("HTTP proxies only"));
  }
}

TEST_CASE("watch() in kAuto polls only when the service does not offer the watcher",
          "[watch][scripted]") {
  NoEnvironmentProxy no_proxy;
  const std::string done_status =
      R"({"success":true,"status":"completed","total":1,"completed":1,"creditsUsed":1,)"
      R"("data":[{"markdown":"# One","metadata":{"sourceURL":"https://one.test/","statusCode":200}}]})";

  SECTION("a declined upgrade (404) falls back to polling") {
    ScriptedService::Script script;
    script.decline_status = 404;
    script.status_body = done_status;
    ScriptedService service(script);
    webdata::Client client(service.url(), "k");
    const Watched w =
        watch_all(client.crawl_job("c1").watch(policy_for(webdata::WatchMode::kAuto)));
    REQUIRE_FALSE(w.error);
    CHECK(w.urls == std::vector<std::string>{"https://one.test/"});
    CHECK(w.events.back().kind == Kind::kFinished);
    CHECK_FALSE(w.events.back().websocket);
    CHECK(service.upgrades() == 1);
    CHECK(service.plain_requests() >= 1);
  }
  SECTION("a refused key (401 on the upgrade) is an error") {
    ScriptedService::Script script;
    script.decline_status = 401;
    script.decline_body = R"({"success":false,"error":"Unauthorized: Invalid token"})";
    check_refused_key(script);
  }
  SECTION("the service's auth close code (3000) is an error") {
    ScriptedService::Script script;
    script.close_code = 3000;
    script.close_reason = R"({"type":"error","error":"Unauthorized: Invalid token"})";
    check_refused_key(script);
  }
  SECTION("a plain server behind an https URL is a TLS error, not a fallback") {
    ScriptedService::Script script;
    script.status_body = done_status;
    ScriptedService service(script);
    std::string url = service.url();
    url.replace(0, 4, "https");
    webdata::Client client(url, "k");
    const Watched w =
        watch_all(client.crawl_job("c1").watch(policy_for(webdata::WatchMode::kAuto)));
    REQUIRE(w.error);
    CHECK(w.error->kind == webdata::ErrorKind::kTransport);
    CHECK_THAT(w.error->message, Catch::Contains("TLS handshake"));
    CHECK(service.plain_requests() == 0);
  }
}
