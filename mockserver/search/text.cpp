#include "search/text.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace webdata::mock::search {

namespace {

bool is_word_byte(unsigned char c) {
  return std::isalnum(c) != 0 || c >= 0x80;
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool all_ascii(std::string_view s) {
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

std::string stem(std::string word) {
  // Only plain ASCII words longer than three letters: "gas", "bus" and foreign words stay.
  if (word.size() <= 3 || !all_ascii(word) || std::isdigit(static_cast<unsigned char>(word[0]))) {
    return word;
  }
  if (ends_with(word, "ies") && word.size() > 4) return word.substr(0, word.size() - 3) + "y";
  if (ends_with(word, "sses") || ends_with(word, "shes") || ends_with(word, "ches") ||
      ends_with(word, "xes")) {
    return word.substr(0, word.size() - 2);
  }
  if (ends_with(word, "ss") || ends_with(word, "us") || ends_with(word, "is")) return word;
  if (word.back() == 's') word.pop_back();
  return word;
}

}  // namespace

std::string normalize_term(std::string_view word) {
  std::string out(word);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return stem(std::move(out));
}

std::vector<std::string> tokenize(std::string_view text) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && !is_word_byte(static_cast<unsigned char>(text[i]))) ++i;
    const std::size_t start = i;
    while (i < text.size() && is_word_byte(static_cast<unsigned char>(text[i]))) ++i;
    if (i > start) out.push_back(normalize_term(text.substr(start, i - start)));
  }
  return out;
}

bool is_stop_word(std::string_view term) {
  static constexpr std::array<std::string_view, 96> kStopWords = {
      "a",    "about", "all",   "also", "an",    "and",   "any",  "are",   "as",    "at",
      "be",   "been",  "but",   "by",   "can",   "could", "did",  "do",    "doe",   "for",
      "from", "get",   "give",  "had",  "ha",    "have",  "how",  "i",     "if",    "in",
      "into", "is",    "it",    "its",  "list",  "me",    "more", "most",  "my",    "no",
      "not",  "of",    "on",    "or",   "our",   "out",   "over", "show",  "so",    "some",
      "tell", "than",  "that",  "the",  "their", "them",  "then", "there", "these", "they",
      "this", "those", "to",    "up",   "us",    "wa",    "was",  "we",    "were",  "what",
      "when", "where", "which", "who",  "why",   "will",  "with", "would", "you",   "your",
      "find", "der",   "die",   "das",  "und",   "den",   "ist",  "mit",   "von",   "zu",
      "ein",  "eine",  "auf",   "im",   "dem",   "des"};
  return std::find(kStopWords.begin(), kStopWords.end(), term) != kStopWords.end();
}

std::string collapse_space(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  bool space = false;
  for (char c : text) {
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      space = !out.empty();
      continue;
    }
    if (space) out.push_back(' ');
    space = false;
    out.push_back(c);
  }
  return out;
}

std::string clip(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  std::size_t cut = max_bytes;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  const std::size_t space = text.rfind(' ', cut);
  if (space != std::string_view::npos && space > max_bytes / 2) cut = space;
  std::string out(text.substr(0, cut));
  while (!out.empty() && (out.back() == ' ' || out.back() == ',' || out.back() == ';')) {
    out.pop_back();
  }
  return out + "...";
}

std::string age_text(std::chrono::system_clock::time_point then,
                     std::chrono::system_clock::time_point now) {
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(now - then).count();
  auto unit = [](long long n, const char* name) {
    return std::to_string(n) + " " + name + (n == 1 ? "" : "s") + " ago";
  };
  if (seconds < 60) return "just now";
  if (seconds < 3600) return unit(seconds / 60, "minute");
  if (seconds < 86400) return unit(seconds / 3600, "hour");
  const long long days = seconds / 86400;
  if (days < 7) return unit(days, "day");
  if (days < 31) return unit(days / 7, "week");
  if (days < 365) return unit(days / 30 == 0 ? 1 : days / 30, "month");
  return unit(days / 365, "year");
}

}  // namespace webdata::mock::search
