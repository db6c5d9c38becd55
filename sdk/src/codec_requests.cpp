// Requests and the option objects inside them. One field list per type serves both directions.
#include "codec.hpp"

namespace webdata::detail {
namespace {

// `delay` is in seconds on the wire and a duration in the model.
struct DelaySeconds {
  static void read(const json& v, std::optional<std::chrono::milliseconds>& out, const Path& p) {
    double seconds = 0;
    decode(v, seconds, p);
    out = std::chrono::milliseconds(static_cast<long long>(seconds * 1000.0 + 0.5));
  }
  static json write(const std::optional<std::chrono::milliseconds>& delay) {
    if (!delay) return nullptr;
    if (delay->count() % 1000 == 0) return static_cast<long long>(delay->count() / 1000);
    return static_cast<double>(delay->count()) / 1000.0;
  }
};

// `sources` and `categories` come as strings or `{type}` objects; the SDK sends strings.
struct TypedList {
  template <class E>
  static void read(const json& v, std::optional<std::vector<E>>& out, const Path& here) {
    if (!v.is_array()) fail(here, std::string("expected an array, got ") + type_name(v));
    std::vector<E> items;
    for (std::size_t i = 0; i < v.size(); ++i) {
      const json& item = v[i];
      E value;
      const Path at = here.at(i);  // the Reader keeps a reference to its path
      if (item.is_object()) {
        Reader ir(item, at);
        ir.req("type", value);
      } else {
        decode(item, value, at);
      }
      items.push_back(std::move(value));
    }
    out = std::move(items);
  }
  template <class E>
  static json write(const std::optional<std::vector<E>>& v) {
    return v ? encode(*v) : json();
  }
};

// `decline` is `{approvalId}` on the wire, the id alone in the model; any other shape is ignored.
struct DeclineObject {
  static void read(const json& v, std::optional<std::string>& out, const Path& p) {
    if (!v.is_object()) return;
    Reader d(v, p);
    d("approvalId", out);
  }
  static json write(const std::optional<std::string>& v) {
    return v ? json{{"approvalId", *v}} : json();
  }
};

// A model read from a bare string as `T(string)`, and sent as the bare string of member `key`
// when that member is all it would carry.
template <class T>
void read_or_bare(const json& j, T& out, const Path& p) {
  if (j.is_string()) {
    out = T(j.get<std::string>());
    return;
  }
  read_fields(j, out, p);
}
template <class T>
json write_or_bare(const T& v, const char* key) {
  json out = write_fields(v);
  if (out.size() == 1 && out.contains(key)) return std::move(out[key]);
  return out;
}

}  // namespace

#define WEBDATA_BARE_OR_FIELDS_CODEC(T, key)        \
  void decode(const json& j, T& out, const Path& p) { \
    read_or_bare(j, out, p);                          \
  }                                                   \
  json encode(const T& v) { return write_or_bare(v, key); }

// The field lists of codec_requests.fields.json, written as C++ by webdata_codegen.
#include "codec_requests.fields.inc"

}  // namespace webdata::detail
