// Documents decoded from their own text, without a tree of the whole answer: a scrape's
// document, and the documents of a status chunk one at a time (bench/analysis.md).
#include <algorithm>

#include "document_fields.hpp"
#include "json_scan.hpp"
#include "status_chunk.hpp"

namespace webdata::detail {
namespace {

// The fast path met a shape whose result or error only the tree decoder gives right.
struct UncommonShape {};

std::string_view slice_of(std::string_view text, JsonSpan span) {
  return text.substr(span.begin, span.end - span.begin);
}

std::size_t skip_space(std::string_view v, std::size_t i) {
  while (i < v.size() && (v[i] == ' ' || v[i] == '\t' || v[i] == '\n' || v[i] == '\r')) ++i;
  return i;
}

// Members of a scanned object, refused when a key repeats (a tree keeps the last one).
std::optional<ScannedJson> unique_members(std::string_view text) {
  auto scanned = scan_json(text);
  if (!scanned || !scanned->is_object) throw UncommonShape{};
  std::vector<std::string_view> keys;
  keys.reserve(scanned->members.size());
  for (const auto& m : scanned->members) keys.emplace_back(m.key);
  std::sort(keys.begin(), keys.end());
  if (std::adjacent_find(keys.begin(), keys.end()) != keys.end()) throw UncommonShape{};
  return scanned;
}

void fast_value(std::string_view v, std::optional<std::string>& out, const Path& /*p*/) {
  if (v == "null") return;
  if (v.front() != '"') throw UncommonShape{};
  out = unescape_json_string(v);
}

void fast_value(std::string_view v, std::optional<std::vector<std::string>>& out,
                const Path& /*p*/) {
  if (v == "null") return;
  if (v.front() != '[') throw UncommonShape{};
  std::vector<std::string> items;
  std::size_t i = skip_space(v, 1);
  while (v[i] != ']') {
    if (v[i] != '"') throw UncommonShape{};
    std::size_t end = i + 1;
    while (v[end] != '"') end += v[end] == '\\' ? 2 : 1;
    items.push_back(unescape_json_string(v.substr(i, end + 1 - i)));
    i = skip_space(v, end + 1);
    if (v[i] == ',') i = skip_space(v, i + 1);
  }
  out = std::move(items);
}

void fast_value(std::string_view v, std::optional<int>& out, const Path& /*p*/) {
  if (v == "null") return;
  std::size_t i = v.front() == '-' ? 1 : 0;
  if (v.size() - i > 9 || v.size() == i) throw UncommonShape{};  // past int's range: the tree says
  long long value = 0;
  for (; i < v.size(); ++i) {
    if (v[i] < '0' || v[i] > '9') throw UncommonShape{};  // a fraction or an exponent
    value = value * 10 + (v[i] - '0');
  }
  out = static_cast<int>(v.front() == '-' ? -value : value);
}

template <class T>
void via_text(std::string_view v, std::optional<T>& out, const Path& p) {
  std::optional<std::string> text;
  fast_value(v, text, p);
  if (text) out = T(std::move(*text));
}
void fast_value(std::string_view v, std::optional<ProxyMode>& out, const Path& p) {
  via_text(v, out, p);
}
void fast_value(std::string_view v, std::optional<Timestamp>& out, const Path& p) {
  std::optional<std::string> text;
  fast_value(v, text, p);
  if (text) out = Timestamp::from_text(std::move(*text));
}

// Members this path does not read itself: through a tree of the member alone.
template <class T>
void fast_value(std::string_view v, std::optional<T>& out, const Path& p) {
  const json tree = json::parse(v);
  decode(tree, out, p);
}

void fast_value(std::string_view v, Metadata& out, const Path& p);

// The object `text` as a `Model`: each member its field list `list(io, model)` names read by
// `fast_value`, each other member given to `other(model, key, value)`.
template <class Model, class List, class Other>
Model fast_members(std::string_view text, const Path& p, List list, Other other) {
  const auto scanned = unique_members(text);
  Model model;
  for (const auto& member : scanned->members) {
    const std::string_view value = slice_of(text, member.value);
    bool known = false;
    auto io = [&](const char* key, auto& field) {
      if (known || member.key != key) return;
      known = true;
      fast_value(value, field, p.child(key));
    };
    list(io, model);
    if (!known) other(model, member.key, value);
  }
  return model;
}

void fast_value(std::string_view v, Metadata& out, const Path& p) {
  if (v == "null") return;
  out = fast_members<Metadata>(
      v, p, [](auto& io, Metadata& m) { metadata_fields(io, m); },
      [](Metadata& m, const std::string& key, std::string_view value) {
        if (value.front() == '"') {
          m.extras.emplace(key, unescape_json_string(value));
        } else {
          m.extras.emplace(key, to_metadata_value(from_tree(json::parse(value))));
        }
      });
}

}  // namespace

void decode_document_text(std::string_view text, Document& out, const Path& p) {
  try {
    out = fast_members<Document>(
        text, p, [](auto& io, Document& d) { document_fields(io, d); },
        [](Document& d, const std::string& key, std::string_view value) {
          d.extras.emplace(key, from_tree(json::parse(value)));
        });
    return;
  } catch (const UncommonShape&) {
  } catch (const ParseError&) {
  }
  const json tree = json::parse(text, nullptr, false);
  if (tree.is_discarded()) fail(p, "not valid JSON");
  decode(tree, out, p);
}

namespace {

constexpr const char* kDocumentsKey = "data";

// Indexes a status answer: `rest` gets every top-level member but an array `data` as a tree
// (later duplicates win, as in a DOM), `documents` the range of each element of that array.
// False when the text is not JSON.
bool index_status(std::string_view text, json& rest, std::vector<JsonSpan>& documents) {
  auto scanned = scan_json(text, kDocumentsKey);
  if (!scanned) return false;
  documents.clear();
  if (!scanned->is_object) {
    // Not an object: kept whole, so the head decode reports it as it always did.
    rest = json::parse(text, nullptr, false);
    return !rest.is_discarded();
  }
  rest = json::object();
  for (std::size_t i = 0; i < scanned->members.size(); ++i) {
    const ScannedMember& member = scanned->members[i];
    const bool is_data = member.key == kDocumentsKey;
    if (is_data && i != scanned->split) continue;  // an earlier duplicate, which a DOM drops
    const std::string_view slice =
        text.substr(member.value.begin, member.value.end - member.value.begin);
    if (is_data && slice.front() == '[') continue;  // the documents: decoded one at a time
    auto value = json::parse(slice, nullptr, false);
    if (value.is_discarded()) return false;
    rest[member.key] = std::move(value);
  }
  documents = std::move(scanned->elements);
  return true;
}

Result<Document> decode_document_at(std::string_view text, JsonSpan span, std::size_t index,
                                    const char* what) {
  const Path root;
  const Path in_data = root.child(kDocumentsKey);
  const Path at = in_data.at(index);
  try {
    Document doc;
    decode_document_text(slice_of(text, span), doc, at);
    return Result<Document>(std::move(doc));
  } catch (const ParseError& e) {
    return shape_error(what, e.what(), slice_of(text, span));
  }
}

std::optional<Error> append_documents(std::string_view text, const std::vector<JsonSpan>& spans,
                                      std::size_t first_index, const char* what,
                                      std::vector<Document>& out) {
  out.reserve(out.size() + spans.size());
  for (std::size_t i = 0; i < spans.size(); ++i) {
    auto doc = decode_document_at(text, spans[i], first_index + i, what);
    if (!doc.ok()) return doc.error();
    out.push_back(std::move(doc).value());
  }
  return std::nullopt;
}

}  // namespace

Result<StatusChunk> StatusChunk::scan(std::string body) {
  StatusChunk chunk;
  if (!index_status(body, chunk.rest_, chunk.documents_)) return not_json_error(body);
  chunk.body_ = std::move(body);
  return Result<StatusChunk>(std::move(chunk));
}

bool StatusChunk::reports_failure() const {
  if (!rest_.is_object()) return false;
  const auto it = rest_.find("success");
  // A failed job answers 200 with `success: false` *and* `status: "failed"` (and its `error`):
  // that is the job's state, read like any other; without a status it is an API error.
  const auto status = rest_.find("status");
  if (status != rest_.end() && status->is_string()) return false;
  return it != rest_.end() && *it == false;
}

std::optional<Error> StatusChunk::decode_head(const char* what) {
  what_ = what;
  auto head = decode_tree<JobStatus>(rest_, what, body_);
  rest_ = json();
  if (!head.ok()) return head.error();
  head_ = std::move(head).value();
  return std::nullopt;
}

Result<Document> StatusChunk::document(std::size_t index) const {
  return decode_document_at(body_, documents_.at(index), dropped_ + index, what_);
}

void StatusChunk::drop_front(std::size_t count) {
  count = std::min(count, documents_.size());
  documents_.erase(documents_.begin(), documents_.begin() + static_cast<std::ptrdiff_t>(count));
  dropped_ += count;
}

Result<JobStatus> StatusChunk::take_all() && {
  if (auto err = append_documents(body_, documents_, dropped_, what_, head_.data)) return *err;
  return std::move(head_);
}

std::optional<Result<JobStatus>> decode_status_text(std::string_view text, const char* what) {
  json rest;
  std::vector<JsonSpan> documents;
  if (!index_status(text, rest, documents)) return std::nullopt;
  auto status = decode_tree<JobStatus>(rest, what);
  rest = json();
  if (!status.ok()) return status;
  if (auto err = append_documents(text, documents, 0, what, status->data)) {
    return Result<JobStatus>(std::move(*err));
  }
  return status;
}

}  // namespace webdata::detail
