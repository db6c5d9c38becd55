#pragma once

#include <ostream>

#include "args.hpp"

namespace webdata::cli {

/// Runs the parsed command; returns the process exit code (see ExitCode). Results go to `out`,
/// the progress bar, notes and error messages to `err`. Throws UsageError for bad arguments.
int run_command(const Args& args, std::ostream& out, std::ostream& err, bool err_is_tty);

}  // namespace webdata::cli
