#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "http/message.hpp"

namespace webdata::mock::http {

/// Path parameters captured by `{name}` segments.
using PathParams = std::map<std::string, std::string>;
using RouteHandler = std::function<Response(const Request&, const PathParams&)>;

/// Method + path-pattern routing. Patterns are literal segments and `{name}` captures, e.g.
/// `/v2/crawl/{id}`. A path that matches no pattern answers 404, a path that matches under
/// other methods only answers 405 with an `Allow` header; both with JSON error bodies.
class Router {
 public:
  void add(const std::string& method, const std::string& pattern, RouteHandler handler);
  Response dispatch(const Request& request) const;
  /// True when some route matches the path, whatever the method.
  bool knows_path(const std::string& path) const;

 private:
  struct Route {
    std::string method;
    std::vector<std::string> segments;
    RouteHandler handler;
  };
  static std::vector<std::string> split(const std::string& path);
  static bool match(const Route& route, const std::vector<std::string>& parts, PathParams& params);
  std::vector<Route> routes_;
};

}  // namespace webdata::mock::http
