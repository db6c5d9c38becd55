#include "http/router.hpp"

#include <algorithm>

namespace webdata::mock::http {

namespace {

/// Calls `each(segment)` for every non-empty segment of `path` ("/a//b/" is a, b); stops and
/// returns false when `each` does.
template <class Each>
bool for_each_segment(std::string_view path, Each&& each) {
  std::size_t pos = 0;
  while (pos < path.size()) {
    std::size_t end = path.find('/', pos);
    if (end == std::string_view::npos) end = path.size();
    if (end > pos && !each(path.substr(pos, end - pos))) return false;
    pos = end + 1;
  }
  return true;
}

}  // namespace

void Router::add(const std::string& method, const std::string& pattern, RouteHandler handler) {
  Route route{method, {}, 0, std::move(handler)};
  for_each_segment(pattern, [&](std::string_view seg) {
    const bool capture = seg.size() > 2 && seg.front() == '{' && seg.back() == '}';
    route.segments.push_back(
        {std::string(capture ? seg.substr(1, seg.size() - 2) : seg), capture});
    route.captures += capture ? 1 : 0;
    return true;
  });
  // Kept sorted by captures (stable: added order among equals), so the first route that matches
  // a path under its method is the one to run.
  const auto at = std::upper_bound(
      routes_.begin(), routes_.end(), route.captures,
      [](int captures, const Route& r) { return captures < r.captures; });
  routes_.insert(at, std::move(route));
}

bool Router::match(const Route& route, std::string_view path) {
  std::size_t i = 0;
  const bool all = for_each_segment(path, [&](std::string_view part) {
    if (i == route.segments.size()) return false;
    const Segment& seg = route.segments[i++];
    return seg.capture || seg.text == part;
  });
  return all && i == route.segments.size();
}

PathParams Router::params_of(const Route& route, std::string_view path) {
  PathParams params;
  if (route.captures == 0) return params;
  std::size_t i = 0;
  for_each_segment(path, [&](std::string_view part) {
    const Segment& seg = route.segments[i++];
    if (seg.capture) params[seg.text] = std::string(part);
    return true;
  });
  return params;
}

bool Router::knows_path(const std::string& path) const {
  return std::any_of(routes_.begin(), routes_.end(),
                     [&](const Route& r) { return match(r, path); });
}

bool Router::knows(const std::string& method, const std::string& path) const {
  return std::any_of(routes_.begin(), routes_.end(), [&](const Route& r) {
    return (r.method == method || (method == "HEAD" && r.method == "GET")) && match(r, path);
  });
}

Response Router::dispatch(const Request& request) const {
  bool other_method = false;
  for (const auto& route : routes_) {
    if (!match(route, request.path)) continue;
    if (route.method == request.method || (request.method == "HEAD" && route.method == "GET")) {
      return route.handler(request, params_of(route, request.path));
    }
    other_method = true;
  }
  if (other_method) {
    std::vector<std::string> allowed;
    for (const auto& route : routes_) {
      if (match(route, request.path)) allowed.push_back(route.method);
    }
    std::sort(allowed.begin(), allowed.end());
    allowed.erase(std::unique(allowed.begin(), allowed.end()), allowed.end());
    std::string allow;
    for (const auto& m : allowed) allow += (allow.empty() ? "" : ", ") + m;
    auto response = Response::error(405, "Method " + request.method + " not allowed on " +
                                             request.path + " (allowed: " + allow + ")");
    response.set_header("Allow", allow);
    return response;
  }
  return Response::error(404, "Route not found: " + request.method + " " + request.path);
}

}  // namespace webdata::mock::http
