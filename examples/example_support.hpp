#pragma once

// What the examples share. None has a page or site built in: each works on the URLs of its
// arguments, else on $WEBDATA_EXAMPLE_URL, against the deployment $WEBDATA_API_URL names (with
// the key in $WEBDATA_API_KEY), so the same program runs against the mock and against a real
// deployment (docs/getting-started.md). What a deployment lacks (a route that answers an HTML
// 404, a format it cannot make without a language model) is said in one line; only a real
// failure ends a program with a non-zero exit code.
#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include <webdata/webdata.hpp>

namespace example {

/// The URLs given from argument `first` on, else the one in $WEBDATA_EXAMPLE_URL; empty when
/// there is neither (the caller prints its usage).
inline std::vector<std::string> targets(int argc, char** argv, int first = 1) {
  std::vector<std::string> urls(argv + std::min(first, argc), argv + argc);
  const char* env = std::getenv("WEBDATA_EXAMPLE_URL");
  if (urls.empty() && env != nullptr && *env != '\0') urls.emplace_back(env);
  return urls;
}

/// The page or site of argument 1, else $WEBDATA_EXAMPLE_URL; empty when there is neither.
inline std::string target(int argc, char** argv) {
  const std::vector<std::string> urls = targets(std::min(argc, 2), argv);
  return urls.empty() ? std::string() : urls.front();
}

/// Prints the usage line (with the environment alternative) and returns exit code 2.
inline int usage(const std::string& line) {
  std::cerr << "usage: " << line << "\n       (or set WEBDATA_EXAMPLE_URL instead of URL)\n";
  return 2;
}

/// Whether `error` says the deployment has no such route (its HTML 404 page); if so, the one
/// line that says it is printed. Such a deployment is not the program's failure.
inline bool lacks_route(const webdata::Error& error) {
  if (error.kind != webdata::ErrorKind::kNotJson ||
      (error.http_status != 404 && error.http_status != 405)) {
    return false;
  }
  std::cout << "skipped: " << error.message << "\n";
  return true;
}

/// A call's error, told: "<what> failed: <the error>"; returns exit code 1.
inline int failed(const std::string& what, const webdata::Error& error) {
  std::cerr << what << " failed: " << error.describe() << "\n";
  return 1;
}

}  // namespace example
