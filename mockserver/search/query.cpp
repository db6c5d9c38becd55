#include "search/query.hpp"

#include <algorithm>
#include <cctype>

#include "search/text.hpp"

namespace webdata::mock::search {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

/// One whitespace-separated piece of the query; a quoted run stays one piece.
struct Piece {
  bool negated = false;
  std::string name;     ///< operator name (lower case) or empty
  std::string value;    ///< the word, the phrase, or the operator's value
  bool quoted = false;  ///< value came from "..."
};

std::optional<Size> parse_size(std::string_view value) {
  const auto x = value.find_first_of("xX");
  if (x == std::string_view::npos || x == 0 || x + 1 >= value.size()) return std::nullopt;
  auto number = [](std::string_view s, int& out) {
    if (s.empty() || s.size() > 6) return false;
    out = 0;
    for (char c : s) {
      if (!std::isdigit(static_cast<unsigned char>(c))) return false;
      out = out * 10 + (c - '0');
    }
    return true;
  };
  Size size;
  if (!number(value.substr(0, x), size.width) || !number(value.substr(x + 1), size.height)) {
    return std::nullopt;
  }
  return size;
}

std::vector<Piece> split(std::string_view text) {
  std::vector<Piece> pieces;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (i >= text.size()) break;
    Piece piece;
    if (text[i] == '-' && i + 1 < text.size() &&
        !std::isspace(static_cast<unsigned char>(text[i + 1]))) {
      piece.negated = true;
      ++i;
    }
    if (text[i] == '"') {
      const std::size_t close = text.find('"', i + 1);
      const std::size_t end = close == std::string_view::npos ? text.size() : close;
      piece.value = std::string(text.substr(i + 1, end - i - 1));
      piece.quoted = true;
      i = close == std::string_view::npos ? text.size() : close + 1;
      pieces.push_back(std::move(piece));
      continue;
    }
    std::size_t end = i;
    while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end]))) ++end;
    std::string_view word = text.substr(i, end - i);
    i = end;
    const auto colon = word.find(':');
    if (colon != std::string_view::npos && colon > 0) {
      const std::string name = lower(word.substr(0, colon));
      static const char* const kOperators[] = {"site",      "filetype", "ext",        "inurl",
                                               "allinurl",  "intitle",  "allintitle", "related",
                                               "imagesize", "larger"};
      if (std::any_of(std::begin(kOperators), std::end(kOperators),
                      [&](const char* op) { return name == op; })) {
        piece.name = name;
        piece.value = std::string(word.substr(colon + 1));
        // intitle:"a phrase"
        if (!piece.value.empty() && piece.value.front() == '"') {
          const std::size_t start = i - word.size() + colon + 2;
          const std::size_t close = text.find('"', start);
          const std::size_t stop = close == std::string_view::npos ? text.size() : close;
          piece.value = std::string(text.substr(start, stop - start));
          piece.quoted = true;
          i = close == std::string_view::npos ? text.size() : close + 1;
        }
        pieces.push_back(std::move(piece));
        continue;
      }
    }
    piece.value = std::string(word);
    pieces.push_back(std::move(piece));
  }
  return pieces;
}

std::string strip_scheme(std::string value) {
  for (const char* scheme : {"https://", "http://"}) {
    if (value.rfind(scheme, 0) == 0) value = value.substr(std::string(scheme).size());
  }
  while (!value.empty() && value.back() == '/') value.pop_back();
  return value;
}

}  // namespace

std::vector<std::string> Query::ranking_terms() const {
  std::vector<std::string> out = terms;
  for (const auto& phrase : phrases) out.insert(out.end(), phrase.begin(), phrase.end());
  for (const auto& title : in_title) out.insert(out.end(), title.begin(), title.end());
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

Query parse_query(std::string_view text) {
  Query query;
  const auto pieces = split(text);
  for (std::size_t p = 0; p < pieces.size(); ++p) {
    const Piece& piece = pieces[p];
    if (piece.name.empty()) {
      auto terms = tokenize(piece.value);
      if (terms.empty()) continue;
      if (piece.quoted && terms.size() > 1) {
        (piece.negated ? query.excluded_phrases : query.phrases).push_back(std::move(terms));
      } else if (piece.negated) {
        query.excluded_terms.insert(query.excluded_terms.end(), terms.begin(), terms.end());
      } else {
        query.terms.insert(query.terms.end(), terms.begin(), terms.end());
      }
      continue;
    }
    const std::string& name = piece.name;
    if (name == "allinurl" || name == "allintitle") {
      // Takes every following word: "allintitle: river levels".
      std::vector<std::string> words;
      if (!piece.value.empty()) words.push_back(piece.value);
      for (++p; p < pieces.size(); ++p) {
        words.push_back(pieces[p].name.empty() ? pieces[p].value
                                               : pieces[p].name + ":" + pieces[p].value);
      }
      for (const auto& word : words) {
        if (name == "allinurl") {
          for (auto& term : tokenize(word)) query.in_url.push_back(lower(term));
        } else {
          for (auto& term : tokenize(word)) query.in_title.push_back({term});
        }
      }
      continue;
    }
    if (piece.value.empty()) {
      query.problems.push_back("'" + name + ":' has no value");
      continue;
    }
    if (name == "site") {
      (piece.negated ? query.excluded_sites : query.sites)
          .push_back(lower(strip_scheme(piece.value)));
    } else if (name == "filetype" || name == "ext") {
      std::string type = lower(piece.value);
      if (!type.empty() && type.front() == '.') type.erase(0, 1);
      (piece.negated ? query.excluded_filetypes : query.filetypes).push_back(type);
    } else if (name == "inurl") {
      (piece.negated ? query.excluded_in_url : query.in_url).push_back(lower(piece.value));
    } else if (name == "intitle") {
      auto terms = tokenize(piece.value);
      if (!terms.empty())
        (piece.negated ? query.excluded_in_title : query.in_title).push_back(terms);
    } else if (name == "related") {
      query.related = lower(strip_scheme(piece.value));
    } else if (name == "imagesize" || name == "larger") {
      const auto size = parse_size(piece.value);
      if (!size) {
        query.problems.push_back("'" + name + ":" + piece.value + "' is not WIDTHxHEIGHT");
      } else if (name == "imagesize") {
        query.image_size = size;
      } else {
        query.larger = size;
      }
    }
  }
  return query;
}

}  // namespace webdata::mock::search
