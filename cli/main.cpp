// webdata: a command-line client for the web data extraction API, on the C++ SDK.
//
//   webdata scrape https://docs.example.test/ --format markdown,links
//   webdata crawl https://docs.example.test/ --limit 20 --json > crawl.json
//
// See `webdata --help` and docs/cli.md.
#include <iostream>
#include <string>
#include <vector>

#include <unistd.h>

#include "args.hpp"
#include "commands.hpp"

int main(int argc, char** argv) {
  using namespace webdata::cli;
  const std::vector<std::string> argv_list(argv + 1, argv + argc);
  try {
    const Args args = parse_args(argv_list);
    if (args.flag("version")) {
      std::cout << "webdata " << WEBDATA_CLI_VERSION << "\n";
      return kOk;
    }
    if (args.flag("help")) {
      std::cout << (args.command.empty() ? usage() : command_usage(args.command));
      return kOk;
    }
    return run_command(args, std::cout, std::cerr, isatty(STDERR_FILENO) == 1);
  } catch (const UsageError& e) {
    std::cerr << "webdata: " << e.what() << "\nTry 'webdata --help'.\n";
    return kUsage;
  } catch (const std::exception& e) {
    std::cerr << "webdata: " << e.what() << "\n";
    return kBadAnswer;
  }
}
