#include <algorithm>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

#include "app/config.hpp"
#include "app/mock_server.hpp"

namespace {

// Writes `text` to `path` through a temporary file and a rename, so a script polling for the
// file never reads it half written.
bool write_file_atomically(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp." + std::to_string(getpid());
  {
    std::ofstream out(tmp, std::ios::trunc);
    if (!out) return false;
    out << text;
    if (!out.flush()) return false;
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  return !ec;
}

// Removes `path` if it still holds `text`, what this process wrote there: a mock started since
// with the same --pid-file or --ready-file (a script that kills one and starts the next) has
// replaced it, and its file must not go when this one stops.
void remove_if_ours(const std::string& path, const std::string& text) {
  if (path.empty()) return;
  std::ifstream in(path);
  const std::string found((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  in.close();
  std::error_code ec;
  if (found == text) std::filesystem::remove(path, ec);
}

void write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

// --detach: the parent waits on a pipe for the child's "ready URL" or "error TEXT" line, so the
// command returns only once the server accepts connections (or has failed to start). Returns the
// write end of the pipe in the child; in the parent it never returns.
int detach_or_exit(const std::string& log_file) {
  int fds[2];
  if (pipe(fds) != 0) {
    std::perror("webdata-mock: pipe");
    std::exit(1);
  }
  const pid_t pid = fork();
  if (pid < 0) {
    std::perror("webdata-mock: fork");
    std::exit(1);
  }
  if (pid > 0) {
    close(fds[1]);
    std::string message;
    char buf[512];
    ssize_t n = 0;
    while ((n = read(fds[0], buf, sizeof buf)) > 0) message.append(buf, static_cast<std::size_t>(n));
    close(fds[0]);
    if (message.rfind("ready ", 0) == 0) {
      // "ready URL\n", then with a self-signed certificate "cert PATH\n": stdout stays the URL
      // alone, so `url=$(webdata-mock --detach ...)` keeps working.
      const auto eol = message.find('\n');
      std::cout << message.substr(6, eol == std::string::npos ? std::string::npos : eol - 5)
                << std::flush;
      const auto cert = message.find("cert ", eol == std::string::npos ? 0 : eol);
      if (cert != std::string::npos) {
        std::cerr << "webdata-mock TLS certificate (self-signed; trust it as the CA): "
                  << message.substr(cert + 5) << std::flush;
      }
      std::exit(0);
    }
    int status = 0;
    waitpid(pid, &status, WNOHANG);
    std::cerr << "webdata-mock: did not start"
              << (message.rfind("error ", 0) == 0 ? ": " + message.substr(6) : std::string("\n"));
    std::exit(1);
  }
  close(fds[0]);
  setsid();
  const int null_fd = open("/dev/null", O_RDWR);
  const int log_fd = log_file.empty()
                         ? null_fd
                         : open(log_file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (log_fd < 0) {
    write_all(fds[1], "error cannot open log file '" + log_file + "'\n");
    _exit(1);
  }
  dup2(null_fd, STDIN_FILENO);
  dup2(log_fd, STDOUT_FILENO);
  dup2(log_fd, STDERR_FILENO);
  if (log_fd != null_fd) close(log_fd);
  close(null_fd);
  return fds[1];
}

// A ready file left by a run that was killed (no clean-up) would tell a script polling for it
// that this run is ready before it is, or even when it fails to start: it goes first, also when
// the flags are refused. False (and why on stderr) when it cannot be removed.
bool remove_stale_ready_file(const std::string& path) {
  if (path.empty()) return true;
  std::error_code ec;
  std::filesystem::remove(path, ec);
  if (!ec) return true;
  std::cerr << "webdata-mock: cannot remove the old --ready-file '" << path
            << "': " << ec.message() << "\n";
  return false;
}

/// One warning for an imitated deployment, one for each fault given on its own.
void warn_of_faults(const webdata::mock::Config& config) {
  const auto imitated = webdata::mock::profile_conditions(config.imitate);
  if (!imitated.empty()) {
    std::cerr << "webdata-mock: WARNING: --imitate " << config.imitate
              << " answers as that deployment did, not as the API should\n";
  }
  for (const auto& fault : config.inject_faults) {
    if (std::find(imitated.begin(), imitated.end(), fault) != imitated.end()) continue;
    std::cerr << "webdata-mock: WARNING: --inject-fault " << fault << " breaks the API on purpose\n";
  }
}

}  // namespace

int main(int argc, char** argv) {
  const auto parsed = webdata::mock::parse_args(std::vector<std::string>(argv + 1, argv + argc));
  const auto& process = parsed.process;
  if (!remove_stale_ready_file(process.ready_file)) return 2;
  if (!parsed.config) {
    (parsed.exit_code == 0 ? std::cout : std::cerr) << parsed.message << "\n";
    return parsed.exit_code;
  }

  if (parsed.print_config) {
    std::cout << parsed.config->to_json().dump(2) << "\n";
    return 0;
  }

  // Before any thread exists: fork() keeps only the calling thread.
  const int ready_pipe = process.detach ? detach_or_exit(process.log_file) : -1;
  auto fail = [&](const std::string& why) {
    std::cerr << "webdata-mock: " << why << "\n";
    if (ready_pipe >= 0) write_all(ready_pipe, "error " + why + "\n");
    return 1;
  };
  if (!process.pid_file.empty() &&
      !write_file_atomically(process.pid_file, std::to_string(getpid()) + "\n")) {
    return fail("cannot write --pid-file '" + process.pid_file + "'");
  }

  // Block the stop signals in every thread; one waits for them below.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  std::signal(SIGPIPE, SIG_IGN);

  int rc = 0;
  std::string ready_text;  // what --ready-file holds once written
  try {
    webdata::mock::MockServer server(*parsed.config, std::cerr);
    server.start();
    warn_of_faults(*parsed.config);
    if (!server.certificate_file().empty() && parsed.config->server.tls.self_signed) {
      // Before the URL line: a script that waits for the URL has the certificate by then.
      std::cout << "webdata-mock TLS certificate (self-signed; trust it as the CA): "
                << server.certificate_file() << std::endl;
    }
    ready_text = server.base_url() + "\n";
    if (!process.ready_file.empty() && !write_file_atomically(process.ready_file, ready_text)) {
      server.stop();
      rc = fail("cannot write --ready-file '" + process.ready_file + "'");
    } else {
      std::cout << "webdata-mock listening on " << server.base_url() << std::endl;
      if (ready_pipe >= 0) {
        std::string ready = "ready " + server.base_url() + "\n";
        if (parsed.config->server.tls.self_signed) {
          ready += "cert " + server.certificate_file() + "\n";
        }
        write_all(ready_pipe, ready);
        close(ready_pipe);
      }
      int received = 0;
      sigwait(&stop_signals, &received);
      std::cout << "webdata-mock: " << (received == SIGINT ? "SIGINT" : "SIGTERM")
                << " received, stopping" << std::endl;
      server.stop();
    }
  } catch (const std::exception& e) {
    rc = fail(e.what());
  }
  // Stale files would tell a script that a stopped server is still there.
  remove_if_ours(process.ready_file, ready_text);
  remove_if_ours(process.pid_file, std::to_string(getpid()) + "\n");
  return rc;
}
