#include "render.hpp"

namespace webdata::cli {
namespace {

void fenced(std::ostream& out, const std::string& lang, const std::string& text) {
  out << "```" << lang << "\n" << text;
  if (text.empty() || text.back() != '\n') out << "\n";
  out << "```\n";
}

void section(std::ostream& out, const std::string& title) { out << "\n## " << title << "\n\n"; }

std::string source_of(const Document& doc) {
  if (doc.metadata.source_url) return *doc.metadata.source_url;
  if (doc.metadata.url) return *doc.metadata.url;
  return "(unknown URL)";
}

}  // namespace

void render_document(std::ostream& out, const Document& doc) {
  const bool only_markdown = doc.markdown && !doc.summary && !doc.html && !doc.raw_html &&
                             !doc.links && !doc.images && !doc.screenshot && !doc.json &&
                             !doc.llm_extraction && !doc.extract && !doc.change_tracking &&
                             !doc.branding && !doc.actions;
  if (only_markdown) {
    out << *doc.markdown;
    if (doc.markdown->empty() || doc.markdown->back() != '\n') out << "\n";
    return;
  }
  if (doc.markdown) {
    out << *doc.markdown;
    if (doc.markdown->empty() || doc.markdown->back() != '\n') out << "\n";
  }
  if (doc.summary) {
    section(out, "summary");
    out << *doc.summary << "\n";
  }
  if (doc.links) {
    section(out, "links");
    for (const auto& link : *doc.links) out << "- " << link << "\n";
  }
  if (doc.images) {
    section(out, "images");
    for (const auto& image : *doc.images) out << "- " << image << "\n";
  }
  if (doc.json) {
    section(out, "json");
    fenced(out, "json", doc.json->pretty());
  }
  if (doc.llm_extraction) {
    section(out, "llm_extraction");
    fenced(out, "json", doc.llm_extraction->pretty());
  }
  if (doc.extract) {
    section(out, "extract");
    fenced(out, "json", doc.extract->pretty());
  }
  if (doc.change_tracking) {
    const auto& ct = *doc.change_tracking;
    section(out, "changeTracking");
    out << "changeStatus: " << ct.change_status.value() << "\n";
    out << "visibility: " << ct.visibility.value() << "\n";
    if (ct.previous_scrape_at) out << "previousScrapeAt: " << ct.previous_scrape_at->text() << "\n";
    if (ct.diff && !ct.diff->text.empty()) fenced(out, "diff", ct.diff->text);
    if (ct.json) fenced(out, "json", ct.json->pretty());
  }
  if (doc.branding) {
    section(out, "branding");
    fenced(out, "json", doc.branding->pretty());
  }
  if (doc.screenshot) {
    section(out, "screenshot");
    const auto& s = *doc.screenshot;
    if (s.rfind("data:", 0) == 0) {
      out << s.substr(0, s.find(',')) << ", " << s.size() << " characters\n";
    } else {
      out << s << "\n";
    }
  }
  if (doc.actions) {
    section(out, "actions");
    out << doc.actions->screenshots.size() << " screenshots, " << doc.actions->scrapes.size()
        << " scrapes, " << doc.actions->javascript_returns.size() << " javascript returns, "
        << doc.actions->pdfs.size() << " pdfs\n";
  }
  if (doc.html) {
    section(out, "html");
    fenced(out, "html", *doc.html);
  }
  if (doc.raw_html) {
    section(out, "rawHtml");
    fenced(out, "html", *doc.raw_html);
  }
}

void render_job_document(std::ostream& out, const Document& doc, std::size_t number,
                         bool first) {
  // Not a heading: the pages' own headings stay the only ones, and a reader of the markdown
  // sees a rule between pages while `grep '^<!-- page '` finds each one.
  if (!first) out << "\n---\n\n";
  std::string source = source_of(doc);
  // "--" may not appear inside an HTML comment.
  for (auto at = source.find("--"); at != std::string::npos; at = source.find("--", at)) {
    source.replace(at + 1, 1, "%2D");
  }
  out << "<!-- page " << number << ": " << source;
  if (doc.metadata.status_code) out << " (" << *doc.metadata.status_code << ")";
  out << " -->\n\n";
  render_document(out, doc);
}

void render_search(std::ostream& out, const SearchResults& results) {
  bool any = false;
  if (results.web) {
    any = true;
    out << "## web\n\n";
    if (results.web->empty()) out << "no results\n";
    int n = 0;
    for (const auto& r : *results.web) {
      out << ++n << ". [" << r.title.value_or(r.url) << "](" << r.url << ")";
      if (r.category) out << " `" << *r.category << "`";
      out << "\n";
      if (r.description && !r.description->empty()) out << "   " << *r.description << "\n";
      if (r.markdown) out << "\n" << *r.markdown << "\n";
    }
    out << "\n";
  }
  if (results.images) {
    any = true;
    out << "## images\n\n";
    if (results.images->empty()) out << "no results\n";
    int n = 0;
    for (const auto& r : *results.images) {
      out << ++n << ". ![" << r.title.value_or("") << "](" << r.image_url.value_or("") << ")";
      if (r.image_width && r.image_height) out << " " << *r.image_width << "x" << *r.image_height;
      if (r.url) out << " on " << *r.url;
      out << "\n";
    }
    out << "\n";
  }
  if (results.news) {
    any = true;
    out << "## news\n\n";
    if (results.news->empty()) out << "no results\n";
    int n = 0;
    for (const auto& r : *results.news) {
      out << ++n << ". [" << r.title.value_or(r.url.value_or("")) << "](" << r.url.value_or("")
          << ")";
      if (r.date) out << " (" << *r.date << ")";
      out << "\n";
      if (r.snippet && !r.snippet->empty()) out << "   " << *r.snippet << "\n";
    }
    out << "\n";
  }
  if (!any) out << "no results\n";
}

void render_search_v1(std::ostream& out, const v1::SearchResults& results) {
  SearchResults v2;
  v2.web = results.data;
  render_search(out, v2);
}

void render_agent(std::ostream& out, const AgentResult& result) {
  if (auto text = result.result.as_string()) {
    out << *text << "\n";
  } else {
    fenced(out, "json", result.result.pretty());
  }
  if (!result.sources.empty()) {
    out << "\nSources:\n";
    for (const auto& s : result.sources) out << "- " << s << "\n";
  }
}

void render_errors(std::ostream& out, const JobErrors& errors) {
  out << "errors: " << errors.errors.size() << "\n";
  for (const auto& e : errors.errors) {
    out << "- " << e.url << "  " << e.code << ": " << e.error << "\n";
  }
  out << "robots.txt blocked: " << errors.robots_blocked.size() << "\n";
  for (const auto& url : errors.robots_blocked) out << "- " << url << "\n";
}

void render_active(std::ostream& out, const std::vector<ActiveCrawl>& crawls) {
  out << "active crawls: " << crawls.size() << "\n";
  for (const auto& c : crawls) {
    out << "- " << c.id << "  " << c.url;
    if (c.created_at) out << "  started " << c.created_at->text();
    out << "\n";
  }
}

void render_status(std::ostream& out, const std::string& kind, const std::string& id,
                   const JobStatus& status) {
  out << kind << " " << id << ": " << status.status.value() << ", " << status.completed << "/"
      << status.total << " pages, " << status.credits_used << " credits";
  if (status.expires_at) out << ", expires " << status.expires_at->text();
  if (auto why = job_error(status)) out << "\nerror: " << *why;
  out << "\n";
}

void render_extract(std::ostream& out, const ExtractResult& result) {
  if (auto text = result.data.as_string()) {
    out << *text << "\n";
  } else {
    fenced(out, "json", result.data.pretty());
  }
  if (!result.sources.empty()) {
    out << "\nSources:\n";
    for (const auto& [field, urls] : result.sources) {
      out << "- " << field << ":";
      for (std::size_t i = 0; i < urls.size(); ++i) out << (i == 0 ? " " : ", ") << urls[i];
      out << "\n";
    }
  }
}

void render_extract_status(std::ostream& out, const std::string& id, const ExtractResult& result) {
  out << "extract " << id << ": " << result.status << ", " << result.credits_used << " credits";
  if (result.tokens_used) out << ", " << *result.tokens_used << " tokens";
  if (result.expires_at) out << ", expires " << *result.expires_at;
  if (auto why = extract_error(result)) out << "\nerror: " << *why;
  out << "\n";
  if (result.status == "completed") {
    out << "\n";
    render_extract(out, result);
  }
}

namespace {

std::optional<std::string> failure_reason(const std::optional<std::string>& error,
                                          const Extras& extras, const std::string& state) {
  if (error && !error->empty()) return error;
  // An `error` that is not a string stays in extras (the SDK's tolerant reading).
  const auto raw = extras.find("error");
  if (raw != extras.end() && !raw->second.is_null() && !raw->second.is_string()) {
    std::string text = raw->second.text();
    if (text.size() > 120) text = text.substr(0, 117) + "...";
    return "the service gave no reason (\"error\": " + text + ")";
  }
  if (state == "failed") return std::string("the service gave no reason");
  return std::nullopt;
}

}  // namespace

std::optional<std::string> job_error(const JobStatus& status) {
  return failure_reason(status.error, status.extras, status.status.value());
}

std::optional<std::string> extract_error(const ExtractResult& result) {
  return failure_reason(result.error, result.extras, result.status);
}

}  // namespace webdata::cli
