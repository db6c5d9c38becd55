// The agent's routes beyond start, status and cancel: the team's list of runs, a run's trace
// and snapshots, and threads (GET /v2/agent, /v2/agent/{id}/trace,
// /v2/agent/{id}/snapshots/{snapshotId}, /v2/agent/threads/{threadId}).
#include <charconv>

#include "client_core.hpp"
#include "webdata/client.hpp"

namespace webdata {
namespace detail {
namespace {

// ---- codecs (answers are decoded leniently: unknown members go to `extras`)

AgentListItem decode_list_item(const json& j, const Path& p) {
  AgentListItem out;
  Reader r(j, p);
  r.req("id", out.id);
  r("createdAt", out.created_at);
  r("targetHint", out.target_hint);
  r("origin", out.origin);
  r("integration", out.integration);
  r("status", out.status);
  if (const json* options = r.find("options"); options != nullptr && options->is_object()) {
    const Path op = p.child("options");
    Reader o(*options, op);
    o("prompt", out.prompt);
    o("urls", out.urls);
    o("model", out.model);
    o("effort", out.effort);
    Extras rest;
    o.rest(rest);
    for (auto& [key, value] : rest) out.extras.emplace("options." + key, std::move(value));
  }
  r.rest(out.extras);
  return out;
}

/// `before` of a `next` address ("...?before=<ms>"), when it has one.
std::optional<long long> before_of(const std::string& next) {
  const auto at = next.find("before=");
  if (at == std::string::npos) return std::nullopt;
  const char* begin = next.data() + at + 7;
  const char* end = next.data() + next.size();
  long long value = 0;
  const auto [ptr, ec] = std::from_chars(begin, end, value);
  if (ec != std::errc() || ptr == begin) return std::nullopt;
  return value;
}

AgentList decode_list(const json& j) {
  AgentList out;
  const Path p = Path{}.collecting(out.diagnostics);
  Reader r(j, p);
  r.skip("success");
  r.each("agents", out.agents, decode_list_item);
  r("next", out.next);
  if (out.next) out.next_before = before_of(*out.next);
  return out;
}

AgentTrace decode_trace(const json& j) {
  AgentTrace out;
  const Path p = Path{}.collecting(out.diagnostics);
  Reader r(j, p);
  r.skip("success");
  r("id", out.id);
  r("creditsUsed", out.credits_used);
  r("activeBrowserSessions", out.active_browser_sessions);
  r.each("events", out.events, [](const json& item, const Path& ep) {
    AgentTraceEvent event;
    Reader e(item, ep);
    e.req("type", event.type);
    e("eventId", event.event_id);
    e("runId", event.run_id);
    e("occurredAt", event.occurred_at);
    e("producerSequence", event.producer_sequence);
    if (const json* agent = e.find("agent"); agent != nullptr && agent->is_object()) {
      const Path ap = ep.child("agent");
      Reader a(*agent, ap);
      a("id", event.agent_id);
      a("role", event.agent_role);
    }
    event.fields = from_tree(item);
    return event;
  });
  return out;
}

AgentThreadRun decode_thread_run(const json& j, const Path& p) {
  AgentThreadRun out;
  Reader r(j, p);
  r.req("id", out.id);
  r("turn", out.turn);
  r("mode", out.mode);
  r("prompt", out.prompt);
  r("urls", out.urls);
  r("status", out.status);
  r("createdAt", out.created_at);
  r("finishedAt", out.finished_at);
  r("creditsUsed", out.credits_used);
  r("message", out.message);
  r("data", out.data);
  r("exchange", out.exchange);
  r.rest(out.extras);
  return out;
}

AgentThread decode_thread(const json& j) {
  AgentThread out;
  const Path root = Path{}.collecting(out.diagnostics);
  Reader top(j, root);
  top.skip("success");
  const json* thread = top.find("thread");
  const Path p = root.child("thread");
  if (thread == nullptr || !thread->is_object()) fail(root, "missing the \"thread\" object");
  Reader r(*thread, p);
  r.req("id", out.id);
  r("createdAt", out.created_at);
  r("updatedAt", out.updated_at);
  r("status", out.status);
  r.each("runs", out.runs, decode_thread_run);
  return out;
}

}  // namespace
}  // namespace detail

Result<AgentList> Client::list_agents(std::optional<long long> before,
                                      const CallOptions& options) const {
  std::string target = core_->path("/agent");
  if (before) target += "?before=" + std::to_string(*before);
  return detail::call_and_decode<AgentList>(*core_, detail::get(std::move(target)), options,
                                            "agent list", detail::decode_list);
}

Result<AgentTrace> Client::agent_trace(const std::string& id, bool live_view,
                                       const CallOptions& options) const {
  std::string target = core_->path("/agent/" + detail::escape_segment(id) + "/trace");
  if (live_view) target += "?liveView=true";
  return detail::call_and_decode<AgentTrace>(*core_, detail::get(std::move(target)), options,
                                            "agent trace", detail::decode_trace);
}

Result<std::string> Client::agent_snapshot(const std::string& id, const std::string& snapshot_id,
                                           const CallOptions& options) const {
  return detail::call_and_decode<std::string>(
      *core_,
      detail::get(core_->path("/agent/" + detail::escape_segment(id) + "/snapshots/" +
                              detail::escape_segment(snapshot_id))),
      options, "agent snapshot", [](const detail::json& j) {
        const detail::Path p;
        detail::Reader r(j, p);
        std::string snapshot;
        r.req("snapshot", snapshot);
        return snapshot;
      });
}

Result<AgentThread> Client::agent_thread(const std::string& thread_id, bool include_data,
                                         const CallOptions& options) const {
  std::string target = core_->path("/agent/threads/" + detail::escape_segment(thread_id));
  if (include_data) target += "?includeData=true";
  return detail::call_and_decode<AgentThread>(*core_, detail::get(std::move(target)), options,
                                            "agent thread", detail::decode_thread);
}

}  // namespace webdata
