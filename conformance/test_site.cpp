#include "test_site.hpp"

#include <algorithm>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <cctype>
#include <condition_variable>
#include <optional>

namespace webdata::conformance {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

namespace {

bool iequals(const std::string& a, const std::string& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

TestSite* current_site = nullptr;

}  // namespace

std::string Delivery::header(const std::string& name) const {
  for (const auto& [key, value] : headers) {
    if (iequals(key, name)) return value;
  }
  return {};
}

struct TestSite::Impl {
  asio::io_context io;
  tcp::acceptor acceptor{io};
  std::vector<std::thread> threads;
  mutable std::mutex mutex;
  mutable std::condition_variable changed;
  std::map<std::string, std::vector<Delivery>> deliveries;
  std::map<std::string, int> hits;

  void accept();
  void record_delivery(const http::request<http::string_body>& req);
  void record_hit(const std::string& target) {
    std::lock_guard<std::mutex> lock(mutex);
    ++hits[target];
  }
};

namespace {

// One keep-alive connection: read a request, answer it (after the page's delay), repeat.
class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket socket, TestSite::Impl& site)
      : stream_(std::move(socket)), timer_(stream_.get_executor()), site_(site) {}

  void start() { read(); }

 private:
  void read() {
    request_ = {};
    parser_.emplace();
    parser_->body_limit(16 * 1024 * 1024);
    stream_.expires_after(std::chrono::seconds(60));
    http::async_read(stream_, buffer_, *parser_,
                     [self = shared_from_this()](beast::error_code ec, std::size_t) {
                       if (ec) return self->close();
                       self->request_ = self->parser_->release();
                       self->handle();
                     });
  }

  void handle() {
    const std::string target(request_.target());
    const std::string host(request_[http::field::host]);
    response_ = {};
    response_.version(request_.version());
    response_.keep_alive(request_.keep_alive());
    response_.set(http::field::server, "webdata-conformance-site");
    if (target.rfind("/hooks/", 0) == 0) {
      if (request_.method() == http::verb::post) site_.record_delivery(request_);
      response_.result(http::status::ok);
      response_.set(http::field::content_type, "application/json");
      response_.body() = R"({"received":true})";
      return write({});
    }
    if (request_.method() != http::verb::get && request_.method() != http::verb::head) {
      response_.result(http::status::method_not_allowed);
      response_.set(http::field::allow, "GET, HEAD");
      return write({});
    }
    site_.record_hit(target);
    const SiteResponse page = site_page(target, host);
    response_.result(static_cast<unsigned>(page.status));
    response_.set(http::field::content_type, page.content_type);
    for (const auto& [name, value] : page.headers) response_.set(name, value);
    if (page.body && request_.method() == http::verb::get) response_.body() = *page.body;
    write(page.delay);
  }

  void write(std::chrono::milliseconds delay) {
    response_.prepare_payload();
    if (delay.count() > 0) {
      timer_.expires_after(delay);
      timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
        if (ec) return self->close();
        self->send();
      });
      return;
    }
    send();
  }

  void send() {
    http::async_write(stream_, response_,
                      [self = shared_from_this()](beast::error_code ec, std::size_t) {
                        if (ec || !self->response_.keep_alive()) return self->close();
                        self->read();
                      });
  }

  void close() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
    stream_.socket().close(ignored);
  }

  beast::tcp_stream stream_;
  asio::steady_timer timer_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  http::request<http::string_body> request_;
  http::response<http::string_body> response_;
  TestSite::Impl& site_;
};

}  // namespace

void TestSite::Impl::accept() {
  acceptor.async_accept(asio::make_strand(io), [this](beast::error_code ec, tcp::socket socket) {
    if (ec) return;  // acceptor closed: the site is stopping
    std::make_shared<Session>(std::move(socket), *this)->start();
    accept();
  });
}

void TestSite::Impl::record_delivery(const http::request<http::string_body>& req) {
  Delivery d;
  const std::string target(req.target());
  d.path = target;
  for (const auto& field : req) {
    d.headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
  }
  d.body = req.body();
  d.at = std::chrono::steady_clock::now();
  std::string token = target.substr(std::string("/hooks/").size());
  token = token.substr(0, token.find('?'));
  {
    std::lock_guard<std::mutex> lock(mutex);
    deliveries[token].push_back(std::move(d));
  }
  changed.notify_all();
}

TestSite::TestSite(const std::string& address, unsigned short port)
    : impl_(std::make_unique<Impl>()) {
  const tcp::endpoint endpoint(asio::ip::make_address(address), port);
  impl_->acceptor.open(endpoint.protocol());
  impl_->acceptor.set_option(asio::socket_base::reuse_address(true));
  impl_->acceptor.bind(endpoint);
  impl_->acceptor.listen();
  impl_->accept();
  // Slow pages hold a timer, not a thread; four threads keep large pages from queueing.
  for (int i = 0; i < 4; ++i) impl_->threads.emplace_back([this] { impl_->io.run(); });
}

TestSite::~TestSite() {
  impl_->io.stop();
  for (auto& t : impl_->threads) t.join();
}

unsigned short TestSite::port() const {
  return impl_->acceptor.local_endpoint().port();
}

std::vector<Delivery> TestSite::deliveries(const std::string& token) const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  const auto it = impl_->deliveries.find(token);
  return it == impl_->deliveries.end() ? std::vector<Delivery>{} : it->second;
}

std::vector<Delivery> TestSite::wait_for_deliveries(
    const std::string& token, const std::function<bool(const std::vector<Delivery>&)>& done,
    std::chrono::milliseconds timeout) const {
  std::unique_lock<std::mutex> lock(impl_->mutex);
  const auto list = [&] {
    const auto it = impl_->deliveries.find(token);
    return it == impl_->deliveries.end() ? std::vector<Delivery>{} : it->second;
  };
  impl_->changed.wait_for(lock, timeout, [&] { return done(list()); });
  return list();
}

int TestSite::hits(const std::string& target) const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  const auto it = impl_->hits.find(target);
  return it == impl_->hits.end() ? 0 : it->second;
}

TestSite& site() {
  return *current_site;
}
void set_site(TestSite* s) {
  current_site = s;
}

}  // namespace webdata::conformance
