#include "replay.hpp"

#include "beast_session.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

namespace webdata::testing {
namespace {

namespace net = boost::asio;
namespace http = boost::beast::http;
using nlohmann::json;

// "/v2/crawl/ID" of "http://127.0.0.1:3302/v2/crawl/ID?skip=2" (or of the path itself).
std::string route_of(const std::string& method, const std::string& url) {
  std::size_t start = 0;
  if (const auto scheme = url.find("://"); scheme != std::string::npos) {
    start = url.find('/', scheme + 3);
    if (start == std::string::npos) return method + " /";
  }
  return method + " " + url.substr(start, url.find('?', start) - start);
}

RecordedExchange read_exchange(const json& record, std::size_t index) {
  RecordedExchange out;
  out.index = index;
  out.scenario = record.at("scenario").get<std::string>();
  out.step = record.at("step").get<std::string>();
  const json& request = record.at("request");
  out.method = request.at("method").get<std::string>();
  out.path = request.at("path").get<std::string>();
  const json& response = record.at("response");
  out.status = response.at("status").get<int>();
  for (const auto& [name, value] : response.at("headers").items()) {
    out.headers.emplace_back(name, value.get<std::string>());
  }
  if (!response.at("json").is_null()) {
    out.json = response.at("json");
    out.body = out.json->dump();
  } else if (response.at("text").is_string()) {
    out.body = response.at("text").get<std::string>();
  }
  return out;
}

}  // namespace

std::vector<RecordedExchange> load_recordings(const std::string& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error("cannot read the recordings " + file);
  std::stringstream text;
  text << in.rdbuf();
  const json all = json::parse(text.str());
  std::vector<RecordedExchange> out;
  const json& records = all.at("records");
  for (std::size_t i = 0; i < records.size(); ++i) out.push_back(read_exchange(records[i], i));
  return out;
}

std::vector<RecordedExchange> select(const std::vector<RecordedExchange>& all,
                                     const std::string& scenario,
                                     const std::vector<std::string>& steps) {
  std::vector<RecordedExchange> out;
  for (const auto& e : all) {
    if (e.scenario != scenario) continue;
    bool wanted = steps.empty();
    for (const auto& step : steps) wanted = wanted || e.step == step;
    if (wanted) out.push_back(e);
  }
  return out;
}

ReplayBook::ReplayBook(std::vector<RecordedExchange> exchanges) {
  for (auto& e : exchanges) {
    routes_[route_of(e.method, e.route_path())].answers.push_back(std::move(e));
  }
}

std::optional<RecordedExchange> ReplayBook::answer(const std::string& method,
                                                   const std::string& url) {
  std::lock_guard<std::mutex> lock(mutex_);
  const std::string route = route_of(method, url);
  const auto query = url.find('?');
  requests_.push_back(route + (query == std::string::npos ? "" : url.substr(query)));
  auto it = routes_.find(route);
  if (it == routes_.end()) return std::nullopt;
  Route& r = it->second;
  const std::size_t at = std::min(r.next, r.answers.size() - 1);
  if (r.next < r.answers.size()) ++r.next;
  return r.answers[at];
}

std::vector<std::string> ReplayBook::requests() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return requests_;
}

// One io thread; every request is answered at once from the book.
struct ReplayServer::Impl {
  explicit Impl(std::vector<RecordedExchange> exchanges)
      : book(std::move(exchanges)), acceptor(io, {net::ip::make_address("127.0.0.1"), 0}) {}

  struct Session {
    explicit Session(net::ip::tcp::socket s) : socket(std::move(s)) {}
    net::ip::tcp::socket socket;
    boost::beast::flat_buffer buffer;
    http::request<http::string_body> request;
    http::response<http::string_body> response;
  };

  void accept() {
    acceptor.async_accept([this](boost::system::error_code ec, net::ip::tcp::socket s) {
      if (ec) return;
      read(std::make_shared<Session>(std::move(s)));
      accept();
    });
  }

  void read(const std::shared_ptr<Session>& session) {
    session->request = {};
    http::async_read(session->socket, session->buffer, session->request,
                     [this, session](boost::system::error_code ec, std::size_t) {
                       if (!ec) respond(session);
                     });
  }

  void respond(const std::shared_ptr<Session>& session) {
    const std::string method(session->request.method_string());
    const std::string target(session->request.target());
    auto& response = session->response;
    response = {};
    response.version(11);
    response.keep_alive(session->request.keep_alive());
    if (auto answer = book.answer(method, target)) {
      response.result(static_cast<unsigned>(answer->status));
      for (const auto& [name, value] : answer->headers) response.set(name, value);
      response.body() = answer->body;
    } else {
      response.result(http::status::not_found);
      response.set(http::field::content_type, "application/json");
      response.body() = json{{"success", false},
                             {"error", "replay: nothing recorded for " + method + " " + target}}
                            .dump();
    }
    response.prepare_payload();
    write_then_read_next(session, [this](const std::shared_ptr<Session>& s) { read(s); });
  }

  ReplayBook book;
  net::io_context io;
  net::ip::tcp::acceptor acceptor;
  std::thread thread;
};

ReplayServer::ReplayServer(std::vector<RecordedExchange> exchanges)
    : impl_(std::make_shared<Impl>(std::move(exchanges))) {
  impl_->accept();
  impl_->thread = std::thread([impl = impl_.get()] { impl->io.run(); });
}

ReplayServer::~ReplayServer() {
  impl_->io.stop();
  impl_->thread.join();
}

std::string ReplayServer::url() const {
  return "http://127.0.0.1:" + std::to_string(impl_->acceptor.local_endpoint().port());
}

std::vector<std::string> ReplayServer::requests() const {
  return impl_->book.requests();
}

}  // namespace webdata::testing
