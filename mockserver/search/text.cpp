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

long long days_from_civil(long long year, unsigned month, unsigned day) {
  year -= month <= 2 ? 1 : 0;
  const long long era = (year >= 0 ? year : year - 399) / 400;
  const auto yoe = static_cast<unsigned>(year - era * 400);
  const unsigned doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<long long>(doe) - 719468;
}

std::optional<std::chrono::system_clock::time_point> parse_iso_date(std::string_view text) {
  auto digits = [&](std::size_t at, std::size_t n, int& out) {
    if (at + n > text.size()) return false;
    out = 0;
    for (std::size_t i = at; i < at + n; ++i) {
      if (!std::isdigit(static_cast<unsigned char>(text[i]))) return false;
      out = out * 10 + (text[i] - '0');
    }
    return true;
  };
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  int year = 0, month = 0, day = 0;
  if (!digits(0, 4, year) || text.size() < 10 || text[4] != '-' || !digits(5, 2, month) ||
      text[7] != '-' || !digits(8, 2, day) || month < 1 || month > 12 || day < 1 || day > 31) {
    return std::nullopt;
  }
  long long seconds =
      days_from_civil(year, static_cast<unsigned>(month), static_cast<unsigned>(day)) * 86400LL;
  if (text.size() > 10) {
    int hour = 0, minute = 0, second = 0;
    if ((text[10] != 'T' && text[10] != ' ') || !digits(11, 2, hour) || text.size() < 16 ||
        text[13] != ':' || !digits(14, 2, minute)) {
      return std::nullopt;
    }
    std::size_t at = 16;
    if (at < text.size() && text[at] == ':') {
      if (!digits(at + 1, 2, second)) return std::nullopt;
      at += 3;
      if (at < text.size() && text[at] == '.') {
        ++at;
        while (at < text.size() && std::isdigit(static_cast<unsigned char>(text[at]))) ++at;
      }
    }
    seconds += hour * 3600LL + minute * 60LL + second;
    if (at < text.size()) {
      if (text[at] == 'Z' && at + 1 == text.size()) {
        // UTC
      } else if ((text[at] == '+' || text[at] == '-') && at + 6 == text.size() &&
                 text[at + 3] == ':') {
        int oh = 0, om = 0;
        if (!digits(at + 1, 2, oh) || !digits(at + 4, 2, om)) return std::nullopt;
        const long long offset = oh * 3600LL + om * 60LL;
        seconds += text[at] == '+' ? -offset : offset;
      } else {
        return std::nullopt;
      }
    }
  }
  return std::chrono::system_clock::time_point(std::chrono::seconds(seconds));
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
