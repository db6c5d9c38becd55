// The agent's routes beyond start, status and cancel: the team's list of runs, a run's trace
// and snapshots, and threads (GET /v2/agent, /v2/agent/{id}/trace,
// /v2/agent/{id}/snapshots/{snapshotId}, /v2/agent/threads/{threadId}).
#include <charconv>

#include "client_core.hpp"
#include "webdata/client.hpp"

namespace webdata {
namespace detail {
namespace {

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

/// Member `key`, when it is an object, read by `members(object)`; another value is passed over.
/// For an object that groups members of the model itself; `out` is the one reset when it does
/// not decode.
template <class T, class Members>
void read_object(Reader& io, const char* key, T& out, Members members) {
  io.custom(key, out, [&members](const json& value, const Path& path) {
    if (!value.is_object()) return;
    Reader object(value, path);
    members(object);
  });
}

/// `options` of a listed run: what it was asked; the object's other members are kept as
/// "options.<key>".
void read_run_options(Reader& io, AgentListItem& item) {
  read_object(io, "options", item.prompt, [&item](Reader& o) {
    o("prompt", item.prompt);
    o("urls", item.urls);
    o("model", item.model);
    o("effort", item.effort);
    o.rest_under("options", item.extras);
  });
}

/// `agent` of a trace event: the id and role of the agent that recorded it.
void read_event_agent(Reader& io, AgentTraceEvent& event) {
  read_object(io, "agent", event.agent_id, [&event](Reader& a) {
    a("id", event.agent_id);
    a("role", event.agent_role);
  });
}

}  // namespace

// ---- codecs (answers are decoded leniently: unknown members go to `extras`)

void fields(Reader& io, AgentList& list) {
  io("agents", list.agents);
  io("next", list.next);
  if (list.next) list.next_before = before_of(*list.next);
}

void decode(const json& j, AgentTraceEvent& out, const Path& p) {
  read_fields(j, out, p);
  out.fields = from_tree(j);
}

// The field lists of client_agent.fields.json, written as C++ by webdata_codegen.
#include "client_agent.fields.inc"

WEBDATA_ANSWER_CODEC(AgentList)

}  // namespace detail

Result<AgentList> Client::list_agents(std::optional<long long> before,
                                      const CallOptions& options) const {
  std::string target = core_->path("/agent");
  if (before) target += "?before=" + std::to_string(*before);
  return detail::call_for<AgentList>(*core_, detail::get(std::move(target)), options, "agent list");
}

Result<AgentTrace> Client::agent_trace(const std::string& id, bool live_view,
                                       const CallOptions& options) const {
  std::string target = core_->path("/agent/" + detail::escape_segment(id) + "/trace");
  if (live_view) target += "?liveView=true";
  return detail::call_for<AgentTrace>(*core_, detail::get(std::move(target)), options,
                                      "agent trace");
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
  return detail::call_for_member<AgentThread>(*core_, detail::get(std::move(target)), options,
                                              "agent thread", "thread", detail::kRequired);
}

}  // namespace webdata
