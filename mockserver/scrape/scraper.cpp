// The orchestrator: a scrape is the stages of stages.hpp in order, each in its own file; this
// file only runs them and hands each stage's result to the next.
#include "scrape/scraper.hpp"

#include <algorithm>

#include "scrape/stages.hpp"

namespace webdata::mock::scrape {

using nlohmann::json;
using requests::ScrapeOptions;

Scraper::Scraper(const web::VirtualWeb& web, const Clock& clock) : web_(web), clock_(clock) {}

namespace {

/// --inject-fault no-llm: a deployment without a language model refuses what one makes.
std::optional<Failure> needs_a_model(const ScrapeOptions& options) {
  for (const char* name : {"summary", "json", "extract", "branding"}) {
    if (options.wants(name)) {
      return bad_option(std::string("The ") + name +
                            " format needs a language model, and none is configured",
                        "formats");
    }
  }
  const auto tracking = options.change_tracking();
  if (tracking &&
      std::find(tracking->modes.begin(), tracking->modes.end(), "json") != tracking->modes.end()) {
    return bad_option("Change tracking in json mode needs a language model, and none is "
                      "configured",
                      "formats");
  }
  return std::nullopt;
}

/// The page the actions and the parse read; its body only when no cached page holds it.
content::Page page_to_read(Fetched& got, const std::string& requested) {
  const web::FetchResult& answer = got.answer();
  content::Page page;
  page.url = answer.url.empty() ? requested : answer.url;
  page.content_type = answer.content_type;
  page.status_code = answer.status;
  if (!got.cached) page.body = std::move(got.fetched.body);
  return page;
}

}  // namespace

std::optional<Failure> Scraper::check(const ScrapeOptions& options, const Team& team) const {
  if (no_llm_) {
    if (auto refused = needs_a_model(options)) return refused;
  }
  if (options.zero_data_retention && !team.zero_data_retention) {
    return bad_option(
        "zeroDataRetention is not enabled for this team (set zeroDataRetention on the team in "
        "the mock's configuration)",
        "zeroDataRetention");
  }
  try {
    content::validate_selectors(content_options(options));
  } catch (const content::SelectorError& e) {
    return bad_selector(options, e);
  }
  return std::nullopt;
}

Outcome Scraper::scrape_deferred(const ScrapeOptions& options, const std::string& url,
                                 const Team& team, std::chrono::steady_clock::time_point start) {
  Outcome out;
  out.ready_at = start;
  out.failure = refused_by_conditions(options);
  if (out.failure) return out;
  const auto changed = options_under_conditions(options);
  out = scrape_page(changed ? *changed : options, url, team, nullptr, start);
  as_deployed(out, options.version);
  return out;
}

Outcome Scraper::scrape_upload(const ScrapeOptions& options, const Upload& upload,
                               const Team& team) {
  Outcome out = scrape_page(options, upload.url, team, &upload, {});
  as_deployed(out, options.version);
  return out;
}

Outcome Scraper::scrape_page(const ScrapeOptions& options, const std::string& url,
                             const Team& team, const Upload* upload,
                             std::chrono::steady_clock::time_point start) {
  Outcome out;
  out.ready_at = start;  // what needs no fetch is known when the scrape begins
  if ((out.failure = check(options, team))) return out;
  const auto parsed = parse_http_url(url);
  if (!parsed) {
    out.failure = bad_option("Invalid URL '" + url + "': only absolute http and https URLs can "
                             "be scraped",
                             "url");
    return out;
  }
  Plan plan;
  Fetched got;
  Decoded decoded;
  if ((out.failure = make_plan(options, *parsed, upload != nullptr, plan))) return out;
  if ((out.failure = obtain(options, plan, parsed->str(), upload, start, got, out))) return out;
  if ((out.failure = decode(options, got.answer(), decoded))) return out;
  if (decoded.kind == Decoded::Kind::kPdf) {
    Outcome pdf = scrape_pdf(options, url, plan, got, decoded);
    pdf.ready_at = out.ready_at;
    return pdf;
  }
  return scrape_html(options, url, parsed->str(), team, plan, got, std::move(out));
}

Outcome Scraper::scrape_html(const ScrapeOptions& options, const std::string& url,
                             const std::string& requested, const Team& team, const Plan& plan,
                             Fetched& got, Outcome out) {
  const auto now = clock_.now();
  keep(plan, got, now);
  // A cached page's formats come from its Document (parsed once, kept with it).
  content::Page page = page_to_read(got, requested);
  content::Options cleaning = content_options(options);
  json data = json::object();
  if (options.actions && !options.actions->empty()) {
    json result;
    if ((out.failure = run_actions(options, plan, got.proxy_used, cleaning, page, result, out))) {
      return out;
    }
    if (!result.is_null()) data["actions"] = std::move(result);
  }
  // Actions never run on a cached page (they make a request sensitive), so `got.cached` is the
  // page the formats are made from whenever it is set.
  const content::Document document =
      got.cached ? got.cached->document(page.url) : content::Document::parse(page);
  const Cleaned cleaned(document, got.cached.get(), page, std::move(cleaning));
  out.links = cleaned.links();
  out.credits = got.proxy_used == "enhanced" && !got.hit ? 5 : 1;  // a hit is billed as basic
  const FormatInput in{options, rules_of(options.version), cleaned, no_screenshot_,
                       ChangeHistory{&tracker_, team.id, url, !plan.zero_retention, now}};
  if ((out.failure = produce_formats(in, data, out.credits))) return out;
  return finish(std::move(out), std::move(data), cleaned.metadata(), url, page, got);
}

}  // namespace webdata::mock::scrape
