#pragma once

// How a typed request meets its JSON: each request type lists its fields once (a Shape), and
// decoding and encoding both walk that list, so a field is named in one place. Only the requests
// layer reads request JSON; everything above it reads the typed values (docs/adr/0023).

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "requests/version.hpp"

namespace webdata::mock::requests::wire {

/// The versions a field exists in.
enum Versions : unsigned { kV1 = 1u, kV2 = 2u, kBoth = 3u };
constexpr unsigned bit(Version version) { return version == Version::v1 ? kV1 : kV2; }

/// A decode in progress: the request's version and where in the body it is. `unread`, when set,
/// collects the keys no field took (dotted paths): the drift test's view of the schema.
struct Context {
  Version version = Version::v2;
  std::vector<std::string>* unread = nullptr;
  std::string path;
  Context at(std::string_view key) const;
  Context at(std::size_t index) const;
};

/// A field named `name` on the wire, held in `member`.
template <class T, class M>
struct Field {
  const char* name;
  M T::*member;
  unsigned versions;
};
/// The fields of `member` written at T's own level (a scrape request's options beside its url).
template <class T, class M>
struct Flat {
  M T::*member;
  unsigned versions;
};

template <class T, class M>
constexpr Field<T, M> field(const char* name, M T::*member, unsigned versions = kBoth) {
  return {name, member, versions};
}
template <class T, class M>
constexpr Flat<T, M> flat(M T::*member, unsigned versions = kBoth) {
  return {member, versions};
}

/// Specialised for every request type: `static constexpr auto fields = std::make_tuple(...)`.
template <class T>
struct Shape;

template <class T, class = void>
struct HasShape : std::false_type {};
template <class T>
struct HasShape<T, std::void_t<decltype(Shape<T>::fields)>> : std::true_type {};

// ---- values (overloads found through Context/Emit, so types declared later add their own)

void read(const nlohmann::json& in, bool& out, const Context& ctx);
void read(const nlohmann::json& in, std::int64_t& out, const Context& ctx);
void read(const nlohmann::json& in, double& out, const Context& ctx);
void read(const nlohmann::json& in, std::string& out, const Context& ctx);
void read(const nlohmann::json& in, nlohmann::json& out, const Context& ctx);
void read(const nlohmann::json& in, std::map<std::string, std::string>& out, const Context& ctx);

/// What encoding needs: the version whose wire form is written.
struct Emit {
  Version version = Version::v2;
};

nlohmann::json write(bool value, const Emit&);
nlohmann::json write(std::int64_t value, const Emit&);
nlohmann::json write(double value, const Emit&);
nlohmann::json write(const std::string& value, const Emit&);
nlohmann::json write(const nlohmann::json& value, const Emit&);
nlohmann::json write(const std::map<std::string, std::string>& value, const Emit&);

template <class X>
void read(const nlohmann::json& in, std::optional<X>& out, const Context& ctx);
template <class X>
void read(const nlohmann::json& in, std::vector<X>& out, const Context& ctx);
template <class X>
nlohmann::json write(const std::vector<X>& value, const Emit& emit);

// ---- objects

template <class T>
void collect_names(Version version, std::vector<std::string>& names);

template <class T, class M>
void collect_name(const Field<T, M>& f, Version version, std::vector<std::string>& names) {
  if (f.versions & bit(version)) names.emplace_back(f.name);
}
template <class T, class M>
void collect_name(const Flat<T, M>& f, Version version, std::vector<std::string>& names) {
  if (f.versions & bit(version)) collect_names<M>(version, names);
}

/// The wire names of T's fields at `version`, flattened members included.
template <class T>
void collect_names(Version version, std::vector<std::string>& names) {
  std::apply([&](const auto&... entry) { (collect_name(entry, version, names), ...); },
             Shape<T>::fields);
}

template <class T>
void read_fields(const nlohmann::json& in, T& out, const Context& ctx);

template <class T, class M>
void read_entry(const nlohmann::json& in, T& out, const Field<T, M>& f, const Context& ctx) {
  if (!(f.versions & bit(ctx.version))) return;
  const auto it = in.find(f.name);
  if (it != in.end()) read(*it, out.*(f.member), ctx.at(f.name));
}
template <class T, class M>
void read_entry(const nlohmann::json& in, T& out, const Flat<T, M>& f, const Context& ctx) {
  if (f.versions & bit(ctx.version)) read_fields(in, out.*(f.member), ctx);
}

/// Every field of T present in `in`, over what `out` holds already (its defaults).
template <class T>
void read_fields(const nlohmann::json& in, T& out, const Context& ctx) {
  std::apply([&](const auto&... entry) { (read_entry(in, out, entry, ctx), ...); },
             Shape<T>::fields);
}

/// Keys of `in` that no field of T (at this version) takes, recorded in ctx.unread.
template <class T>
void note_unread(const nlohmann::json& in, const Context& ctx) {
  if (ctx.unread == nullptr || !in.is_object()) return;
  std::vector<std::string> names;
  collect_names<T>(ctx.version, names);
  for (const auto& [key, value] : in.items()) {
    (void)value;
    if (std::find(names.begin(), names.end(), key) == names.end()) {
      ctx.unread->push_back(ctx.at(key).path);
    }
  }
}

template <class T>
void read_object(const nlohmann::json& in, T& out, const Context& ctx) {
  if (!in.is_object()) return;
  read_fields(in, out, ctx);
  note_unread<T>(in, ctx);
}

template <class T>
void write_fields(const T& value, nlohmann::json& out, const Emit& emit);

template <class X>
void write_member(const X& value, const char* name, nlohmann::json& out, const Emit& emit) {
  out[name] = write(value, emit);
}
template <class X>
void write_member(const std::optional<X>& value, const char* name, nlohmann::json& out,
                  const Emit& emit) {
  if (value) out[name] = write(*value, emit);
}

template <class T, class M>
void write_entry(const T& value, const Field<T, M>& f, nlohmann::json& out, const Emit& emit) {
  if (f.versions & bit(emit.version)) write_member(value.*(f.member), f.name, out, emit);
}
template <class T, class M>
void write_entry(const T& value, const Flat<T, M>& f, nlohmann::json& out, const Emit& emit) {
  if (f.versions & bit(emit.version)) write_fields(value.*(f.member), out, emit);
}

template <class T>
void write_fields(const T& value, nlohmann::json& out, const Emit& emit) {
  std::apply([&](const auto&... entry) { (write_entry(value, entry, out, emit), ...); },
             Shape<T>::fields);
}

template <class T, std::enable_if_t<HasShape<T>::value, int> = 0>
void read(const nlohmann::json& in, T& out, const Context& ctx) {
  read_object(in, out, ctx);
}
template <class T, std::enable_if_t<HasShape<T>::value, int> = 0>
nlohmann::json write(const T& value, const Emit& emit) {
  nlohmann::json out = nlohmann::json::object();
  write_fields(value, out, emit);
  return out;
}

// ---- containers

template <class X>
void read(const nlohmann::json& in, std::optional<X>& out, const Context& ctx) {
  X value = out ? std::move(*out) : X{};
  read(in, value, ctx);
  out = std::move(value);
}

template <class X>
void read(const nlohmann::json& in, std::vector<X>& out, const Context& ctx) {
  out.clear();
  if (!in.is_array()) return;
  out.reserve(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    X item{};
    read(in[i], item, ctx.at(i));
    out.push_back(std::move(item));
  }
}

template <class X>
nlohmann::json write(const std::vector<X>& value, const Emit& emit) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& item : value) out.push_back(write(item, emit));
  return out;
}

}  // namespace webdata::mock::requests::wire
