#pragma once

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace webdata::cli {

/// Exit codes of `webdata`, for scripts (documented in docs/cli.md).
enum ExitCode : int {
  kOk = 0,
  kApiError = 1,         ///< The service answered with an error status.
  kUsage = 2,            ///< Bad command line (or a bad --schema).
  kTransport = 3,        ///< No answer: connection refused, DNS, TLS.
  kTimeout = 4,          ///< A request or the whole wait (--max-wait) took too long.
  kJobNotCompleted = 5,  ///< The job ended failed or cancelled.
  kBadAnswer = 6,        ///< The answer was not what the API promises.
  kOutputError = 7,      ///< Standard output could not be written.
};

/// A refused command line; the message is shown with a hint to --help, exit code 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The parsed command line: the subcommand, its positional arguments and its options.
struct Args {
  std::string command;
  std::vector<std::string> positional;
  std::map<std::string, std::vector<std::string>> values;  ///< --name VALUE (repeatable)
  std::map<std::string, bool> flags;                       ///< --name

  bool flag(const std::string& name) const { return flags.count(name) != 0; }
  std::optional<std::string> value(const std::string& name) const;
  /// Every value of a repeatable option; "a,b" counts as two values.
  std::vector<std::string> list(const std::string& name) const;
  std::optional<int> integer(const std::string& name, int min, int max) const;
  std::optional<double> number(const std::string& name, double min, double max) const;
};

/// Parses `argv` (without the program name). Options may come before or after the
/// subcommand; `--name=value` and `--name value` are both accepted. Throws UsageError.
Args parse_args(const std::vector<std::string>& argv);

std::string usage();
std::string command_usage(const std::string& command);

}  // namespace webdata::cli
