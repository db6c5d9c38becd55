#include "formats/queries.hpp"

#include <algorithm>
#include <iterator>
#include <regex>
#include <set>
#include <vector>

#include "formats/tree.hpp"

namespace webdata::mock::formats {

using nlohmann::json;

namespace {

/// Sentences of the plain text: split after . ! ? and at line ends; blank ones dropped.
std::vector<std::string> sentences(const std::string& text) {
  std::vector<std::string> out;
  std::string current;
  const auto flush = [&] {
    std::string s = detail::trim(current);
    if (!s.empty()) out.push_back(std::move(s));
    current.clear();
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') {
      flush();
      continue;
    }
    current += c;
    const bool end = c == '.' || c == '!' || c == '?';
    if (end && (i + 1 == text.size() || text[i + 1] == ' ' || text[i + 1] == '\n')) flush();
  }
  flush();
  return out;
}

/// Words of the query worth matching: three letters or more (drops "a", "is", "of"...).
std::set<std::string> query_words(std::string_view query) {
  std::set<std::string> words;
  for (auto& w : detail::word_tokens(query)) {
    if (w.size() >= 3) words.insert(std::move(w));
  }
  return words;
}

std::size_t shared_words(const std::string& sentence, const std::set<std::string>& words) {
  std::set<std::string> seen;
  for (auto& w : detail::word_tokens(sentence)) {
    if (words.count(w) != 0) seen.insert(std::move(w));
  }
  return seen.size();
}

}  // namespace

json attributes(const content::Document& doc, const json& selectors) {
  const detail::Html page = detail::Html::page(doc);
  json out = json::array();
  for (const auto& entry : selectors) {
    const std::string selector = entry.value("selector", "");
    const std::string attribute = entry.value("attribute", "");
    json values = json::array();
    for (const auto* node : detail::select_all(page.tree(), selector)) {
      if (const std::string* value = node->attr(attribute)) values.push_back(*value);
    }
    out.push_back({{"selector", selector}, {"attribute", attribute}, {"values", values}});
  }
  return out;
}

std::string answer(const content::Document& doc, const content::Options& options,
                   std::string_view question) {
  const std::set<std::string> words = query_words(question);
  std::string best;
  std::size_t best_score = 0;
  for (const auto& sentence : sentences(doc.text(options))) {
    const std::size_t score = shared_words(sentence, words);
    if (score > best_score) {
      best_score = score;
      best = sentence;
    }
  }
  return best;
}

std::string highlights(const content::Document& doc, const content::Options& options,
                       std::string_view query) {
  const std::set<std::string> words = query_words(query);
  struct Scored {
    std::size_t index;
    std::size_t score;
  };
  const std::vector<std::string> all = sentences(doc.text(options));
  std::vector<Scored> scored;
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (const std::size_t s = shared_words(all[i], words); s > 0) scored.push_back({i, s});
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const Scored& a, const Scored& b) { return a.score > b.score; });
  if (scored.size() > 3) scored.resize(3);
  std::sort(scored.begin(), scored.end(),
            [](const Scored& a, const Scored& b) { return a.index < b.index; });
  std::string out;
  for (const auto& s : scored) {
    if (!out.empty()) out += "\n\n";
    out += all[s.index];
  }
  return out;
}

std::string redact_pii(std::string_view text, const json& option) {
  if (option.is_boolean() && !option.get<bool>()) return std::string(text);
  const json settings = option.is_object() ? option : json::object();
  const std::string style = settings.value("replaceStyle", "tag");
  std::set<std::string> kinds = {"EMAIL", "PHONE"};
  if (settings.contains("entities")) {
    std::set<std::string> asked;
    for (const auto& e : settings.at("entities")) asked.insert(e.get<std::string>());
    std::set<std::string> both;
    std::set_intersection(kinds.begin(), kinds.end(), asked.begin(), asked.end(),
                          std::inserter(both, both.begin()));
    kinds = std::move(both);
  }
  static const std::regex email(R"([A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,})");
  // International or North American forms with at least 7 digits: +1 (555) 010-2030, 555-0100...
  static const std::regex phone(R"((\+\d{1,3}[ .-]?)?(\(\d{2,4}\)[ .-]?)?\d{3,4}[ .-]\d{3,4}([ .-]\d{2,4})?)");
  std::string out(text);
  const auto replace = [&](const std::regex& pattern, const std::string& kind) {
    std::string result;
    auto begin = std::sregex_iterator(out.begin(), out.end(), pattern);
    std::size_t last = 0;
    for (auto it = begin; it != std::sregex_iterator(); ++it) {
      const auto& m = *it;
      const auto pos = static_cast<std::size_t>(m.position(0));
      result.append(out, last, pos - last);
      if (style == "mask") {
        result.append(static_cast<std::size_t>(m.length(0)), '*');
      } else if (style != "remove") {
        result += "<" + kind + ">";
      }
      last = pos + static_cast<std::size_t>(m.length(0));
    }
    result.append(out, last, std::string::npos);
    out = std::move(result);
  };
  if (kinds.count("EMAIL") != 0) replace(email, "EMAIL");
  if (kinds.count("PHONE") != 0) replace(phone, "PHONE");
  return out;
}

}  // namespace webdata::mock::formats
