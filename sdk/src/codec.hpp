#pragma once

// JSON mapping of every model: `encode(model) -> nlohmann::json` and
// `decode(json, model&, path)`. Internal to the SDK; public headers never see nlohmann.
#include <chrono>
#include <cstring>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "errors.hpp"
#include "webdata/agent.hpp"
#include "webdata/batch_scrape.hpp"
#include "webdata/crawl.hpp"
#include "webdata/document.hpp"
#include "webdata/job_status.hpp"
#include "webdata/search.hpp"
#include "webdata/v1/crawl.hpp"
#include "webdata/v1/scrape.hpp"
#include "webdata/v1/search.hpp"
#include "webdata/webhooks.hpp"

namespace webdata::detail {

using nlohmann::json;

/// Where in a document a value sits, for error messages; a chain of stack frames, so building
/// one costs nothing until an error is reported. A path that carries `diagnostics` is inside an
/// answer of the service, read tolerantly (`Reader`): a member of an unexpected type is set aside
/// with a line there instead of failing the decode. Without it (requests, and models read on
/// their own), every member must have its type.
struct Path {
  const Path* parent = nullptr;
  const char* key = nullptr;  ///< nullptr: an array index
  std::size_t index = 0;
  Diagnostics* diagnostics = nullptr;

  Path child(const char* k) const { return Path{this, k, 0, diagnostics}; }
  Path at(std::size_t i) const { return Path{this, nullptr, i, diagnostics}; }
  /// The same place, its oddities reported to `sink` (a model that has `diagnostics`).
  Path collecting(Diagnostics& sink) const { return Path{parent, key, index, &sink}; }
  std::string str() const;
};

/// A response did not have the shape of its model.
class ParseError : public std::runtime_error {
 public:
  ParseError(const Path& path, const std::string& what);
};

[[noreturn]] void fail(const Path& path, const std::string& what);
const char* type_name(const json& j);

// Scalars.
void decode(const json& j, std::string& out, const Path& p);
void decode(const json& j, bool& out, const Path& p);
void decode(const json& j, int& out, const Path& p);
void decode(const json& j, long long& out, const Path& p);
void decode(const json& j, double& out, const Path& p);
void decode(const json& j, Json& out, const Path& p);
void decode(const json& j, std::chrono::milliseconds& out, const Path& p);
void decode(const json& j, Timestamp& out, const Path& p);
json encode(const std::string& v);
json encode(bool v);
json encode(int v);
json encode(long long v);
json encode(double v);
json encode(const Json& v);
json encode(std::chrono::milliseconds v);
json encode(const Timestamp& v);

/// Parses SDK-made or validated JSON text back into a tree.
json to_tree(const Json& v);
Json from_tree(const json& j);

template <class E>
using IfOpenEnum = std::enable_if_t<std::is_base_of_v<OpenEnum<E>, E>, int>;

template <class E, IfOpenEnum<E> = 0>
void decode(const json& j, E& out, const Path& p) {
  if (!j.is_string()) fail(p, std::string("expected a string, got ") + type_name(j));
  out = E(j.get<std::string>());
}
template <class E, IfOpenEnum<E> = 0>
json encode(const E& v) {
  return v.value();
}

// Models (declared before the container templates so that these find them).
#define WEBDATA_CODEC(T)                             \
  void decode(const json& j, T& out, const Path& p); \
  json encode(const T& v);
WEBDATA_CODEC(Viewport)
WEBDATA_CODEC(AttributeSelector)
WEBDATA_CODEC(BrowserProfile)
WEBDATA_CODEC(FormatEntry)
WEBDATA_CODEC(Action)
WEBDATA_CODEC(Location)
WEBDATA_CODEC(WebhookSpec)
WEBDATA_CODEC(Parser)
WEBDATA_CODEC(ScrapeOptions)
WEBDATA_CODEC(ScrapeRequest)
WEBDATA_CODEC(BatchScrapeRequest)
WEBDATA_CODEC(CrawlRequest)
WEBDATA_CODEC(SearchRequest)
WEBDATA_CODEC(AgentApproval)
WEBDATA_CODEC(AgentExchange)
WEBDATA_CODEC(AgentExchangeSummary)
WEBDATA_CODEC(AgentRequest)
WEBDATA_CODEC(Metadata)
WEBDATA_CODEC(ChangeTracking)
WEBDATA_CODEC(ActionScrape)
WEBDATA_CODEC(JavascriptReturn)
WEBDATA_CODEC(ActionsResult)
WEBDATA_CODEC(Document)
WEBDATA_CODEC(WebResult)
WEBDATA_CODEC(ImageResult)
WEBDATA_CODEC(NewsResult)
WEBDATA_CODEC(SearchResults)
WEBDATA_CODEC(JobStarted)
WEBDATA_CODEC(JobStatus)
WEBDATA_CODEC(JobError)
WEBDATA_CODEC(JobErrors)
WEBDATA_CODEC(ActiveCrawl)
WEBDATA_CODEC(AgentResult)
WEBDATA_CODEC(webhooks::Event)
WEBDATA_CODEC(v1::JsonOptions)
WEBDATA_CODEC(v1::ChangeTrackingOptions)
WEBDATA_CODEC(v1::ScrapeOptions)
WEBDATA_CODEC(v1::ScrapeRequest)
WEBDATA_CODEC(v1::BatchScrapeRequest)
WEBDATA_CODEC(v1::CrawlRequest)
WEBDATA_CODEC(v1::SearchRequest)
WEBDATA_CODEC(v1::SearchResults)
#undef WEBDATA_CODEC

template <class T>
void decode(const json& j, std::optional<T>& out, const Path& p) {
  if (j.is_null()) {
    out.reset();
    return;
  }
  T value{};
  decode(j, value, p);
  out = std::move(value);
}

template <class T>
void decode(const json& j, std::vector<T>& out, const Path& p) {
  if (!j.is_array()) fail(p, std::string("expected an array, got ") + type_name(j));
  out.clear();
  out.reserve(j.size());
  for (std::size_t i = 0; i < j.size(); ++i) {
    T value{};
    decode(j[i], value, p.at(i));
    out.push_back(std::move(value));
  }
}

template <class T>
void decode(const json& j, std::map<std::string, T>& out, const Path& p) {
  if (!j.is_object()) fail(p, std::string("expected an object, got ") + type_name(j));
  out.clear();
  for (const auto& [key, value] : j.items()) {
    T item{};
    decode(value, item, p.child(key.c_str()));
    out.emplace(key, std::move(item));
  }
}

template <class T>
json encode(const std::vector<T>& v) {
  json out = json::array();
  for (const auto& item : v) out.push_back(encode(item));
  return out;
}

template <class T>
json encode(const std::map<std::string, T>& v) {
  json out = json::object();
  for (const auto& [key, item] : v) out[key] = encode(item);
  return out;
}

/// How a member of a field list is read and written beyond the default (absent or null: the
/// default stays; an unset optional is left out). Bits, combined with `|`.
using Rules = unsigned;
constexpr Rules kRequired = 1U << 0;   ///< read: absent is a parse error, even in an answer
constexpr Rules kEssential = 1U << 1;  ///< read: absent or null leaves the default, any other
                                       ///< value must decode, even in an answer
constexpr Rules kOmitEmpty = 1U << 2;  ///< write: left out when empty
constexpr Rules kNullUnset = 1U << 3;  ///< write: null when unset

/// `M` is `T` or `const T`: one field list `fields(io, model)` serves the reader (`T&`) and
/// the writer (`const T&`).
template <class M, class T>
using IfModel = std::enable_if_t<std::is_same_v<std::remove_const_t<M>, T>, int>;

template <class T>
struct IsOptional : std::false_type {};
template <class T>
struct IsOptional<std::optional<T>> : std::true_type {};

template <class T, class = void>
struct HasEmpty : std::false_type {};
template <class T>
struct HasEmpty<T, std::void_t<decltype(std::declval<const T&>().empty())>> : std::true_type {};

template <class T, class = void>
struct HasExtras : std::false_type {};
template <class T>
struct HasExtras<T, std::void_t<decltype(std::declval<T&>().extras)>> : std::true_type {};

template <class T, class = void>
struct HasDiagnostics : std::false_type {};
template <class T>
struct HasDiagnostics<T, std::void_t<decltype(std::declval<T&>().diagnostics)>>
    : std::true_type {};

/// Reads the members of one JSON object into a model and remembers which keys it used, so the
/// rest can be kept as extras. Inside an answer (a path with `diagnostics`) it is a tolerant
/// reader: a known member that does not decode is left at its default, its raw JSON goes to the
/// extras with the rest, and a line names it in the diagnostics; `essential` and `req` members
/// fail the decode instead.
class Reader {
 public:
  Reader(const json& j, const Path& p) : j_(j), path_(p) {
    if (!j.is_object()) fail(p, std::string("expected an object, got ") + type_name(j));
  }
  ~Reader();
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;

  /// Absent or null: left unset.
  template <class T>
  void opt(const char* key, std::optional<T>& out);
  /// Absent or null: the model's default stays.
  template <class T>
  void val(const char* key, T& out);
  /// A member the caller cannot go on without (a job's `status`, its `data`): absent or null
  /// leaves the default, any other value must decode, or the whole answer is refused.
  template <class T>
  void essential(const char* key, T& out);
  /// Absent: a parse error.
  template <class T>
  void req(const char* key, T& out);
  /// A member of a field list, read as `rules` say (kRequired, kEssential; the writing rules
  /// do not matter here): by default `opt` for an optional, `val` for any other type.
  template <class T>
  void operator()(const char* key, T& out, Rules rules = 0);
  /// Member `key`, when present and not null, read by `Codec::read(value, out, path)`: for a
  /// member whose wire form is not its type's own. Not tolerant: a ParseError fails the model.
  template <class T, class Codec>
  void with(const char* key, T& out, Codec codec);
  /// Reads member `key` without taking it: it stays in the extras too.
  template <class T>
  void also(const char* key, T& out);
  /// The end of a field list: every member not read goes to `out`. (`owner` is the writer's.)
  void extras(Extras& out, const char* /*owner*/ = nullptr) { rest(out); }
  /// An array member, each element made by `item(element, path)`; absent or null: left empty.
  /// For lists whose elements are read differently from their model's own codec.
  template <class T, class Item>
  void each(const char* key, std::vector<T>& out, Item item);
  /// Member `key`, when present and not null, read by `step(value, path)`: for members read
  /// differently from their type's own codec, with the same tolerance.
  template <class T, class Step>
  void custom(const char* key, T& out, Step step);
  /// Marks a key as handled without reading it.
  void skip(const char* key) { seen_.push_back(key); }
  const json* find(const char* key) {
    seen_.push_back(key);
    auto it = j_.find(key);
    return it == j_.end() ? nullptr : &*it;
  }
  bool seen(const std::string& key) const;
  /// Every member not read so far, and every member set aside (with its diagnostic line).
  void rest(Extras& out);
  /// `rest` of a nested object, each key put under its `owner` ("data" makes "data.key").
  void rest_under(const char* owner, Extras& out);

 private:
  template <class T>
  void read(const char* key, const json& v, T& out) {
    tolerating(key, out, [&] { decode(v, out, path_.child(key)); });
  }
  /// Runs `step`, which fills `out` from member `key`; in an answer, a ParseError sets the
  /// member aside and resets `out` (a list may have been half filled).
  template <class T, class Step>
  void tolerating(const char* key, T& out, Step step);

  const json& j_;
  const Path& path_;
  std::vector<const char*> seen_;
  /// Members that did not decode: key and what was wrong, until `rest` or the end reports them.
  std::vector<std::pair<const char*, std::string>> set_aside_;
};

template <class T>
void Reader::opt(const char* key, std::optional<T>& out) {
  if (const json* v = find(key); v != nullptr) read(key, *v, out);
}
template <class T>
void Reader::val(const char* key, T& out) {
  if (const json* v = find(key); v != nullptr && !v->is_null()) read(key, *v, out);
}
template <class T>
void Reader::essential(const char* key, T& out) {
  if (const json* v = find(key); v != nullptr && !v->is_null()) decode(*v, out, path_.child(key));
}
template <class T>
void Reader::req(const char* key, T& out) {
  const json* v = find(key);
  if (v == nullptr) fail(path_, std::string("missing required key \"") + key + "\"");
  decode(*v, out, path_.child(key));
}
template <class T>
void Reader::operator()(const char* key, T& out, Rules rules) {
  if (rules & kRequired) return req(key, out);
  if (rules & kEssential) return essential(key, out);
  if constexpr (IsOptional<T>::value) {
    opt(key, out);
  } else {
    val(key, out);
  }
}
template <class T, class Codec>
void Reader::with(const char* key, T& out, Codec /*codec*/) {
  if (const json* v = find(key); v != nullptr && !v->is_null()) {
    Codec::read(*v, out, path_.child(key));
  }
}
template <class T>
void Reader::also(const char* key, T& out) {
  if (auto it = j_.find(key); it != j_.end()) read(key, *it, out);
}
template <class T, class Item>
void Reader::each(const char* key, std::vector<T>& out, Item item) {
  const json* v = find(key);
  if (v == nullptr || v->is_null()) return;
  tolerating(key, out, [&] {
    const Path list = path_.child(key);
    if (!v->is_array()) fail(list, std::string("expected an array, got ") + type_name(*v));
    for (std::size_t i = 0; i < v->size(); ++i) out.push_back(item((*v)[i], list.at(i)));
  });
}
template <class T, class Step>
void Reader::custom(const char* key, T& out, Step step) {
  const json* v = find(key);
  if (v == nullptr || v->is_null()) return;
  tolerating(key, out, [&] { step(*v, path_.child(key)); });
}
template <class T, class Step>
void Reader::tolerating(const char* key, T& out, Step step) {
  if (path_.diagnostics == nullptr) return step();
  try {
    step();
  } catch (const ParseError& e) {
    out = T{};
    set_aside_.emplace_back(key, e.what());
  }
}

/// Writes members of one JSON object, leaving unset optionals out; the other side of `Reader`,
/// so that one field list (`fields(io, model)`) serves both.
class Writer {
 public:
  template <class T>
  void opt(const char* key, const std::optional<T>& v) {
    if (v) out[key] = encode(*v);
  }
  template <class T>
  void val(const char* key, const T& v) {
    out[key] = encode(v);
  }
  /// A member of a field list, written as `rules` say (kOmitEmpty, kNullUnset).
  template <class T>
  void operator()(const char* key, const std::optional<T>& v, Rules rules = 0) {
    if (!v && (rules & kNullUnset)) out[key] = nullptr;
    opt(key, v);
  }
  template <class T>
  void operator()(const char* key, const T& v, Rules rules = 0) {
    if ((rules & kOmitEmpty) && is_empty(v)) return;
    val(key, v);
  }
  /// Member `key` as `Codec::write(v)` makes it; a null result leaves it out.
  template <class T, class Codec>
  void with(const char* key, const T& v, Codec /*codec*/) {
    json member = Codec::write(v);
    if (!member.is_null()) out[key] = std::move(member);
  }
  template <class T>
  void also(const char* key, const T& v) {
    (*this)(key, v);
  }
  /// The end of a field list: the extras not written already. Those of `owner` ("data": the
  /// key itself and "data.*") belong to that member's own object and are not repeated here.
  void extras(const Extras& extras, const char* owner = nullptr) {
    for (const auto& [key, value] : extras) {
      if (owner != nullptr && owned_by(key, owner)) continue;
      if (!out.contains(key)) out[key] = to_tree(value);
    }
  }
  json out = json::object();

 private:
  template <class T>
  static bool is_empty(const T& v) {
    if constexpr (HasEmpty<T>::value) {
      return v.empty();
    } else {
      return false;
    }
  }
  static bool owned_by(const std::string& key, const char* owner);
};

/// Decodes a model from the field list `fields(Reader&, T&)`; a model with `diagnostics`
/// collects the oddities of the answer there.
template <class T>
void read_fields(const json& j, T& out, const Path& p) {
  if constexpr (HasDiagnostics<T>::value) {
    const Path here = p.collecting(out.diagnostics);
    Reader r(j, here);
    fields(r, out);
  } else {
    Reader r(j, p);
    fields(r, out);
  }
}

/// Encodes a model from the same field list, `fields(Writer&, const T&)`.
template <class T>
json write_fields(const T& v) {
  Writer w;
  fields(w, v);
  return std::move(w.out);
}

/// Member codec (`io.with`) of a nested model that has a field list but no `encode` of its own
/// (a request's option object): written as its list makes it, left out when unset.
struct OwnFields {
  template <class T>
  static json write(const std::optional<T>& v) {
    return v ? write_fields(*v) : json();
  }
};

/// `decode` and `encode` of a model that has a field list and nothing else to it.
#define WEBDATA_FIELDS_CODEC(T)                    \
  void decode(const json& j, T& out, const Path& p) { \
    read_fields(j, out, p);                         \
  }                                                 \
  json encode(const T& v) { return write_fields(v); }

/// Decodes a document from JSON text that `scan_json` accepted (a whole answer or a slice of
/// one) without building a tree when the document has the common shape; any other shape
/// (wrong types, duplicate keys, ...) goes through `decode` on a tree, so the result and the
/// ParseError are always the tree decoder's.
void decode_document_text(std::string_view text, Document& out, const Path& p);

/// The value of a JSON string `scan_json` accepted, quotes included.
std::string unescape_json_string(std::string_view quoted);

/// Parses a response body into a tree; a kParse error for anything that is not JSON.
Result<json> parse_body(const std::string& body);

/// The kParse error of a body that is not JSON (empty, truncated, garbage).
Error not_json_error(const std::string& body);

/// The kParse error of an answer the caller cannot go on with: "unexpected <what>: <why> (it
/// begins: <the first characters of `text`>)", `why` naming the member ("at status: ...").
Error shape_error(const char* what, const std::string& why, std::string_view text);

/// Compact JSON text of a tree, for messages.
std::string tree_text(const json& j);

/// Decodes a tree into a model, turning shape errors into kParse errors naming the path and
/// showing how the answer begins (`text`, the answer as received, or else the tree's text).
template <class T>
Result<T> decode_tree(const json& j, const char* what, std::string_view text = {}) {
  try {
    T out{};
    decode(j, out, Path{});
    return out;
  } catch (const ParseError& e) {
    if (!text.empty()) return shape_error(what, e.what(), text);
    return shape_error(what, e.what(), tree_text(j));
  }
}

}  // namespace webdata::detail
