#include "formats/actions.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "content/pipeline.hpp"
#include "formats/javascript.hpp"
#include "formats/pdf.hpp"
#include "formats/screenshot.hpp"
#include "formats/tree.hpp"

namespace webdata::mock::formats {

namespace {

using detail::dom::Node;

struct Failure {
  std::string message;
};

std::string form_encode(std::string_view s) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out;
  for (char c : s) {
    auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || c == '*' || c == '-' || c == '.' || c == '_') {
      out += c;
    } else if (c == ' ') {
      out += '+';
    } else {
      out += '%';
      out += kHex[u >> 4];
      out += kHex[u & 15];
    }
  }
  return out;
}

std::string attr_lower(const Node& n, const char* name) {
  const std::string* v = n.attr(name);
  return v != nullptr ? detail::lower(*v) : "";
}

bool is_text_field(const Node& n) {
  if (n.is("textarea")) return true;
  if (!n.is("input")) return false;
  std::string type = attr_lower(n, "type");
  return type.empty() || type == "text" || type == "search" || type == "email" ||
         type == "password" || type == "url" || type == "tel" || type == "number" || type == "date";
}

class Session {
 public:
  Session(const Navigator& navigate, const ActionSettings& settings)
      : navigate_(navigate), settings_(settings) {}

  void load(content::Page page) {
    page_ = std::move(page);
    doc_ = std::make_unique<content::Document>(content::Document::parse(page_));
    html_ = std::make_unique<detail::Html>(detail::Html::page(*doc_));
    values_.clear();
    checked_.clear();
    for (const Node& n : html_->tree().nodes) {
      if (n.is("input") && n.has_attr("checked")) checked_.insert(n.id);
    }
    focus_.reset();
    scroll_y_ = 0;
  }

  ActionsOutcome run(const content::Page& start, const nlohmann::json& actions) {
    ActionsOutcome out;
    out.result = {{"screenshots", nlohmann::json::array()},
                  {"scrapes", nlohmann::json::array()},
                  {"javascriptReturns", nlohmann::json::array()},
                  {"pdfs", nlohmann::json::array()}};
    load(start);
    std::size_t count = actions.is_array() ? actions.size() : 0;
    if (!actions.is_array() && !actions.is_null()) {
      out.error = ActionError{0, "actions must be an array"};
    } else if (count > settings_.max_actions) {
      out.error = ActionError{settings_.max_actions,
                              "too many actions: " + std::to_string(count) + " (at most " +
                                  std::to_string(settings_.max_actions) + ")"};
    }
    for (std::size_t i = 0; i < count && !out.error; ++i) {
      const nlohmann::json& action = actions[i];
      std::string type = action.is_object() ? action.value("type", "") : "";
      try {
        perform(type, action, out);
      } catch (const Failure& f) {
        out.error = ActionError{i, "action " + std::to_string(i) + " (" +
                                       (type.empty() ? "?" : type) + "): " + f.message};
      } catch (const content::SelectorError& e) {
        out.error = ActionError{i, "action " + std::to_string(i) + " (" + type + "): " + e.what()};
      }
    }
    out.final_page = page_;
    out.waited = waited_;
    return out;
  }

 private:
  static std::string string_field(const nlohmann::json& a, const char* key, bool required) {
    if (a.contains(key) && a[key].is_string()) return a[key].get<std::string>();
    if (required) throw Failure{std::string("missing string field '") + key + "'"};
    return "";
  }

  std::vector<const Node*> select(const std::string& selector) const {
    if (detail::trim(selector).empty()) throw Failure{"empty selector"};
    return detail::select_all(html_->tree(), selector);
  }

  const Node* find_required(const std::string& selector) const {
    auto found = select(selector);
    if (found.empty()) throw Failure{"no element matches selector \"" + selector + "\""};
    return found.front();
  }

  void perform(const std::string& type, const nlohmann::json& a, ActionsOutcome& out) {
    if (type == "wait") {
      bool has_ms = a.contains("milliseconds");
      bool has_selector = a.contains("selector");
      if (!has_ms && !has_selector) throw Failure{"needs milliseconds or selector"};
      if (has_ms) {
        if (!a["milliseconds"].is_number_integer() || a["milliseconds"].get<long long>() < 0) {
          throw Failure{"milliseconds must be a non-negative integer"};
        }
        waited_ += std::chrono::milliseconds(a["milliseconds"].get<long long>());
        if (waited_ > settings_.max_total_wait) {
          throw Failure{"total wait of " + std::to_string(waited_.count()) + " ms exceeds " +
                        std::to_string(settings_.max_total_wait.count()) + " ms"};
        }
      }
      if (has_selector) find_required(string_field(a, "selector", true));
    } else if (type == "click") {
      std::string selector = string_field(a, "selector", true);
      auto found = select(selector);
      if (found.empty()) throw Failure{"no element matches selector \"" + selector + "\""};
      bool all = a.value("all", false);
      std::vector<std::size_t> ids;
      for (const Node* n : found) ids.push_back(n->id);
      for (std::size_t k = 0; k < (all ? ids.size() : 1); ++k) {
        if (click(html_->tree().nodes[ids[k]])) break;  // navigated: the rest are gone
      }
    } else if (type == "write") {
      std::string text = string_field(a, "text", true);
      if (!focus_) throw Failure{"no focused field to write into (click an input first)"};
      values_[*focus_] = value_of(html_->tree().nodes[*focus_]) + text;
    } else if (type == "press") {
      press(string_field(a, "key", true));
    } else if (type == "scroll") {
      std::string direction = a.value("direction", "down");
      if (direction != "up" && direction != "down") throw Failure{"direction must be up or down"};
      if (a.contains("selector")) {
        const Node* n = find_required(string_field(a, "selector", true));
        int y = element_offset(*doc_, settings_.options, settings_.viewport_width, n->id);
        if (y >= 0) scroll_to(y);
      } else {
        scroll_to(scroll_y_ + (direction == "down" ? 1 : -1) * settings_.viewport_height);
      }
    } else if (type == "screenshot") {
      ScreenshotOptions shot;
      shot.viewport_width = settings_.viewport_width;
      shot.viewport_height = settings_.viewport_height;
      if (a.contains("viewport") && a["viewport"].is_object()) {
        shot.viewport_width = a["viewport"].value("width", shot.viewport_width);
        shot.viewport_height = a["viewport"].value("height", shot.viewport_height);
      }
      shot.full_page = a.value("fullPage", false);
      shot.scroll_y = scroll_y_;
      shot.form_values = values_;
      for (std::size_t id : checked_) shot.form_values[id] = "X";
      out.result["screenshots"].push_back(
          data_uri_png(screenshot_png(*doc_, settings_.options, shot)));
    } else if (type == "scrape") {
      out.result["scrapes"].push_back(
          {{"url", page_.url}, {"html", content::sanitize_utf8(page_.body)}});
    } else if (type == "executeJavascript") {
      std::string script = string_field(a, "script", true);
      detail::JsPage js{*html_,
                        page_.url,
                        doc_->title(),
                        settings_.viewport_width,
                        settings_.viewport_height,
                        height(),
                        values_,
                        scroll_y_,
                        std::nullopt};
      detail::JsOutcome result = detail::evaluate_javascript(script, js);
      if (!result.result)
        throw Failure{"script not supported by the mock's evaluator: " + result.error};
      scroll_y_ = js.scroll_y;
      out.result["javascriptReturns"].push_back(*result.result);
      if (js.click) click(html_->tree().nodes[*js.click]);
    } else if (type == "pdf") {
      PdfPageSetup setup;
      setup.format = a.value("format", setup.format);
      setup.landscape = a.value("landscape", false);
      if (a.contains("scale") && a["scale"].is_number()) setup.scale = a["scale"].get<double>();
      out.result["pdfs"].push_back(data_uri_pdf(page_pdf(*doc_, setup)));
    } else {
      throw Failure{type.empty() ? "missing action type" : "unknown action type \"" + type + "\""};
    }
  }

  int height() const { return page_height(*doc_, settings_.options, settings_.viewport_width); }

  void scroll_to(int y) {
    scroll_y_ = std::max(0, std::min(y, std::max(0, height() - settings_.viewport_height)));
  }

  std::string value_of(const Node& n) const {
    auto it = values_.find(n.id);
    if (it != values_.end()) return it->second;
    if (n.is("textarea")) return detail::text_of(n);
    const std::string* v = n.attr("value");
    return v != nullptr ? *v : "";
  }

  const Node* form_of(const Node& n) const {
    for (const Node* p = &n; p != nullptr; p = p->parent) {
      if (p->is("form")) return p;
    }
    // form="id" attribute
    if (const std::string* id = n.attr("form")) {
      for (const Node& f : html_->tree().nodes) {
        if (f.is("form") && f.attr("id") != nullptr && *f.attr("id") == *id) return &f;
      }
    }
    return nullptr;
  }

  void navigate(const std::string& url) {
    auto page = navigate_ ? navigate_(url) : std::nullopt;
    if (!page) throw Failure{"navigation to " + url + " failed"};
    load(std::move(*page));
  }

  // Returns true when the page changed.
  bool click(const Node& target) {
    for (const Node* p = &target; p != nullptr; p = p->parent) {
      if ((p->is("a") || p->is("area")) && p->has_attr("href")) {
        std::string href = detail::trim(*p->attr("href"));
        if (href.empty() || href[0] == '#' || detail::lower(href).rfind("javascript:", 0) == 0)
          return false;
        std::string url = html_->absolute(href);
        auto parsed = parse_url(url);
        if (!parsed || !parsed->is_http()) return false;  // mailto:, tel: open other programs
        navigate(parsed->without_fragment());
        return true;
      }
    }
    const Node& n = target;
    if (n.is("label")) {
      if (const std::string* f = n.attr("for")) {
        for (const Node& c : html_->tree().nodes) {
          if (c.is_element() && c.attr("id") != nullptr && *c.attr("id") == *f) return click(c);
        }
      }
      return false;
    }
    std::string type = attr_lower(n, "type");
    if (n.is("input") && (type == "checkbox" || type == "radio")) {
      if (type == "radio") {
        const std::string* name = n.attr("name");
        for (const Node& o : html_->tree().nodes) {
          if (o.is("input") && attr_lower(o, "type") == "radio" && name != nullptr &&
              o.attr("name") != nullptr && *o.attr("name") == *name) {
            checked_.erase(o.id);
          }
        }
        checked_.insert(n.id);
      } else if (!checked_.erase(n.id)) {
        checked_.insert(n.id);
      }
      focus_ = n.id;
      return false;
    }
    bool submit_button = (n.is("button") && (type.empty() || type == "submit")) ||
                         (n.is("input") && (type == "submit" || type == "image"));
    if (submit_button) {
      const Node* form = form_of(n);
      if (form != nullptr) return submit(*form, &n);
      return false;
    }
    if (is_text_field(n) || n.is("select") || n.is("input")) focus_ = n.id;
    return false;
  }

  bool submit(const Node& form, const Node* submitter) {
    std::string method = attr_lower(form, "method");
    if (method == "post")
      throw Failure{"submitting a POST form needs a browser; the mock follows GET forms only"};
    std::string action = form.attr("action") != nullptr ? *form.attr("action") : "";
    std::string target = html_->absolute(action.empty() ? page_.url : action);
    auto url = parse_url(target);
    if (!url || !url->is_http()) throw Failure{"form action " + target + " is not an http(s) URL"};
    std::string query;
    auto add = [&](const std::string& name, const std::string& value) {
      if (name.empty()) return;
      query += (query.empty() ? "" : "&") + form_encode(name) + "=" + form_encode(value);
    };
    for (const Node& n : html_->tree().nodes) {
      if (!n.is_element() || !n.has_ancestor(form) || n.has_attr("disabled")) continue;
      const std::string* name = n.attr("name");
      if (name == nullptr) continue;
      std::string type = attr_lower(n, "type");
      if (n.is("input")) {
        if (type == "submit" || type == "image" || type == "button" || type == "reset" ||
            type == "file") {
          if (&n == submitter) add(*name, value_of(n));
          continue;
        }
        if ((type == "checkbox" || type == "radio")) {
          if (checked_.count(n.id) > 0)
            add(*name, n.attr("value") != nullptr ? *n.attr("value") : "on");
          continue;
        }
        add(*name, value_of(n));
      } else if (n.is("textarea")) {
        add(*name, value_of(n));
      } else if (n.is("select")) {
        std::string chosen;
        bool have = false;
        for (const Node& o : html_->tree().nodes) {
          if (!o.is("option") || !o.has_ancestor(n)) continue;
          std::string v = o.attr("value") != nullptr ? *o.attr("value") : detail::text_of(o);
          if (!have || o.has_attr("selected")) chosen = v;
          if (o.has_attr("selected")) break;
          have = true;
        }
        auto it = values_.find(n.id);
        add(*name, it != values_.end() ? it->second : chosen);
      } else if (n.is("button") && &n == submitter) {
        add(*name, value_of(n));
      }
    }
    navigate(url->scheme + "://" + url->authority() + url->path + "?" + query);
    return true;
  }

  void press(const std::string& key) {
    if (key == "Enter") {
      if (!focus_) return;
      const Node& n = html_->tree().nodes[*focus_];
      if (n.is("textarea")) {
        values_[n.id] = value_of(n) + "\n";
        return;
      }
      const Node* form = form_of(n);
      if (form != nullptr) submit(*form, nullptr);
      return;
    }
    if (key == "Tab") {
      std::size_t start = focus_ ? *focus_ + 1 : 0;
      for (std::size_t id = start; id < html_->tree().nodes.size(); ++id) {
        const Node& n = html_->tree().nodes[id];
        if ((is_text_field(n) || n.is("select") || n.is("button")) && !n.has_attr("disabled")) {
          focus_ = id;
          return;
        }
      }
      focus_.reset();
      return;
    }
    if (key == "Backspace") {
      if (focus_) {
        std::string v = value_of(html_->tree().nodes[*focus_]);
        while (!v.empty() && (static_cast<unsigned char>(v.back()) & 0xC0) == 0x80) v.pop_back();
        if (!v.empty()) v.pop_back();
        values_[*focus_] = v;
      }
      return;
    }
    if (key == "PageDown" || key == "Space" || (key == " " && !focus_)) {
      scroll_to(scroll_y_ + settings_.viewport_height);
      return;
    }
    if (key == "PageUp") return scroll_to(scroll_y_ - settings_.viewport_height);
    if (key == "End") return scroll_to(height());
    if (key == "Home") return scroll_to(0);
    if (detail::utf8_length(key) == 1 && focus_ && is_text_field(html_->tree().nodes[*focus_])) {
      values_[*focus_] = value_of(html_->tree().nodes[*focus_]) + key;
    }
  }

  const Navigator& navigate_;
  const ActionSettings& settings_;
  content::Page page_;
  std::unique_ptr<content::Document> doc_;
  std::unique_ptr<detail::Html> html_;
  std::map<std::size_t, std::string> values_;
  std::set<std::size_t> checked_;
  std::optional<std::size_t> focus_;
  int scroll_y_ = 0;
  std::chrono::milliseconds waited_{0};
};

}  // namespace

ActionRunner::ActionRunner(Navigator navigate, ActionSettings settings)
    : navigate_(std::move(navigate)), settings_(std::move(settings)) {}

ActionsOutcome ActionRunner::run(const content::Page& start, const nlohmann::json& actions) const {
  Session session(navigate_, settings_);
  return session.run(start, actions);
}

}  // namespace webdata::mock::formats
