#include "formats/javascript.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <vector>

#include "core/url.hpp"

namespace webdata::mock::formats::detail {

namespace {

using dom::Node;

struct JsError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Token {
  enum Kind { kIdent, kString, kNumber, kPunct, kEnd } kind = kEnd;
  std::string text;
  double number = 0;
};

std::vector<Token> tokenize(std::string_view s) {
  std::vector<Token> out;
  std::size_t i = 0;
  while (i < s.size()) {
    char c = s[i];
    if (c == '\n') {
      out.push_back({Token::kPunct, ";", 0});
      ++i;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
      while (i < s.size() && s[i] != '\n') ++i;
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$') {
      std::size_t b = i;
      while (i < s.size() &&
             (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_' || s[i] == '$'))
        ++i;
      out.push_back({Token::kIdent, std::string(s.substr(b, i - b)), 0});
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      std::size_t b = i;
      while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '.')) ++i;
      std::string text(s.substr(b, i - b));
      out.push_back({Token::kNumber, text, std::strtod(text.c_str(), nullptr)});
    } else if (c == '\'' || c == '"' || c == '`') {
      std::string text;
      ++i;
      while (i < s.size() && s[i] != c) {
        if (s[i] == '\\' && i + 1 < s.size()) {
          char e = s[++i];
          text += e == 'n' ? '\n' : e == 't' ? '\t' : e;
        } else {
          if (c == '`' && s[i] == '$' && i + 1 < s.size() && s[i + 1] == '{') {
            throw JsError("template literal substitutions are not supported");
          }
          text += s[i];
        }
        ++i;
      }
      if (i >= s.size()) throw JsError("unterminated string literal");
      ++i;
      out.push_back({Token::kString, text, 0});
    } else if (std::string_view("().,[];+").find(c) != std::string_view::npos) {
      out.push_back({Token::kPunct, std::string(1, c), 0});
      ++i;
    } else {
      throw JsError(std::string("unsupported syntax '") + c + "'");
    }
  }
  out.push_back({Token::kEnd, "", 0});
  return out;
}

struct Value {
  enum Kind {
    kUndefined,
    kNull,
    kBool,
    kNumber,
    kString,
    kElement,
    kList,
    kHost,
    kMethod
  } kind = kUndefined;
  bool b = false;
  double n = 0;
  std::string s;  // string value, host name ("window", "document", "location"), method name
  const Node* element = nullptr;
  std::vector<const Node*> list;
  std::shared_ptr<Value> self;  // the receiver of a method
};

Value undefined() {
  return {};
}
Value str(std::string s) {
  Value v;
  v.kind = Value::kString;
  v.s = std::move(s);
  return v;
}
Value num(double n) {
  Value v;
  v.kind = Value::kNumber;
  v.n = n;
  return v;
}
Value boolean(bool b) {
  Value v;
  v.kind = Value::kBool;
  v.b = b;
  return v;
}
Value host(const char* name) {
  Value v;
  v.kind = Value::kHost;
  v.s = name;
  return v;
}
Value element(const Node* n) {
  if (n == nullptr) {
    Value v;
    v.kind = Value::kNull;
    return v;
  }
  Value v;
  v.kind = Value::kElement;
  v.element = n;
  return v;
}
Value list(std::vector<const Node*> nodes) {
  Value v;
  v.kind = Value::kList;
  v.list = std::move(nodes);
  return v;
}
Value method(const Value& self, std::string name) {
  Value v;
  v.kind = Value::kMethod;
  v.s = std::move(name);
  v.self = std::make_shared<Value>(self);
  return v;
}

std::string number_text(double n) {
  if (std::isnan(n)) return "NaN";
  if (std::floor(n) == n && std::fabs(n) < 1e15) return std::to_string(static_cast<long long>(n));
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.15g", n);
  return buf;
}

std::string to_string(const Value& v) {
  switch (v.kind) {
    case Value::kUndefined:
      return "undefined";
    case Value::kNull:
      return "null";
    case Value::kBool:
      return v.b ? "true" : "false";
    case Value::kNumber:
      return number_text(v.n);
    case Value::kString:
      return v.s;
    case Value::kElement:
      return "[object HTML" + std::string(v.element->name == "a" ? "Anchor" : "") + "Element]";
    case Value::kList:
      return "[object NodeList]";
    case Value::kHost:
      return "[object " + v.s + "]";
    case Value::kMethod:
      return "function " + v.s + "() { [native code] }";
  }
  return "";
}

nlohmann::json to_json(const Value& v) {
  switch (v.kind) {
    case Value::kNull:
      return nullptr;
    case Value::kBool:
      return v.b;
    case Value::kNumber:
      if (std::floor(v.n) == v.n && std::fabs(v.n) < 1e15) return static_cast<long long>(v.n);
      return v.n;
    case Value::kString:
      return v.s;
    default:
      return nlohmann::json::object();  // DOM objects do not serialize (as in a browser)
  }
}

std::string type_of(const Value& v) {
  switch (v.kind) {
    case Value::kUndefined:
      return "undefined";
    case Value::kBool:
      return "boolean";
    case Value::kNumber:
      return "number";
    case Value::kString:
      return "string";
    case Value::kMethod:
      return "function";
    default:
      return "object";
  }
}

class Evaluator {
 public:
  Evaluator(std::vector<Token> tokens, JsPage& page) : t_(std::move(tokens)), page_(page) {}

  Value program() {
    Value last;
    bool returned = false;
    while (peek().kind != Token::kEnd) {
      if (accept(";")) continue;
      bool is_return = peek().kind == Token::kIdent && peek().text == "return";
      if (is_return) ++pos_;
      Value v = (is_return && (peek().text == ";" || peek().kind == Token::kEnd)) ? undefined()
                                                                                  : expression();
      if (!returned) last = v;
      if (is_return) returned = true;
      if (peek().kind != Token::kEnd && !accept(";"))
        throw JsError("expected ';' before '" + peek().text + "'");
    }
    return last;
  }

 private:
  const Token& peek() const { return t_[pos_]; }
  bool accept(const char* punct) {
    if (peek().kind == Token::kPunct && peek().text == punct) {
      ++pos_;
      return true;
    }
    return false;
  }
  void expect(const char* punct) {
    if (!accept(punct)) throw JsError(std::string("expected '") + punct + "'");
  }

  Value expression() {
    Value left = postfix();
    while (accept("+")) {
      Value right = postfix();
      if (left.kind == Value::kNumber && right.kind == Value::kNumber)
        left = num(left.n + right.n);
      else
        left = str(to_string(left) + to_string(right));
    }
    return left;
  }

  Value primary() {
    Token tok = peek();
    ++pos_;
    switch (tok.kind) {
      case Token::kString:
        return str(tok.text);
      case Token::kNumber:
        return num(tok.number);
      case Token::kPunct:
        if (tok.text == "(") {
          Value v = expression();
          expect(")");
          return v;
        }
        throw JsError("unexpected '" + tok.text + "'");
      case Token::kEnd:
        throw JsError("unexpected end of script");
      case Token::kIdent:
        break;
    }
    const std::string& id = tok.text;
    if (id == "true" || id == "false") return boolean(id == "true");
    if (id == "null") return element(nullptr);
    if (id == "undefined") return undefined();
    if (id == "window" || id == "globalThis" || id == "self") return host("window");
    if (id == "document") return host("document");
    if (id == "location") return host("location");
    if (id == "JSON") return host("JSON");
    if (id == "scrollTo" || id == "scrollBy") return method(host("window"), id);
    if (id == "return") throw JsError("'return' inside an expression");
    throw JsError("'" + id + "' is not supported");
  }

  Value postfix() {
    Value v = primary();
    for (;;) {
      if (accept(".")) {
        if (peek().kind != Token::kIdent) throw JsError("expected a property name after '.'");
        std::string name = peek().text;
        ++pos_;
        v = member(v, name);
      } else if (accept("[")) {
        Value index = expression();
        expect("]");
        if (v.kind == Value::kList && index.kind == Value::kNumber) {
          auto i = static_cast<long long>(index.n);
          v = i >= 0 && static_cast<std::size_t>(i) < v.list.size()
                  ? element(v.list[static_cast<std::size_t>(i)])
                  : undefined();
        } else if (index.kind == Value::kString) {
          v = member(v, index.s);
        } else {
          throw JsError("unsupported index expression");
        }
      } else if (accept("(")) {
        std::vector<Value> args;
        if (!accept(")")) {
          do {
            args.push_back(expression());
          } while (accept(","));
          expect(")");
        }
        v = call(v, args);
      } else {
        return v;
      }
    }
  }

  std::string location_part(const std::string& part) const {
    auto u = parse_url(page_.url);
    if (!u) return part == "href" ? page_.url : "";
    const std::string host = u->host_header();
    const std::string hostname = u->host.find(':') != std::string::npos ? "[" + u->host + "]" : u->host;
    if (part == "href") return u->str();
    if (part == "protocol") return u->scheme + ":";
    if (part == "host") return host;
    if (part == "hostname") return hostname;
    if (part == "pathname") return u->path.empty() ? "/" : u->path;
    if (part == "search") return u->query && !u->query->empty() ? "?" + *u->query : "";
    if (part == "hash") return u->fragment && !u->fragment->empty() ? "#" + *u->fragment : "";
    if (part == "origin") return u->scheme + "://" + host;
    throw JsError("location." + part + " is not supported");
  }

  const Node* root() const { return page_.html.tree().document; }

  std::vector<const Node*> query(const Node* scope, const std::string& selector) const {
    std::vector<const Node*> out;
    try {
      for (const Node* n : select_all(page_.html.tree(), selector)) {
        if (scope == nullptr || n->has_ancestor(*scope)) out.push_back(n);
      }
    } catch (const std::exception& e) {
      throw JsError(std::string("querySelector: ") + e.what());
    }
    return out;
  }

  Value member(const Value& v, const std::string& name) {
    if (v.kind == Value::kHost && v.s == "window") {
      if (name == "location") return host("location");
      if (name == "document") return host("document");
      if (name == "innerWidth") return num(page_.viewport_width);
      if (name == "innerHeight") return num(page_.viewport_height);
      if (name == "scrollY" || name == "pageYOffset") return num(page_.scroll_y);
      if (name == "scrollX" || name == "pageXOffset") return num(0);
      if (name == "scrollTo" || name == "scrollBy" || name == "scroll") return method(v, name);
    }
    if (v.kind == Value::kHost && v.s == "document") {
      if (name == "title") return str(page_.title);
      if (name == "URL" || name == "documentURI") return str(page_.url);
      if (name == "domain") return str(location_part("hostname"));
      if (name == "readyState") return str("complete");
      if (name == "location") return host("location");
      if (name == "body") return element(page_.html.tree().body);
      if (name == "head") return element(page_.html.tree().head);
      if (name == "documentElement") return element(page_.html.tree().html);
      if (name == "querySelector" || name == "querySelectorAll" || name == "getElementById" ||
          name == "getElementsByTagName" || name == "getElementsByClassName") {
        return method(v, name);
      }
    }
    if (v.kind == Value::kHost && v.s == "location") return str(location_part(name));
    if (v.kind == Value::kHost && v.s == "JSON" && name == "stringify") return method(v, name);
    if (v.kind == Value::kElement) {
      const Node& n = *v.element;
      if (name == "textContent" || name == "innerText") return str(text_of(n));
      if (name == "tagName" || name == "nodeName") {
        std::string t = n.name;
        for (auto& c : t) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        return str(t);
      }
      if (name == "id" || name == "className") {
        const std::string* a = n.attr(name == "id" ? "id" : "class");
        return str(a != nullptr ? *a : "");
      }
      if (name == "href" || name == "src" || name == "action") {
        const std::string* a = n.attr(name);
        return str(a != nullptr ? page_.html.absolute(*a) : "");
      }
      if (name == "value") {
        auto it = page_.values.find(n.id);
        if (it != page_.values.end()) return str(it->second);
        const std::string* a = n.attr("value");
        return str(a != nullptr ? *a : n.is("textarea") ? text_of(n) : "");
      }
      bool page_box = &n == page_.html.tree().body || &n == page_.html.tree().html;
      if (page_box && (name == "scrollHeight" || name == "offsetHeight"))
        return num(page_.page_height);
      if (page_box && name == "clientHeight") return num(page_.viewport_height);
      if (page_box && name == "scrollTop") return num(page_.scroll_y);
      if (name == "children") {
        std::vector<const Node*> kids;
        for (const Node* c : n.children) {
          if (c->is_element()) kids.push_back(c);
        }
        return list(kids);
      }
      if (name == "getAttribute" || name == "hasAttribute" || name == "querySelector" ||
          name == "querySelectorAll" || name == "click" || name == "scrollIntoView") {
        return method(v, name);
      }
      if (name == "innerHTML" || name == "outerHTML") {
        throw JsError("element." + name + " is not supported (use a scrape action for HTML)");
      }
    }
    if (v.kind == Value::kList) {
      if (name == "length") return num(static_cast<double>(v.list.size()));
      if (name == "item") return method(v, name);
    }
    if (v.kind == Value::kString) {
      if (name == "length") return num(static_cast<double>(utf8_length(v.s)));
      if (name == "trim" || name == "toUpperCase" || name == "toLowerCase") return method(v, name);
    }
    if (v.kind == Value::kNull || v.kind == Value::kUndefined) {
      throw JsError("TypeError: cannot read properties of " + to_string(v) + " (reading '" + name +
                    "')");
    }
    throw JsError("property '" + name + "' of " + to_string(v) + " is not supported");
  }

  Value call(const Value& fn, const std::vector<Value>& args) {
    if (fn.kind != Value::kMethod) throw JsError(to_string(fn) + " is not a function");
    const Value& self = *fn.self;
    const std::string& name = fn.s;
    auto arg_string = [&](std::size_t i) {
      if (i >= args.size()) throw JsError(name + ": missing argument");
      return to_string(args[i]);
    };
    auto arg_number = [&](std::size_t i) {
      if (i >= args.size()) return 0.0;
      if (args[i].kind == Value::kNumber) return args[i].n;
      return std::strtod(to_string(args[i]).c_str(), nullptr);
    };
    const Node* scope = self.kind == Value::kElement ? self.element : nullptr;
    if (name == "querySelector") {
      auto found = query(scope, arg_string(0));
      return element(found.empty() ? nullptr : found.front());
    }
    if (name == "querySelectorAll") return list(query(scope, arg_string(0)));
    if (name == "getElementById") {
      for (const Node& n : page_.html.tree().nodes) {
        const std::string* id = n.attr("id");
        if (n.is_element() && id != nullptr && *id == arg_string(0)) return element(&n);
      }
      return element(nullptr);
    }
    if (name == "getElementsByTagName") {
      std::string tag = lower(arg_string(0));
      std::vector<const Node*> out;
      for (const Node& n : page_.html.tree().nodes) {
        if (n.is_element() && (tag == "*" || n.name == tag)) out.push_back(&n);
      }
      return list(out);
    }
    if (name == "getElementsByClassName") {
      std::string cls = arg_string(0);
      std::vector<const Node*> out;
      for (const Node& n : page_.html.tree().nodes) {
        const std::string* c = n.attr("class");
        if (!n.is_element() || c == nullptr) continue;
        for (const auto& w : split_words(*c)) {
          if (w == cls) {
            out.push_back(&n);
            break;
          }
        }
      }
      return list(out);
    }
    if (name == "scrollTo" || name == "scroll") {
      page_.scroll_y = static_cast<int>(arg_number(args.size() >= 2 ? 1 : 0));
      clamp_scroll();
      return undefined();
    }
    if (name == "scrollBy") {
      page_.scroll_y += static_cast<int>(arg_number(args.size() >= 2 ? 1 : 0));
      clamp_scroll();
      return undefined();
    }
    if (name == "getAttribute") {
      const std::string* a = self.element->attr(lower(arg_string(0)));
      return a != nullptr ? str(*a) : element(nullptr);
    }
    if (name == "hasAttribute") return boolean(self.element->has_attr(lower(arg_string(0))));
    if (name == "click") {
      page_.click = self.element->id;
      return undefined();
    }
    if (name == "scrollIntoView")
      throw JsError("scrollIntoView() is not supported (use a scroll action with a selector)");
    if (name == "item") {
      auto i = static_cast<long long>(arg_number(0));
      return i >= 0 && static_cast<std::size_t>(i) < self.list.size()
                 ? element(self.list[static_cast<std::size_t>(i)])
                 : element(nullptr);
    }
    if (name == "trim") return str(trim(self.s));
    if (name == "toUpperCase" || name == "toLowerCase") {
      std::string s = self.s;
      for (auto& c : s) {
        c = static_cast<char>(name == "toUpperCase" ? std::toupper(static_cast<unsigned char>(c))
                                                    : std::tolower(static_cast<unsigned char>(c)));
      }
      return str(s);
    }
    if (name == "stringify") return args.empty() ? undefined() : str(to_json(args[0]).dump());
    throw JsError(name + "() is not supported");
  }

  void clamp_scroll() {
    int max = std::max(0, page_.page_height - page_.viewport_height);
    page_.scroll_y = std::max(0, std::min(page_.scroll_y, max));
  }

  std::vector<Token> t_;
  std::size_t pos_ = 0;
  JsPage& page_;
};

}  // namespace

JsOutcome evaluate_javascript(std::string_view script, JsPage& page) {
  JsOutcome out;
  try {
    Evaluator evaluator(tokenize(script), page);
    Value v = evaluator.program();
    nlohmann::json result = {{"type", type_of(v)}};
    if (v.kind != Value::kUndefined) result["value"] = to_json(v);
    out.result = result;
  } catch (const JsError& e) {
    out.error = e.what();
  }
  return out;
}

}  // namespace webdata::mock::formats::detail
