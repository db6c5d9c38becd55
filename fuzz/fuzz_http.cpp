// The mock's HTTP request path without sockets: raw bytes go through the Beast request parser
// the server uses (same header and body limits), each complete request becomes an http::Request
// exactly as the server builds one, and MockServer::handle() runs the router, auth, validation
// and handlers. Pipelined requests in one input are all handled.
//
// Kept deterministic and bounded: admin writes are skipped (they would pile up stub mappings;
// the stub loader has its own fuzzer), requests naming a webhook are skipped (the dispatcher
// would POST to whatever address the fuzzer wrote), and jobs are reset every 256 inputs.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <sstream>
#include <string>

#include <boost/asio/buffer.hpp>
#include <boost/beast/http.hpp>
#include <nlohmann/json.hpp>

#include "app/mock_server.hpp"
#include "core/url.hpp"

namespace {

namespace bhttp = boost::beast::http;
namespace mock = webdata::mock;

std::ostringstream& server_log() {
  static std::ostringstream log;
  return log;
}

mock::MockServer*& server_instance() {
  static mock::MockServer* instance = nullptr;
  return instance;
}

mock::MockServer& server() {
  auto& instance = server_instance();
  if (instance == nullptr) {
    mock::Config config;
    config.server.port = 0;
    config.server.access_log = false;
    config.admin = true;
    config.page_pacing_ms = 0;
    config.web_roots = {std::string(WEBDATA_FUZZ_FIXTURES) + "/web"};
    config.bundled_web = false;
    instance = new mock::MockServer(config, server_log());  // never started: no sockets
  }
  return *instance;
}

mock::http::Request to_request(bhttp::request<bhttp::string_body>& raw) {
  mock::http::Request request;
  request.method = std::string(raw.method_string());
  request.target = std::string(raw.target());
  const auto qpos = request.target.find('?');
  request.path = mock::percent_decode(request.target.substr(0, qpos), false);
  if (qpos != std::string::npos) request.query = request.target.substr(qpos + 1);
  for (const auto& field : raw) {
    request.headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
  }
  request.body = std::move(raw.body());
  request.remote_address = "127.0.0.1";
  return request;
}

void handle(mock::http::Request request) {
  if (request.path.rfind("/__admin", 0) == 0 && request.method != "GET") return;
  if (request.body.find("webhook") != std::string::npos) return;
  const auto response = server().handle(request);
  if (response.status < 100 || response.status > 599) __builtin_trap();
  if (response.status >= 500 && response.fault == mock::Fault::none) {
    // A 500 is only allowed for the fetch failures of wire-decisions section 1 (SCRAPE_*).
    const auto body = nlohmann::json::parse(response.body, nullptr, false);
    const std::string code = body.is_object() ? body.value("code", "") : "";
    if (code.rfind("SCRAPE_", 0) != 0) __builtin_trap();
  }
}

}  // namespace

// Called by the replay program before it returns: stops the job engine and webhook threads
// while everything they use still exists (libFuzzer itself just exits).
extern "C" void webdata_fuzz_cleanup() {
  delete server_instance();
  server_instance() = nullptr;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static std::size_t runs = 0;
  if (++runs % 256 == 0) {
    mock::http::Request reset;
    reset.method = "POST";
    reset.target = reset.path = "/__admin/reset";
    (void)server().handle(reset);
  }
  const char* bytes = reinterpret_cast<const char*>(data);
  std::size_t offset = 0;
  for (int requests = 0; requests < 8 && offset < size; ++requests) {
    bhttp::request_parser<bhttp::string_body> parser;
    parser.header_limit(64 * 1024);
    parser.body_limit(1024 * 1024);
    parser.eager(true);
    boost::beast::error_code ec;
    while (offset < size && !parser.is_done()) {
      const std::size_t used = parser.put(boost::asio::buffer(bytes + offset, size - offset), ec);
      offset += used;
      if (ec == bhttp::error::need_more) {
        if (used == 0) break;
        ec = {};
        continue;
      }
      if (ec || used == 0) break;
    }
    if (!parser.is_done() && !ec) {
      parser.put_eof(ec);
    }
    if (ec && ec != bhttp::error::need_more) return 0;  // the server answers 400/413/431 and closes
    if (!parser.is_done()) return 0;
    handle(to_request(parser.get()));
  }
  return 0;
}
