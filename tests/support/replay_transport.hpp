#pragma once

// The SDK on recorded exchanges: a Transport that answers from a ReplayBook (replay.hpp). A
// request of a route that was not recorded is a transport error naming it, so a test that
// strays from the recording fails saying where.
#include <string>
#include <utility>
#include <vector>

#include "replay.hpp"
#include "webdata/transport.hpp"

namespace webdata::testing {

class ReplayTransport : public Transport {
 public:
  explicit ReplayTransport(std::vector<RecordedExchange> exchanges) : book_(std::move(exchanges)) {}

  Result<HttpResponse> send(const HttpRequest& request) override {
    auto answer = book_.answer(request.method, request.url);
    if (!answer) {
      Error err;
      err.kind = ErrorKind::kTransport;
      err.message = "replay: nothing recorded for " + request.method + " " + request.url;
      return err;
    }
    HttpResponse response;
    response.status = answer->status;
    response.headers = answer->headers;
    response.body = answer->body;
    return response;
  }

  /// "METHOD /path?query" of every request so far.
  std::vector<std::string> requests() const { return book_.requests(); }

 private:
  ReplayBook book_;
};

}  // namespace webdata::testing
