#include "documents.hpp"

#include <stdexcept>
#include <vector>

namespace webdata::contract::detail {
namespace {

bool starts_with(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// "v2/../common/location" -> "common/location"; throws when ".." climbs above the root.
std::string normalize(const std::string& path, const std::string& ref) {
  std::vector<std::string> parts;
  std::string::size_type start = 0;
  while (start <= path.size()) {
    auto end = path.find('/', start);
    if (end == std::string::npos) end = path.size();
    const std::string part = path.substr(start, end - start);
    if (part == "..") {
      if (parts.empty()) throw std::runtime_error("$ref '" + ref + "' leaves the schema tree");
      parts.pop_back();
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    start = end + 1;
  }
  std::string out;
  for (const auto& part : parts) out += (out.empty() ? "" : "/") + part;
  return out;
}

}  // namespace

RefTarget parse_ref(const std::string& base, const std::string& ref) {
  const auto hash = ref.find('#');
  std::string uri = ref.substr(0, hash);
  const std::string fragment = hash == std::string::npos ? "" : ref.substr(hash + 1);
  if (!fragment.empty() && fragment.front() != '/') {
    throw std::runtime_error("$ref '" + ref + "': only JSON-pointer fragments are supported");
  }
  RefTarget target;
  target.pointer = fragment;
  if (uri.empty()) {
    target.doc = base;
    return target;
  }
  std::string path;
  if (starts_with(uri, kIdBase)) {
    path = uri.substr(std::string(kIdBase).size());
  } else if (uri.find("://") != std::string::npos || uri.front() == '/') {
    throw std::runtime_error("$ref '" + ref + "' points outside the schema tree");
  } else {
    const auto slash = base.rfind('/');
    path = (slash == std::string::npos ? "" : base.substr(0, slash + 1)) + uri;
  }
  path = normalize(path, ref);
  if (!ends_with(path, ".json")) {
    throw std::runtime_error("$ref '" + ref + "' does not name a .json file");
  }
  target.doc = path.substr(0, path.size() - 5);
  return target;
}

Documents::Documents(std::map<std::string, nlohmann::json> docs) : docs_(std::move(docs)) {}

const nlohmann::json* Documents::find(const std::string& name) const {
  const auto it = docs_.find(name);
  return it == docs_.end() ? nullptr : &it->second;
}

Node Documents::resolve(const std::string& base, const std::string& ref) const {
  const RefTarget target = parse_ref(base, ref);
  const auto it = docs_.find(target.doc);
  if (it == docs_.end()) {
    throw std::runtime_error(base + ".json: $ref '" + ref + "' names a missing file " + target.doc +
                             ".json");
  }
  const nlohmann::json* node = &it->second;
  if (!target.pointer.empty()) {
    try {
      node = &node->at(nlohmann::json::json_pointer(target.pointer));
    } catch (const nlohmann::json::exception&) {
      throw std::runtime_error(base + ".json: $ref '" + ref + "' points to nothing in " +
                               target.doc + ".json");
    }
  }
  return Node{&it->first, node};
}

Node Documents::deref(Node node) const {
  // A chain longer than the number of documents times a generous depth means a $ref cycle.
  for (int hops = 0; hops < 64; ++hops) {
    if (!node.schema->is_object()) return node;
    const auto ref = node.schema->find("$ref");
    if (ref == node.schema->end() || !ref->is_string()) return node;
    node = resolve(*node.doc, ref->get<std::string>());
  }
  throw std::runtime_error(*node.doc + ".json: $ref cycle");
}

void Documents::check_refs() const {
  for (const auto& [name, doc] : docs_) {
    for_each_schema(doc, [&, doc_name = &name](const nlohmann::json& schema) {
      const auto ref = schema.find("$ref");
      if (ref == schema.end()) return;
      if (!ref->is_string()) throw std::runtime_error(*doc_name + ".json: $ref is not a string");
      try {
        resolve(*doc_name, ref->get<std::string>());
      } catch (const std::runtime_error& e) {
        const std::string what = e.what();
        if (starts_with(what, *doc_name + ".json")) throw;
        throw std::runtime_error(*doc_name + ".json: " + what);
      }
    });
  }
}

}  // namespace webdata::contract::detail
