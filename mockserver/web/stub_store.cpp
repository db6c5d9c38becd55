#include "web/stub_store.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <set>
#include <sstream>

#include "core/base64.hpp"
#include "core/ids.hpp"
#include "web/matchers.hpp"
#include "core/url.hpp"

namespace webdata::mock::web {

using nlohmann::json;

MappingError::MappingError(std::string source, std::string reason)
    : std::runtime_error(source + ": " + reason),
      source_(std::move(source)),
      reason_(std::move(reason)) {}

using PatternPtr = std::shared_ptr<const ValuePattern>;

struct Mapping {
  std::string id;
  json document;  // as given, plus id and uuid
  std::string source;
  std::uint64_t sequence = 0;
  /// Index of the fixture root the mapping came from; a later root lies over an earlier one
  /// whatever the priorities (admin mappings join the latest root).
  std::size_t layer = 0;
  int priority = 5;

  std::optional<std::string> method;  // nullopt: ANY
  enum class UrlKind { any, url, path, url_regex, path_regex } url_kind = UrlKind::any;
  std::string url;
  std::shared_ptr<const Regex> url_regex;
  PatternPtr host;
  std::optional<std::string> scheme;
  std::optional<int> port;
  std::vector<std::pair<std::string, PatternPtr>> headers;
  std::vector<std::pair<std::string, PatternPtr>> query;
  std::vector<PatternPtr> body;

  std::string scenario;
  std::optional<std::string> required_state;
  std::optional<std::string> new_state;

  StubResponse response;

  std::string fixed_host;  // from an equalTo host or Host header matcher
  std::string fixed_path;  // from url / urlPath
};

namespace {

constexpr const char* kStarted = "Started";

const std::set<std::string> kMappingKeys = {"id",
                                            "uuid",
                                            "name",
                                            "request",
                                            "response",
                                            "priority",
                                            "scenarioName",
                                            "requiredScenarioState",
                                            "newScenarioState",
                                            "persistent",
                                            "metadata",
                                            "insertionIndex"};
const std::set<std::string> kRequestKeys = {
    "method", "url",  "urlPath", "urlPattern",      "urlPathPattern", "host",
    "scheme", "port", "headers", "queryParameters", "bodyPatterns"};
const std::set<std::string> kResponseKeys = {
    "status",       "statusMessage",          "headers", "body", "jsonBody", "base64Body",
    "bodyFileName", "fixedDelayMilliseconds", "fault"};

std::string join(const std::set<std::string>& keys) {
  std::string out;
  for (const auto& k : keys) out += (out.empty() ? "" : ", ") + k;
  return out;
}

void check_keys(const json& object, const std::set<std::string>& allowed, const std::string& what) {
  for (const auto& [key, value] : object.items()) {
    if (!allowed.count(key)) {
      throw PatternError(what + " field '" + key +
                         "' is not supported (supported: " + join(allowed) + ")");
    }
  }
}

std::string get_string(const json& object, const char* key, const std::string& what) {
  const auto& v = object.at(key);
  if (!v.is_string()) throw PatternError(what + " '" + key + "' must be a string");
  return v.get<std::string>();
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw PatternError("cannot read " + path.string());
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

std::vector<std::pair<std::string, PatternPtr>> compile_multi(const json& spec,
                                                              const std::string& what) {
  if (!spec.is_object()) throw PatternError(what + " must be an object of name -> pattern");
  std::vector<std::pair<std::string, PatternPtr>> out;
  for (const auto& [name, pattern] : spec.items()) {
    try {
      out.emplace_back(name, ValuePattern::compile(pattern));
    } catch (const PatternError& e) {
      throw PatternError(what + " '" + name + "': " + e.what());
    }
  }
  return out;
}

std::optional<std::string> equal_to_value(const json& pattern) {
  if (pattern.is_object() && pattern.size() <= 2 && pattern.contains("equalTo") &&
      pattern.at("equalTo").is_string()) {
    return pattern.at("equalTo").get<std::string>();
  }
  return std::nullopt;
}

// Host without port, lower case; empty when the request has no Host header.
std::string request_host(const StubRequest& request, int& port) {
  const auto host_header = find_header(request.headers, "Host");
  port = request.scheme == "https" ? 443 : 80;
  if (!host_header) return "";
  std::string h = *host_header;
  if (!h.empty() && h[0] == '[') {
    const auto close = h.find(']');
    if (close != std::string::npos) {
      if (close + 2 < h.size() && h[close + 1] == ':') port = std::atoi(h.c_str() + close + 2);
      return to_lower(h.substr(1, close - 1));
    }
  }
  const auto colon = h.rfind(':');
  if (colon != std::string::npos) {
    port = std::atoi(h.c_str() + colon + 1);
    h = h.substr(0, colon);
  }
  return to_lower(h);
}

bool multi_matches(const PatternPtr& pattern, const std::vector<std::string>& values) {
  if (values.empty()) return pattern->matches(std::nullopt);
  return std::any_of(values.begin(), values.end(),
                     [&](const std::string& v) { return pattern->matches(v); });
}

struct PreparedRequest {
  const StubRequest& request;
  std::string path;
  std::vector<std::pair<std::string, std::string>> query;
  std::string host;
  int port = 80;
};

bool request_matches(const Mapping& m, const PreparedRequest& r) {
  if (m.method && *m.method != r.request.method) return false;
  switch (m.url_kind) {
    case Mapping::UrlKind::any:
      break;
    case Mapping::UrlKind::url:
      if (r.request.url != m.url) return false;
      break;
    case Mapping::UrlKind::path:
      if (r.path != m.url) return false;
      break;
    case Mapping::UrlKind::url_regex:
      if (!m.url_regex->full_match(r.request.url)) return false;
      break;
    case Mapping::UrlKind::path_regex:
      if (!m.url_regex->full_match(r.path)) return false;
      break;
  }
  if (m.scheme && *m.scheme != r.request.scheme) return false;
  if (m.port && *m.port != r.port) return false;
  if (m.host && !m.host->matches(r.host.empty() ? std::nullopt : std::optional(r.host))) {
    return false;
  }
  for (const auto& [name, pattern] : m.headers) {
    if (!multi_matches(pattern, find_headers(r.request.headers, name))) return false;
  }
  for (const auto& [name, pattern] : m.query) {
    std::vector<std::string> values;
    for (const auto& [k, v] : r.query) {
      if (k == name) values.push_back(v);
    }
    if (!multi_matches(pattern, values)) return false;
  }
  for (const auto& pattern : m.body) {
    const std::optional<std::string> body = r.request.body.empty() && pattern->is_absent()
                                                ? std::nullopt
                                                : std::optional(r.request.body);
    if (!pattern->matches(body)) return false;
  }
  return true;
}

/// The body of `bodyFileName` `name` from the `__files/` of the first of `roots` that has it.
std::string read_body_file(const std::string& name,
                           const std::vector<std::filesystem::path>& roots) {
  const std::filesystem::path rel(name);
  if (rel.is_absolute() || name.find("..") != std::string::npos || name.empty()) {
    throw PatternError("'bodyFileName' must be a relative path inside __files/ without '..'");
  }
  if (roots.empty()) throw PatternError("'bodyFileName' needs a fixture root with __files/");
  std::string searched;
  for (const auto& root : roots) {
    const auto path = root / "__files" / rel;
    // Non-throwing: a name the OS refuses (too long, a loop) is a bad mapping, not a crash.
    std::error_code fs_error;
    if (std::filesystem::is_regular_file(path, fs_error)) return read_file(path);
    searched += (searched.empty() ? "" : ", ") + (root / "__files").string();
  }
  throw PatternError("bodyFileName '" + name + "' not found in " + searched);
}

/// Matching order: the later root first, then WireMock's order within a root (priority, then
/// the newer mapping).
bool before(const Mapping& a, const Mapping& b) {
  if (a.layer != b.layer) return a.layer > b.layer;
  if (a.priority != b.priority) return a.priority < b.priority;
  return a.sequence > b.sequence;
}

/// The mapping's id, priority and scenario fields.
void compile_identity(const json& input, Mapping& m) {
  if (input.contains("id")) {
    m.id = get_string(input, "id", "mapping");
  } else if (input.contains("uuid")) {
    m.id = get_string(input, "uuid", "mapping");
  } else {
    m.id = uuid4();
  }
  if (m.id.empty()) throw PatternError("mapping 'id' must not be empty");
  m.document["id"] = m.id;
  m.document["uuid"] = m.id;
  if (input.contains("priority")) {
    if (!input.at("priority").is_number_integer()) {
      throw PatternError("'priority' must be an integer");
    }
    m.priority = input.at("priority").get<int>();
  }
  if (input.contains("scenarioName")) m.scenario = get_string(input, "scenarioName", "mapping");
  if (input.contains("requiredScenarioState")) {
    m.required_state = get_string(input, "requiredScenarioState", "mapping");
  }
  if (input.contains("newScenarioState")) {
    m.new_state = get_string(input, "newScenarioState", "mapping");
  }
  if (m.scenario.empty() && (m.required_state || m.new_state)) {
    throw PatternError("requiredScenarioState/newScenarioState need a scenarioName");
  }
}

/// The request matcher: method, URL, host, scheme, port, headers, query, body patterns.
void compile_request(const json& input, Mapping& m) {
  const json& req = input.at("request");
  check_keys(req, kRequestKeys, "request");
  if (req.contains("method")) {
    const auto method = get_string(req, "method", "request");
    if (method != "ANY") m.method = method;
  }
  int url_fields = 0;
  for (const char* key : {"url", "urlPath", "urlPattern", "urlPathPattern"}) {
    if (!req.contains(key)) continue;
    ++url_fields;
    const auto value = get_string(req, key, "request");
    const std::string k = key;
    if (k == "url") {
      m.url_kind = Mapping::UrlKind::url;
      m.url = value;
      m.fixed_path = value;
    } else if (k == "urlPath") {
      m.url_kind = Mapping::UrlKind::path;
      m.url = value;
      m.fixed_path = value;
    } else {
      m.url_kind =
          k == "urlPattern" ? Mapping::UrlKind::url_regex : Mapping::UrlKind::path_regex;
      m.url = value;
      m.url_regex = std::make_shared<Regex>(value);
    }
  }
  if (url_fields > 1) throw PatternError("only one of url, urlPath, urlPattern, urlPathPattern");
  if (req.contains("host")) {
    m.host = ValuePattern::compile(req.at("host"));
    if (auto h = equal_to_value(req.at("host"))) m.fixed_host = to_lower(*h);
  }
  if (req.contains("scheme")) {
    const auto scheme = get_string(req, "scheme", "request");
    if (scheme != "http" && scheme != "https")
      throw PatternError("'scheme' must be http or https");
    m.scheme = scheme;
  }
  if (req.contains("port")) {
    if (!req.at("port").is_number_integer()) throw PatternError("'port' must be an integer");
    m.port = req.at("port").get<int>();
  }
  if (req.contains("headers")) {
    m.headers = compile_multi(req.at("headers"), "header");
    for (const auto& [name, pattern] : req.at("headers").items()) {
      if (!iequals(name, "Host")) continue;
      if (auto h = equal_to_value(pattern)) {
        m.fixed_host = to_lower(
            h->substr(0, h->rfind(':') == std::string::npos ? h->size() : h->rfind(':')));
      }
    }
  }
  if (req.contains("queryParameters")) {
    m.query = compile_multi(req.at("queryParameters"), "query parameter");
  }
  if (req.contains("bodyPatterns")) {
    const auto& list = req.at("bodyPatterns");
    if (!list.is_array()) throw PatternError("'bodyPatterns' must be an array");
    for (const auto& p : list) {
      try {
        m.body.push_back(ValuePattern::compile(p));
      } catch (const PatternError& e) {
        throw PatternError(std::string("bodyPatterns: ") + e.what());
      }
    }
  }
}

/// The response: status, headers, one body (`bodyFileName` from the first of `files` that has
/// it), delay, fault.
void compile_response(const json& input, const nlohmann::ordered_json& ordered,
                      const std::vector<std::filesystem::path>& files, Mapping& m) {
  const json& res = input.at("response");
  if (!res.is_object()) throw PatternError("'response' must be an object");
  check_keys(res, kResponseKeys, "response");
  if (res.contains("status")) {
    if (!res.at("status").is_number_integer())
      throw PatternError("'status' must be an integer");
    m.response.status = res.at("status").get<int>();
    if (m.response.status < 100 || m.response.status > 599) {
      throw PatternError("'status' must be 100..599");
    }
  }
  if (res.contains("statusMessage")) {
    m.response.status_message = get_string(res, "statusMessage", "response");
  }
  if (res.contains("headers")) {
    const auto& headers = res.at("headers");
    if (!headers.is_object()) throw PatternError("response 'headers' must be an object");
    for (const auto& [name, value] : headers.items()) {
      if (value.is_string()) {
        m.response.headers.emplace_back(name, value.get<std::string>());
      } else if (value.is_array()) {
        for (const auto& v : value) {
          if (!v.is_string())
            throw PatternError("response header '" + name + "' values must be strings");
          m.response.headers.emplace_back(name, v.get<std::string>());
        }
      } else {
        throw PatternError("response header '" + name + "' must be a string or a list");
      }
    }
  }
  int bodies = 0;
  if (res.contains("body")) {
    ++bodies;
    if (!res.at("body").is_string()) {
      throw PatternError("response 'body' must be a string (use jsonBody for JSON)");
    }
    m.response.body = res.at("body").get<std::string>();
  }
  if (res.contains("jsonBody")) {
    ++bodies;
    m.response.body = ordered.at("response").at("jsonBody").dump();
  }
  if (res.contains("base64Body")) {
    ++bodies;
    auto decoded = base64_decode(get_string(res, "base64Body", "response"));
    if (!decoded) throw PatternError("'base64Body' is not valid base64");
    m.response.body = std::move(*decoded);
  }
  if (res.contains("bodyFileName")) {
    ++bodies;
    m.response.body = read_body_file(get_string(res, "bodyFileName", "response"), files);
  }
  if (bodies > 1) throw PatternError("only one of body, jsonBody, base64Body, bodyFileName");
  if (res.contains("fixedDelayMilliseconds")) {
    const auto& d = res.at("fixedDelayMilliseconds");
    if (!d.is_number_integer() || d.get<long long>() < 0) {
      throw PatternError("'fixedDelayMilliseconds' must be a non-negative integer");
    }
    m.response.delay = std::chrono::milliseconds(d.get<long long>());
  }
  if (res.contains("fault")) {
    const auto name = get_string(res, "fault", "response");
    const auto fault = parse_fault(name);
    if (!fault) throw PatternError("unknown fault '" + name + "'");
    m.response.fault = *fault;
  }
}

}  // namespace

StubStore::StubStore() = default;

StubStore::StubStore(std::filesystem::path root)
    : StubStore(std::vector<std::filesystem::path>{std::move(root)}) {}

StubStore::StubStore(std::vector<std::filesystem::path> roots) : roots_(std::move(roots)) {
  for (std::size_t layer = 0; layer < roots_.size(); ++layer) load_files(roots_[layer], layer);
  loaded_ = mappings_;
}

StubStore::~StubStore() = default;

std::shared_ptr<const Mapping> StubStore::compile(const nlohmann::ordered_json& ordered,
                                                  const std::string& source,
                                                  std::uint64_t sequence,
                                                  const std::vector<std::filesystem::path>& files,
                                                  std::size_t layer) const {
  try {
    const json input = ordered;
    if (!input.is_object()) throw PatternError("a stub mapping must be a JSON object");
    check_keys(input, kMappingKeys, "mapping");
    auto m = std::make_shared<Mapping>();
    m->source = source;
    m->sequence = sequence;
    m->layer = layer;
    m->document = input;
    compile_identity(input, *m);
    if (!input.contains("request") || !input.at("request").is_object()) {
      throw PatternError("'request' object is missing");
    }
    compile_request(input, *m);
    if (!input.contains("response")) {
      m->response.status = 200;
    } else {
      compile_response(input, ordered, files, *m);
    }
    m->response.mapping_id = m->id;
    if (input.contains("name")) m->response.mapping_name = get_string(input, "name", "mapping");
    return m;
  } catch (const PatternError& e) {
    throw MappingError(source, e.what());
  } catch (const json::exception& e) {
    throw MappingError(source, e.what());
  }
}

void StubStore::load_files(const std::filesystem::path& root, std::size_t layer) {
  const auto dir = root / "mappings";
  if (!std::filesystem::is_directory(dir)) return;
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file() && entry.path().extension() == ".json") {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  std::set<std::string> ids;
  for (const auto& file : files) {
    const std::string name = std::filesystem::relative(file, root).generic_string();
    std::string text;
    try {
      text = read_file(file);
    } catch (const PatternError& e) {
      throw MappingError(name, e.what());
    }
    const auto doc = nlohmann::ordered_json::parse(text, nullptr, false);
    if (doc.is_discarded()) throw MappingError(name, "not valid JSON");
    std::vector<std::pair<nlohmann::ordered_json, std::string>> items;
    if (doc.is_object() && doc.contains("mappings")) {
      if (!doc.at("mappings").is_array()) throw MappingError(name, "'mappings' must be an array");
      if (doc.size() > 2 || (doc.size() == 2 && !doc.contains("meta"))) {
        throw MappingError(name,
                           "a {\"mappings\": [...]} file may only hold 'mappings' and 'meta'");
      }
      std::size_t i = 0;
      for (const auto& item : doc.at("mappings")) {
        items.emplace_back(item, name + " mappings[" + std::to_string(i++) + "]");
      }
    } else {
      items.emplace_back(doc, name);
    }
    for (const auto& [item, source] : items) {
      auto m = compile(item, source, ++sequence_, {root}, layer);
      if (!ids.insert(m->id).second) throw MappingError(source, "duplicate id " + m->id);
      // A later root's mapping with an earlier root's id replaces it.
      const auto id = m->id;
      mappings_.erase(std::remove_if(mappings_.begin(), mappings_.end(),
                                     [&](const auto& x) { return x->id == id; }),
                      mappings_.end());
      mappings_.push_back(std::move(m));
    }
  }
}

std::string StubStore::add(const json& mapping) {
  return add_ordered(nlohmann::ordered_json(mapping));
}

std::string StubStore::add_ordered(const nlohmann::ordered_json& mapping) {
  std::unique_lock lock(mutex_);
  // An admin mapping's bodyFileName is looked up in the latest root that has it.
  auto m = compile(mapping, "admin", ++sequence_, {roots_.rbegin(), roots_.rend()},
                   roots_.empty() ? 0 : roots_.size() - 1);
  const auto id = m->id;
  mappings_.erase(std::remove_if(mappings_.begin(), mappings_.end(),
                                 [&](const auto& x) { return x->id == id; }),
                  mappings_.end());
  mappings_.push_back(std::move(m));
  return id;
}

bool StubStore::remove(const std::string& id) {
  std::unique_lock lock(mutex_);
  const auto before_size = mappings_.size();
  mappings_.erase(std::remove_if(mappings_.begin(), mappings_.end(),
                                 [&](const auto& x) { return x->id == id; }),
                  mappings_.end());
  return mappings_.size() != before_size;
}

void StubStore::reset() {
  {
    std::unique_lock lock(mutex_);
    mappings_ = loaded_;
  }
  reset_scenarios();
}

void StubStore::reset_scenarios() {
  std::lock_guard lock(scenario_mutex_);
  scenario_states_.clear();
}

json StubStore::mappings_json() const {
  std::shared_lock lock(mutex_);
  auto sorted = mappings_;
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const MappingPtr& a, const MappingPtr& b) { return before(*a, *b); });
  json list = json::array();
  for (const auto& m : sorted) list.push_back(m->document);
  return json{{"mappings", list}, {"meta", {{"total", sorted.size()}}}};
}

std::optional<json> StubStore::mapping_json(const std::string& id) const {
  std::shared_lock lock(mutex_);
  for (const auto& m : mappings_) {
    if (m->id == id) return m->document;
  }
  return std::nullopt;
}

json StubStore::scenarios_json() const {
  std::map<std::string, std::set<std::string>> states;
  {
    std::shared_lock lock(mutex_);
    for (const auto& m : mappings_) {
      if (m->scenario.empty()) continue;
      auto& s = states[m->scenario];
      s.insert(kStarted);
      if (m->required_state) s.insert(*m->required_state);
      if (m->new_state) s.insert(*m->new_state);
    }
  }
  std::lock_guard lock(scenario_mutex_);
  json list = json::array();
  for (const auto& [name, possible] : states) {
    const auto it = scenario_states_.find(name);
    list.push_back({{"id", name},
                    {"name", name},
                    {"state", it == scenario_states_.end() ? kStarted : it->second},
                    {"possibleStates", possible}});
  }
  return json{{"scenarios", list}};
}

std::size_t StubStore::size() const {
  std::shared_lock lock(mutex_);
  return mappings_.size();
}

std::optional<StubResponse> StubStore::match(const StubRequest& request) const {
  const auto [path, query] = split_target(request.url);
  PreparedRequest prepared{request, path, parse_query(query), "", 80};
  prepared.host = request_host(request, prepared.port);

  std::shared_lock lock(mutex_);
  std::vector<const Mapping*> candidates;
  for (const auto& m : mappings_) {
    if (request_matches(*m, prepared)) candidates.push_back(m.get());
  }
  std::sort(candidates.begin(), candidates.end(),
            [](const Mapping* a, const Mapping* b) { return before(*a, *b); });
  for (const Mapping* m : candidates) {
    if (m->scenario.empty()) return m->response;
    std::lock_guard scenario_lock(scenario_mutex_);
    const auto it = scenario_states_.find(m->scenario);
    const std::string state = it == scenario_states_.end() ? kStarted : it->second;
    if (m->required_state && *m->required_state != state) continue;
    if (m->new_state) scenario_states_[m->scenario] = *m->new_state;
    return m->response;
  }
  return std::nullopt;
}

std::vector<std::string> StubStore::hosts() const {
  std::shared_lock lock(mutex_);
  std::set<std::string> out;
  for (const auto& m : mappings_) {
    if (!m->fixed_host.empty()) out.insert(m->fixed_host);
  }
  return {out.begin(), out.end()};
}

std::vector<std::pair<std::string, std::string>> StubStore::pages() const {
  std::shared_lock lock(mutex_);
  std::set<std::pair<std::string, std::string>> out;
  for (const auto& m : mappings_) {
    if (m->fixed_host.empty() || m->fixed_path.empty()) continue;
    if (m->method && *m->method != "GET") continue;
    if (m->response.status != 200 || m->response.fault != Fault::none) continue;
    if (m->required_state && *m->required_state != kStarted) continue;
    const auto type = find_header(m->response.headers, "Content-Type");
    const bool html = type ? to_lower(*type).find("html") != std::string::npos
                           : m->response.body.find('<') != std::string::npos;
    if (!html) continue;
    out.emplace(m->fixed_host, m->fixed_path);
  }
  return {out.begin(), out.end()};
}

}  // namespace webdata::mock::web
