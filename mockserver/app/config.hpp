#pragma once

#include <optional>
#include <string>
#include <vector>

#include "http/server.hpp"

namespace webdata::mock {

/// Everything the mock can be told at start-up.
struct Config {
  http::ServerOptions server;
};

/// Outcome of reading the command line: a config to run, or text to print and an exit code.
struct ParsedArgs {
  std::optional<Config> config;
  std::string message;  ///< Help text or the reason the arguments were refused.
  int exit_code = 0;
};

ParsedArgs parse_args(const std::vector<std::string>& args);
std::string usage();

}  // namespace webdata::mock
