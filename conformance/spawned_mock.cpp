#include "spawned_mock.hpp"

#include <sys/wait.h>
#include <unistd.h>
#include <csignal>
#include <cstring>
#include <stdexcept>

#include <poll.h>

namespace webdata::conformance {

SpawnedMock::SpawnedMock(const std::string& executable,
                         const std::vector<std::string>& extra_args) {
  int out[2];
  if (pipe(out) != 0) throw std::runtime_error("pipe failed");
  std::vector<std::string> args = {executable, "--port", "0", "--quiet"};
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  // Everything the child needs is made before fork: this process has threads (the test site),
  // and a child of a threaded process may only call async-signal-safe functions until exec
  // (an allocation there can wait forever on a lock another thread held at fork time).
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const std::string exec_failed = "cannot start " + executable + "\n";
  pid_ = fork();
  if (pid_ < 0) throw std::runtime_error("fork failed");
  if (pid_ == 0) {
    dup2(out[1], STDOUT_FILENO);
    close(out[0]);
    close(out[1]);
    execv(argv[0], argv.data());
    const ssize_t ignored = write(STDERR_FILENO, exec_failed.data(), exec_failed.size());
    (void)ignored;
    _exit(127);
  }
  close(out[1]);
  // The mock prints "webdata-mock listening on http://HOST:PORT" once it accepts connections.
  std::string line;
  const std::string marker = "listening on ";
  while (line.find('\n') == std::string::npos) {
    pollfd pfd{out[0], POLLIN, 0};
    if (poll(&pfd, 1, 15000) <= 0) break;
    char buf[256];
    const ssize_t n = read(out[0], buf, sizeof buf);
    if (n <= 0) break;
    line.append(buf, static_cast<std::size_t>(n));
  }
  close(out[0]);
  const auto at = line.find(marker);
  if (at == std::string::npos) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
    throw std::runtime_error("webdata-mock did not start: '" + line + "'");
  }
  base_url_ = line.substr(at + marker.size());
  base_url_ = base_url_.substr(0, base_url_.find_first_of("\r\n"));
}

SpawnedMock::~SpawnedMock() {
  if (pid_ <= 0) return;
  kill(pid_, SIGTERM);
  int status = 0;
  waitpid(pid_, &status, 0);
}

}  // namespace webdata::conformance
