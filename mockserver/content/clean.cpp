// Cleaning: which parts of the page an output format sees, and the cleaned HTML serializer.

#include <algorithm>
#include <array>

#include "content/pipeline.hpp"
#include "content/selector.hpp"

namespace webdata::mock::content {
namespace {

using dom::Node;

bool in_list(std::string_view value, std::initializer_list<std::string_view> list) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

// Elements never part of html/markdown/text: code, styling, document metadata.
bool always_removed(const Node& n) {
  if (n.ns != dom::Namespace::kHtml) return false;
  return in_list(n.name, {"script", "style", "noscript", "template", "link", "meta", "base",
                          "title", "head"});
}

bool is_hidden(const Node& n) {
  if (n.has_attr("hidden")) return true;
  const std::string* style = n.attr("style");
  if (style == nullptr) return false;
  std::string s;
  for (char c : *style) {
    if (!dom::is_html_space(c)) s += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  }
  return s.find("display:none") != std::string::npos ||
         s.find("visibility:hidden") != std::string::npos;
}

// The class names and id of an element, lower-cased, and each split into words at '-', '_' and
// camelCase humps ("mainNav" and "main-nav" both give "main", "nav").
struct Names {
  std::vector<std::string> tokens;
  std::vector<std::string> words;

  bool has_token(std::initializer_list<std::string_view> list) const {
    return std::any_of(tokens.begin(), tokens.end(), [&](const std::string& t) { return in_list(t, list); });
  }
  bool has_word(std::initializer_list<std::string_view> list) const {
    return std::any_of(words.begin(), words.end(), [&](const std::string& w) { return in_list(w, list); });
  }
  bool token_starts_with(std::initializer_list<std::string_view> prefixes) const {
    for (const auto& t : tokens) {
      for (auto p : prefixes) {
        if (t.compare(0, p.size(), p) == 0) return true;
      }
    }
    return false;
  }
};

Names names_of(const Node& n) {
  Names out;
  auto add = [&](std::string_view value) {
    std::size_t i = 0;
    while (i < value.size()) {
      while (i < value.size() && dom::is_html_space(value[i])) ++i;
      std::size_t j = i;
      while (j < value.size() && !dom::is_html_space(value[j])) ++j;
      if (j > i) {
        std::string_view raw = value.substr(i, j - i);
        out.tokens.push_back(to_lower(raw));
        std::string word;
        for (std::size_t k = 0; k < raw.size(); ++k) {
          char c = raw[k];
          bool hump = c >= 'A' && c <= 'Z' && k > 0 && raw[k - 1] >= 'a' && raw[k - 1] <= 'z';
          if (c == '-' || c == '_' || c == ':' || c == '.' || hump) {
            if (!word.empty()) out.words.push_back(std::move(word));
            word.clear();
            if (!hump) continue;
          }
          word += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
        }
        if (!word.empty()) out.words.push_back(std::move(word));
      }
      i = j;
    }
  };
  if (const std::string* cls = n.attr("class")) add(*cls);
  if (const std::string* id = n.attr("id")) add(*id);
  return out;
}

bool role_is(const Node& n, std::initializer_list<std::string_view> roles) {
  const std::string* role = n.attr("role");
  return role != nullptr && in_list(to_lower(dom::trim_html_space(*role)), roles);
}

bool has_ancestor_where(const Node& n, bool (*pred)(const Node&)) {
  for (const Node* p = n.parent; p != nullptr; p = p->parent) {
    if (pred(*p)) return true;
  }
  return false;
}

bool is_sectioning_or_main(const Node& n) {
  return n.is("article") || n.is("aside") || n.is("main") || n.is("nav") || n.is("section") ||
         role_is(n, {"main", "article"});
}

bool is_article(const Node& n) { return n.is("article") || role_is(n, {"article"}); }

constexpr std::array<std::string_view, 33> kAdHosts = {
    "doubleclick.net",      "googlesyndication.com", "googleadservices.com", "adservice.google.com",
    "amazon-adsystem.com",  "adnxs.com",             "taboola.com",          "outbrain.com",
    "criteo.com",           "criteo.net",            "pubmatic.com",         "rubiconproject.com",
    "openx.net",            "adform.net",            "moatads.com",          "media.net",
    "adsrvr.org",           "advertising.com",       "yieldmo.com",          "smartadserver.com",
    "scorecardresearch.com", "quantserve.com",       "zedo.com",             "revcontent.com",
    "mgid.com",             "adroll.com",            "serving-sys.com",      "casalemedia.com",
    "33across.com",         "sharethrough.com",      "teads.tv",             "adsafeprotected.com",
    "googletagservices.com"};

bool is_ad_host_url(const Parsed& parsed, std::string_view reference) {
  auto u = resolve_url(parsed.base, reference);
  if (!u || !u->is_http()) return false;
  const std::string& host = u->host;
  for (auto h : kAdHosts) {
    if (host == h || (host.size() > h.size() && host.compare(host.size() - h.size(), h.size(), h) == 0 &&
                      host[host.size() - h.size() - 1] == '.')) {
      return true;
    }
  }
  return false;
}

// Known ad slots, ad iframes and ad-network links. Class/id matches are protected by the
// caller when they hold most of the page's text.
bool is_ad_markup(const Parsed& parsed, const Node& n) {
  if (n.is("amp-ad") || n.is("amp-embed") || n.is("amp-sticky-ad")) return true;
  for (const char* attr : {"data-ad-slot", "data-ad-client", "data-ad-unit", "data-adunit",
                           "data-ad-format", "data-google-query-id"}) {
    if (n.has_attr(attr)) return true;
  }
  for (const char* attr : {"src", "href", "data-src"}) {
    if (const std::string* v = n.attr(attr); v != nullptr && is_ad_host_url(parsed, *v)) {
      return true;
    }
  }
  return false;
}

bool is_ad_name(const Names& names) {
  return names.has_word({"ad", "ads", "advert", "adverts", "advertisement", "advertisements",
                         "advertising", "adsense", "adsbygoogle", "adslot", "adunit", "adbox",
                         "dfp", "taboola", "outbrain", "sponsored"}) ||
         names.token_starts_with({"div-gpt-ad", "google_ads_", "gpt-ad"});
}

bool is_cookie_banner(const Node& n, const Names& names) {
  if (names.has_word({"consent", "gdpr", "cookieconsent", "cookiebanner", "cookiebar",
                      "cookienotice", "onetrust", "cookiebot", "cybotcookiebotdialog", "didomi",
                      "cmp", "truste", "cookielaw"})) {
    return true;
  }
  if (names.token_starts_with({"onetrust", "cybotcookiebot", "didomi", "qc-cmp", "cc-window",
                               "cc-banner", "truste"})) {
    return true;
  }
  if (names.has_word({"cookie", "cookies"}) &&
      names.has_word({"banner", "bar", "notice", "consent", "popup", "modal", "law", "policy",
                      "dialog", "message", "warning", "alert", "notification", "overlay", "wall",
                      "box", "container", "window", "info"})) {
    return true;
  }
  if (role_is(n, {"dialog", "alertdialog"}) || n.is("dialog")) {
    const std::string* label = n.attr("aria-label");
    std::string l = label != nullptr ? to_lower(*label) : std::string();
    if (l.find("cookie") != std::string::npos || l.find("consent") != std::string::npos) return true;
  }
  return false;
}

// Page furniture by name: the class and id vocabulary of navigation, headers, footers,
// sidebars, sharing widgets and pop-ups. Whole tokens for ambiguous words ("header" as a word
// would hit "entry-header", the article title), words for the unambiguous ones.
bool is_boilerplate_name(const Names& names) {
  if (names.has_token({"header", "site-header", "global-header", "masthead", "topbar", "top-bar",
                       "widget", "widget-area", "related", "related-posts", "newsletter",
                       "language", "lang-selector", "language-selector", "language-switcher",
                       "pagination", "pager", "skip-link", "skip-links", "toolbar"})) {
    return true;
  }
  return names.has_word({"nav", "navbar", "navigation", "sidenav", "subnav", "topnav", "menu",
                         "menubar", "sidebar", "breadcrumb", "breadcrumbs", "footer", "social",
                         "share", "sharing", "sharebar", "popup", "modal", "overlay"});
}

bool is_skip_link(const Node& n) {
  if (!n.is("a")) return false;
  const std::string* href = n.attr("href");
  if (href == nullptr || dom::trim_html_space(*href).substr(0, 1) != "#") return false;
  std::string text = to_lower(dom::collapsed_text(n));
  return text.compare(0, 4, "skip") == 0 || text.compare(0, 7, "jump to") == 0;
}

// Structural furniture: landmarks that are not content (HTML-AAM: <header> and <footer> are the
// page banner and contentinfo only outside article, aside, main, nav and section).
bool is_boilerplate_structure(const Node& n) {
  if (n.ns != dom::Namespace::kHtml) return false;
  if (n.is("nav") || n.is("dialog") || n.is("search")) return true;
  if (n.is("aside")) return !has_ancestor_where(n, is_article);
  if (n.is("header") || n.is("footer")) return !has_ancestor_where(n, is_sectioning_or_main);
  if (role_is(n, {"navigation", "banner", "contentinfo", "search", "dialog", "alertdialog",
                  "menu", "menubar"})) {
    return true;
  }
  if (role_is(n, {"complementary"})) return !has_ancestor_where(n, is_article);
  if (const std::string* modal = n.attr("aria-modal"); modal != nullptr && *modal == "true") {
    return true;
  }
  return is_hidden(n) || is_skip_link(n);
}

bool contains_main_landmark(const Parsed& parsed, const Node& n) {
  for (std::size_t id = n.id + 1; id < n.id + n.subtree_size; ++id) {
    const Node& d = parsed.tree.nodes[id];
    if (d.is("main") || d.is("article") || role_is(d, {"main"})) return true;
  }
  return false;
}

class Cleaner {
 public:
  Cleaner(const Parsed& parsed, const Options& options)
      : parsed_(parsed),
        options_(options),
        include_(selector::parse_all(options.include_tags)),
        exclude_(selector::parse_all(options.exclude_tags)) {}

  View run() {
    View view;
    view.removed.assign(parsed_.tree.nodes.size(), false);
    const Node* body = parsed_.tree.body;
    if (body == nullptr) return view;
    if (!include_.empty()) {
      for (std::size_t id = body->id + 1; id < body->id + body->subtree_size;) {
        const Node& n = parsed_.tree.nodes[id];
        if (n.is_element() && !always_removed(n) && include_.matches(n)) {
          view.roots.push_back({&n, false});
          id += n.subtree_size;
        } else {
          ++id;
        }
      }
    } else if (options_.only_main_content) {
      const Node* main = detect_main_content(parsed_);
      view.roots.push_back({main, main == body});
    } else {
      view.roots.push_back({body, true});
    }
    for (const auto& root : view.roots) mark(*root.node, root.children_only, view);
    return view;
  }

 private:
  void mark(const Node& root, bool children_only, View& view) const {
    std::size_t first = children_only ? root.id + 1 : root.id;
    std::uint32_t root_content = parsed_.stats.content(root);
    for (std::size_t id = first; id < root.id + root.subtree_size;) {
      const Node& n = parsed_.tree.nodes[id];
      if (n.is_element() && removes(n, root, root_content)) {
        view.removed[id] = true;
        id += n.subtree_size;
      } else {
        ++id;
      }
    }
  }

  bool removes(const Node& n, const Node& root, std::uint32_t root_content) const {
    if (always_removed(n)) return true;
    if (exclude_.matches(n)) return true;
    if (&n == &root) return false;
    bool main_only = options_.only_main_content;
    if (options_.block_ads && is_ad_markup(parsed_, n)) return true;
    if (main_only && is_boilerplate_structure(n)) return true;
    if (!options_.block_ads && !main_only) return false;
    Names names = names_of(n);
    bool by_name = (options_.block_ads && (is_ad_name(names) || is_cookie_banner(n, names))) ||
                   (main_only && (is_cookie_banner(n, names) || is_boilerplate_name(names)));
    if (!by_name) return false;
    // A name is a weak signal: a wrapper called "has-sidebar" or "cookie-recipes" that holds
    // most of the text, or the main element, is the content itself.
    if (root_content > 0 && parsed_.stats.content(n) * 2 >= root_content) return false;
    return !contains_main_landmark(parsed_, n);
  }

  const Parsed& parsed_;
  const Options& options_;
  selector::SelectorList include_;
  selector::SelectorList exclude_;
};

void serialize_node(const Parsed& parsed, const View& view, const Options& options, const Node& n,
                    std::string& out);

void serialize_children(const Parsed& parsed, const View& view, const Options& options,
                        const Node& n, std::string& out) {
  for (const Node* c : n.children) serialize_node(parsed, view, options, *c, out);
}

void serialize_attribute(const Parsed& parsed, const Options& options, const Node& el,
                         const dom::Attribute& a, std::string& out) {
  std::string value = a.value;
  bool url_attr = a.name == "href" || a.name == "src" || a.name == "poster" ||
                  (a.name == "action" && el.is("form"));
  if (a.name == "src" && options.remove_base64_images && is_data_image(value)) {
    value = std::string(kBase64ImagePlaceholder);
  } else if (url_attr && el.ns == dom::Namespace::kHtml) {
    value = absolute_url(parsed, value);
  } else if (a.name == "srcset") {
    value = rewrite_srcset(parsed, value, options.remove_base64_images);
  }
  out += ' ';
  out += a.name;
  out += "=\"";
  dom::append_escaped_attribute(out, value);
  out += '"';
}

void serialize_node(const Parsed& parsed, const View& view, const Options& options, const Node& n,
                    std::string& out) {
  switch (n.type) {
    case dom::NodeType::kText: {
      const Node* p = n.parent;
      if (p != nullptr && p->ns == dom::Namespace::kHtml &&
          in_list(p->name, {"style", "script", "xmp", "iframe", "noembed", "noframes",
                            "plaintext"})) {
        out += n.text;
      } else {
        dom::append_escaped_text(out, n.text);
      }
      return;
    }
    case dom::NodeType::kComment:
      return;
    case dom::NodeType::kDocument:
      serialize_children(parsed, view, options, n, out);
      return;
    case dom::NodeType::kElement:
      break;
  }
  if (view.is_removed(n)) return;
  out += '<';
  out += n.name;
  for (const auto& a : n.attributes) serialize_attribute(parsed, options, n, a, out);
  out += '>';
  if (n.ns == dom::Namespace::kHtml && dom::is_void_element(n.name)) return;
  if ((n.is("pre") || n.is("textarea") || n.is("listing")) && !n.children.empty() &&
      n.children.front()->type == dom::NodeType::kText &&
      !n.children.front()->text.empty() && n.children.front()->text.front() == '\n') {
    out += '\n';  // the parser drops the first newline after <pre>; keep the one that was meant
  }
  serialize_children(parsed, view, options, n, out);
  out += "</";
  out += n.name;
  out += '>';
}

// Words of a srcset: the URL ends at whitespace (trailing commas belong to the separator).
struct SrcsetCandidate {
  std::string url;
  std::string descriptor;
};

std::vector<SrcsetCandidate> parse_srcset(std::string_view s) {
  std::vector<SrcsetCandidate> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (dom::is_html_space(s[i]) || s[i] == ',')) ++i;
    if (i >= s.size()) break;
    std::size_t start = i;
    while (i < s.size() && !dom::is_html_space(s[i])) ++i;
    std::string_view u = s.substr(start, i - start);
    bool ended_by_comma = false;
    while (!u.empty() && u.back() == ',') {
      u.remove_suffix(1);
      ended_by_comma = true;
    }
    SrcsetCandidate c{std::string(u), {}};
    if (!ended_by_comma) {
      std::size_t dstart = i;
      int parens = 0;
      while (i < s.size() && (s[i] != ',' || parens > 0)) {
        if (s[i] == '(') ++parens;
        if (s[i] == ')' && parens > 0) --parens;
        ++i;
      }
      c.descriptor = std::string(dom::trim_html_space(s.substr(dstart, i - dstart)));
    }
    if (!c.url.empty()) out.push_back(std::move(c));
  }
  return out;
}

}  // namespace

TreeStats compute_stats(const dom::Tree& tree) {
  const std::size_t n = tree.nodes.size();
  TreeStats stats;
  stats.text.assign(n, 0);
  stats.link_text.assign(n, 0);
  stats.has_block.assign(n, false);
  // Whether a node's descendants are inside a link / never shown: each element is tested once.
  std::vector<bool> link_below(n, false);
  std::vector<bool> hidden_below(n, false);
  for (std::size_t id = 1; id < n; ++id) {
    const Node& node = tree.nodes[id];
    const std::size_t parent = node.parent->id;
    const bool in_link = link_below[parent];
    const bool invisible = hidden_below[parent];
    if (node.is_element()) {
      link_below[id] = in_link || node.is("a");
      hidden_below[id] = invisible || always_removed(node);
    } else if (node.type == dom::NodeType::kText && !invisible) {
      std::uint32_t count = 0;
      for (char c : node.text) count += dom::is_html_space(c) ? 0 : 1;
      stats.text[id] = count;
      if (in_link) stats.link_text[id] = count;
    }
  }
  for (std::size_t id = n; id-- > 1;) {
    const Node& node = tree.nodes[id];
    std::size_t p = node.parent->id;
    stats.text[p] += stats.text[id];
    stats.link_text[p] += stats.link_text[id];
    if (stats.has_block[id] || is_block_element(node)) stats.has_block[p] = true;
  }
  return stats;
}

bool is_block_element(const Node& n) {
  if (!n.is_element() || n.ns != dom::Namespace::kHtml) return false;
  static constexpr std::string_view kBlocks[] = {
      "address", "article", "aside",   "blockquote", "body",     "center",   "dd",     "details",
      "dialog",  "dir",     "div",     "dl",         "dt",       "fieldset", "figcaption", "figure",
      "footer",  "form",    "h1",      "h2",         "h3",       "h4",       "h5",     "h6",
      "header",  "hgroup",  "hr",      "html",       "li",       "listing",  "main",   "menu",
      "nav",     "ol",      "p",       "plaintext",  "pre",      "search",   "section", "summary",
      "table",   "tbody",   "td",      "tfoot",      "th",       "thead",    "tr",     "ul",
      "xmp",     "caption", "legend",  "optgroup",   "option",   "frameset", "noscript"};
  return std::find(std::begin(kBlocks), std::end(kBlocks), n.name) != std::end(kBlocks);
}

const Node* detect_main_content(const Parsed& parsed) {
  const dom::Tree& tree = parsed.tree;
  const Node* body = tree.body;
  if (body == nullptr) return nullptr;
  const std::uint32_t body_content = parsed.stats.content(*body);

  // 1. What the author marked as main: <main> or role=main (the fullest one if several).
  const Node* best_main = nullptr;
  // 2. The one article of the page, if there is exactly one outermost article.
  std::vector<const Node*> articles;
  // 3. Conventional content containers by id or class.
  const Node* named = nullptr;
  for (std::size_t id = body->id + 1; id < body->id + body->subtree_size;) {
    const Node& n = tree.nodes[id];
    if (!n.is_element() || n.ns != dom::Namespace::kHtml) {
      ++id;
      continue;
    }
    if (always_removed(n) || is_hidden(n)) {
      id += n.subtree_size;
      continue;
    }
    bool has_content = parsed.stats.text[n.id] > 0;
    if ((n.is("main") || role_is(n, {"main"})) && has_content) {
      if (best_main == nullptr || parsed.stats.content(n) > parsed.stats.content(*best_main)) {
        best_main = &n;
      }
    }
    if (is_article(n) || (n.has_attr("itemprop") && *n.attr("itemprop") == "articleBody")) {
      articles.push_back(&n);
      id += n.subtree_size;  // nested articles (comments) belong to the outer one
      continue;
    }
    if (named == nullptr) {
      Names names = names_of(n);
      if (names.has_token({"main", "main-content", "maincontent", "content", "primary",
                           "post-content", "entry-content", "article-content", "article-body",
                           "post-body", "markdown-body", "page-content"})) {
        named = &n;
      }
    }
    ++id;
  }
  if (best_main != nullptr) return best_main;
  auto convincing = [&](const Node& n) {
    return body_content == 0 || parsed.stats.content(n) * 10 >= body_content * 3;
  };
  if (articles.size() == 1 && convincing(*articles.front())) return articles.front();
  if (articles.empty() && named != nullptr && convincing(*named)) return named;
  return body;
}

View make_view(const Parsed& parsed, const Options& options) {
  return Cleaner(parsed, options).run();
}

bool is_data_image(std::string_view u) {
  u = dom::trim_html_space(u);
  return u.size() >= 11 && iequals(u.substr(0, 11), "data:image/");
}

std::string absolute_url(const Parsed& parsed, std::string_view reference) {
  std::string_view trimmed = dom::trim_html_space(reference);
  if (auto u = parse_url(trimmed); u && !u->is_http()) return std::string(trimmed);
  return resolve_url_string(parsed.base, trimmed);
}

std::vector<std::string> srcset_urls(std::string_view srcset) {
  std::vector<std::string> out;
  for (auto& c : parse_srcset(srcset)) out.push_back(std::move(c.url));
  return out;
}

std::string rewrite_srcset(const Parsed& parsed, std::string_view srcset, bool drop_data) {
  std::string out;
  for (const auto& c : parse_srcset(srcset)) {
    if (drop_data && is_data_image(c.url)) continue;
    if (!out.empty()) out += ", ";
    out += absolute_url(parsed, c.url);
    if (!c.descriptor.empty()) {
      out += ' ';
      out += c.descriptor;
    }
  }
  return out;
}

std::string serialize_html(const Parsed& parsed, const View& view, const Options& options) {
  std::string out;
  for (const auto& root : view.roots) {
    if (root.children_only) {
      serialize_children(parsed, view, options, *root.node, out);
    } else {
      serialize_node(parsed, view, options, *root.node, out);
    }
  }
  return out;
}

}  // namespace webdata::mock::content
