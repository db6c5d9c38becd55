#include <csignal>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include <pthread.h>

#include "app/config.hpp"
#include "app/mock_server.hpp"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  auto parsed = webdata::mock::parse_args(args);
  if (!parsed.config) {
    (parsed.exit_code == 0 ? std::cout : std::cerr) << parsed.message << "\n";
    return parsed.exit_code;
  }

  if (parsed.print_config) {
    std::cout << parsed.config->to_json().dump(2) << "\n";
    return 0;
  }

  // Block the stop signals in every thread; one waits for them below.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  std::signal(SIGPIPE, SIG_IGN);

  try {
    webdata::mock::MockServer server(*parsed.config, std::cerr);
    server.start();
    if (!parsed.config->inject_fault.empty()) {
      std::cerr << "webdata-mock: WARNING: --inject-fault " << parsed.config->inject_fault
                << " breaks the API on purpose\n";
    }
    std::cout << "webdata-mock listening on " << server.base_url() << std::endl;
    int received = 0;
    sigwait(&stop_signals, &received);
    std::cout << "webdata-mock: " << (received == SIGINT ? "SIGINT" : "SIGTERM")
              << " received, stopping" << std::endl;
    server.stop();
  } catch (const std::exception& e) {
    std::cerr << "webdata-mock: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
