#include "http/router.hpp"

#include <algorithm>

namespace webdata::mock::http {

std::vector<std::string> Router::split(const std::string& path) {
  std::vector<std::string> out;
  std::size_t pos = 0;
  while (pos < path.size()) {
    std::size_t end = path.find('/', pos);
    if (end == std::string::npos) end = path.size();
    if (end > pos) out.push_back(path.substr(pos, end - pos));
    pos = end + 1;
  }
  return out;
}

void Router::add(const std::string& method, const std::string& pattern, RouteHandler handler) {
  routes_.push_back(Route{method, split(pattern), std::move(handler)});
}

bool Router::match(const Route& route, const std::vector<std::string>& parts, PathParams& params) {
  if (route.segments.size() != parts.size()) return false;
  PathParams captured;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const std::string& seg = route.segments[i];
    if (seg.size() > 2 && seg.front() == '{' && seg.back() == '}') {
      captured[seg.substr(1, seg.size() - 2)] = parts[i];
    } else if (seg != parts[i]) {
      return false;
    }
  }
  params = std::move(captured);
  return true;
}

bool Router::knows_path(const std::string& path) const {
  const auto parts = split(path);
  PathParams params;
  return std::any_of(routes_.begin(), routes_.end(),
                     [&](const Route& r) { return match(r, parts, params); });
}

Response Router::dispatch(const Request& request) const {
  const auto parts = split(request.path);
  std::vector<std::string> allowed;
  // Literal segments win over captures: try routes in the order of fewest captures.
  const Route* best = nullptr;
  PathParams best_params;
  int best_captures = 1 << 30;
  for (const auto& route : routes_) {
    PathParams params;
    if (!match(route, parts, params)) continue;
    const bool same_method =
        route.method == request.method || (request.method == "HEAD" && route.method == "GET");
    if (!same_method) {
      allowed.push_back(route.method);
      continue;
    }
    const int captures = static_cast<int>(params.size());
    if (captures < best_captures) {
      best = &route;
      best_params = std::move(params);
      best_captures = captures;
    }
  }
  if (best != nullptr) return best->handler(request, best_params);
  if (!allowed.empty()) {
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
