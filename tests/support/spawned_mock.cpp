#include "spawned_mock.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace webdata::testing {

namespace {

using Clock = std::chrono::steady_clock;

const char* const kListeningMarker = "listening on ";
// The line webdata-mock prints before its URL when it made its own certificate.
const char* const kCertificateMarker = "(self-signed; trust it as the CA): ";

std::string describe_status(int status) {
  if (WIFEXITED(status)) return "exit status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    return "killed by signal " + std::to_string(WTERMSIG(status)) + " (" +
           strsignal(WTERMSIG(status)) + ")";
  }
  return "wait status " + std::to_string(status);
}

void write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    data += n;
    size -= static_cast<std::size_t>(n);
  }
}

/// Reads what is there; false once the pipe is closed (and then closes `fd`, setting it to -1).
bool read_into(int& fd, std::string& into) {
  char buf[4096];
  const ssize_t n = ::read(fd, buf, sizeof buf);
  if (n < 0 && (errno == EINTR || errno == EAGAIN)) return true;
  if (n <= 0) {
    ::close(fd);
    fd = -1;
    return false;
  }
  into.append(buf, static_cast<std::size_t>(n));
  return true;
}

/// Waits up to `timeout` for either pipe to have something (or to close); -1 fds are skipped.
int wait_readable(int out_fd, int err_fd, pollfd (&fds)[2], std::chrono::milliseconds timeout) {
  fds[0] = {out_fd, POLLIN, 0};
  fds[1] = {err_fd, POLLIN, 0};
  const int ready = ::poll(fds, 2, static_cast<int>(std::max<long long>(0, timeout.count())));
  return ready < 0 && errno == EINTR ? 0 : ready;
}

bool has_input(const pollfd& fd) {
  return fd.fd >= 0 && (fd.revents & (POLLIN | POLLHUP | POLLERR));
}

std::chrono::milliseconds until(Clock::time_point deadline) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
}

/// In the child between fork and exec: only async-signal-safe calls (this process has threads,
/// and one of them may have held the allocator's lock at fork time).
[[noreturn]] void exec_child(pid_t parent, int out_fd, int err_fd, int max_fd, char* const argv[],
                             const std::string& exec_failed) {
  // Stopped with the tests even when they die without running a destructor (an ASan abort).
  ::prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (::getppid() != parent) ::_exit(126);
  ::dup2(out_fd, STDOUT_FILENO);
  ::dup2(err_fd, STDERR_FILENO);
  // Nothing else of the tests' (listening sockets, client connections) stays open in the mock.
#ifdef SYS_close_range
  if (::syscall(SYS_close_range, 3U, ~0U, 0U) != 0)
#endif
  {
    for (int fd = 3; fd < max_fd; ++fd) ::close(fd);
  }
  // The mock waits for SIGTERM with sigwait: it must not inherit the tests' mask or an ignore.
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  ::sigaction(SIGTERM, &default_action, nullptr);
  ::sigaction(SIGINT, &default_action, nullptr);
  sigset_t none;
  ::sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  ::execv(argv[0], argv);
  write_all(STDERR_FILENO, exec_failed.data(), exec_failed.size());
  ::_exit(127);
}

}  // namespace

SpawnedMock::SpawnedMock(const std::string& executable, const std::vector<std::string>& args,
                         SpawnTimeouts timeouts)
    : timeouts_(timeouts) {
  if (::access(executable.c_str(), X_OK) != 0) {
    throw std::runtime_error("webdata-mock did not start: cannot execute '" + executable +
                             "': " + std::strerror(errno));
  }
  std::vector<std::string> words = {executable, "--port", "0", "--quiet"};
  words.insert(words.end(), args.begin(), args.end());
  std::string command;
  for (const auto& w : words) command += (command.empty() ? "" : " ") + w;

  int out[2];
  int err[2];
  if (::pipe2(out, O_CLOEXEC) != 0) throw std::runtime_error("pipe2 failed");
  if (::pipe2(err, O_CLOEXEC) != 0) {
    ::close(out[0]);
    ::close(out[1]);
    throw std::runtime_error("pipe2 failed");
  }
  // Everything the child uses is made before fork (exec_child may not allocate).
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  const std::string exec_failed = "cannot execute " + executable + "\n";
  rlimit files{};
  const int max_fd = ::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur != RLIM_INFINITY
                         ? static_cast<int>(std::min<rlim_t>(files.rlim_cur, 65536))
                         : 65536;
  const pid_t parent = ::getpid();
  pid_ = ::fork();
  if (pid_ == 0) exec_child(parent, out[1], err[1], max_fd, argv.data(), exec_failed);
  ::close(out[1]);
  ::close(err[1]);
  out_fd_ = out[0];
  err_fd_ = err[0];
  if (pid_ < 0) {
    ::close(out_fd_);
    ::close(err_fd_);
    throw std::runtime_error("fork failed: " + std::string(std::strerror(errno)));
  }

  // Read both pipes until the URL line: stderr is kept for the error message.
  std::string out_text;
  std::string err_text;
  std::string why;
  const auto deadline = Clock::now() + timeouts_.start;
  for (;;) {
    std::size_t end = 0;
    while ((end = out_text.find('\n')) != std::string::npos) {
      const std::string line = out_text.substr(0, end);
      out_text.erase(0, end + 1);
      if (const auto at = line.find(kCertificateMarker); at != std::string::npos) {
        certificate_file_ = line.substr(at + std::strlen(kCertificateMarker));
      } else if (const auto url_at = line.find(kListeningMarker); url_at != std::string::npos) {
        base_url_ = line.substr(url_at + std::strlen(kListeningMarker));
      }
    }
    if (!base_url_.empty()) break;
    if (out_fd_ < 0) {
      why = "it closed its output without printing its URL";
      break;
    }
    const auto left = until(deadline);
    if (left.count() <= 0) {
      why = "it printed no URL within " + std::to_string(timeouts_.start.count()) + " ms";
      break;
    }
    pollfd fds[2];
    if (wait_readable(out_fd_, err_fd_, fds, left) < 0) {
      why = "poll failed: " + std::string(std::strerror(errno));
      break;
    }
    if (has_input(fds[0])) read_into(out_fd_, out_text);
    if (has_input(fds[1])) read_into(err_fd_, err_text);
  }

  const auto colon = base_url_.rfind(':');
  if (why.empty()) {
    const std::string digits = colon == std::string::npos ? "" : base_url_.substr(colon + 1);
    const bool numeric = !digits.empty() && digits.size() <= 5 &&
                         std::all_of(digits.begin(), digits.end(),
                                     [](unsigned char c) { return std::isdigit(c) != 0; });
    if (numeric && std::stoi(digits) > 0 && std::stoi(digits) < 65536) {
      port_ = static_cast<std::uint16_t>(std::stoi(digits));
    } else {
      why = "its URL has no port: '" + base_url_ + "'";
    }
  }
  if (why.empty()) {
    write_all(STDERR_FILENO, err_text.data(), err_text.size());  // its warnings, as before
    forwarder_ = std::thread([this] { forward_output(); });
    return;
  }

  // It failed: kill it unless it is already on its way out, then collect the rest of stderr.
  if (out_fd_ >= 0) ::kill(pid_, SIGKILL);
  const int status = reap(Clock::now() + timeouts_.stop);
  const auto drain_deadline = Clock::now() + std::chrono::seconds(1);
  while (err_fd_ >= 0 && until(drain_deadline).count() > 0) {
    pollfd fds[2];
    if (wait_readable(-1, err_fd_, fds, until(drain_deadline)) <= 0) break;
    read_into(err_fd_, err_text);
  }
  for (int* fd : {&out_fd_, &err_fd_}) {
    if (*fd >= 0) ::close(*fd);
    *fd = -1;
  }
  pid_ = -1;
  std::string message = "webdata-mock did not start (" + command + "): " + why +
                        "; it ended with " + describe_status(status) + ". Its stderr:\n" +
                        (err_text.empty() ? "(nothing)\n" : err_text);
  if (!out_text.empty()) message += "Its stdout:\n" + out_text;
  throw std::runtime_error(message);
}

SpawnedMock::~SpawnedMock() {
  try {
    stop();
  } catch (...) {
    // A destructor must not throw; stop() already said what it could on stderr.
  }
}

std::string SpawnedMock::stop() {
  if (pid_ <= 0) return "";
  ::kill(pid_, SIGTERM);
  bool killed = false;
  const int status = reap(Clock::now() + timeouts_.stop, &killed);
  reaped_ = true;
  if (forwarder_.joinable()) forwarder_.join();
  const pid_t pid = pid_;
  pid_ = -1;
  std::string how = describe_status(status);
  if (killed) {
    how +=
        " (SIGKILL: no exit within " + std::to_string(timeouts_.stop.count()) + " ms of SIGTERM)";
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && !killed) return "";
  const std::string note = "webdata-mock (pid " + std::to_string(pid) + ", " + base_url_ +
                           ") stopped with " + how + "\n";
  write_all(STDERR_FILENO, note.data(), note.size());
  return how;
}

int SpawnedMock::reap(Clock::time_point deadline, bool* was_killed) {
  int status = 0;
  bool killed = false;
  for (;;) {
    if (was_killed != nullptr) *was_killed = killed;
    const pid_t done = ::waitpid(pid_, &status, killed ? 0 : WNOHANG);
    if (done == pid_) return status;
    if (done < 0 && errno != EINTR) return status;  // not our child any more: nothing to reap
    if (!killed && Clock::now() >= deadline) {
      ::kill(pid_, SIGKILL);
      killed = true;  // from now on a blocking wait: SIGKILL cannot be refused
    } else if (!killed) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
}

void SpawnedMock::forward_output() {
  std::string chunk;
  while (out_fd_ >= 0 || err_fd_ >= 0) {
    pollfd fds[2];
    const int ready = wait_readable(out_fd_, err_fd_, fds, std::chrono::milliseconds(100));
    if (ready < 0) break;
    // Once the child is reaped a quiet pipe means done, even if a grandchild still holds it.
    if (ready == 0) {
      if (reaped_) break;
      continue;
    }
    if (has_input(fds[0])) {
      read_into(out_fd_, chunk);  // stdout after the URL line is not needed
      chunk.clear();
    }
    if (has_input(fds[1]) && read_into(err_fd_, chunk)) {
      write_all(STDERR_FILENO, chunk.data(), chunk.size());
      chunk.clear();
    }
  }
  for (int* fd : {&out_fd_, &err_fd_}) {
    if (*fd >= 0) ::close(*fd);
    *fd = -1;
  }
}

}  // namespace webdata::testing
