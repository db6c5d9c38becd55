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
  kPageError = 8,        ///< The scraped page answered an error status (400 or more).
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

/// Parses `argv` (without the program name) with CLI11. Options may come before or after the
/// subcommand; `--name=value` and `--name value` are both accepted, `--` ends the options.
/// Throws UsageError: an unknown command or option names the nearest known one when it is close.
Args parse_args(const std::vector<std::string>& argv);

/// `webdata --help`: the commands, the global options, the exit codes.
std::string usage();
/// `webdata COMMAND --help`: the command's arguments and options (the whole usage for an unknown one).
std::string command_usage(const std::string& command);

/// Levenshtein distance, letters compared without case.
std::size_t edit_distance(const std::string& a, const std::string& b);
/// The name of `known` nearest to `name`, if one is at most `max_distance` edits away.
std::optional<std::string> nearest_name(const std::string& name,
                                        const std::vector<std::string>& known,
                                        std::size_t max_distance);

}  // namespace webdata::cli
