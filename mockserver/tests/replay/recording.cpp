#include "recording.hpp"

#include "core/text.hpp"

#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

namespace webdata::mock::replay {

using nlohmann::json;

namespace {

std::string header_value(const json& headers, const std::string& name) {
  for (const auto& [key, value] : headers.items()) {
    if (iequals(key, name) && value.is_string()) return value.get<std::string>();
  }
  return "";
}

Answer recorded_answer(const json& response) {
  Answer answer;
  answer.status = response.at("status").get<int>();
  answer.content_type = header_value(response.value("headers", json::object()), "content-type");
  answer.json = response.value("json", json());
  const json text = response.value("text", json());
  answer.text = text.is_string() ? text.get<std::string>() : answer.json.dump();
  return answer;
}

Exchange read_exchange(const json& record, std::size_t index) {
  Exchange x;
  x.index = index;
  x.scenario = record.at("scenario").get<std::string>();
  x.step = record.at("step").get<std::string>();
  x.t_ms = record.value("t_ms", 0LL);
  x.took_ms = record.value("took_ms", 0LL);
  const json& request = record.at("request");
  x.method = request.at("method").get<std::string>();
  x.path = request.at("path").get<std::string>();
  const json headers = request.value("headers", json::object());
  for (const auto& [name, value] : headers.items()) {
    x.headers.emplace_back(name, value.get<std::string>());
  }
  const json body = request.value("body", json());
  x.has_body = !body.is_null();
  // A body recorded as a string is the raw text sent (malformed JSON, a text/plain body).
  if (x.has_body) x.body = body.is_string() ? body.get<std::string>() : body.dump();
  x.answer = recorded_answer(record.at("response"));
  return x;
}

}  // namespace

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

Recording load_recording(const std::string& path) {
  const json file = json::parse(read_file(path), nullptr, false);
  if (file.is_discarded() || !file.is_object() || !file.contains("records")) {
    throw std::runtime_error(path + ": not a recording (a JSON object with \"records\")");
  }
  Recording recording;
  recording.site = file.value("site", "");
  std::set<std::string> keys;
  const json& records = file.at("records");
  for (std::size_t i = 0; i < records.size(); ++i) {
    try {
      recording.exchanges.push_back(read_exchange(records[i], i));
    } catch (const json::exception& e) {
      throw std::runtime_error(path + ": record " + std::to_string(i) + ": " + e.what());
    }
    const Exchange& x = recording.exchanges.back();
    if (!x.is_poll() && !keys.insert(x.key()).second) {
      throw std::runtime_error(path + ": two exchanges are named " + x.key());
    }
  }
  return recording;
}

std::vector<std::vector<const Exchange*>> Recording::scenarios() const {
  std::vector<std::vector<const Exchange*>> out;
  std::vector<std::string> names;
  for (const Exchange& x : exchanges) {
    std::size_t at = 0;
    while (at < names.size() && names[at] != x.scenario) ++at;
    if (at == names.size()) {
      names.push_back(x.scenario);
      out.emplace_back();
    }
    out[at].push_back(&x);
  }
  return out;
}

const Exchange* Recording::find(const std::string& key) const {
  for (const Exchange& x : exchanges) {
    if (!x.is_poll() && x.key() == key) return &x;
  }
  return nullptr;
}

}  // namespace webdata::mock::replay
