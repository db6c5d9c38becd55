#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "http/message.hpp"

namespace webdata::mock::http {

/// Path parameters captured by `{name}` segments.
using PathParams = std::map<std::string, std::string>;
using RouteHandler = std::function<Response(const Request&, const PathParams&)>;

/// Method + path-pattern routing. Patterns are literal segments and `{name}` captures, e.g.
/// `/v2/crawl/{id}`. A path that matches no pattern answers 404, a path that matches under
/// other methods only answers 405 with an `Allow` header; both with JSON error bodies.
/// Matching allocates nothing: the path is read in place, and only the chosen route's captures
/// become a PathParams (empty, so no allocation, for a route without captures).
class Router {
 public:
  void add(const std::string& method, const std::string& pattern, RouteHandler handler);
  Response dispatch(const Request& request) const;
  /// True when some route matches the path, whatever the method.
  bool knows_path(const std::string& path) const;
  /// True when a route of this method matches the path (GET routes also serve HEAD).
  bool knows(const std::string& method, const std::string& path) const;

 private:
  struct Segment {
    std::string text;      ///< The literal, or the capture's name.
    bool capture = false;  ///< `{name}`
  };
  struct Route {
    std::string method;
    std::vector<Segment> segments;
    int captures = 0;
    RouteHandler handler;
  };
  /// Routes are tried from fewest captures to most (literal segments win over captures), and
  /// in the order they were added among equals.
  static bool match(const Route& route, std::string_view path);
  static PathParams params_of(const Route& route, std::string_view path);
  std::vector<Route> routes_;
};

}  // namespace webdata::mock::http
