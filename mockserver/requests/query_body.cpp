#include <webdata/contract/schemas.hpp>

#include <charconv>

#include "requests/requests.hpp"

// The research routes take their options as query parameters; they are checked and decoded like
// a body once read into the object their schema describes.

namespace webdata::mock::requests {

using nlohmann::json;

namespace {

/// The schema's `type` of member `key` ("" when it names none).
std::string member_type(const json& properties, const std::string& key) {
  const auto it = properties.find(key);
  if (it == properties.end() || !it->is_object()) return "";
  const auto type = it->find("type");
  return type != it->end() && type->is_string() ? type->get<std::string>() : "";
}

/// `text` as the type the schema wants when it reads as one; else the text itself.
json typed_value(const std::string& type, const std::string& text) {
  if (type == "integer") {
    std::int64_t number = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
    if (error == std::errc() && end == text.data() + text.size()) return number;
  } else if (type == "boolean" && (text == "true" || text == "false")) {
    return text == "true";
  }
  return text;
}

}  // namespace

json query_body(const std::string& schema,
                const std::vector<std::pair<std::string, std::string>>& params) {
  const json& document = contract::SchemaSet::embedded().document(schema);
  const auto found = document.find("properties");
  const json properties = found != document.end() ? *found : json::object();
  json body = json::object();
  for (const auto& [key, text] : params) {
    const std::string type = member_type(properties, key);
    if (type == "array") {
      body[key].push_back(text);
    } else {
      body[key] = typed_value(type, text);
    }
  }
  return body;
}

}  // namespace webdata::mock::requests
