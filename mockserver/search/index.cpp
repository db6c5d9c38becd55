#include "search/index.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "search/text.hpp"

namespace webdata::mock::search {

namespace {

constexpr double kK1 = 1.2;
constexpr double kB = 0.75;
constexpr double kTitleWeight = 3.0;

bool contains_sequence(const std::vector<std::string>& haystack,
                       const std::vector<std::string>& needle) {
  if (needle.empty()) return true;
  return std::search(haystack.begin(), haystack.end(), needle.begin(), needle.end()) !=
         haystack.end();
}

std::string strip_slash(std::string url) {
  while (url.size() > 1 && url.back() == '/') url.pop_back();
  return url;
}

}  // namespace

std::vector<std::string> split_sentences(const std::string& text) {
  std::vector<std::string> out;
  std::size_t line_start = 0;
  while (line_start <= text.size()) {
    std::size_t line_end = text.find('\n', line_start);
    if (line_end == std::string::npos) line_end = text.size();
    const std::string line =
        collapse_space(std::string_view(text).substr(line_start, line_end - line_start));
    std::size_t start = 0;
    for (std::size_t i = 0; i + 2 < line.size(); ++i) {
      const char c = line[i];
      const auto next = static_cast<unsigned char>(line[i + 2]);
      if ((c == '.' || c == '!' || c == '?') && line[i + 1] == ' ' &&
          (std::isupper(next) != 0 || std::isdigit(next) != 0)) {
        out.push_back(line.substr(start, i + 1 - start));
        start = i + 2;
      }
    }
    if (start < line.size()) out.push_back(line.substr(start));
    line_start = line_end + 1;
  }
  out.erase(std::remove_if(out.begin(), out.end(), [](const std::string& s) { return s.empty(); }),
            out.end());
  return out;
}

Index::Index(std::vector<PageRecord> pages) : pages_(std::move(pages)) {
  const std::size_t n = pages_.size();
  streams_.resize(n);
  title_streams_.resize(n);
  sentences_.resize(n);
  tf_.resize(n);
  length_.resize(n);
  double total = 0;
  for (std::size_t d = 0; d < n; ++d) {
    const PageRecord& page = pages_[d];
    auto& tf = tf_[d];
    title_streams_[d] = tokenize(page.title);
    for (const auto& term : title_streams_[d]) tf[term] += kTitleWeight;
    auto& stream = streams_[d];
    stream = title_streams_[d];
    auto add = [&](const std::string& text) {
      auto terms = tokenize(text);
      for (const auto& term : terms) tf[term] += 1;
      stream.insert(stream.end(), terms.begin(), terms.end());
    };
    add(page.description);
    add(page.text);
    for (const auto& image : page.images) add(image.alt);
    // URL words (host labels and path segments) are searchable but not part of phrases.
    for (const auto& term : tokenize(page.host + " " + page.path)) tf[term] += 1;
    double length = 0;
    for (const auto& entry : tf) length += entry.second;
    length_[d] = length;
    total += length;
    for (const auto& entry : tf) ++df_[entry.first];
    sentences_[d] = split_sentences(page.text);
    by_url_.emplace(strip_slash(page.url), d);
  }
  average_length_ = n == 0 ? 1 : std::max(1.0, total / static_cast<double>(n));
}

double Index::idf(const std::string& term) const {
  const auto it = df_.find(term);
  if (it == df_.end()) return 0;
  const double n = static_cast<double>(pages_.size());
  const double df = static_cast<double>(it->second);
  return std::log(1 + (n - df + 0.5) / (df + 0.5));
}

double Index::bm25(std::size_t doc, const std::vector<std::string>& terms) const {
  std::vector<std::string> unique = terms;
  std::sort(unique.begin(), unique.end());
  unique.erase(std::unique(unique.begin(), unique.end()), unique.end());
  double score = 0;
  const auto& tf = tf_[doc];
  for (const auto& term : unique) {
    const auto it = tf.find(term);
    if (it == tf.end()) continue;
    const double f = it->second;
    score += idf(term) * f * (kK1 + 1) / (f + kK1 * (1 - kB + kB * length_[doc] / average_length_));
  }
  return score;
}

bool Index::has_term(std::size_t doc, const std::string& term) const {
  return tf_[doc].count(term) != 0;
}

bool Index::has_phrase(std::size_t doc, const std::vector<std::string>& phrase) const {
  return contains_sequence(streams_[doc], phrase);
}

bool Index::title_has(std::size_t doc, const std::vector<std::string>& terms) const {
  return contains_sequence(title_streams_[doc], terms);
}

std::optional<std::size_t> Index::find(const std::string& url) const {
  const auto it = by_url_.find(strip_slash(url));
  if (it == by_url_.end()) return std::nullopt;
  return it->second;
}

std::vector<std::string> Index::characteristic_terms(const std::vector<std::size_t>& docs,
                                                     std::size_t count) const {
  std::unordered_map<std::string, double> weight;
  for (std::size_t doc : docs) {
    for (const auto& [term, f] : tf_[doc]) {
      if (is_stop_word(term) || term.size() < 3 ||
          std::isdigit(static_cast<unsigned char>(term[0])) != 0) {
        continue;
      }
      weight[term] += f / length_[doc] * idf(term);
    }
  }
  std::vector<std::pair<std::string, double>> ranked(weight.begin(), weight.end());
  std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  std::vector<std::string> out;
  for (std::size_t i = 0; i < ranked.size() && i < count; ++i) out.push_back(ranked[i].first);
  return out;
}

}  // namespace webdata::mock::search
