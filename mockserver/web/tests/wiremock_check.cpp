// Starts real WireMock (the standalone jar of the npm package `wiremock`) on each given root and
// checks that, for every mapping's example requests, WireMock and our StubStore answer with the
// same status, the same mapping (Matched-Stub-Id), the mapping's headers and the same body.
//
// Usage: webdata_wiremock_check <dir with node_modules/wiremock> <root>...
// Exit codes: 0 all equal, 1 a difference, 77 skipped (no java or the package is not installed;
// scripts/setup-wiremock.sh installs it).

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <curl/curl.h>
#include <nlohmann/json.hpp>

#include "web/stub_store.hpp"
#include "core/url.hpp"

extern char** environ;

namespace fs = std::filesystem;
using nlohmann::json;
using webdata::mock::Fault;
using webdata::mock::HeaderList;
using webdata::mock::web::StubRequest;
using webdata::mock::web::StubResponse;
using webdata::mock::web::StubStore;

namespace {

constexpr int kSkip = 77;

std::optional<std::string> find_in_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return std::nullopt;
  std::stringstream dirs(path);
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    const fs::path candidate = fs::path(dir) / program;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate.string();
  }
  return std::nullopt;
}

std::optional<fs::path> find_jar(const fs::path& package_dir) {
  const fs::path build = package_dir / "node_modules" / "wiremock" / "build";
  if (!fs::is_directory(build)) return std::nullopt;
  for (const auto& entry : fs::directory_iterator(build)) {
    const auto name = entry.path().filename().string();
    if (name.rfind("wiremock-standalone-", 0) == 0 && entry.path().extension() == ".jar") {
      return entry.path();
    }
  }
  return std::nullopt;
}

int free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  socklen_t len = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  ::close(fd);
  return ntohs(addr.sin_port);
}

struct HttpResult {
  bool transport_error = false;
  std::string error;
  int status = 0;
  std::string reason;
  HeaderList headers;
  std::string body;
};

std::size_t on_body(char* data, std::size_t size, std::size_t count, void* userp) {
  static_cast<HttpResult*>(userp)->body.append(data, size * count);
  return size * count;
}

std::size_t on_header(char* data, std::size_t size, std::size_t count, void* userp) {
  auto* result = static_cast<HttpResult*>(userp);
  std::string line(data, size * count);
  while (!line.empty() && (line.back() == '\r' || line.back() == '\n')) line.pop_back();
  if (line.rfind("HTTP/", 0) == 0) {
    result->headers.clear();
    const auto first = line.find(' ');
    const auto second = line.find(' ', first + 1);
    result->reason = second == std::string::npos ? "" : line.substr(second + 1);
  } else if (const auto colon = line.find(':'); colon != std::string::npos) {
    std::string value = line.substr(colon + 1);
    const auto start = value.find_first_not_of(' ');
    result->headers.emplace_back(line.substr(0, colon),
                                 start == std::string::npos ? "" : value.substr(start));
  }
  return size * count;
}

HttpResult http(const std::string& method, const std::string& url, const HeaderList& headers,
                const std::string& body) {
  HttpResult result;
  CURL* curl = curl_easy_init();
  curl_slist* list = nullptr;
  for (const auto& [k, v] : headers) list = curl_slist_append(list, (k + ": " + v).c_str());
  list = curl_slist_append(list, "Expect:");
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method.c_str());
  if (!body.empty() || method == "POST" || method == "PUT") {
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body.c_str());
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE, static_cast<long>(body.size()));
  }
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, list);
  curl_easy_setopt(curl, CURLOPT_PROXY, "");
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, 20000L);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &result);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &result);
  const CURLcode rc = curl_easy_perform(curl);
  long status = 0;
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
  result.status = static_cast<int>(status);
  if (rc != CURLE_OK) {
    result.transport_error = true;
    result.error = curl_easy_strerror(rc);
  }
  curl_slist_free_all(list);
  curl_easy_cleanup(curl);
  return result;
}

class WireMockProcess {
 public:
  WireMockProcess(const std::string& java, const fs::path& jar, const fs::path& root,
                  const fs::path& log)
      : port_(free_port()), log_(log) {
    const std::vector<std::string> args = {java,
                                           "-Xmx256m",
                                           "-jar",
                                           jar.string(),
                                           "--port",
                                           std::to_string(port_),
                                           "--bind-address",
                                           "127.0.0.1",
                                           "--root-dir",
                                           root.string(),
                                           "--disable-banner",
                                           "--disable-gzip",
                                           "--no-request-journal"};
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    const int rc = posix_spawn(&pid_, java.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) pid_ = -1;
  }
  ~WireMockProcess() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGTERM);
    for (int i = 0; i < 100; ++i) {
      if (::waitpid(pid_, nullptr, WNOHANG) == pid_) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  WireMockProcess(const WireMockProcess&) = delete;
  WireMockProcess& operator=(const WireMockProcess&) = delete;

  bool wait_ready() {
    if (pid_ <= 0) return false;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(90);
    while (std::chrono::steady_clock::now() < deadline) {
      if (::waitpid(pid_, nullptr, WNOHANG) == pid_) {
        pid_ = -1;
        return false;
      }
      const auto r = http("GET", base() + "/__admin/mappings", {}, "");
      if (!r.transport_error && r.status == 200) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    return false;
  }
  std::string base() const { return "http://127.0.0.1:" + std::to_string(port_); }
  std::string log_text() const {
    std::ifstream in(log_);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }

 private:
  int port_;
  pid_t pid_ = -1;
  fs::path log_;
};

struct Example {
  std::string method = "GET";
  std::string url;
  HeaderList headers;
  std::string body;
};

// Sample requests for a mapping: its metadata.webdata.examples, else built from its literals.
std::vector<Example> examples_for(const json& mapping, std::string& why_none) {
  std::vector<Example> out;
  const json* listed = nullptr;
  if (mapping.contains("metadata") && mapping["metadata"].contains("webdata") &&
      mapping["metadata"]["webdata"].contains("examples")) {
    listed = &mapping["metadata"]["webdata"]["examples"];
  }
  const json& req = mapping.at("request");
  Example base;
  if (req.contains("method") && req["method"] != "ANY") base.method = req["method"];
  if (req.contains("host") && req["host"].contains("equalTo")) {
    base.headers.emplace_back("Host", req["host"]["equalTo"].get<std::string>());
  }
  if (req.contains("headers")) {
    for (const auto& [name, pattern] : req["headers"].items()) {
      for (const char* op : {"equalTo", "contains"}) {
        if (pattern.contains(op)) {
          bool replaced = false;
          for (auto& [k, v] : base.headers) {
            if (webdata::mock::iequals(k, name)) {
              v = pattern[op].get<std::string>();
              replaced = true;
            }
          }
          if (!replaced) base.headers.emplace_back(name, pattern[op].get<std::string>());
        }
      }
    }
  }
  if (req.contains("bodyPatterns")) {
    for (const auto& p : req["bodyPatterns"]) {
      if (p.contains("equalToJson")) {
        base.body = p["equalToJson"].is_string() ? p["equalToJson"].get<std::string>()
                                                 : p["equalToJson"].dump();
      } else if (p.contains("equalTo")) {
        base.body = p["equalTo"];
      } else if (p.contains("contains") && base.body.empty()) {
        base.body = p["contains"];
      }
    }
  }
  if (listed != nullptr) {
    for (const auto& e : *listed) {
      Example ex = base;
      ex.url = e.value("url", std::string("/"));
      if (e.contains("method")) ex.method = e["method"];
      if (e.contains("body"))
        ex.body = e["body"].is_string() ? e["body"].get<std::string>() : e["body"].dump();
      if (e.contains("headers")) {
        for (const auto& [name, value] : e["headers"].items()) {
          bool replaced = false;
          for (auto& [k, v] : ex.headers) {
            if (webdata::mock::iequals(k, name)) {
              v = value.get<std::string>();
              replaced = true;
            }
          }
          if (!replaced) ex.headers.emplace_back(name, value.get<std::string>());
        }
      }
      out.push_back(std::move(ex));
    }
    return out;
  }
  if (req.contains("url")) {
    base.url = req["url"];
  } else if (req.contains("urlPath")) {
    base.url = req["urlPath"];
    std::string query;
    if (req.contains("queryParameters")) {
      for (const auto& [name, pattern] : req["queryParameters"].items()) {
        if (!pattern.contains("equalTo")) continue;
        query += (query.empty() ? "?" : "&") + name + "=" + pattern["equalTo"].get<std::string>();
      }
    }
    base.url += query;
  } else {
    why_none = "pattern URL without metadata.webdata.examples";
    return out;
  }
  out.push_back(std::move(base));
  return out;
}

struct Counts {
  int passed = 0;
  int failed = 0;
};

std::string describe(const Example& e) {
  std::string s = e.method + " " + e.url;
  for (const auto& [k, v] : e.headers) s += " [" + k + ": " + v + "]";
  return s;
}

bool compare(const WireMockProcess& wiremock, StubStore& store, const Example& example,
             const std::string& label) {
  HeaderList headers = example.headers;
  headers.emplace_back("Accept", "*/*");
  StubRequest request;
  request.method = example.method;
  request.url = example.url;
  request.headers = headers;
  request.body = example.body;
  const auto ours = store.match(request);
  const auto theirs = http(example.method, wiremock.base() + example.url, headers, example.body);
  std::vector<std::string> problems;
  if (!ours) {
    if (theirs.transport_error || theirs.status != 404 ||
        webdata::mock::find_header(theirs.headers, "Matched-Stub-Id")) {
      problems.push_back("we match nothing, WireMock answered " + std::to_string(theirs.status));
    }
  } else if (ours->fault != Fault::none) {
    if (!theirs.transport_error) {
      problems.push_back(std::string("we answer fault ") +
                         webdata::mock::fault_name(ours->fault) + ", WireMock answered " +
                         std::to_string(theirs.status));
    }
  } else if (theirs.transport_error) {
    problems.push_back("WireMock failed: " + theirs.error);
  } else {
    const auto matched = webdata::mock::find_header(theirs.headers, "Matched-Stub-Id");
    if (matched.value_or("") != ours->mapping_id) {
      problems.push_back("WireMock chose mapping " + matched.value_or("(none)") + ", we chose " +
                         ours->mapping_id);
    }
    if (theirs.status != ours->status) {
      problems.push_back("status " + std::to_string(theirs.status) + " vs ours " +
                         std::to_string(ours->status));
    }
    if (!ours->status_message.empty() && theirs.reason != ours->status_message) {
      problems.push_back("reason '" + theirs.reason + "' vs ours '" + ours->status_message + "'");
    }
    std::set<std::string> names;
    for (const auto& [k, v] : ours->headers) names.insert(webdata::mock::to_lower(k));
    for (const auto& name : names) {
      const auto a = webdata::mock::find_headers(theirs.headers, name);
      const auto b = webdata::mock::find_headers(ours->headers, name);
      if (a != b) {
        problems.push_back("header " + name + ": WireMock '" + (a.empty() ? "" : a.front()) +
                           "' vs ours '" + (b.empty() ? "" : b.front()) + "'");
      }
    }
    if (theirs.body != ours->body) {
      problems.push_back("body differs (" + std::to_string(theirs.body.size()) + " vs ours " +
                         std::to_string(ours->body.size()) + " bytes)");
    }
  }
  if (problems.empty()) {
    std::cout << "ok      " << label << ": " << describe(example) << "\n";
    return true;
  }
  std::cout << "FAILED  " << label << ": " << describe(example) << "\n";
  for (const auto& p : problems) std::cout << "          " << p << "\n";
  return false;
}

// Requests that bring `scenario` from Started to `state`, through mappings that move it.
std::vector<json> path_to_state(const json& mappings, const std::string& scenario,
                                const std::string& state) {
  std::map<std::string, std::vector<json>> paths{{"Started", {}}};
  std::vector<std::string> frontier{"Started"};
  while (!frontier.empty() && !paths.count(state)) {
    std::vector<std::string> next;
    for (const auto& from : frontier) {
      for (const auto& m : mappings) {
        if (m.value("scenarioName", "") != scenario || !m.contains("newScenarioState")) continue;
        if (m.value("requiredScenarioState", from) != from) continue;
        const std::string to = m["newScenarioState"];
        if (paths.count(to)) continue;
        auto p = paths[from];
        p.push_back(m);
        paths[to] = p;
        next.push_back(to);
      }
    }
    frontier = next;
  }
  return paths.count(state) ? paths[state] : std::vector<json>{};
}

Counts check_root(const std::string& java, const fs::path& jar, const fs::path& root,
                  const fs::path& work) {
  Counts counts;
  std::cout << "== " << root.string() << "\n";
  StubStore store(root);
  WireMockProcess wiremock(java, jar, root, work / "wiremock.log");
  if (!wiremock.wait_ready()) {
    std::cout << "FAILED  WireMock did not start:\n" << wiremock.log_text() << "\n";
    ++counts.failed;
    return counts;
  }
  const json mappings = store.mappings_json()["mappings"];
  const auto remote =
      json::parse(http("GET", wiremock.base() + "/__admin/mappings", {}, "").body, nullptr, false);
  if (remote.is_discarded() || remote["meta"]["total"] != mappings.size()) {
    std::cout << "FAILED  WireMock loaded "
              << (remote.is_discarded() ? json("?") : remote["meta"]["total"])
              << " mappings, we loaded " << mappings.size() << "\n";
    ++counts.failed;
  }
  auto reset = [&] {
    store.reset_scenarios();
    http("POST", wiremock.base() + "/__admin/scenarios/reset", {}, "");
  };
  for (const auto& mapping : mappings) {
    const std::string label = mapping.value("name", mapping["id"].get<std::string>());
    std::string why;
    const auto examples = examples_for(mapping, why);
    if (examples.empty()) {
      std::cout << "FAILED  " << label << ": no example request (" << why << ")\n";
      ++counts.failed;
      continue;
    }
    for (const auto& example : examples) {
      reset();
      bool ok = true;
      if (mapping.contains("requiredScenarioState") &&
          mapping["requiredScenarioState"] != "Started") {
        const auto steps =
            path_to_state(mappings, mapping["scenarioName"], mapping["requiredScenarioState"]);
        if (steps.empty()) {
          std::cout << "FAILED  " << label << ": state " << mapping["requiredScenarioState"]
                    << " is unreachable\n";
          ok = false;
        }
        for (const auto& step : steps) {
          std::string w;
          const auto first = examples_for(step, w);
          if (!first.empty())
            ok = compare(wiremock, store, first.front(), label + " (setup)") && ok;
        }
      }
      ok = compare(wiremock, store, example, label) && ok;
      ++(ok ? counts.passed : counts.failed);
    }
  }
  // Paths no mapping serves: both sides must agree there is no match (or the same catch-all).
  for (const auto& host : store.hosts()) {
    Example missing;
    missing.url = "/__webdata/unmatched";
    missing.headers = {{"Host", host}};
    ++(compare(wiremock, store, missing, host + " unmatched") ? counts.passed : counts.failed);
  }
  return counts;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: " << argv[0] << " <wiremock package dir> <root>...\n";
    return 2;
  }
  const auto java = find_in_path("java");
  const auto jar = find_jar(argv[1]);
  if (!java || !jar) {
    std::cout << "SKIPPED: real WireMock check needs "
              << (!java ? "java (Debian: openjdk-17-jre-headless)"
                        : "the npm package wiremock in " + std::string(argv[1]) +
                              " (run scripts/setup-wiremock.sh)")
              << "\n";
    return kSkip;
  }
  curl_global_init(CURL_GLOBAL_DEFAULT);
  const fs::path work =
      fs::temp_directory_path() / ("webdata-wiremock-" + std::to_string(::getpid()));
  fs::create_directories(work);
  Counts total;
  try {
    for (int i = 2; i < argc; ++i) {
      const auto c = check_root(*java, *jar, argv[i], work);
      total.passed += c.passed;
      total.failed += c.failed;
    }
  } catch (const std::exception& e) {
    std::cout << "FAILED  " << e.what() << "\n";
    ++total.failed;
  }
  std::error_code ec;
  fs::remove_all(work, ec);
  curl_global_cleanup();
  std::cout << "wiremock: " << total.passed << " passed, " << total.failed << " failed\n";
  return total.failed == 0 ? 0 : 1;
}
