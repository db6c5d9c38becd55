#include "formats/summary.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>
#include <vector>

#include "formats/tree.hpp"

namespace webdata::mock::formats {

namespace {

using detail::trim;
using detail::word_tokens;

bool is_stop_word(const std::string& w) {
  static const std::set<std::string> kStop = {
      "a",    "about", "after", "all",  "also", "an",    "and",   "any",  "are",  "as",    "at",
      "be",   "been",  "but",   "by",   "can",  "could", "do",    "does", "for",  "from",  "had",
      "has",  "have",  "he",    "her",  "his",  "how",   "i",     "if",   "in",   "into",  "is",
      "it",   "its",   "just",  "more", "most", "my",    "no",    "not",  "of",   "on",    "one",
      "or",   "our",   "out",   "she",  "so",   "some",  "than",  "that", "the",  "their", "them",
      "then", "there", "these", "they", "this", "to",    "up",    "us",   "was",  "we",    "were",
      "what", "when",  "which", "who",  "will", "with",  "would", "you",  "your", "der",   "die",
      "das",  "und",   "le",    "la",   "les",  "des",   "et",    "el",   "los",  "y",     "de"};
  return w.size() < 2 || kStop.count(w) > 0;
}

bool ends_sentence(const std::string& s) {
  if (s.empty()) return false;
  char last = s.back();
  if (last == '"' || last == '\'' || last == ')') {
    if (s.size() < 2) return false;
    last = s[s.size() - 2];
  }
  return last == '.' || last == '!' || last == '?' || last == ':' || last == ';';
}

// A sentence ends at . ! ? followed by a space and an upper-case letter, digit or quote; common
// abbreviations ("e.g.", "Dr.", single initials) do not end one.
std::vector<std::string> split_sentences(const std::string& line) {
  static const std::set<std::string> kAbbrev = {"e.g", "i.e", "etc", "vs",  "mr",  "mrs", "ms",
                                                "dr",  "st",  "no",  "fig", "inc", "ltd", "jr"};
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (c != '.' && c != '!' && c != '?') continue;
    if (i + 2 >= line.size() || line[i + 1] != ' ') continue;
    auto next = static_cast<unsigned char>(line[i + 2]);
    if (!(std::isupper(next) || std::isdigit(next) || next == '"' || next >= 0x80)) continue;
    if (c == '.') {
      std::size_t w = i;
      while (w > start && line[w - 1] != ' ') --w;
      std::string word = detail::lower(line.substr(w, i - w));
      if (kAbbrev.count(word) > 0 || word.size() == 1) continue;
    }
    out.push_back(trim(line.substr(start, i + 1 - start)));
    start = i + 2;
  }
  std::string rest = trim(line.substr(std::min(start, line.size())));
  if (!rest.empty()) out.push_back(rest);
  return out;
}

struct Sentence {
  std::string text;
  std::size_t order = 0;  // position in the document
  std::vector<std::string> words;
  double score = 0;
};

/// Each sentence's score: its words' frequency in the text, its position (early is better), its
/// overlap with the title, and its length.
void score_sentences(std::vector<Sentence>& sentences, std::map<std::string, double>& frequency,
                     std::string_view title) {
  double max_frequency = 1;
  for (const auto& [w, f] : frequency) max_frequency = std::max(max_frequency, f);
  std::set<std::string> title_words;
  for (auto& w : word_tokens(title)) {
    if (!is_stop_word(w)) title_words.insert(w);
  }
  for (auto& s : sentences) {
    double tf = 0;
    double overlap = 0;
    std::size_t content_words = 0;
    for (const auto& w : s.words) {
      if (is_stop_word(w)) continue;
      ++content_words;
      tf += frequency[w] / max_frequency;
      if (title_words.count(w) > 0) overlap += 1;
    }
    double length = static_cast<double>(s.words.size());
    // Very long sentences are usually run-on lists; very short ones say little.
    double length_factor = length > 60 ? 60.0 / length : 1.0;
    double term_score = content_words == 0 ? 0 : tf / std::sqrt(static_cast<double>(content_words));
    double position_score = 1.0 / (1.0 + 0.3 * static_cast<double>(s.order));
    double title_score =
        title_words.empty() ? 0 : overlap / static_cast<double>(title_words.size());
    s.score = (term_score + 1.5 * position_score + title_score) * length_factor;
  }
}

}  // namespace

std::string summarize_text(std::string_view text, std::string_view title,
                           const SummaryLimits& limits) {
  if (limits.max_sentences == 0 || limits.max_chars == 0) return "";
  std::vector<Sentence> sentences;
  std::map<std::string, double> frequency;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string line = trim(text.substr(start, end - start));
    start = end + 1;
    if (line.empty()) continue;
    auto words = word_tokens(line);
    for (const auto& w : words) {
      if (!is_stop_word(w)) frequency[w] += 1;
    }
    // Headings, labels and captions: short and without sentence punctuation.
    if (words.size() < 8 && !ends_sentence(line)) continue;
    for (auto& s : split_sentences(line)) {
      Sentence sentence;
      sentence.words = word_tokens(s);
      if (sentence.words.size() < 4) continue;
      sentence.text = std::move(s);
      sentence.order = sentences.size();
      sentences.push_back(std::move(sentence));
    }
  }
  if (sentences.empty()) return "";

  score_sentences(sentences, frequency, title);

  std::vector<const Sentence*> ranked;
  for (const auto& s : sentences) ranked.push_back(&s);
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const Sentence* a, const Sentence* b) { return a->score > b->score; });
  std::vector<const Sentence*> chosen;
  std::size_t used = 0;
  for (const Sentence* s : ranked) {
    if (chosen.size() >= limits.max_sentences) break;
    std::size_t cost = s->text.size() + (chosen.empty() ? 0 : 1);
    if (used + cost > limits.max_chars) continue;
    chosen.push_back(s);
    used += cost;
  }
  if (chosen.empty()) {
    // Even the shortest sentence is over the bound: cut the best one at a word boundary.
    std::string cut = detail::utf8_prefix(ranked.front()->text, limits.max_chars);
    std::size_t space = cut.rfind(' ');
    if (space != std::string::npos && space > cut.size() / 2) cut.resize(space);
    return cut;
  }
  std::sort(chosen.begin(), chosen.end(),
            [](const Sentence* a, const Sentence* b) { return a->order < b->order; });
  std::string out;
  for (const Sentence* s : chosen) {
    if (!out.empty()) out += ' ';
    out += s->text;
  }
  return out;
}

std::string summarize(const content::Document& doc, const content::Options& options,
                      const SummaryLimits& limits) {
  if (doc.kind() == content::Document::Kind::kBinary) return "";
  return summarize_text(doc.text(options), doc.title(), limits);
}

}  // namespace webdata::mock::formats
