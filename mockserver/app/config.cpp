#include "app/config.hpp"

#include <charconv>

namespace webdata::mock {
namespace {

template <class Int>
bool parse_int(const std::string& text, Int& out, Int min, Int max) {
  long long value = 0;
  const auto* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || value < static_cast<long long>(min) ||
      value > static_cast<long long>(max)) {
    return false;
  }
  out = static_cast<Int>(value);
  return true;
}

ParsedArgs refuse(const std::string& why) {
  ParsedArgs out;
  out.message = "webdata-mock: " + why + "\nTry 'webdata-mock --help'.";
  out.exit_code = 2;
  return out;
}

}  // namespace

std::string usage() {
  return R"(Usage: webdata-mock [options]

A local mock of the web data extraction API (v1 and v2).

Options:
  --host ADDR        address to listen on (default 127.0.0.1)
  --port N           port to listen on, 0 for any free port (default 3002)
  --threads N        worker threads (default 2)
  --quiet            no access log
  -h, --help         show this text and exit

Stop it with Ctrl-C (SIGINT) or SIGTERM; in-flight requests are finished first.
)";
}

ParsedArgs parse_args(const std::vector<std::string>& args) {
  Config config;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    auto next = [&](std::string& value) {
      if (i + 1 >= args.size()) return false;
      value = args[++i];
      return true;
    };
    std::string value;
    if (arg == "-h" || arg == "--help") {
      ParsedArgs out;
      out.message = usage();
      return out;
    } else if (arg == "--host") {
      if (!next(value) || value.empty()) return refuse("--host needs an address");
      config.server.host = value;
    } else if (arg == "--port") {
      if (!next(value) || !parse_int<std::uint16_t>(value, config.server.port, 0, 65535)) {
        return refuse("--port needs a number from 0 to 65535");
      }
    } else if (arg == "--threads") {
      if (!next(value) || !parse_int<int>(value, config.server.threads, 1, 256)) {
        return refuse("--threads needs a number from 1 to 256");
      }
    } else if (arg == "--quiet") {
      config.server.access_log = false;
    } else {
      return refuse("unknown option '" + arg + "'");
    }
  }
  ParsedArgs out;
  out.config = std::move(config);
  return out;
}

}  // namespace webdata::mock
