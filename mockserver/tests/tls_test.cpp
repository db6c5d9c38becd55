// The mock over TLS (issue 21): HTTPS and WSS with a given or a self-signed certificate, and
// clear refusals of certificate files that cannot serve.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include <csignal>
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include "app/config.hpp"
#include "http/tls.hpp"
#include "mock_fixture.hpp"
#include "tls_client.hpp"

using webdata::testing::https_request;
using webdata::testing::RunningMock;
using webdata::testing::WssClient;
using json = nlohmann::json;
namespace http = webdata::mock::http;

namespace {

webdata::mock::Config self_signed_config() {
  auto config = RunningMock::quiet_config();
  config.server.tls.self_signed = true;
  return config;
}

const std::vector<std::pair<std::string, std::string>> kBearer = {
    {"Authorization", "Bearer test-key"}};

struct Exit {
  int code = -1;
  std::string out;
  std::string err;
};

std::string read_fd(int fd) {
  std::string text;
  char buf[4096];
  ssize_t n = 0;
  while ((n = read(fd, buf, sizeof buf)) > 0) text.append(buf, static_cast<std::size_t>(n));
  return text;
}

// Runs webdata-mock with `args` to its end (it must exit by itself).
Exit run_mock(const std::vector<std::string>& args) {
  int out_pipe[2];
  int err_pipe[2];
  REQUIRE(pipe(out_pipe) == 0);
  REQUIRE(pipe(err_pipe) == 0);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    dup2(out_pipe[1], STDOUT_FILENO);
    dup2(err_pipe[1], STDERR_FILENO);
    close(out_pipe[0]);
    close(err_pipe[0]);
    std::vector<char*> argv;
    std::string exe = WEBDATA_MOCK_EXE;
    argv.push_back(exe.data());
    std::vector<std::string> copy = args;
    for (auto& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(exe.c_str(), argv.data());
    _exit(127);
  }
  close(out_pipe[1]);
  close(err_pipe[1]);
  Exit result;
  result.out = read_fd(out_pipe[0]);
  result.err = read_fd(err_pipe[0]);
  close(out_pipe[0]);
  close(err_pipe[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  result.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

}  // namespace

TEST_CASE("HTTPS with a self-signed certificate: trusted as the CA it works, else it is refused",
          "[tls]") {
  RunningMock mock(self_signed_config());
  const auto cert = mock.server().certificate_file();
  REQUIRE_FALSE(cert.empty());
  CHECK(std::filesystem::exists(cert));
  CHECK(mock.url().rfind("https://127.0.0.1:", 0) == 0);
  const auto port = mock.server().port();

  const auto ok = https_request(port, cert, "GET", "/health");
  INFO(ok.error);
  REQUIRE(ok.status == 200);
  CHECK(json::parse(ok.body)["status"] == "ok");

  // The system's CAs do not know it: verification fails, nothing is exchanged.
  const auto untrusted = https_request(port, "", "GET", "/health");
  CHECK(untrusted.status == 0);
  CHECK(untrusted.error.find("certificate verify failed") != std::string::npos);

  // It names localhost and 127.0.0.1 only: another name fails the host check.
  const auto wrong_name = https_request(port, cert, "GET", "/health", "", {}, "example.org");
  CHECK(wrong_name.status == 0);

  SECTION("the API over HTTPS: scrape, and absolute URLs say https") {
    const auto scrape = https_request(
        port, cert, "POST", "/v2/scrape",
        json{{"url", "https://docs.example.test/"}, {"formats", {"markdown"}}}.dump(), kBearer);
    INFO(scrape.error << scrape.body);
    REQUIRE(scrape.status == 200);
    CHECK(json::parse(scrape.body)["data"]["markdown"].is_string());

    const auto crawl = https_request(
        port, cert, "POST", "/v2/crawl",
        json{{"url", "http://pages-3.synthetic.test/"}}.dump(), kBearer);
    REQUIRE(crawl.status == 200);
    CHECK(json::parse(crawl.body)["url"].get<std::string>().rfind("https://", 0) == 0);
  }

  SECTION("plain HTTP to the HTTPS port gets no answer, and the server stays up") {
    namespace net = boost::asio;
    net::io_context ioc;
    boost::beast::tcp_stream plain(ioc);
    plain.expires_after(std::chrono::seconds(10));
    plain.connect({net::ip::make_address("127.0.0.1"), port});
    boost::beast::http::request<boost::beast::http::empty_body> req{
        boost::beast::http::verb::get, "/health", 11};
    boost::beast::error_code ec;
    boost::beast::http::write(plain, req, ec);
    boost::beast::flat_buffer buffer;
    boost::beast::http::response<boost::beast::http::string_body> res;
    boost::beast::http::read(plain, buffer, res, ec);
    CHECK(ec);  // not HTTP: the TLS handshake failed and the connection was closed
    CHECK(https_request(port, cert, "GET", "/health").status == 200);
  }
}

TEST_CASE("HTTPS with certificate and key files", "[tls]") {
  const auto made = http::make_self_signed_certificate({"localhost", "127.0.0.1"});
  auto config = RunningMock::quiet_config();
  config.server.tls.cert_file = made.cert_file;
  config.server.tls.key_file = made.key_file;
  {
    RunningMock mock(config);
    CHECK(mock.server().certificate_file() == made.cert_file);
    const auto ok = https_request(mock.server().port(), made.cert_file, "GET", "/health");
    INFO(ok.error);
    CHECK(ok.status == 200);
  }
  // Given files are the user's: the server leaves them in place.
  CHECK(std::filesystem::exists(made.cert_file));
  http::remove_self_signed_certificate(made);
  CHECK_FALSE(std::filesystem::exists(made.dir));
}

TEST_CASE("the crawl watcher over WSS streams the crawl to its end", "[tls][watch]") {
  auto config = self_signed_config();
  config.page_pacing_ms = 30;
  RunningMock mock(config);
  const auto cert = mock.server().certificate_file();
  const auto port = mock.server().port();
  const auto started = https_request(
      port, cert, "POST", "/v2/crawl",
      json{{"url", "http://pages-8.synthetic.test/"}, {"maxConcurrency", 1}}.dump(), kBearer);
  REQUIRE(started.status == 200);
  const std::string id = json::parse(started.body)["id"];

  WssClient ws(port, cert);
  const auto opened = ws.open("/v2/crawl/" + id, kBearer);
  REQUIRE(opened.empty());
  CHECK(ws.response().result_int() == 101);
  const auto messages = ws.drain();
  REQUIRE_FALSE(ws.timed_out());
  CHECK(ws.closed());
  CHECK(ws.close_code() == 1000);
  CHECK(json::parse(ws.close_reason()) == json{{"type", "done"}});
  REQUIRE_FALSE(messages.empty());
  const json catchup = json::parse(messages.front());
  CHECK(catchup["type"] == "catchup");
  std::size_t documents = catchup["data"]["data"].size();
  for (std::size_t i = 1; i < messages.size(); ++i) {
    if (json::parse(messages[i])["type"] == "document") ++documents;
  }
  CHECK(documents == 8);

  // A client that does not trust the certificate never gets to the WebSocket handshake.
  WssClient untrusted(port, "");
  CHECK(untrusted.open("/v2/crawl/" + id, kBearer).find("certificate verify failed") !=
        std::string::npos);
}

TEST_CASE("a self-signed certificate is removed with the server", "[tls]") {
  std::string dir;
  {
    RunningMock mock(self_signed_config());
    dir = std::filesystem::path(mock.server().certificate_file()).parent_path().string();
    REQUIRE(std::filesystem::is_directory(dir));
    // The key is readable by its owner only.
    const auto perms = std::filesystem::status(dir + "/key.pem").permissions();
    CHECK((perms & (std::filesystem::perms::group_all | std::filesystem::perms::others_all)) ==
          std::filesystem::perms::none);
  }
  CHECK_FALSE(std::filesystem::exists(dir));
}

TEST_CASE("certificate files that cannot serve are refused with a clear reason (exit 2)",
          "[tls][config]") {
  using webdata::mock::parse_args;
  const auto made = http::make_self_signed_certificate({"localhost"});
  const auto other = http::make_self_signed_certificate({"localhost"});
  const std::string missing = made.dir + "/missing.pem";
  const std::string not_pem = made.dir + "/not.pem";
  std::ofstream(not_pem) << "hello\n";

  struct Case {
    std::vector<std::string> args;
    std::string says;
  };
  const std::vector<Case> cases = {
      {{"--tls-cert", missing, "--tls-key", made.key_file}, "cannot read TLS certificate '" + missing},
      {{"--tls-cert", made.cert_file, "--tls-key", missing}, "cannot read TLS key '" + missing},
      {{"--tls-cert", not_pem, "--tls-key", made.key_file}, "is not a PEM certificate"},
      {{"--tls-cert", made.cert_file, "--tls-key", not_pem}, "is not a PEM private key"},
      {{"--tls-cert", made.cert_file, "--tls-key", other.key_file}, "does not belong to"},
      {{"--tls-cert", made.dir, "--tls-key", made.key_file}, "a directory"},
      {{"--tls-cert", made.cert_file}, "go together"},
      {{"--tls-self-signed", "--tls-cert", made.cert_file, "--tls-key", made.key_file},
       "exclude each other"},
      {{"--tls-cert"}, "--tls-cert needs"},
  };
  for (const auto& c : cases) {
    const auto parsed = parse_args(c.args);
    INFO(parsed.message);
    CHECK_FALSE(parsed.config);
    CHECK(parsed.exit_code == 2);
    CHECK(parsed.message.find(c.says) != std::string::npos);
  }
  const auto good = parse_args({"--tls-cert", made.cert_file, "--tls-key", made.key_file});
  REQUIRE(good.config);
  CHECK(good.config->server.tls.cert_file == made.cert_file);

  // The program itself: the reason on stderr, exit code 2, nothing started.
  const auto run = run_mock({"--port", "0", "--tls-cert", missing, "--tls-key", made.key_file});
  CHECK(run.code == 2);
  CHECK(run.err.find("cannot read TLS certificate '" + missing + "': no such file") !=
        std::string::npos);
  CHECK(run.out.empty());

  http::remove_self_signed_certificate(made);
  http::remove_self_signed_certificate(other);
}

TEST_CASE("webdata-mock --tls-self-signed prints the certificate, serves HTTPS, and cleans up",
          "[tls]") {
  int out_pipe[2];
  REQUIRE(pipe(out_pipe) == 0);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    dup2(out_pipe[1], STDOUT_FILENO);
    close(out_pipe[0]);
    const int null_fd = open("/dev/null", O_WRONLY);
    dup2(null_fd, STDERR_FILENO);
    execl(WEBDATA_MOCK_EXE, WEBDATA_MOCK_EXE, "--port", "0", "--quiet", "--tls-self-signed",
          static_cast<char*>(nullptr));
    _exit(127);
  }
  close(out_pipe[1]);
  // Reads lines until the URL line (bounded: the mock starts within seconds).
  std::string out;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (out.find("listening on") == std::string::npos &&
         std::chrono::steady_clock::now() < deadline) {
    pollfd p{out_pipe[0], POLLIN, 0};
    if (poll(&p, 1, 200) <= 0) continue;
    char buf[1024];
    const ssize_t n = read(out_pipe[0], buf, sizeof buf);
    if (n <= 0) break;
    out.append(buf, static_cast<std::size_t>(n));
  }
  const auto cert_at = out.find("(self-signed; trust it as the CA): ");
  const auto url_at = out.find("listening on https://127.0.0.1:");
  std::string cert;
  unsigned short port = 0;
  if (cert_at != std::string::npos && url_at != std::string::npos) {
    const auto start = cert_at + std::string("(self-signed; trust it as the CA): ").size();
    cert = out.substr(start, out.find('\n', start) - start);
    port = static_cast<unsigned short>(
        std::stoi(out.substr(url_at + std::string("listening on https://127.0.0.1:").size())));
  }
  INFO(out);
  bool served = false;
  if (port != 0) served = https_request(port, cert, "GET", "/health").status == 200;
  kill(pid, SIGTERM);
  int status = 0;
  waitpid(pid, &status, 0);
  close(out_pipe[0]);
  CHECK(served);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  REQUIRE_FALSE(cert.empty());
  CHECK_FALSE(std::filesystem::exists(cert));  // throwaway: gone with the process
}
