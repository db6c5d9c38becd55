#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "search/query.hpp"

namespace webdata::mock::search {

/// An image shown on an indexed page.
struct ImageRecord {
  std::string url;           ///< Absolute.
  std::string alt;           ///< alt text, else the figure caption, else empty.
  std::optional<Size> size;  ///< <img width height>, else the image file's own header.
};

/// One page of the virtual web as the index keeps it.
struct PageRecord {
  std::string url;   ///< Final URL (after redirects).
  std::string host;  ///< Lower case, without port.
  std::string path;  ///< Path and query.
  std::string title;
  std::string description;  ///< <meta name=description> or og:description; may be empty.
  std::string text;         ///< Main content as plain text, one block per line.
  std::string language;     ///< Primary language subtag of the page ("en", "de"); may be empty.
  std::optional<std::chrono::system_clock::time_point> date;  ///< Publication date.
  bool article = false;  ///< News-like: dated article (og:type article, article:published_time).
  std::string filetype;  ///< "html", "pdf", ... (from the content type, else the extension).
  std::string og_image;  ///< og:image, absolute; may be empty.
  std::vector<ImageRecord> images;
  std::vector<std::string> links;
};

/// An immutable inverted index with BM25 ranking over a set of pages. Fields are weighted by
/// repetition: the title counts three times, the description and the URL's words once each,
/// image alt texts once, the main text once. Safe to share between threads once built.
class Index {
 public:
  explicit Index(std::vector<PageRecord> pages);

  const std::vector<PageRecord>& pages() const { return pages_; }
  const PageRecord& page(std::size_t doc) const { return pages_[doc]; }
  std::size_t size() const { return pages_.size(); }

  /// BM25 (k1 1.2, b 0.75) of `doc` for `terms` (normalized; repeats count once).
  double bm25(std::size_t doc, const std::vector<std::string>& terms) const;
  /// Inverse document frequency of a term (0 for a term no page has).
  double idf(const std::string& term) const;
  /// The term occurs in any field of the page.
  bool has_term(std::size_t doc, const std::string& term) const;
  /// The terms occur consecutively in the page's title, description, text or alt texts.
  bool has_phrase(std::size_t doc, const std::vector<std::string>& phrase) const;
  /// The terms occur consecutively in the title.
  bool title_has(std::size_t doc, const std::vector<std::string>& terms) const;
  /// The page's sentences (text split at line ends and sentence ends), in order.
  const std::vector<std::string>& sentences(std::size_t doc) const { return sentences_[doc]; }
  /// The doc id of a URL (exact, or differing only by a trailing slash).
  std::optional<std::size_t> find(const std::string& url) const;
  /// The `count` terms that best characterise a set of pages (summed tf-idf, no stop words).
  std::vector<std::string> characteristic_terms(const std::vector<std::size_t>& docs,
                                                std::size_t count) const;

 private:
  std::vector<PageRecord> pages_;
  std::vector<std::vector<std::string>> streams_;  // title + description + text + alts
  std::vector<std::vector<std::string>> title_streams_;
  std::vector<std::vector<std::string>> sentences_;
  std::vector<std::unordered_map<std::string, double>> tf_;  // weighted term frequencies
  std::vector<double> length_;
  double average_length_ = 1;
  std::unordered_map<std::string, std::size_t> df_;
  std::unordered_map<std::string, std::size_t> by_url_;
};

/// Splits plain text into sentences: at line ends, and after '.', '!' or '?' followed by a
/// space and an upper-case letter or digit. Whitespace is collapsed; empty pieces dropped.
std::vector<std::string> split_sentences(const std::string& text);

}  // namespace webdata::mock::search
