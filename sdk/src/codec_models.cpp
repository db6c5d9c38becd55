// Responses and the resources inside them. Unknown keys are kept in `extras` and written back.
#include <algorithm>

#include "codec.hpp"

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
}
void decode(const json& j, Document& out, const Path& p) {
  Reader r(j, p);
  document_fields(r, out);
  r.rest(out.extras);
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
  Reader r(j, p);
  r("success", out.success);
  if (const json* data = r.find("data"); data != nullptr && !data->is_null()) {
    const Path dp = p.child("data");
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
  Reader r(j, p);
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
  io("id", s.id);
  io("url", s.url);
  io("invalidURLs", s.invalid_urls);
}
void decode(const json& j, JobStarted& out, const Path& p) {
  Reader r(j, p);
  job_started_fields(r, out);
  r.rest(out.extras);
}
json encode(const JobStarted& v) {
  Writer w;
  job_started_fields(w, v);
  w.extras(v.extras);
  return std::move(w.out);
}

template <class IO, class S>
void job_status_fields(IO& io, S& s) {
  io("success", s.success);
  io("status", s.status);
  io("total", s.total);
  io("completed", s.completed);
  io("creditsUsed", s.credits_used);
  io("expiresAt", s.expires_at);
  io("next", s.next);
  io("data", s.data);
}
void decode(const json& j, JobStatus& out, const Path& p) {
  Reader r(j, p);
  job_status_fields(r, out);
  r.rest(out.extras);
}
json encode(const JobStatus& v) {
  Writer w;
  job_status_fields(w, v);
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
  // Deployments wrap the object as {"success": true, "data": {...}}.
  if (j.is_object() && !j.contains("errors") && j.contains("data") && j["data"].is_object()) {
    Reader outer(j, p);
    outer.skip("data");
    outer.skip("success");
    outer.rest(out.extras);
    decode(j["data"], out, p.child("data"));
    return;
  }
  Reader r(j, p);
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
  Reader r(j, p);
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
  Reader r(j, p);
  r("success", out.success);
  r("id", out.id);
  r("status", out.status);
  if (const json* data = r.find("data"); data != nullptr && !data->is_null()) {
    if (data->is_object() && data->contains("result")) {
      const Path dp = p.child("data");
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
  r("expiresAt", out.expires_at);
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
  w("expiresAt", v.expires_at);
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
  Reader r(j, p);
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

}  // namespace webdata::detail
