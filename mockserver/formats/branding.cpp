#include "formats/branding.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "formats/css.hpp"
#include "formats/tree.hpp"

namespace webdata::mock::formats {

namespace {

using detail::CssRule;
using detail::Rgba;
using detail::dom::Node;
using nlohmann::json;

bool rel_has(const Node& n, const char* token) {
  const std::string* rel = n.attr("rel");
  if (rel == nullptr) return false;
  for (const auto& t : detail::split_words(detail::lower(*rel))) {
    if (t == token) return true;
  }
  return false;
}

// Selector lists split at top-level commas, each trimmed ("body, html" -> body | html).
std::vector<std::string> selectors_of(const std::string& selector) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : selector + ",") {
    if (c == ',') {
      std::string t = detail::trim(cur);
      if (!t.empty()) out.push_back(t);
      cur.clear();
    } else {
      cur += c;
    }
  }
  return out;
}

bool selects(const CssRule& rule, std::initializer_list<const char*> targets) {
  for (const auto& s : selectors_of(rule.selector)) {
    for (const char* t : targets) {
      if (s == t) return true;
    }
  }
  return false;
}

std::string first_family(const std::string& value) {
  std::string cur;
  for (char c : value + ",") {
    if (c == ',') break;
    cur += c;
  }
  std::string t = detail::trim(cur);
  if (t.size() >= 2 && (t.front() == '"' || t.front() == '\'') && t.back() == t.front()) {
    t = t.substr(1, t.size() - 2);
  }
  return detail::trim(t);
}

bool is_generic_family(const std::string& family) {
  static const std::set<std::string> kGeneric = {
      "serif",     "sans-serif", "monospace",     "cursive",           "fantasy",
      "system-ui", "ui-serif",   "ui-sans-serif", "ui-monospace",      "ui-rounded",
      "math",      "emoji",      "fangsong",      "inherit",           "initial",
      "unset",     "revert",     "-apple-system", "blinkmacsystemfont"};
  return family.empty() || kGeneric.count(detail::lower(family)) > 0 || family.find("var(") == 0;
}

bool names_logo(const Node& n) {
  for (const char* a : {"class", "id", "alt", "src", "data-src"}) {
    const std::string* v = n.attr(a);
    if (v != nullptr && detail::lower(*v).find("logo") != std::string::npos) return true;
  }
  return false;
}

struct Css {
  std::vector<CssRule> rules;
  detail::CssVariables variables;
};

Css gather(const detail::Html& page, const std::string& extra_css) {
  Css css;
  std::string text;
  for (const Node& n : page.tree().nodes) {
    if (n.is("style")) {
      for (const Node* c : n.children) text += c->text;
      text += "\n";
    }
  }
  text += extra_css;
  css.rules = detail::parse_css(text);
  // Inline styles: a rule for the element's tag name (enough for body, a, button).
  for (const Node& n : page.tree().nodes) {
    if (!n.is_element() || !n.has_attr("style")) continue;
    std::string selector = n.name;
    if (const std::string* cls = n.attr("class")) {
      for (const auto& c : detail::split_words(*cls)) selector += ", ." + detail::lower(c);
    }
    css.rules.push_back({selector, detail::parse_declarations(*n.attr("style"))});
  }
  // Custom properties: :root / html / body first, later declarations win as in the cascade.
  for (int pass = 0; pass < 2; ++pass) {
    for (const auto& r : css.rules) {
      bool root = selects(r, {":root", "html", "body", ":host"});
      if ((pass == 0) == root) continue;
      for (const auto& [name, value] : r.declarations) {
        if (name.rfind("--", 0) == 0 && (pass == 0 || css.variables.count(name) == 0)) {
          css.variables[name] = value;
        }
      }
    }
  }
  return css;
}

std::optional<Rgba> rule_color(const Css& css, std::initializer_list<const char*> selectors,
                               std::initializer_list<const char*> properties) {
  std::optional<Rgba> found;
  for (const auto& r : css.rules) {
    if (!selects(r, selectors)) continue;
    for (const auto& [name, value] : r.declarations) {
      for (const char* p : properties) {
        if (name == p) {
          auto c = detail::parse_color(value, css.variables);
          if (c && c->a > 0) found = c;  // the last one wins, as in the cascade
        }
      }
    }
  }
  return found;
}

std::optional<Rgba> variable_color(const Css& css, std::initializer_list<const char*> names) {
  for (const char* want : names) {
    for (const auto& [name, value] : css.variables) {
      // --primary, --color-primary, --primary-color, --bs-primary, --brand-color...
      std::string n = detail::lower(name);
      std::vector<std::string> tokens = detail::name_tokens(n);
      if (std::find(tokens.begin(), tokens.end(), want) == tokens.end()) continue;
      bool shade = false;
      for (const auto& t : tokens) {
        if (t == "rgb" || t == "hover" || t == "light" || t == "dark" || t == "active" ||
            t == "foreground" || t == "contrast" || t == "text" || t == "subtle" || t == "bg" ||
            t == "border") {
          shade = shade || std::string(want) != t;
        }
      }
      if (shade) continue;
      auto c = detail::parse_color(value, css.variables);
      if (c && c->a > 0) return c;
    }
  }
  return std::nullopt;
}

json color_or_null(const std::optional<Rgba>& c) {
  return c ? json(detail::hex(*c)) : json(nullptr);
}

/// Whether the page declares a dark color scheme (CSS `color-scheme` or the meta tag).
bool declares_dark(const Css& css, const detail::Html& page) {
  for (const auto& r : css.rules) {
    for (const auto& [name, value] : r.declarations) {
      if (name == "color-scheme" && detail::lower(value).find("dark") == 0) return true;
    }
  }
  for (const Node& n : page.tree().nodes) {
    if (n.is("meta") && n.attr("name") != nullptr &&
        detail::lower(*n.attr("name")) == "color-scheme" && n.attr("content") != nullptr &&
        detail::lower(*n.attr("content")).find("dark") == 0) {
      return true;
    }
  }
  return false;
}

/// The saturated colors the stylesheets use, most used first.
std::vector<std::string> frequent_colors(const Css& css) {
  std::map<std::string, int> uses;
  std::vector<std::string> order;
  for (const auto& r : css.rules) {
    for (const auto& [name, value] : r.declarations) {
      if (name.rfind("--", 0) == 0) continue;
      if (name.find("color") == std::string::npos && name != "background" && name != "fill" &&
          name.find("border") == std::string::npos) {
        continue;
      }
      auto c = detail::parse_color(value, css.variables);
      if (!c || c->a < 0.5 || detail::saturation(*c) < 0.25) continue;
      double l = detail::luminance(*c);
      if (l < 0.01 || l > 0.95) continue;
      std::string h = detail::hex(*c);
      if (uses[h]++ == 0) order.push_back(h);
    }
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](const std::string& a, const std::string& b) { return uses[a] > uses[b]; });
  return order;
}

struct BrandColors {
  std::optional<Rgba> primary, secondary, accent;
};

// Brand colors: named custom properties, then buttons, then the most used saturated colors.
BrandColors brand_colors(const Css& css, Rgba link_color) {
  BrandColors b{variable_color(css, {"primary", "brand", "main"}),
                variable_color(css, {"secondary"}),
                variable_color(css, {"accent", "highlight", "tertiary"})};
  if (!b.primary) {
    b.primary = rule_color(css,
                           {"button", ".btn", ".button", ".cta", ".btn-primary", ".button-primary",
                            "button.primary", ".primary"},
                           {"background-color", "background"});
  }
  const std::vector<std::string> order = frequent_colors(css);
  auto next_frequent = [&](const std::vector<std::optional<Rgba>>& taken) -> std::optional<Rgba> {
    for (const auto& h : order) {
      bool used = false;
      for (const auto& t : taken) used = used || (t && detail::hex(*t) == h);
      if (!used) return detail::parse_color(h);
    }
    return std::nullopt;
  };
  if (!b.primary) b.primary = next_frequent({});
  if (!b.primary) b.primary = link_color;
  if (!b.secondary) b.secondary = next_frequent({b.primary});
  if (!b.secondary) b.secondary = b.primary;
  if (!b.accent) b.accent = next_frequent({b.primary, b.secondary});
  if (!b.accent) b.accent = b.secondary;
  return b;
}

/// The font families a page uses, and those of its body text and headings.
struct Fonts {
  std::vector<std::string> families;
  std::optional<std::string> body, heading;

  void add(const std::string& f) {
    if (is_generic_family(f)) return;
    for (const auto& existing : families) {
      if (detail::lower(existing) == detail::lower(f)) return;
    }
    families.push_back(f);
  }
};

/// The family a `font-family` or `font` declaration names; "" for any other.
std::string declared_family(const std::string& name, const std::string& resolved) {
  if (name == "font-family") return first_family(resolved);
  if (name != "font") return std::string();
  // The shorthand: the family list comes last, after the size.
  std::size_t px = resolved.find_first_of("0123456789");
  std::size_t space = px == std::string::npos ? std::string::npos : resolved.find(' ', px);
  return space == std::string::npos ? std::string() : first_family(resolved.substr(space + 1));
}

Fonts page_fonts(const Css& css, const detail::Html& page) {
  Fonts fonts;
  for (const auto& r : css.rules) {
    for (const auto& [name, value] : r.declarations) {
      const std::string family =
          declared_family(name, detail::resolve_variables(value, css.variables));
      if (family.empty()) continue;
      fonts.add(family);
      if (r.selector == "@font-face") continue;
      if (selects(r, {"body", "html", ":root"})) fonts.body = family;
      if (selects(r, {"h1", "h2", "h3", "h1, h2", ".heading", ".title"}) && !fonts.heading) {
        fonts.heading = family;
      }
    }
  }
  for (const Node& n : page.tree().nodes) {
    if (!n.is("link") || !n.has_attr("href")) continue;
    const std::string& href = *n.attr("href");
    if (href.find("fonts.googleapis.com") == std::string::npos) continue;
    // family=Inter:wght@400;700&family=Roboto+Mono
    std::size_t at = 0;
    while ((at = href.find("family=", at)) != std::string::npos) {
      at += 7;
      std::size_t end = href.find_first_of(":&|", at);
      std::string f = href.substr(at, end == std::string::npos ? std::string::npos : end - at);
      std::replace(f.begin(), f.end(), '+', ' ');
      fonts.add(f);
    }
  }
  return fonts;
}

// Logo: an image named "logo", or inside an element named so (the site header's home link).
json find_logo(const detail::Html& page) {
  for (const Node& n : page.tree().nodes) {
    if (!n.is("img") || detail::is_invisible(n)) continue;
    bool named = names_logo(n);
    for (const Node* p = n.parent; !named && p != nullptr; p = p->parent) {
      for (const char* a : {"class", "id"}) {
        const std::string* v = p->attr(a);
        if (v != nullptr && detail::lower(*v).find("logo") != std::string::npos) named = true;
      }
    }
    const std::string* src = n.attr("src");
    if (src == nullptr || src->empty()) src = n.attr("data-src");
    if (named && src != nullptr && !src->empty()) return page.absolute(*src);
  }
  return nullptr;
}

}  // namespace

std::vector<std::string> stylesheet_urls(const content::Document& doc) {
  detail::Html page = detail::Html::page(doc);
  std::vector<std::string> out;
  for (const Node& n : page.tree().nodes) {
    if (n.is("link") && rel_has(n, "stylesheet") && n.has_attr("href")) {
      std::string url = page.absolute(*n.attr("href"));
      if (std::find(out.begin(), out.end(), url) == out.end()) out.push_back(url);
    }
  }
  return out;
}

nlohmann::json branding(const content::Document& doc, const std::string& extra_css) {
  detail::Html page = detail::Html::page(doc);
  Css css = gather(page, extra_css);

  std::optional<Rgba> background =
      rule_color(css, {"body", "html", ":root"}, {"background-color", "background"});
  if (!background) background = variable_color(css, {"background", "bg", "surface", "base"});
  std::optional<Rgba> text = rule_color(css, {"body", "html", ":root"}, {"color"});
  if (!text) text = variable_color(css, {"foreground", "text", "fg", "body"});
  std::optional<Rgba> link = rule_color(css, {"a", "a:link"}, {"color"});
  if (!link) link = variable_color(css, {"link"});
  Rgba bg = background.value_or(declares_dark(css, page) ? Rgba{0x12, 0x12, 0x12, 1}
                                                        : Rgba{255, 255, 255, 1});
  bool dark = detail::luminance(bg) < 0.5;
  Rgba fg = text.value_or(dark ? Rgba{255, 255, 255, 1} : Rgba{0, 0, 0, 1});
  Rgba link_color = link.value_or(dark ? Rgba{0x9E, 0x9E, 0xFF, 1} : Rgba{0, 0, 0xEE, 1});
  const BrandColors brand = brand_colors(css, link_color);

  const Fonts found = page_fonts(css, page);
  json fonts = json::array();
  for (const auto& f : found.families) fonts.push_back({{"family", f}});
  json primary_font = found.body            ? json(*found.body)
                      : found.families.empty() ? json(nullptr)
                                               : json(found.families[0]);
  json heading = found.heading ? json(*found.heading) : primary_font;

  const json logo = find_logo(page);
  json meta = doc.metadata();
  json favicon = meta.contains("favicon") ? meta["favicon"] : json(nullptr);
  json og_image = nullptr;
  if (meta.contains("ogImage") && meta["ogImage"].is_string()) {
    og_image = page.absolute(meta["ogImage"].get<std::string>());
  }

  return {{"colorScheme", dark ? "dark" : "light"},
          {"colors",
           {{"primary", color_or_null(brand.primary)},
            {"secondary", color_or_null(brand.secondary)},
            {"accent", color_or_null(brand.accent)},
            {"background", detail::hex(bg)},
            {"textPrimary", detail::hex(fg)},
            {"link", detail::hex(link_color)}}},
          {"fonts", fonts},
          {"typography", {{"fontFamilies", {{"primary", primary_font}, {"heading", heading}}}}},
          {"logo", logo},
          {"images", {{"logo", logo}, {"favicon", favicon}, {"ogImage", og_image}}}};
}

}  // namespace webdata::mock::formats
