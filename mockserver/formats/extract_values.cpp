#include "formats/extract_internal.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <regex>
#include <set>

#include "formats/summary.hpp"

namespace webdata::mock::formats::extraction {

// A labelled value of the context matching the property name (best score first).
std::vector<const Field*> Extractor::labelled(const Tokens& name, const Evidence& ev) const {
  std::vector<std::pair<double, const Field*>> scored;
  for (const auto& f : ev.fields) {
    double s = match_score(name, f.label);
    if (s > 0 && !f.value.empty()) scored.emplace_back(s, &f);
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<const Field*> out;
  for (auto& [s, f] : scored) out.push_back(f);
  return out;
}

std::optional<json> Extractor::accept(json v, const json& raw) const {
  if (conforms(v, raw, schema_)) return v;
  return std::nullopt;
}

namespace {

/// The first `max` code points of `value`.
std::string first_code_points(const std::string& value, std::size_t max) {
  if (detail::utf8_length(value) <= max) return value;
  std::string cut;
  std::size_t i = 0;
  std::size_t n = 0;
  while (i < value.size() && n < max) {
    std::size_t start = i;
    detail::next_code_point(value, i);
    cut += value.substr(start, i - start);
    ++n;
  }
  return cut;
}

/// A title's candidates: the title, and in a part of the page its links, headings and short text.
std::vector<std::string> title_candidates(const Evidence& ev, bool page) {
  std::vector<std::string> c = {ev.title};
  if (page) return c;
  for (const auto& l : ev.links) c.push_back(l.text);
  for (const auto& h : ev.headings) c.push_back(h);
  if (ev.text.size() <= 120) c.push_back(ev.text);
  return c;
}

/// An image's candidates: for a name with "logo", the logos first.
std::vector<std::string> image_candidates(const Evidence& ev, const Tokens& name) {
  std::vector<std::string> c;
  if (std::find(name.begin(), name.end(), "logo") != name.end()) {
    for (const auto& i : ev.images) {
      if (detail::lower(i.text + i.url).find("logo") != std::string::npos) c.push_back(i.url);
    }
  }
  for (const auto& i : ev.images) c.push_back(i.url);
  return c;
}

}  // namespace

// A string candidate converted to the schema's scalar type.
std::optional<json> Extractor::convert(const std::string& text, const Node* node, const json& s,
                                       const json& raw, const std::string& type, Kind kind) const {
  std::string value = detail::trim(text);
  // "Phone: (555) 010-2000" named class="phone": the label is not part of the value.
  std::size_t colon = value.find(": ");
  if (colon != std::string::npos && colon <= 40 &&
      detail::split_words(value.substr(0, colon)).size() <= 4) {
    value = detail::trim(value.substr(colon + 2));
  }
  if (value.empty()) return std::nullopt;
  if (type == "string") {
    if (kind == Kind::kPhone) {
      auto phones = detail::find_phones("phone " + value);
      if (!phones.empty()) return accept(phones[0], raw);
    }
    std::string format = s.value("format", "");
    if (format == "date" || format == "date-time" || (kind == Kind::kDate && format.empty())) {
      auto dates = detail::find_dates(value);
      if (dates.empty()) return format.empty() ? accept(value, raw) : std::nullopt;
      if (format == "date") return accept(detail::as_date(dates[0]), raw);
      if (format == "date-time") return accept(detail::as_date_time(dates[0]), raw);
      return accept(dates[0], raw);
    }
    if (format == "email" || kind == Kind::kEmail) {
      auto e = detail::find_emails(value);
      if (!e.empty()) return accept(e[0], raw);
      return std::nullopt;
    }
    if (format == "uri" || format == "url" || kind == Kind::kUrl || kind == Kind::kImage) {
      if (node != nullptr) {
        for (const char* a : {"href", "src", "content"}) {
          if (const std::string* v = node->attr(a)) {
            std::string abs = content_.absolute(*v);
            if (detail::looks_like_url(abs)) return accept(abs, raw);
          }
        }
        for (const Node& d : content_.tree().nodes) {
          if (d.has_ancestor(*node) && d.is("a") && d.has_attr("href")) {
            std::string abs = content_.absolute(*d.attr("href"));
            if (detail::looks_like_url(abs)) return accept(abs, raw);
          }
        }
      }
      if (detail::looks_like_url(value)) return accept(value, raw);
      if (value.find(' ') == std::string::npos && value.find('.') != std::string::npos) {
        std::string abs = content_.absolute(value);
        if (detail::looks_like_url(abs)) return accept(abs, raw);
      }
      if (!format.empty()) return std::nullopt;
    }
    if (kind == Kind::kPrice && s.contains("pattern")) return accept(value, raw);
    if (s.contains("maxLength") && s["maxLength"].is_number()) {
      value = first_code_points(value, s["maxLength"].get<std::size_t>());
    }
    return accept(value, raw);
  }
  if (type == "number" || type == "integer") {
    std::optional<double> d;
    if (kind == Kind::kPrice) {
      auto prices = detail::find_prices(value);
      if (!prices.empty()) d = prices[0].amount;
    }
    if (!d) d = detail::parse_number(value);
    if (!d) return std::nullopt;
    auto fitted = fit_number(*d, s);
    if (!fitted) return std::nullopt;
    return accept(*fitted, raw);
  }
  if (type == "boolean") {
    auto b = detail::parse_bool(value);
    if (!b) return std::nullopt;
    return accept(*b, raw);
  }
  return std::nullopt;
}

// Evidence by kind, for a scalar type, when no label matched.
std::optional<json> Extractor::by_kind(Kind kind, const json& s, const json& raw,
                                       const std::string& type, const Evidence& ev,
                                       const Tokens& name) const {
  auto first_of = [&](const std::vector<std::string>& values) -> std::optional<json> {
    for (const auto& v : values) {
      if (auto out = convert(v, nullptr, s, raw, type, kind)) return out;
    }
    return std::nullopt;
  };
  bool page = &ev == &page_ev_;
  switch (kind) {
    case Kind::kTitle:
      return first_of(title_candidates(ev, page));
    case Kind::kDescription:
      return first_of({ev.description, ev.paragraphs.empty() ? "" : ev.paragraphs[0]});
    case Kind::kSummary: {
      std::string summary = page ? summarize(doc_, options_) : summarize_text(ev.text, ev.title);
      return first_of({summary, ev.description});
    }
    case Kind::kPrice: {
      if (type == "string") {
        std::vector<std::string> c;
        for (const auto& p : ev.prices) c.push_back(p.text);
        return first_of(c);
      }
      for (const auto& p : ev.prices) {
        if (auto f = fit_number(p.amount, s)) {
          if (auto out = accept(*f, raw)) return out;
        }
      }
      return std::nullopt;
    }
    case Kind::kCurrency: {
      std::vector<std::string> c;
      for (const auto& p : ev.prices) c.push_back(p.currency);
      return first_of(c);
    }
    case Kind::kDate:
      return first_of(ev.dates);
    // Contact details often sit in the page's footer, outside the main content.
    case Kind::kEmail:
      if (auto v = first_of(ev.emails); v || !page) return v;
      return first_of(whole_page().emails);
    case Kind::kPhone:
      if (auto v = first_of(ev.phones); v || !page) return v;
      return first_of(whole_page().phones);
    case Kind::kUrl: {
      std::vector<std::string> c;
      if (page) c.push_back(ev.url);
      for (const auto& l : ev.links) c.push_back(l.url);
      return first_of(c);
    }
    case Kind::kImage:
      return first_of(image_candidates(ev, name));
    case Kind::kAuthor:
      return first_of({ev.author});
    case Kind::kLanguage:
      return first_of({ev.language});
    case Kind::kKeywords:
      return first_of({ev.keywords});
    case Kind::kStock: {
      if (type != "boolean") return std::nullopt;
      auto b = detail::parse_bool(ev.text);
      if (!b) return std::nullopt;
      return accept(*b, raw);
    }
    case Kind::kRating:
    case Kind::kCount:
    case Kind::kAddress:
    case Kind::kHeadings:
    case Kind::kNone:
      return std::nullopt;
  }
  return std::nullopt;
}

std::optional<json> Extractor::enum_value(const Tokens& name, const json& s, const json& raw,
                                          const Evidence& ev) const {
  std::vector<std::string> candidates;
  for (const Field* f : labelled(name, ev)) candidates.push_back(detail::lower(f->value));
  for (const auto& c : candidates) {
    for (const auto& e : s["enum"]) {
      if (e.is_string() && detail::lower(e.get<std::string>()) == c) return accept(e, raw);
    }
  }
  for (const auto& c : candidates) {
    for (const auto& e : s["enum"]) {
      if (e.is_string() && !e.get<std::string>().empty() &&
          c.find(detail::lower(e.get<std::string>())) != std::string::npos) {
        return accept(e, raw);
      }
    }
  }
  // The enum value the context mentions most, as a whole word; ties go to the enum order.
  std::string text = detail::lower(ev.text);
  std::optional<json> best;
  std::size_t best_count = 0;
  for (const auto& e : s["enum"]) {
    if (!e.is_string() || e.get<std::string>().empty()) continue;
    std::string needle = detail::lower(e.get<std::string>());
    std::size_t count = 0;
    for (std::size_t p = text.find(needle); p != std::string::npos; p = text.find(needle, p + 1)) {
      bool left = p == 0 || !std::isalnum(static_cast<unsigned char>(text[p - 1]));
      std::size_t end = p + needle.size();
      bool right = end >= text.size() || !std::isalnum(static_cast<unsigned char>(text[end]));
      if (left && right) ++count;
    }
    if (count > best_count) {
      best_count = count;
      best = e;
    }
  }
  if (best) return accept(*best, raw);
  return std::nullopt;
}

// The value of one property (or the root) from a context; nullopt when there is no evidence.
std::optional<json> Extractor::value_for(const Tokens& name, const json& raw, const Evidence& ev,
                                         int depth) {
  if (depth > kMaxDepth || raw.is_boolean() || !raw.is_object()) return std::nullopt;
  json s = schema_.resolve(raw);
  if (s.contains("const")) return s["const"];
  if (s.contains("enum") && s["enum"].is_array()) return enum_value(name, s, raw, ev);
  Kind kind = kind_of(name, s);
  for (const auto& type : types_of(s)) {
    if (type == "null") continue;
    std::optional<json> v;
    if (type == "object") {
      v = fill_object(name, s, context_for(name, ev), depth);
    } else if (type == "array") {
      v = fill_array(name, s, ev, depth);
    } else {
      for (const Field* f : labelled(name, ev)) {
        if ((v = convert(f->value, f->node, s, raw, type, kind))) break;
      }
      if (!v) v = by_kind(kind, s, raw, type, ev, name);
    }
    if (v && conforms(*v, raw, schema_)) return v;
  }
  return std::nullopt;
}

}  // namespace webdata::mock::formats::extraction
