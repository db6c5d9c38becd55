#include "replayer.hpp"

#include <chrono>
#include <thread>

namespace webdata::mock::replay {

using nlohmann::json;
using SteadyClock = std::chrono::steady_clock;

namespace {

/// A recorded pause longer than this between two requests was the recorder waiting on purpose
/// (for a job to be running before it is listed or cancelled), not the time a request took.
constexpr long long kDeliberatePauseMs = 100;
constexpr auto kPollEvery = std::chrono::milliseconds(10);
constexpr auto kPollLimit = std::chrono::seconds(60);

bool running(const std::string& status) {
  return status == "scraping" || status == "processing";
}

std::string status_of(const json& answer) {
  return answer.is_object() ? answer.value("status", std::string()) : std::string();
}

void append_state(std::vector<std::string>& states, std::string shape) {
  if (states.empty() || states.back() != shape) states.push_back(std::move(shape));
}

/// The mock ran the job's course as recorded: the recorded states in their order, and between or
/// before them only running states. A poller that reads a job earlier in its life than the
/// recorder did (a loaded machine, a slower page) sees more of its running states; that is
/// timing, not a difference of the mock.
bool same_course(const std::vector<std::string>& recorded, const std::vector<std::string>& mock) {
  std::size_t next = 0;
  for (const auto& state : mock) {
    if (next < recorded.size() && state == recorded[next]) {
      ++next;
    } else if (!running(state.substr(0, state.find(' ')))) {  // a shape starts with its status
      return false;
    }
  }
  return next == recorded.size();
}

std::string joined(const std::vector<std::string>& states) {
  std::string out;
  for (const auto& state : states) out += (out.empty() ? "" : " -> ") + state;
  return out.empty() ? "(no state read)" : out;
}

}  // namespace

Replayer::Replayer(std::string base_url, std::string recorded_base, std::string api_key)
    : base_(std::move(base_url)),
      hosts_{std::move(recorded_base), base_},
      key_(std::move(api_key)),
      transport_(make_curl_transport()) {}

std::vector<Observation> Replayer::run(const std::vector<const Exchange*>& scenario) {
  std::vector<Observation> out;
  const Exchange* before = nullptr;
  for (std::size_t i = 0; i < scenario.size();) {
    const Exchange& exchange = *scenario[i];
    if (exchange.is_poll()) {
      std::vector<const Exchange*> polls;
      while (i < scenario.size() && scenario[i]->is_poll() && scenario[i]->path == exchange.path) {
        polls.push_back(scenario[i++]);
      }
      follow(polls);
      before = polls.back();
      continue;
    }
    keep_pause(before, exchange);
    Observation seen{&exchange, send(exchange), {}};
    remember_job(exchange, seen.mock);
    seen.differences = compare_answers(exchange.answer, seen.mock, hosts_);
    out.push_back(std::move(seen));
    before = &exchange;
    ++i;
  }
  for (auto& seen : out) {
    const auto trace = traces_.find(seen.exchange->key());
    if (trace == traces_.end() || same_course(trace->second.recorded, trace->second.mock)) {
      continue;
    }
    seen.differences.push_back(
        {"states", joined(trace->second.recorded), joined(trace->second.mock)});
  }
  return out;
}

Answer Replayer::send(const Exchange& exchange) const {
  HttpRequest request;
  request.method = exchange.method;
  request.url = base_ + mock_target(exchange.path);
  request.timeout = std::chrono::seconds(60);
  for (const auto& [name, value] : exchange.headers) {
    request.headers.emplace_back(name, value == "Bearer <key>" ? "Bearer " + key_ : value);
  }
  if (exchange.has_body) request.body = exchange.body;
  Answer answer;
  auto result = transport_->send(request);
  if (!result.ok()) {
    answer.text = "no answer: " + result.error().message;
    return answer;
  }
  answer.status = result.value().status;
  answer.content_type = result.value().header("Content-Type").value_or("");
  answer.text = std::move(result.value().body);
  answer.json = json::parse(answer.text, nullptr, false);
  if (answer.json.is_discarded()) answer.json = nullptr;
  return answer;
}

std::string Replayer::mock_target(const std::string& recorded) const {
  std::string target = recorded;
  for (const auto& [from, to] : ids_) {
    const auto at = target.find(from);
    if (at != std::string::npos) target.replace(at, from.size(), to);
  }
  return target;
}

void Replayer::remember_job(const Exchange& exchange, const Answer& mock) {
  const json& recorded = exchange.answer.json;
  if (!recorded.is_object() || !recorded.contains("id") || !recorded.at("id").is_string()) return;
  const std::string id = recorded.at("id").get<std::string>();
  starts_[id] = exchange.key();
  if (mock.json.is_object() && mock.json.contains("id") && mock.json.at("id").is_string()) {
    ids_[id] = mock.json.at("id").get<std::string>();
  }
}

void Replayer::follow(const std::vector<const Exchange*>& polls) {
  std::string start;
  for (const auto& [id, key] : starts_) {
    if (polls.front()->path.find(id) != std::string::npos) start = key;
  }
  Trace& trace = traces_[start];
  for (const Exchange* poll : polls) append_state(trace.recorded, state_shape(poll->answer.json));
  const std::string target = status_of(polls.back()->answer.json);
  const auto deadline = SteadyClock::now() + kPollLimit;
  for (;;) {
    const Answer answer = send(*polls.front());
    append_state(trace.mock, state_shape(answer.json));
    const std::string status = status_of(answer.json);
    if (status == target || !running(status) || SteadyClock::now() > deadline) return;
    std::this_thread::sleep_for(kPollEvery);
  }
}

void Replayer::keep_pause(const Exchange* before, const Exchange& next) {
  if (before == nullptr || before->is_poll()) return;
  const long long pause = next.t_ms - before->t_ms - before->took_ms;
  if (pause > kDeliberatePauseMs) std::this_thread::sleep_for(std::chrono::milliseconds(pause));
}

}  // namespace webdata::mock::replay
