#include "compare.hpp"

#include <regex>
#include <set>

namespace webdata::mock::replay {

using nlohmann::json;

namespace {

constexpr const char* kAbsent = "(absent)";

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  if (from.empty()) return text;
  for (std::size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

/// A field's value as text for a comparison: strings as they are, anything else as JSON.
std::string field_text(const json& object, const char* name, const Hosts& hosts) {
  if (!object.is_object() || !object.contains(name)) return kAbsent;
  const json& value = object.at(name);
  return normalize(value.is_string() ? value.get<std::string>() : value.dump(), hosts);
}

const json& first_detail(const json& answer) {
  static const json none = json::object();
  if (!answer.is_object() || !answer.contains("details")) return none;
  const json& details = answer.at("details");
  return details.is_array() && !details.empty() ? details.at(0) : none;
}

void compare_field(const std::string& aspect, std::string recorded, std::string mock,
                   std::vector<Difference>& out) {
  if (recorded != mock) out.push_back({aspect, std::move(recorded), std::move(mock)});
}

/// Keys in one object only, or of another type in each, as `prefix.key` differences.
void compare_keys(const std::string& prefix, const json& recorded, const json& mock,
                  std::vector<Difference>& out) {
  std::set<std::string> keys;
  for (const auto& [key, value] : recorded.items()) keys.insert(key);
  for (const auto& [key, value] : mock.items()) keys.insert(key);
  for (const auto& key : keys) {
    const std::string a = recorded.contains(key) ? type_name(recorded.at(key)) : kAbsent;
    const std::string b = mock.contains(key) ? type_name(mock.at(key)) : kAbsent;
    compare_field(prefix + "." + key, a, b, out);
  }
}

/// `data`, or its first item when it is a list: the document or object the answer carries.
const json* data_object(const json& answer) {
  if (!answer.is_object() || !answer.contains("data")) return nullptr;
  const json* data = &answer.at("data");
  if (data->is_array()) data = data->empty() ? nullptr : &data->at(0);
  return data != nullptr && data->is_object() ? data : nullptr;
}

void compare_json(const json& recorded, const json& mock, const Hosts& hosts,
                  std::vector<Difference>& out) {
  for (const char* name : {"code", "error"}) {
    compare_field(name, field_text(recorded, name, hosts), field_text(mock, name, hosts), out);
  }
  for (const char* name : {"code", "message"}) {
    compare_field(std::string("details[0].") + name,
                  field_text(first_detail(recorded), name, hosts),
                  field_text(first_detail(mock), name, hosts), out);
  }
  compare_keys("keys", recorded, mock, out);
  const json* recorded_data = data_object(recorded);
  const json* mock_data = data_object(mock);
  if (recorded_data == nullptr || mock_data == nullptr) return;
  compare_keys("data", *recorded_data, *mock_data, out);
  const json& a = recorded_data->value("metadata", json());
  const json& b = mock_data->value("metadata", json());
  if (a.is_object() && b.is_object()) compare_keys("metadata", a, b, out);
}

std::string media_type(const std::string& content_type) {
  return content_type.substr(0, content_type.find(';'));
}

}  // namespace

std::string type_name(const json& value) {
  switch (value.type()) {
    case json::value_t::object:
      return "object";
    case json::value_t::array:
      return "array";
    case json::value_t::string:
      return "string";
    case json::value_t::boolean:
      return "boolean";
    case json::value_t::null:
      return "null";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float:
      return "number";
    default:
      return "other";
  }
}

std::string normalize(std::string text, const Hosts& hosts) {
  static const std::regex uuid(
      "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-"
      "[0-9a-fA-F]{12}");
  static const std::regex hex_id("\\b[0-9a-f]{32}\\b");
  static const std::regex iso_time("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z");
  text = replace_all(std::move(text), hosts.recorded, "<host>");
  text = replace_all(std::move(text), hosts.mock, "<host>");
  text = std::regex_replace(text, uuid, "<id>");
  text = std::regex_replace(text, hex_id, "<id>");
  return std::regex_replace(text, iso_time, "<time>");
}

std::vector<Difference> compare_answers(const Answer& recorded, const Answer& mock,
                                        const Hosts& hosts) {
  std::vector<Difference> out;
  compare_field("status", std::to_string(recorded.status), std::to_string(mock.status), out);
  const bool recorded_json = !recorded.json.is_null();
  const bool mock_json = !mock.json.is_null();
  if (recorded_json && mock_json) {
    compare_json(recorded.json, mock.json, hosts, out);
  } else if (recorded_json || mock_json) {
    compare_field("body", recorded_json ? "JSON" : media_type(recorded.content_type),
                  mock_json ? "JSON" : media_type(mock.content_type), out);
  } else {
    compare_field("content-type", recorded.content_type, mock.content_type, out);
    compare_field("text", normalize(recorded.text, hosts), normalize(mock.text, hosts), out);
  }
  return out;
}

std::string state_shape(const json& status) {
  if (!status.is_object()) return "not JSON";
  std::string shape = status.value("status", std::string("(no status)")) +
                      " success=" + field_text(status, "success", Hosts{}) + " {";
  bool first = true;
  for (const auto& [key, value] : status.items()) {
    shape += (first ? "" : ", ") + key + ":" + type_name(value);
    first = false;
  }
  return shape + "}";
}

}  // namespace webdata::mock::replay
