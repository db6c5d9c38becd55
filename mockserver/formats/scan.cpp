#include "formats/scan.hpp"

#include <cctype>
#include <cstdio>
#include <cstdlib>

#include "formats/tree.hpp"

namespace webdata::mock::formats::detail {

namespace {

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_alpha(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) != 0;
}

// Reads a number starting at text[i] (a digit); returns its value and end.
std::optional<double> read_number(std::string_view text, std::size_t i, std::size_t& end) {
  std::string digits;
  std::size_t j = i;
  std::vector<std::pair<char, std::size_t>> separators;  // separator, digits after it
  while (j < text.size()) {
    char c = text[j];
    if (is_digit(c)) {
      digits += c;
      if (!separators.empty()) ++separators.back().second;
      ++j;
    } else if ((c == ',' || c == '.' || c == '\'') && j + 1 < text.size() &&
               is_digit(text[j + 1])) {
      separators.emplace_back(c, 0);
      digits += '|';
      ++j;
    } else {
      break;
    }
  }
  end = j;
  if (digits.empty()) return std::nullopt;
  // The decimal separator: the last one, when it is the only one of its kind and not followed by
  // exactly three digits (then it groups thousands), or when both kinds appear.
  std::optional<std::size_t> decimal;
  if (!separators.empty()) {
    char last = separators.back().first;
    std::size_t count_last = 0;
    bool mixed = false;
    for (auto& [c, n] : separators) {
      if (c == last)
        ++count_last;
      else
        mixed = true;
    }
    if (mixed || (count_last == 1 && separators.back().second != 3) ||
        (count_last == 1 && last == '.' && separators.back().second == 3 &&
         separators.size() == 1 && digits.find('|') <= 1 && digits[0] == '0')) {
      decimal = separators.size() - 1;
    }
  }
  std::string number;
  std::size_t seen = 0;
  for (char c : digits) {
    if (c == '|') {
      if (decimal && seen == *decimal) number += '.';
      ++seen;
    } else {
      number += c;
    }
  }
  if (number.size() > 300) return std::nullopt;
  return std::strtod(number.c_str(), nullptr);
}

struct CurrencySign {
  const char* text;
  const char* code;
};
const CurrencySign kSymbols[] = {
    {"US$", "USD"}, {"$", "USD"},   {"€", "EUR"},   {"£", "GBP"},   {"¥", "JPY"},   {"₹", "INR"},
    {"₩", "KRW"},   {"₽", "RUB"}, {"CHF", "CHF"}, {"USD", "USD"}, {"EUR", "EUR"}, {"GBP", "GBP"},
    {"JPY", "JPY"}, {"CAD", "CAD"}, {"AUD", "AUD"}, {"INR", "INR"}, {"CNY", "CNY"}, {"SEK", "SEK"},
    {"NOK", "NOK"}, {"DKK", "DKK"}, {"PLN", "PLN"}, {"BRL", "BRL"}, {"MXN", "MXN"}, {"Fr.", "CHF"}};

// A currency sign ending at text[pos) (before a number) or starting at text[pos] (after one).
const CurrencySign* sign_before(std::string_view text, std::size_t pos) {
  while (pos > 0 && text[pos - 1] == ' ') --pos;
  for (const auto& s : kSymbols) {
    std::string_view t = s.text;
    if (pos >= t.size() && text.substr(pos - t.size(), t.size()) == t) {
      std::size_t before = pos - t.size();
      if (is_alpha(t[0]) && before > 0 && is_alpha(text[before - 1])) continue;
      return &s;
    }
  }
  return nullptr;
}

const CurrencySign* sign_after(std::string_view text, std::size_t pos) {
  while (pos < text.size() && text[pos] == ' ') ++pos;
  for (const auto& s : kSymbols) {
    std::string_view t = s.text;
    if (text.substr(pos, t.size()) == t) {
      std::size_t after = pos + t.size();
      if (is_alpha(t[0]) && after < text.size() && is_alpha(text[after])) continue;
      return &s;
    }
  }
  return nullptr;
}

const char* const kMonths[] = {"jan", "feb", "mar", "apr", "may", "jun",
                               "jul", "aug", "sep", "oct", "nov", "dec"};

int month_of(std::string_view word) {
  if (word.size() < 3) return 0;
  std::string w = lower(word);
  for (int m = 0; m < 12; ++m) {
    if (w.compare(0, 3, kMonths[m]) == 0) {
      static const char* const kFull[] = {"january",   "february", "march",    "april",
                                          "may",       "june",     "july",     "august",
                                          "september", "october",  "november", "december"};
      std::string_view full = kFull[m];
      if (w.size() <= full.size() && full.substr(0, w.size()) == w) return m + 1;
      if (w == "sept") return 9;
    }
  }
  return 0;
}

std::string ymd(int y, int m, int d) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02d", y, m, d);
  return buf;
}

bool valid_ymd(int y, int m, int d) {
  static const int kDays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (y < 1000 || y > 9999 || m < 1 || m > 12 || d < 1) return false;
  if (d > kDays[m - 1]) return false;
  bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return !(m == 2 && d == 29 && !leap);
}

int digits_at(std::string_view s, std::size_t i, std::size_t n) {
  if (i + n > s.size()) return -1;
  int v = 0;
  for (std::size_t k = 0; k < n; ++k) {
    if (!is_digit(s[i + k])) return -1;
    v = v * 10 + (s[i + k] - '0');
  }
  return v;
}

// ISO 8601 at text[i]: date, then optionally THH:MM[:SS[.fff]][Z|+hh:mm].
std::optional<std::string> iso_at(std::string_view t, std::size_t i, std::size_t& end) {
  int y = digits_at(t, i, 4);
  if (y < 0 || i + 10 > t.size() || t[i + 4] != '-' || t[i + 7] != '-') return std::nullopt;
  int m = digits_at(t, i + 5, 2);
  int d = digits_at(t, i + 8, 2);
  if (!valid_ymd(y, m, d)) return std::nullopt;
  if (i + 10 < t.size() && is_digit(t[i + 10])) return std::nullopt;
  std::string out = ymd(y, m, d);
  end = i + 10;
  if (end < t.size() && (t[end] == 'T' || t[end] == ' ') && end + 6 <= t.size()) {
    int hh = digits_at(t, end + 1, 2);
    int mm = digits_at(t, end + 4, 2);
    if (hh >= 0 && hh < 24 && t[end + 3] == ':' && mm >= 0 && mm < 60) {
      int ss = 0;
      std::size_t j = end + 6;
      if (j + 3 <= t.size() && t[j] == ':' && digits_at(t, j + 1, 2) >= 0) {
        ss = digits_at(t, j + 1, 2);
        j += 3;
        if (j < t.size() && t[j] == '.') {
          ++j;
          while (j < t.size() && is_digit(t[j])) ++j;
        }
      }
      if (ss > 59) return out;
      char buf[48];
      std::snprintf(buf, sizeof buf, "T%02d:%02d:%02d", hh, mm, ss);
      out += buf;
      if (j < t.size() && t[j] == 'Z') {
        out += 'Z';
        ++j;
      } else if (j + 6 <= t.size() && (t[j] == '+' || t[j] == '-') && digits_at(t, j + 1, 2) >= 0 &&
                 t[j + 3] == ':' && digits_at(t, j + 4, 2) >= 0) {
        out += t.substr(j, 6);
        j += 6;
      }
      end = j;
    }
  }
  return out;
}

}  // namespace

std::optional<double> parse_number(std::string_view text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (!is_digit(text[i])) continue;
    std::size_t end = 0;
    auto v = read_number(text, i, end);
    if (!v) return std::nullopt;
    bool negative =
        i > 0 && (text[i - 1] == '-' || (i >= 3 && text.substr(i - 3, 3) == "\xE2\x88\x92"));
    if (negative && i >= 2 && is_digit(text[i - 2])) negative = false;  // a range "10-20"
    return negative ? -*v : *v;
  }
  return std::nullopt;
}

std::vector<Price> find_prices(std::string_view text) {
  std::vector<Price> out;
  std::size_t i = 0;
  while (i < text.size()) {
    if (!is_digit(text[i]) || (i > 0 && (is_digit(text[i - 1]) || is_alpha(text[i - 1])))) {
      ++i;
      continue;
    }
    std::size_t end = 0;
    auto value = read_number(text, i, end);
    if (!value) {
      ++i;
      continue;
    }
    const CurrencySign* sign = sign_before(text, i);
    std::size_t start = i;
    if (sign != nullptr) {
      std::size_t p = i;
      while (p > 0 && text[p - 1] == ' ') --p;
      start = p - std::string_view(sign->text).size();
    } else if ((sign = sign_after(text, end)) != nullptr) {
      std::size_t p = end;
      while (p < text.size() && text[p] == ' ') ++p;
      end = p + std::string_view(sign->text).size();
    }
    if (sign != nullptr) {
      Price price;
      price.amount = *value;
      price.currency = sign->code;
      price.text = std::string(text.substr(start, end - start));
      out.push_back(std::move(price));
    }
    i = std::max(end, i + 1);
  }
  return out;
}

std::vector<std::string> find_dates(std::string_view t) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < t.size()) {
    bool word_start = i == 0 || !std::isalnum(static_cast<unsigned char>(t[i - 1]));
    if (!word_start) {
      ++i;
      continue;
    }
    std::size_t end = 0;
    if (auto iso = iso_at(t, i, end)) {
      out.push_back(*iso);
      i = end;
      continue;
    }
    // "March 3, 2024" / "Mar. 3 2024"
    if (is_alpha(t[i])) {
      std::size_t w = i;
      while (w < t.size() && is_alpha(t[w])) ++w;
      int month = month_of(t.substr(i, w - i));
      if (month > 0 && w - i <= 9) {
        std::size_t j = w;
        if (j < t.size() && t[j] == '.') ++j;
        while (j < t.size() && t[j] == ' ') ++j;
        std::size_t ds = j;
        while (j < t.size() && is_digit(t[j])) ++j;
        if (j > ds && j - ds <= 2) {
          int day = std::atoi(std::string(t.substr(ds, j - ds)).c_str());
          while (j < t.size() && is_alpha(t[j]) && j - ds < 5) ++j;  // 3rd
          if (j < t.size() && t[j] == ',') ++j;
          while (j < t.size() && t[j] == ' ') ++j;
          int year = digits_at(t, j, 4);
          if (year > 0 && valid_ymd(year, month, day) &&
              (j + 4 == t.size() || !is_digit(t[j + 4]))) {
            out.push_back(ymd(year, month, day));
            i = j + 4;
            continue;
          }
        }
      }
      i = w;
      continue;
    }
    // "3 March 2024"
    if (is_digit(t[i])) {
      std::size_t j = i;
      while (j < t.size() && is_digit(t[j])) ++j;
      if (j - i <= 2) {
        int day = std::atoi(std::string(t.substr(i, j - i)).c_str());
        std::size_t k = j;
        if (k < t.size() && t[k] == '.') ++k;
        while (k < t.size() && t[k] == ' ') ++k;
        std::size_t ws = k;
        while (k < t.size() && is_alpha(t[k])) ++k;
        int month = k - ws <= 9 ? month_of(t.substr(ws, k - ws)) : 0;
        if (month > 0) {
          if (k < t.size() && (t[k] == '.' || t[k] == ',')) ++k;
          while (k < t.size() && t[k] == ' ') ++k;
          int year = digits_at(t, k, 4);
          if (year > 0 && valid_ymd(year, month, day) &&
              (k + 4 == t.size() || !is_digit(t[k + 4]))) {
            out.push_back(ymd(year, month, day));
            i = k + 4;
            continue;
          }
        }
      }
      i = j;
      continue;
    }
    ++i;
  }
  return out;
}

std::string as_date(const std::string& normalized) {
  return normalized.substr(0, 10);
}

std::string as_date_time(const std::string& normalized) {
  if (normalized.size() == 10) return normalized + "T00:00:00Z";
  if (normalized.size() == 19) return normalized + "Z";
  return normalized;
}

bool looks_like_email(std::string_view s) {
  std::size_t at = s.find('@');
  if (at == std::string_view::npos || at == 0 || s.find('@', at + 1) != std::string_view::npos) {
    return false;
  }
  std::string_view domain = s.substr(at + 1);
  std::size_t dot = domain.rfind('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 2 > domain.size()) return false;
  for (char c : s) {
    if (std::isspace(static_cast<unsigned char>(c)) || c == '<' || c == '>' || c == '"') {
      return false;
    }
  }
  return true;
}

bool looks_like_url(std::string_view s) {
  std::size_t colon = s.find("://");
  if (colon == std::string_view::npos || colon == 0) return false;
  for (std::size_t i = 0; i < colon; ++i) {
    if (!std::isalnum(static_cast<unsigned char>(s[i])) && s[i] != '+' && s[i] != '-' &&
        s[i] != '.') {
      return false;
    }
  }
  for (char c : s) {
    if (std::isspace(static_cast<unsigned char>(c))) return false;
  }
  return s.size() > colon + 3;
}

std::vector<std::string> find_emails(std::string_view t) {
  std::vector<std::string> out;
  auto local_char = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '%' ||
           c == '+' || c == '-';
  };
  auto domain_char = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-';
  };
  for (std::size_t at = t.find('@'); at != std::string_view::npos; at = t.find('@', at + 1)) {
    std::size_t b = at;
    while (b > 0 && local_char(t[b - 1])) --b;
    std::size_t e = at + 1;
    while (e < t.size() && domain_char(t[e])) ++e;
    while (e > at + 1 && (t[e - 1] == '.' || t[e - 1] == '-')) --e;
    while (b < at && t[b] == '.') ++b;
    std::string candidate(t.substr(b, e - b));
    if (b < at && looks_like_email(candidate)) out.push_back(candidate);
  }
  return out;
}

std::vector<std::string> find_phones(std::string_view t) {
  std::vector<std::string> out;
  std::string lowered = lower(t);
  for (std::size_t i = 0; i < t.size(); ++i) {
    bool plus = t[i] == '+' || t[i] == '(';
    bool labelled = false;
    if (!plus && is_digit(t[i]) &&
        (i == 0 || !std::isalnum(static_cast<unsigned char>(t[i - 1])))) {
      std::size_t from = i > 24 ? i - 24 : 0;
      std::string before = lowered.substr(from, i - from);
      labelled = before.find("phone") != std::string::npos ||
                 before.find("tel") != std::string::npos ||
                 before.find("call") != std::string::npos;
    }
    if (!plus && !labelled) continue;
    std::size_t j = i;
    int digits = 0;
    while (j < t.size() && (is_digit(t[j]) || t[j] == ' ' || t[j] == '-' || t[j] == '.' ||
                            t[j] == '(' || t[j] == ')' || (j == i && t[j] == '+'))) {
      if (is_digit(t[j])) ++digits;
      ++j;
    }
    while (j > i && !is_digit(t[j - 1])) --j;
    if (digits >= 7 && digits <= 15) {
      out.push_back(trim(t.substr(i, j - i)));
      i = j;
    }
  }
  return out;
}

std::optional<bool> parse_bool(std::string_view text) {
  std::string t = lower(trim(text));
  static const char* const kFalse[] = {"out of stock",          "sold out",
                                       "unavailable",           "not available",
                                       "currently unavailable", "discontinued"};
  for (const char* f : kFalse) {
    if (t.find(f) != std::string::npos) return false;
  }
  static const char* const kTrue[] = {"in stock",      "available", "add to cart",
                                      "add to basket", "buy now",   "ships today"};
  for (const char* f : kTrue) {
    if (t.find(f) != std::string::npos) return true;
  }
  if (t == "yes" || t == "true" || t == "y" || t == "on" || t == "\xE2\x9C\x93" ||
      t == "\xE2\x9C\x94" || t == "included" || t == "supported") {
    return true;
  }
  if (t == "no" || t == "false" || t == "n" || t == "off" || t == "\xE2\x9C\x97" ||
      t == "\xE2\x9C\x98" || t == "none" || t == "-" || t == "not included" ||
      t == "not supported") {
    return false;
  }
  return std::nullopt;
}

}  // namespace webdata::mock::formats::detail
