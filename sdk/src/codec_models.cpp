// Responses and the resources inside them. Unknown keys are kept in `extras` and written back.
#include <algorithm>

#include "codec.hpp"
#include "document_fields.hpp"

namespace webdata::detail {
namespace {

// Reads a known metadata key; a value of another type than expected is not an error (pages
// put anything in their <meta> tags) but stays in `extras` under its key.
template <class T>
void lenient(Reader& r, const char* key, std::optional<T>& out, Extras& extras, const Path& p) {
  const json* v = r.find(key);
  if (v == nullptr || v->is_null()) return;
  try {
    T value{};
    decode(*v, value, p.child(key));
    out = std::move(value);
  } catch (const ParseError&) {
    extras[key] = from_tree(*v);
  }
}

json from_metadata_value(const MetadataValue& v) {
  if (const auto* s = std::get_if<std::string>(&v)) return *s;
  if (const auto* a = std::get_if<std::vector<std::string>>(&v)) return *a;
  return to_tree(std::get<Json>(v));
}

}  // namespace

MetadataValue to_metadata_value(const Json& j) {
  const json tree = to_tree(j);
  if (tree.is_string()) return tree.get<std::string>();
  if (tree.is_array() && !tree.empty() &&
      std::all_of(tree.begin(), tree.end(), [](const json& e) { return e.is_string(); })) {
    return tree.get<std::vector<std::string>>();
  }
  return j;
}

void decode(const json& j, Metadata& out, const Path& p) {
  Reader r(j, p);
  Extras odd;
  auto io = [&](const char* key, auto& field) { lenient(r, key, field, odd, p); };
  metadata_fields(io, out);
  r.rest(odd);
  for (auto& [key, value] : odd) out.extras.emplace(key, to_metadata_value(value));
}
json encode(const Metadata& v) {
  Writer w;
  metadata_fields(w, v);
  for (const auto& [key, value] : v.extras) {
    if (!w.out.contains(key)) w.out[key] = from_metadata_value(value);
  }
  return std::move(w.out);
}

// `diff` is a bare string from some deployments, `{text, json?}` from others.
struct DiffMember {
  static void read(const json& v, std::optional<ChangeTrackingDiff>& out, const Path& p) {
    ChangeTrackingDiff d;
    if (v.is_string()) {
      d.text = v.get<std::string>();
      d.text_only = true;
    } else {
      Reader dr(v, p);
      dr("text", d.text);
      dr("json", d.json);
    }
    out = std::move(d);
  }
  static json write(const std::optional<ChangeTrackingDiff>& v) {
    if (!v) return nullptr;
    if (v->text_only) return v->text;
    json diff{{"text", v->text}};
    if (v->json) diff["json"] = to_tree(*v->json);
    return diff;
  }
};

namespace {

constexpr const char* kData = "data";

// The extras "data.<key>" of a model, written as <key> of its `data` object.
void write_data_extras(const Extras& extras, json& data, bool replace) {
  const std::string prefix = std::string(kData) + ".";
  for (const auto& [key, value] : extras) {
    if (key.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string inner = key.substr(prefix.size());
    if (replace || !data.contains(inner)) data[inner] = to_tree(value);
  }
}

// `data` of a v2 search answer: `{web, images, news}`, its other members kept as "data.<key>".
struct SearchData {
  static void read(const json& v, SearchResults& out, const Path& p) {
    Reader dr(v, p);
    dr("web", out.web);
    dr("images", out.images);
    dr("news", out.news);
    dr.rest_under(kData, out.extras);
  }
  static json write(const SearchResults& v) {
    Writer data;
    data("web", v.web);
    data("images", v.images);
    data("news", v.news);
    write_data_extras(v.extras, data.out, false);
    return std::move(data.out);
  }
};

// `data` of an agent answer: `{result, sources}`, or the result itself from older deployments.
struct AgentData {
  static void read(const json& v, AgentResult& out, const Path& p) {
    if (!v.is_object() || !v.contains("result")) {
      out.result = from_tree(v);
      return;
    }
    Reader dr(v, p);
    dr("result", out.result);
    dr("sources", out.sources);
    dr.rest_under(kData, out.extras);
  }
  static json write(const AgentResult& v) {
    json data = json::object();
    if (!v.result.is_null() || !v.sources.empty()) {
      data["result"] = to_tree(v.result);
      data["sources"] = v.sources;
    }
    write_data_extras(v.extras, data, true);
    return data.empty() ? json() : data;
  }
};

}  // namespace

template <class IO, class M, IfModel<M, SearchResults> = 0>
void fields(IO& io, M& x) {
  io("success", x.success);
  io.with(kData, x, SearchData{});
  io("warning", x.warning);
  io("id", x.id);
  io("creditsUsed", x.credits_used);
  io.extras(x.extras, kData);
}
WEBDATA_FIELDS_CODEC(SearchResults)

void decode(const json& j, JobErrors& out, const Path& p) {
  // Deployments wrap the object as {"success": true, "data": {...}}.
  if (j.is_object() && !j.contains("errors") && j.contains(kData) && j[kData].is_object()) {
    const Path here = p.collecting(out.diagnostics);
    Reader outer(j, here);
    outer.skip(kData);
    outer.skip("success");
    outer.rest(out.extras);
    decode(j[kData], out, here.child(kData));
    return;
  }
  read_fields(j, out, p);
}
json encode(const JobErrors& v) {
  return write_fields(v);
}

void decode(const json& j, ActiveCrawl& out, const Path& p) {
  read_fields(j, out, p);
  const json* options = j.contains("options") ? &j["options"] : nullptr;
  if (options != nullptr && options->is_object() && options->contains("scrapeOptions")) {
    // The options echo what the service stored; a key this SDK does not know must not make
    // the whole listing unreadable, so a mismatch only leaves the typed view empty.
    try {
      ScrapeOptions so;
      decode((*options)["scrapeOptions"], so, p.child("options").child("scrapeOptions"));
      out.scrape_options = std::move(so);
    } catch (const ParseError&) {
      out.scrape_options.reset();
    }
  }
}
json encode(const ActiveCrawl& v) {
  return write_fields(v);
}

template <class IO, class M, IfModel<M, AgentResult> = 0>
void fields(IO& io, M& a) {
  io("success", a.success);
  io("id", a.id);
  io("status", a.status, kEssential | kOmitEmpty);
  io.with(kData, a, AgentData{});
  io("creditsUsed", a.credits_used);
  io("error", a.error);
  io("stopReason", a.stop_reason);
  io("expiresAt", a.expires_at);
  io("model", a.model);
  io("effort", a.effort);
  io("threadId", a.thread_id);
  io("threadTurn", a.thread_turn);
  io("mode", a.mode);
  io("message", a.message);
  io("suggestions", a.suggestions);
  io("pendingApproval", a.pending_approval);
  io("exchange", a.exchange);
  io.extras(a.extras, kData);
}
WEBDATA_FIELDS_CODEC(AgentResult)

// The field lists of codec_models.fields.json, written as C++ by webdata_codegen.
#include "codec_models.fields.inc"

}  // namespace webdata::detail
