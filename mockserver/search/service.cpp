#include "search/service.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cmath>
#include <functional>
#include <set>
#include <thread>
#include <unordered_map>

#include "content/document.hpp"
#include "content/dom.hpp"
#include "core/text.hpp"
#include "core/time.hpp"
#include "core/url.hpp"
#include "search/page_reader.hpp"
#include "search/site_filters.hpp"
#include "search/text.hpp"

namespace webdata::mock::search {

using nlohmann::json;
using Clock_ = std::chrono::system_clock;

namespace {

constexpr std::size_t kBuildWorkers = 4;

}  // namespace

SearchService::SearchService(const web::VirtualWeb& web, const Clock& clock)
    : web_(web), clock_(clock) {}

std::string SearchService::preferred_language(const SearchRequest& request) {
  if (!request.language.empty()) {
    const std::string lang =
        to_lower(request.language.substr(0, request.language.find_first_of("-_")));
    return lang == "en" ? "" : lang;
  }
  struct Country {
    const char* code;
    const char* name;
    const char* language;
  };
  static const Country kCountries[] = {
      {"us", "united states", "en"}, {"gb", "united kingdom", "en"}, {"uk", "england", "en"},
      {"ca", "canada", "en"},        {"au", "australia", "en"},      {"ie", "ireland", "en"},
      {"nz", "new zealand", "en"},   {"de", "germany", "de"},        {"at", "austria", "de"},
      {"ch", "switzerland", "de"},   {"fr", "france", "fr"},         {"be", "belgium", "fr"},
      {"jp", "japan", "ja"},         {"es", "spain", "es"},          {"mx", "mexico", "es"},
      {"ar", "argentina", "es"},     {"it", "italy", "it"},          {"pt", "portugal", "pt"},
      {"br", "brazil", "pt"},        {"nl", "netherlands", "nl"},    {"cn", "china", "zh"},
      {"tw", "taiwan", "zh"},        {"kr", "south korea", "ko"},    {"ru", "russia", "ru"},
      {"se", "sweden", "sv"},        {"no", "norway", "no"},         {"dk", "denmark", "da"},
      {"fi", "finland", "fi"},       {"pl", "poland", "pl"},         {"in", "india", "en"}};
  // The location's last part names the country ("Berlin,Berlin,Germany"); it wins over `country`.
  if (!request.location.empty()) {
    const auto comma = request.location.rfind(',');
    const std::string last = to_lower(collapse_space(
        comma == std::string::npos ? request.location : request.location.substr(comma + 1)));
    for (const auto& country : kCountries) {
      if (last == country.name || last == country.code) {
        return std::string(country.language) == "en" ? "" : country.language;
      }
    }
  }
  const std::string code = to_lower(request.country);
  for (const auto& country : kCountries) {
    if (code == country.code) return std::string(country.language) == "en" ? "" : country.language;
  }
  return "";
}

std::size_t SearchService::fingerprint() const {
  std::size_t seed = 0;
  auto mix = [&seed](const std::string& s) {
    seed ^= std::hash<std::string>{}(s) + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2);
  };
  for (const auto& url : web_.known_urls()) mix(url);
  mix(web_.stubs().mappings_json().dump());
  return seed;
}

void SearchService::invalidate() {
  std::lock_guard<std::mutex> lock(mutex_);
  editions_.clear();
}

std::shared_ptr<const Index> SearchService::index(const std::string& language) {
  const std::size_t current = fingerprint();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (current != fingerprint_) {
      editions_.clear();
      fingerprint_ = current;
    }
    const auto it = editions_.find(language);
    if (it != editions_.end()) return it->second;
  }
  std::lock_guard<std::mutex> building(build_mutex_);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = editions_.find(language);
    if (it != editions_.end() && fingerprint_ == current) return it->second;
  }
  auto built = build(language);
  std::lock_guard<std::mutex> lock(mutex_);
  if (fingerprint_ == current) editions_[language] = built;
  return built;
}

std::shared_ptr<const Index> SearchService::build(const std::string& language) const {
  std::vector<std::string> urls = web_.known_urls();
  std::set<std::string> hosts;
  for (const auto& url : urls) {
    if (auto parsed = parse_http_url(url)) hosts.insert(to_lower(parsed->host));
  }
  auto known_host = [&hosts](const std::string& url) {
    const auto parsed = parse_http_url(url);
    return parsed && hosts.count(to_lower(parsed->host)) != 0;
  };

  // Read in a few joined workers (parsing is most of a build). A fixture's delay is not waited
  // for: the index is what the search provider crawled before any query.
  auto read_all = [&](const std::vector<std::string>& list) {
    std::vector<std::optional<PageRecord>> out(list.size());
    std::atomic<std::size_t> next{0};
    auto work = [&] {
      for (std::size_t i = next++; i < list.size(); i = next++)
        out[i] = read_page(list[i], language);
    };
    std::vector<std::thread> workers;
    const std::size_t count = std::min(kBuildWorkers, list.size());
    for (std::size_t w = 1; w < count; ++w) workers.emplace_back(work);
    work();
    for (auto& worker : workers) worker.join();
    return out;
  };

  std::vector<PageRecord> pages;
  std::set<std::string> indexed;
  for (auto& page : read_all(urls)) {
    if (page && indexed.insert(page->url).second) pages.push_back(std::move(*page));
  }
  // Documents the pages link to on the same hosts (PDF reports and the like).
  std::vector<std::string> documents;
  for (const auto& page : pages) {
    for (const auto& link : page.links) {
      const auto parsed = parse_http_url(link);
      if (!parsed || file_extension(parsed->path) != "pdf" || !known_host(link)) continue;
      if (indexed.count(link) == 0 &&
          std::find(documents.begin(), documents.end(), link) == documents.end()) {
        documents.push_back(link);
      }
    }
  }
  std::sort(documents.begin(), documents.end());
  for (auto& page : read_all(documents)) {
    if (page && indexed.insert(page->url).second) pages.push_back(std::move(*page));
  }

  // Image sizes the markup does not state come from the image files (same hosts only).
  std::unordered_map<std::string, std::optional<Size>> sizes;
  for (auto& page : pages) {
    for (auto& image : page.images) {
      if (image.size || !known_host(image.url)) continue;
      auto it = sizes.find(image.url);
      if (it == sizes.end()) {
        web::FetchRequest request;
        request.url = image.url;
        request.timeout = kIndexFetchTimeout;
        const auto fetched = web_.fetch_deferred(request);  // no wait, as for the pages
        it = sizes
                 .emplace(image.url, fetched.ok && fetched.status == 200 ? image_size(fetched.body)
                                                                         : std::nullopt)
                 .first;
      }
      image.size = it->second;
    }
  }
  std::sort(pages.begin(), pages.end(),
            [](const PageRecord& a, const PageRecord& b) { return a.url < b.url; });
  return std::make_shared<const Index>(std::move(pages));
}

const Index& SearchAnswer::index_of(const std::string& source) const {
  const auto it = indexes.find(source);
  return it != indexes.end() && it->second ? *it->second : *index;
}

namespace {

/// The search engine's duplicate filter: a hit whose page title and snippet an earlier hit had.
void drop_repeats(std::vector<Hit>& hits, const Index& idx) {
  std::set<std::pair<std::string, std::string>> seen;
  hits.erase(std::remove_if(hits.begin(), hits.end(),
                            [&](const Hit& hit) {
                              return !seen.emplace(idx.page(hit.doc).title, hit.snippet).second;
                            }),
             hits.end());
}

}  // namespace

std::optional<SearchError> SearchService::search(const requests::SearchRequest& request,
                                                 SearchAnswer& answer) {
  for (const std::string& source : request.source_names()) {
    const requests::SourceSettings settings = request.settings_for(source);
    SearchRequest one;
    one.query = request.query;
    one.sources = {source};
    if (source == "web") one.categories = request.category_names();
    one.include_domains = request.include_hosts();
    one.exclude_domains = request.exclude_hosts();
    one.tbs = settings.tbs;
    one.language = settings.lang;
    one.country = settings.country;
    one.location = settings.location;
    SearchAnswer part;
    if (auto error = search(one, part)) return error;
    if (settings.filter == "1") {
      drop_repeats(part.web, *part.index);
      drop_repeats(part.news, *part.index);
    }
    answer.index = part.index;
    answer.indexes[source] = part.index;
    for (auto& hit : part.web) answer.web.push_back(std::move(hit));
    for (auto& hit : part.news) answer.news.push_back(std::move(hit));
    for (auto& hit : part.images) answer.images.push_back(std::move(hit));
    for (auto& warning : part.warnings) {
      if (std::find(answer.warnings.begin(), answer.warnings.end(), warning) ==
          answer.warnings.end()) {
        answer.warnings.push_back(std::move(warning));
      }
    }
  }
  return std::nullopt;
}

namespace {

/// One query against one index: its filters, its ranking and its snippets, the steps of
/// SearchService::search.
class QueryRun {
 public:
  QueryRun(const SearchRequest& request, const Index& idx, const TimeRange& range,
           std::string language, SearchAnswer& answer)
      : request_(request),
        idx_(idx),
        range_(range),
        language_(std::move(language)),
        query_(parse_query(request.query)),
        answer_(answer) {
    for (const auto& problem : query_.problems) answer_.warnings.push_back("Ignored " + problem);
    for (const auto& term : query_.terms) {
      if (!is_stop_word(term)) required_.push_back(term);
    }
    if (required_.empty()) required_ = query_.terms;
    ranking_ = query_.ranking_terms();
    find_related();
  }

  /// The pages that pass every filter and match the query's words: every word, or when no page
  /// has them all, any of them (ranked lower).
  std::vector<std::size_t> matched() {
    std::vector<std::size_t> out;
    for (bool all : {true, false}) {
      for (std::size_t d = 0; d < idx_.size(); ++d) {
        if (passes_filters(d) && matches_terms(d, all)) out.push_back(d);
      }
      if (!out.empty() || required_.size() < 2) break;
      answer_.warnings.push_back(
          "No page matched every word of the query; showing pages that match some of them");
    }
    return out;
  }

  /// The web and news hits among the matched pages.
  void add_page_hits(const std::vector<std::size_t>& matched) {
    for (std::size_t d : matched) {
      const PageRecord& page = idx_.page(d);
      if ((query_.image_size || query_.larger) &&
          std::none_of(page.images.begin(), page.images.end(),
                       [this](const ImageRecord& image) { return image_fits(image); })) {
        continue;
      }
      if (!passes_filetype(page.filetype)) continue;
      Hit hit{d, score_of(d), "", ""};
      if (wants("web") && admit_category(page, hit)) {
        hit.snippet = snippet_of(d);
        answer_.web.push_back(hit);
      }
      if (wants("news") && page.article && page.date) {
        answer_.news.push_back(Hit{d, hit.score, "", snippet_of(d)});
      }
    }
  }

  /// The image hits of the matched pages: each image once, at its best score.
  void add_image_hits(const std::vector<std::size_t>& matched) {
    if (!wants("images")) return;
    std::map<std::string, ImageHit> best;
    for (std::size_t d : matched) {
      const PageRecord& page = idx_.page(d);
      for (std::size_t i = 0; i < page.images.size(); ++i) {
        const ImageRecord& image = page.images[i];
        if (!image_fits(image) || !passes_filetype(file_extension(image.url))) continue;
        const auto alt = tokenize(image.alt);
        double score = score_of(d);
        for (const auto& term : ranking_) {
          if (std::find(alt.begin(), alt.end(), term) != alt.end()) score += 2 * idx_.idf(term) + 1;
        }
        auto [it, inserted] = best.emplace(image.url, ImageHit{d, i, score});
        if (!inserted && score > it->second.score) it->second = ImageHit{d, i, score};
      }
    }
    for (auto& entry : best) answer_.images.push_back(entry.second);
  }

  /// Best first; ties by date (news, newest first) and then by URL.
  void sort_hits() {
    const Index& idx = idx_;
    std::sort(answer_.images.begin(), answer_.images.end(),
              [&idx](const ImageHit& a, const ImageHit& b) {
                if (a.score != b.score) return a.score > b.score;
                return idx.page(a.doc).images[a.image].url < idx.page(b.doc).images[b.image].url;
              });
    std::sort(answer_.web.begin(), answer_.web.end(), [&idx](const Hit& a, const Hit& b) {
      if (a.score != b.score) return a.score > b.score;
      return idx.page(a.doc).url < idx.page(b.doc).url;
    });
    std::sort(answer_.news.begin(), answer_.news.end(), [&idx](const Hit& a, const Hit& b) {
      if (a.score != b.score) return a.score > b.score;
      if (idx.page(a.doc).date != idx.page(b.doc).date) {
        return idx.page(a.doc).date > idx.page(b.doc).date;
      }
      return idx.page(a.doc).url < idx.page(b.doc).url;
    });
  }

 private:
  // related: the characteristic terms of the named site's pages, its own pages left out.
  void find_related() {
    if (!query_.related) return;
    std::vector<std::size_t> site_docs;
    for (std::size_t d = 0; d < idx_.size(); ++d) {
      if (matches_site(idx_.page(d), *query_.related)) site_docs.push_back(d);
    }
    related_terms_ = idx_.characteristic_terms(site_docs, 12);
    if (site_docs.empty()) {
      answer_.warnings.push_back("related:" + *query_.related + " names no indexed site");
    }
  }

  bool wants(const char* source) const {
    return std::find(request_.sources.begin(), request_.sources.end(), source) !=
           request_.sources.end();
  }

  bool image_fits(const ImageRecord& image) const {
    if (query_.image_size && !(image.size && image.size->width == query_.image_size->width &&
                               image.size->height == query_.image_size->height)) {
      return false;
    }
    return !(query_.larger && !(image.size && image.size->width >= query_.larger->width &&
                                image.size->height >= query_.larger->height));
  }

  /// The request's domains and the query's site: and inurl: operators.
  bool passes_site_filters(const PageRecord& page) const {
    if (!request_.include_domains.empty() &&
        std::none_of(request_.include_domains.begin(), request_.include_domains.end(),
                     [&](const std::string& host) { return host_in_site(page.host, host); })) {
      return false;
    }
    for (const auto& host : request_.exclude_domains) {
      if (host_in_site(page.host, host)) return false;
    }
    if (!query_.sites.empty() &&
        std::none_of(query_.sites.begin(), query_.sites.end(),
                     [&](const std::string& site) { return matches_site(page, site); })) {
      return false;
    }
    for (const auto& site : query_.excluded_sites) {
      if (matches_site(page, site)) return false;
    }
    for (const auto& word : query_.in_url) {
      if (!url_contains(page, word)) return false;
    }
    for (const auto& word : query_.excluded_in_url) {
      if (url_contains(page, word)) return false;
    }
    return true;
  }

  /// The query's intitle: operators, phrases and excluded words.
  bool passes_text_filters(std::size_t d) const {
    for (const auto& title : query_.in_title) {
      if (!idx_.title_has(d, title)) return false;
    }
    for (const auto& title : query_.excluded_in_title) {
      if (idx_.title_has(d, title)) return false;
    }
    for (const auto& phrase : query_.phrases) {
      if (!idx_.has_phrase(d, phrase)) return false;
    }
    for (const auto& phrase : query_.excluded_phrases) {
      if (idx_.has_phrase(d, phrase)) return false;
    }
    for (const auto& term : query_.excluded_terms) {
      if (idx_.has_term(d, term)) return false;
    }
    return true;
  }

  // Filters that do not depend on the page's file type (images use their own file type).
  bool passes_filters(std::size_t d) const {
    const PageRecord& page = idx_.page(d);
    if (!passes_site_filters(page) || !passes_text_filters(d)) return false;
    if (range_.from || range_.to) {
      if (!page.date) return false;
      if (range_.from && *page.date < *range_.from) return false;
      if (range_.to && *page.date > *range_.to) return false;
    }
    return !(query_.related &&
             (matches_site(page, *query_.related) || idx_.bm25(d, related_terms_) <= 0));
  }

  bool passes_filetype(const std::string& type) const {
    if (!query_.filetypes.empty() &&
        std::find(query_.filetypes.begin(), query_.filetypes.end(), type) ==
            query_.filetypes.end()) {
      return false;
    }
    return std::find(query_.excluded_filetypes.begin(), query_.excluded_filetypes.end(), type) ==
           query_.excluded_filetypes.end();
  }

  bool matches_terms(std::size_t d, bool all) const {
    if (required_.empty()) return true;
    std::size_t found = 0;
    for (const auto& term : required_) found += idx_.has_term(d, term) ? 1 : 0;
    return all ? found == required_.size() : found > 0;
  }

  /// A web hit's category: the first of the request's the page is in (any page without any).
  bool admit_category(const PageRecord& page, Hit& hit) const {
    if (request_.categories.empty()) return true;
    for (const auto& category : request_.categories) {
      if (in_category(page, category)) {
        hit.category = category;
        return true;
      }
    }
    return false;
  }

  double score_of(std::size_t d) const {
    const PageRecord& page = idx_.page(d);
    double score = idx_.bm25(d, ranking_) + (query_.related ? idx_.bm25(d, related_terms_) : 0.0);
    if (ranking_.empty() && !query_.related) {
      // Only operators: shallow pages first.
      score =
          1.0 / (1.0 + static_cast<double>(std::count(page.path.begin(), page.path.end(), '/')));
    }
    if (!language_.empty() && !page.language.empty()) {
      score *= page.language == language_ ? 1.5 : 0.8;
    }
    return score;
  }

  std::string snippet_of(std::size_t d) const {
    const auto& sentences = idx_.sentences(d);
    std::string best;
    double best_score = 0;
    for (const auto& sentence : sentences) {
      const auto terms = tokenize(sentence);
      double score = 0;
      for (const auto& term : ranking_) {
        if (std::find(terms.begin(), terms.end(), term) != terms.end()) score += idx_.idf(term) + 1;
      }
      // Headings (often the title again) say less than a sentence of the text.
      if (terms.size() < 6 || idx_.page(d).title.find(sentence) != std::string::npos) score *= 0.5;
      if (score > best_score) {
        best_score = score;
        best = sentence;
      }
    }
    if (best.empty()) {
      best = !idx_.page(d).description.empty() ? idx_.page(d).description
                                               : (sentences.empty() ? "" : sentences.front());
    }
    return clip(best, 240);
  }

  const SearchRequest& request_;
  const Index& idx_;
  const TimeRange& range_;
  const std::string language_;
  const Query query_;
  SearchAnswer& answer_;
  std::vector<std::string> required_;
  std::vector<std::string> ranking_;
  std::vector<std::string> related_terms_;
};

}  // namespace

std::optional<SearchError> SearchService::search(const SearchRequest& request,
                                                 SearchAnswer& answer) {
  std::string tbs_error;
  const auto range = parse_tbs(request.tbs, clock_.now(), tbs_error);
  if (!range) return SearchError{"tbs", tbs_error};
  const std::string language = preferred_language(request);
  answer.index = index(language);
  QueryRun run(request, *answer.index, *range, language, answer);
  const std::vector<std::size_t> matched = run.matched();
  run.add_page_hits(matched);
  run.add_image_hits(matched);
  run.sort_hits();
  return std::nullopt;
}

}  // namespace webdata::mock::search
