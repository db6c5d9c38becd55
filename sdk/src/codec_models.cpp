// Responses and the resources inside them. Unknown keys are kept in `extras` and written back.
#include <algorithm>

#include "codec.hpp"
#include "status_chunk.hpp"

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

MetadataValue to_metadata_value(const Json& j) {
  const json tree = to_tree(j);
  if (tree.is_string()) return tree.get<std::string>();
  if (tree.is_array() && !tree.empty() &&
      std::all_of(tree.begin(), tree.end(), [](const json& e) { return e.is_string(); })) {
    return tree.get<std::vector<std::string>>();
  }
  return j;
}

json from_metadata_value(const MetadataValue& v) {
  if (const auto* s = std::get_if<std::string>(&v)) return *s;
  if (const auto* a = std::get_if<std::vector<std::string>>(&v)) return *a;
  return to_tree(std::get<Json>(v));
}

template <class IO, class M>
void metadata_fields(IO& io, M& m) {
  io("title", m.title);
  io("description", m.description);
  io("language", m.language);
  io("sourceURL", m.source_url);
  io("url", m.url);
  io("keywords", m.keywords);
  io("robots", m.robots);
  io("ogTitle", m.og_title);
  io("ogDescription", m.og_description);
  io("ogUrl", m.og_url);
  io("ogImage", m.og_image);
  io("ogSiteName", m.og_site_name);
  io("ogLocaleAlternate", m.og_locale_alternate);
  io("statusCode", m.status_code);
  io("error", m.error);
  io("scrapeId", m.scrape_id);
  io("contentType", m.content_type);
  io("proxyUsed", m.proxy_used);
  io("cacheState", m.cache_state);
  io("cachedAt", m.cached_at);
  io("creditsUsed", m.credits_used);
  io("numPages", m.num_pages);
  io("favicon", m.favicon);
}

}  // namespace

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

void decode(const json& j, ChangeTracking& out, const Path& p) {
  Reader r(j, p);
  r("previousScrapeAt", out.previous_scrape_at);
  r("changeStatus", out.change_status);
  r("visibility", out.visibility);
  if (const json* diff = r.find("diff"); diff != nullptr && !diff->is_null()) {
    ChangeTrackingDiff d;
    if (diff->is_string()) {
      d.text = diff->get<std::string>();
      d.text_only = true;
    } else {
      const Path dp = p.child("diff");
      Reader dr(*diff, dp);
      dr("text", d.text);
      dr("json", d.json);
    }
    out.diff = std::move(d);
  }
  r("json", out.json);
  r.rest(out.extras);
}
json encode(const ChangeTracking& v) {
  Writer w;
  w("previousScrapeAt", v.previous_scrape_at);
  if (!v.change_status.empty()) w("changeStatus", v.change_status);
  if (!v.visibility.empty()) w("visibility", v.visibility);
  if (v.diff) {
    if (v.diff->text_only) {
      w.out["diff"] = v.diff->text;
    } else {
      json diff{{"text", v.diff->text}};
      if (v.diff->json) diff["json"] = to_tree(*v.diff->json);
      w.out["diff"] = std::move(diff);
    }
  }
  w("json", v.json);
  w.extras(v.extras);
  return std::move(w.out);
}

void decode(const json& j, ActionScrape& out, const Path& p) {
  Reader r(j, p);
  r("url", out.url);
  r("html", out.html);
}
json encode(const ActionScrape& v) {
  return json{{"url", v.url}, {"html", v.html}};
}

void decode(const json& j, JavascriptReturn& out, const Path& p) {
  Reader r(j, p);
  r("type", out.type);
  r("value", out.value);
}
json encode(const JavascriptReturn& v) {
  return json{{"type", v.type}, {"value", to_tree(v.value)}};
}

void decode(const json& j, ActionsResult& out, const Path& p) {
  Reader r(j, p);
  r("screenshots", out.screenshots);
  r("scrapes", out.scrapes);
  r("javascriptReturns", out.javascript_returns);
  r("pdfs", out.pdfs);
  r.rest(out.extras);
}
json encode(const ActionsResult& v) {
  Writer w;
  w("screenshots", v.screenshots);
  w("scrapes", v.scrapes);
  w("javascriptReturns", v.javascript_returns);
  w("pdfs", v.pdfs);
  w.extras(v.extras);
  return std::move(w.out);
}

template <class IO, class D>
void document_fields(IO& io, D& d) {
  io("markdown", d.markdown);
  io("summary", d.summary);
  io("html", d.html);
  io("rawHtml", d.raw_html);
  io("screenshot", d.screenshot);
  io("links", d.links);
  io("images", d.images);
  io("json", d.json);
  io("llm_extraction", d.llm_extraction);
  io("extract", d.extract);
  io("actions", d.actions);
  io("metadata", d.metadata);
  io("warning", d.warning);
  io("changeTracking", d.change_tracking);
  io("branding", d.branding);
  io("attributes", d.attributes);
  io("answer", d.answer);
  io("highlights", d.highlights);
  io("rawBase64", d.raw_base64);
}
void decode(const json& j, Document& out, const Path& p) {
  const Path here = p.collecting(out.diagnostics);
  Reader r(j, here);
  document_fields(r, out);
  r.rest(out.extras);
}
namespace {

// The fast path met a shape whose result or error only the tree decoder gives right.
struct UncommonShape {};

std::string_view slice_of(std::string_view text, JsonSpan span) {
  return text.substr(span.begin, span.end - span.begin);
}

std::size_t skip_space(std::string_view v, std::size_t i) {
  while (i < v.size() && (v[i] == ' ' || v[i] == '\t' || v[i] == '\n' || v[i] == '\r')) ++i;
  return i;
}

// Members of a scanned object, refused when a key repeats (a tree keeps the last one).
std::optional<ScannedJson> unique_members(std::string_view text) {
  auto scanned = scan_json(text);
  if (!scanned || !scanned->is_object) throw UncommonShape{};
  std::vector<std::string_view> keys;
  keys.reserve(scanned->members.size());
  for (const auto& m : scanned->members) keys.emplace_back(m.key);
  std::sort(keys.begin(), keys.end());
  if (std::adjacent_find(keys.begin(), keys.end()) != keys.end()) throw UncommonShape{};
  return scanned;
}

void fast_value(std::string_view v, std::optional<std::string>& out, const Path& /*p*/) {
  if (v == "null") return;
  if (v.front() != '"') throw UncommonShape{};
  out = unescape_json_string(v);
}

void fast_value(std::string_view v, std::optional<std::vector<std::string>>& out,
                const Path& /*p*/) {
  if (v == "null") return;
  if (v.front() != '[') throw UncommonShape{};
  std::vector<std::string> items;
  std::size_t i = skip_space(v, 1);
  while (v[i] != ']') {
    if (v[i] != '"') throw UncommonShape{};
    std::size_t end = i + 1;
    while (v[end] != '"') end += v[end] == '\\' ? 2 : 1;
    items.push_back(unescape_json_string(v.substr(i, end + 1 - i)));
    i = skip_space(v, end + 1);
    if (v[i] == ',') i = skip_space(v, i + 1);
  }
  out = std::move(items);
}

void fast_value(std::string_view v, std::optional<int>& out, const Path& /*p*/) {
  if (v == "null") return;
  std::size_t i = v.front() == '-' ? 1 : 0;
  if (v.size() - i > 9 || v.size() == i) throw UncommonShape{};  // past int's range: the tree says
  long long value = 0;
  for (; i < v.size(); ++i) {
    if (v[i] < '0' || v[i] > '9') throw UncommonShape{};  // a fraction or an exponent
    value = value * 10 + (v[i] - '0');
  }
  out = static_cast<int>(v.front() == '-' ? -value : value);
}

template <class T>
void via_text(std::string_view v, std::optional<T>& out, const Path& p) {
  std::optional<std::string> text;
  fast_value(v, text, p);
  if (text) out = T(std::move(*text));
}
void fast_value(std::string_view v, std::optional<ProxyMode>& out, const Path& p) {
  via_text(v, out, p);
}
void fast_value(std::string_view v, std::optional<Timestamp>& out, const Path& p) {
  std::optional<std::string> text;
  fast_value(v, text, p);
  if (text) out = Timestamp::from_text(std::move(*text));
}

// Members this path does not read itself: through a tree of the member alone.
template <class T>
void fast_value(std::string_view v, std::optional<T>& out, const Path& p) {
  const json tree = json::parse(v);
  decode(tree, out, p);
}

void fast_value(std::string_view v, Metadata& out, const Path& p) {
  if (v == "null") return;
  const auto scanned = unique_members(v);
  Metadata m;
  for (const auto& member : scanned->members) {
    const std::string_view value = slice_of(v, member.value);
    bool known = false;
    auto io = [&](const char* key, auto& field) {
      if (known || member.key != key) return;
      known = true;
      fast_value(value, field, p.child(key));
    };
    metadata_fields(io, m);
    if (known) continue;
    if (value.front() == '"') {
      m.extras.emplace(member.key, unescape_json_string(value));
    } else {
      m.extras.emplace(member.key, to_metadata_value(from_tree(json::parse(value))));
    }
  }
  out = std::move(m);
}

}  // namespace

void decode_document_text(std::string_view text, Document& out, const Path& p) {
  try {
    const auto scanned = unique_members(text);
    Document doc;
    for (const auto& member : scanned->members) {
      const std::string_view value = slice_of(text, member.value);
      bool known = false;
      auto io = [&](const char* key, auto& field) {
        if (known || member.key != key) return;
        known = true;
        fast_value(value, field, p.child(key));
      };
      document_fields(io, doc);
      if (!known) doc.extras.emplace(member.key, from_tree(json::parse(value)));
    }
    out = std::move(doc);
    return;
  } catch (const UncommonShape&) {
  } catch (const ParseError&) {
  }
  const json tree = json::parse(text, nullptr, false);
  if (tree.is_discarded()) fail(p, "not valid JSON");
  decode(tree, out, p);
}

json encode(const Document& v) {
  Writer w;
  document_fields(w, v);
  w.extras(v.extras);
  return std::move(w.out);
}

template <class IO, class R>
void scraped_result_fields(IO& io, R& x) {
  io("title", x.title);
  io("url", x.url);
  io("position", x.position);
  io("category", x.category);
  io("markdown", x.markdown);
  io("html", x.html);
  io("rawHtml", x.raw_html);
  io("links", x.links);
  io("screenshot", x.screenshot);
  io("metadata", x.metadata);
}

void decode(const json& j, WebResult& out, const Path& p) {
  Reader r(j, p);
  scraped_result_fields(r, out);
  r("description", out.description);
  r.rest(out.extras);
}
json encode(const WebResult& v) {
  Writer w;
  scraped_result_fields(w, v);
  w("description", v.description);
  w.extras(v.extras);
  return std::move(w.out);
}

template <class IO, class R>
void image_fields(IO& io, R& x) {
  io("title", x.title);
  io("imageUrl", x.image_url);
  io("imageWidth", x.image_width);
  io("imageHeight", x.image_height);
  io("url", x.url);
  io("position", x.position);
}
void decode(const json& j, ImageResult& out, const Path& p) {
  Reader r(j, p);
  image_fields(r, out);
  r.rest(out.extras);
}
json encode(const ImageResult& v) {
  Writer w;
  image_fields(w, v);
  w.extras(v.extras);
  return std::move(w.out);
}

void decode(const json& j, NewsResult& out, const Path& p) {
  Reader r(j, p);
  scraped_result_fields(r, out);
  r("snippet", out.snippet);
  r("date", out.date);
  r("imageUrl", out.image_url);
  r.rest(out.extras);
}
json encode(const NewsResult& v) {
  Writer w;
  scraped_result_fields(w, v);
  w("snippet", v.snippet);
  w("date", v.date);
  w("imageUrl", v.image_url);
  w.extras(v.extras);
  return std::move(w.out);
}

namespace {
constexpr const char* kDataPrefix = "data.";
}

void decode(const json& j, SearchResults& out, const Path& p) {
  const Path here = p.collecting(out.diagnostics);
  Reader r(j, here);
  r("success", out.success);
  if (const json* data = r.find("data"); data != nullptr && !data->is_null()) {
    const Path dp = here.child("data");
    Reader dr(*data, dp);
    dr("web", out.web);
    dr("images", out.images);
    dr("news", out.news);
    Extras inner;
    dr.rest(inner);
    for (auto& [key, value] : inner) out.extras.emplace(kDataPrefix + key, std::move(value));
  }
  r("warning", out.warning);
  r("id", out.id);
  r("creditsUsed", out.credits_used);
  r.rest(out.extras);
}
json encode(const SearchResults& v) {
  Writer data;
  data("web", v.web);
  data("images", v.images);
  data("news", v.news);
  Writer w;
  w("success", v.success);
  w("warning", v.warning);
  w("id", v.id);
  w("creditsUsed", v.credits_used);
  const std::string prefix = kDataPrefix;
  for (const auto& [key, value] : v.extras) {
    if (key.compare(0, prefix.size(), prefix) == 0) {
      const std::string inner = key.substr(prefix.size());
      if (!data.out.contains(inner)) data.out[inner] = to_tree(value);
    } else if (!w.out.contains(key) && key != "data") {
      w.out[key] = to_tree(value);
    }
  }
  w.out["data"] = std::move(data.out);
  return std::move(w.out);
}

void decode(const json& j, v1::SearchResults& out, const Path& p) {
  const Path here = p.collecting(out.diagnostics);
  Reader r(j, here);
  r("success", out.success);
  r("data", out.data);
  r("warning", out.warning);
  r("id", out.id);
  r("creditsUsed", out.credits_used);
  r.rest(out.extras);
}
json encode(const v1::SearchResults& v) {
  Writer w;
  w("success", v.success);
  w("data", v.data);
  w("warning", v.warning);
  w("id", v.id);
  w("creditsUsed", v.credits_used);
  w.extras(v.extras);
  return std::move(w.out);
}

template <class IO, class S>
void job_started_fields(IO& io, S& s) {
  io("success", s.success);
  io("url", s.url);
  io("invalidURLs", s.invalid_urls);
}
void decode(const json& j, JobStarted& out, const Path& p) {
  const Path here = p.collecting(out.diagnostics);
  Reader r(j, here);
  r.req("id", out.id);  // without it the job cannot be followed
  job_started_fields(r, out);
  r.rest(out.extras);
}
json encode(const JobStarted& v) {
  Writer w;
  w("id", v.id);
  job_started_fields(w, v);
  w.extras(v.extras);
  return std::move(w.out);
}

// Every member but the essential ones, `status` and `data`, which the caller needs to go on.
template <class IO, class S>
void job_status_fields(IO& io, S& s) {
  io("success", s.success);
  io("total", s.total);
  io("completed", s.completed);
  io("creditsUsed", s.credits_used);
  io("expiresAt", s.expires_at);
  io("next", s.next);
}
void decode(const json& j, JobStatus& out, const Path& p) {
  const Path here = p.collecting(out.diagnostics);
  Reader r(j, here);
  r.essential("status", out.status);
  r.essential("data", out.data);
  job_status_fields(r, out);
  r.rest(out.extras);
  // The failed job's reason, typed; it also stays in `extras` (read by code older than the
  // field), and a non-string `error` (`{}` from some deployments) only lands there.
  if (const auto it = j.find("error"); it != j.end() && it->is_string()) {
    out.error = it->get<std::string>();
  } else if (it != j.end() && !it->is_null()) {
    out.diagnostics.push_back("at " + here.child("error").str() + ": expected a string, got " +
                              type_name(*it) + "; kept as raw JSON in extras");
  }
}
json encode(const JobStatus& v) {
  Writer w;
  w("status", v.status);
  w("data", v.data);
  job_status_fields(w, v);
  w("error", v.error);
  w.extras(v.extras);
  return std::move(w.out);
}

template <class IO, class E>
void job_error_fields(IO& io, E& e) {
  io("id", e.id);
  io("timestamp", e.timestamp);
  io("url", e.url);
  io("code", e.code);
  io("error", e.error);
}
void decode(const json& j, JobError& out, const Path& p) {
  Reader r(j, p);
  job_error_fields(r, out);
  r.rest(out.extras);
}
json encode(const JobError& v) {
  Writer w;
  job_error_fields(w, v);
  w.extras(v.extras);
  return std::move(w.out);
}

void decode(const json& j, JobErrors& out, const Path& p) {
  const Path here = p.collecting(out.diagnostics);
  // Deployments wrap the object as {"success": true, "data": {...}}.
  if (j.is_object() && !j.contains("errors") && j.contains("data") && j["data"].is_object()) {
    Reader outer(j, here);
    outer.skip("data");
    outer.skip("success");
    outer.rest(out.extras);
    decode(j["data"], out, here.child("data"));
    return;
  }
  Reader r(j, here);
  r("errors", out.errors);
  r("robotsBlocked", out.robots_blocked);
  r.rest(out.extras);
}
json encode(const JobErrors& v) {
  Writer w;
  w("errors", v.errors);
  w("robotsBlocked", v.robots_blocked);
  w.extras(v.extras);
  return std::move(w.out);
}

void decode(const json& j, ActiveCrawl& out, const Path& p) {
  const Path here = p.collecting(out.diagnostics);
  Reader r(j, here);
  r("id", out.id);
  r("teamId", out.team_id);
  r("url", out.url);
  r("created_at", out.created_at);
  r("options", out.options);
  r.rest(out.extras);
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
  Writer w;
  w("id", v.id);
  w("teamId", v.team_id);
  w("url", v.url);
  w("created_at", v.created_at);
  w("options", v.options);
  w.extras(v.extras);
  return std::move(w.out);
}

void decode(const json& j, AgentResult& out, const Path& p) {
  const Path here = p.collecting(out.diagnostics);
  Reader r(j, here);
  r("success", out.success);
  r("id", out.id);
  r.essential("status", out.status);
  if (const json* data = r.find("data"); data != nullptr && !data->is_null()) {
    if (data->is_object() && data->contains("result")) {
      const Path dp = here.child("data");
      Reader dr(*data, dp);
      dr("result", out.result);
      dr("sources", out.sources);
      Extras inner;
      dr.rest(inner);
      for (auto& [key, value] : inner) out.extras.emplace(kDataPrefix + key, std::move(value));
    } else {
      out.result = from_tree(*data);
    }
  }
  r("creditsUsed", out.credits_used);
  r("error", out.error);
  r("stopReason", out.stop_reason);
  r("expiresAt", out.expires_at);
  r("model", out.model);
  r("effort", out.effort);
  r("threadId", out.thread_id);
  r("threadTurn", out.thread_turn);
  r("mode", out.mode);
  r("message", out.message);
  r("suggestions", out.suggestions);
  r("pendingApproval", out.pending_approval);
  r("exchange", out.exchange);
  r.rest(out.extras);
}
json encode(const AgentResult& v) {
  Writer w;
  w("success", v.success);
  w("id", v.id);
  if (!v.status.empty()) w("status", v.status);
  json data = json::object();
  if (!v.result.is_null() || !v.sources.empty()) {
    data["result"] = to_tree(v.result);
    data["sources"] = v.sources;
  }
  w("creditsUsed", v.credits_used);
  w("error", v.error);
  w("stopReason", v.stop_reason);
  w("expiresAt", v.expires_at);
  w("model", v.model);
  w("effort", v.effort);
  w("threadId", v.thread_id);
  w("threadTurn", v.thread_turn);
  w("mode", v.mode);
  w("message", v.message);
  w("suggestions", v.suggestions);
  w("pendingApproval", v.pending_approval);
  w("exchange", v.exchange);
  const std::string prefix = kDataPrefix;
  for (const auto& [key, value] : v.extras) {
    if (key.compare(0, prefix.size(), prefix) == 0) {
      data[key.substr(prefix.size())] = to_tree(value);
    } else if (!w.out.contains(key) && key != "data") {
      w.out[key] = to_tree(value);
    }
  }
  if (!data.empty()) w.out["data"] = std::move(data);
  return std::move(w.out);
}

void decode(const json& j, webhooks::Event& out, const Path& p) {
  const Path here = p.collecting(out.diagnostics);
  Reader r(j, here);
  r("success", out.success);
  r.req("type", out.type);
  r("id", out.id);
  r("webhookId", out.webhook_id);
  r("data", out.data);
  r("metadata", out.metadata);
  r("error", out.error);
  r.rest(out.extras);
}
json encode(const webhooks::Event& v) {
  Writer w;
  w("success", v.success);
  w("type", v.type);
  w("id", v.id);
  w("webhookId", v.webhook_id);
  w("data", v.data);
  w("metadata", v.metadata);
  w("error", v.error);
  w.extras(v.extras);
  return std::move(w.out);
}

namespace {

constexpr const char* kDocumentsKey = "data";

// Indexes a status answer: `rest` gets every top-level member but an array `data` as a tree
// (later duplicates win, as in a DOM), `documents` the range of each element of that array.
// False when the text is not JSON.
bool index_status(std::string_view text, json& rest, std::vector<JsonSpan>& documents) {
  auto scanned = scan_json(text, kDocumentsKey);
  if (!scanned) return false;
  documents.clear();
  if (!scanned->is_object) {
    // Not an object: kept whole, so the head decode reports it as it always did.
    rest = json::parse(text, nullptr, false);
    return !rest.is_discarded();
  }
  rest = json::object();
  for (std::size_t i = 0; i < scanned->members.size(); ++i) {
    const ScannedMember& member = scanned->members[i];
    const bool is_data = member.key == kDocumentsKey;
    if (is_data && i != scanned->split) continue;  // an earlier duplicate, which a DOM drops
    const std::string_view slice =
        text.substr(member.value.begin, member.value.end - member.value.begin);
    if (is_data && slice.front() == '[') continue;  // the documents: decoded one at a time
    auto value = json::parse(slice, nullptr, false);
    if (value.is_discarded()) return false;
    rest[member.key] = std::move(value);
  }
  documents = std::move(scanned->elements);
  return true;
}

Result<Document> decode_document_at(std::string_view text, JsonSpan span, std::size_t index,
                                    const char* what) {
  const Path root;
  const Path in_data = root.child(kDocumentsKey);
  const Path at = in_data.at(index);
  try {
    Document doc;
    decode_document_text(slice_of(text, span), doc, at);
    return Result<Document>(std::move(doc));
  } catch (const ParseError& e) {
    return shape_error(what, e.what(), slice_of(text, span));
  }
}

std::optional<Error> append_documents(std::string_view text, const std::vector<JsonSpan>& spans,
                                      std::size_t first_index, const char* what,
                                      std::vector<Document>& out) {
  out.reserve(out.size() + spans.size());
  for (std::size_t i = 0; i < spans.size(); ++i) {
    auto doc = decode_document_at(text, spans[i], first_index + i, what);
    if (!doc.ok()) return doc.error();
    out.push_back(std::move(doc).value());
  }
  return std::nullopt;
}

}  // namespace

Result<StatusChunk> StatusChunk::scan(std::string body) {
  StatusChunk chunk;
  if (!index_status(body, chunk.rest_, chunk.documents_)) return not_json_error(body);
  chunk.body_ = std::move(body);
  return Result<StatusChunk>(std::move(chunk));
}

bool StatusChunk::reports_failure() const {
  if (!rest_.is_object()) return false;
  const auto it = rest_.find("success");
  // A failed job answers 200 with `success: false` *and* `status: "failed"` (and its `error`):
  // that is the job's state, read like any other; without a status it is an API error.
  const auto status = rest_.find("status");
  if (status != rest_.end() && status->is_string()) return false;
  return it != rest_.end() && *it == false;
}

std::optional<Error> StatusChunk::decode_head(const char* what) {
  what_ = what;
  auto head = decode_tree<JobStatus>(rest_, what, body_);
  rest_ = json();
  if (!head.ok()) return head.error();
  head_ = std::move(head).value();
  return std::nullopt;
}

Result<Document> StatusChunk::document(std::size_t index) const {
  return decode_document_at(body_, documents_.at(index), dropped_ + index, what_);
}

void StatusChunk::drop_front(std::size_t count) {
  count = std::min(count, documents_.size());
  documents_.erase(documents_.begin(), documents_.begin() + static_cast<std::ptrdiff_t>(count));
  dropped_ += count;
}

Result<JobStatus> StatusChunk::take_all() && {
  if (auto err = append_documents(body_, documents_, dropped_, what_, head_.data)) return *err;
  return std::move(head_);
}

std::optional<Result<JobStatus>> decode_status_text(std::string_view text, const char* what) {
  json rest;
  std::vector<JsonSpan> documents;
  if (!index_status(text, rest, documents)) return std::nullopt;
  auto status = decode_tree<JobStatus>(rest, what);
  rest = json();
  if (!status.ok()) return status;
  if (auto err = append_documents(text, documents, 0, what, status->data)) {
    return Result<JobStatus>(std::move(*err));
  }
  return status;
}

}  // namespace webdata::detail
