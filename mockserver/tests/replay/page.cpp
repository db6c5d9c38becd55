#include "page.hpp"

#include <algorithm>
#include <map>
#include <sstream>
#include <stdexcept>

namespace webdata::mock::replay {

using nlohmann::json;

namespace {

/// What one replay found for each exchange, by key, in recorded order.
struct Found {
  std::vector<std::string> keys;
  std::map<std::string, json> by_key;
};

Found found_in(const json& results) {
  if (!results.is_object() || !results.contains("exchanges")) {
    throw std::runtime_error("a replay result is not the JSON the replay writes");
  }
  if (!results.value("problems", json::array()).empty()) {
    throw std::runtime_error("the " + results.value("mode", std::string("?")) +
                             " replay has problems; the page is made from a replay without any");
  }
  Found out;
  for (const auto& x : results.at("exchanges")) {
    out.keys.push_back(x.at("key").get<std::string>());
    out.by_key[out.keys.back()] = x;
  }
  return out;
}

const char* label(const std::string& category) {
  if (category == "condition") return "deployment condition";
  if (category == "decision") return "differs on purpose";
  if (category == "pending") return "pending";
  return category == "same" ? "same" : "undeclared";
}

/// "outcome (`id`, `id`)" for one exchange of one replay.
std::string outcome_cell(const json& x) {
  const std::string outcome = x.at("outcome").get<std::string>();
  std::string ids;
  for (const auto& d : x.at("differences")) {
    const std::string id = "`" + d.at("declaration").get<std::string>() + "`";
    if (ids.find(id) == std::string::npos) ids += (ids.empty() ? "" : ", ") + id;
  }
  return std::string(label(outcome)) + (ids.empty() ? "" : " (" + ids + ")");
}

std::string counts_table(const PageInputs& in, const Found& plain, const Found& imitate) {
  std::ostringstream out;
  out << "| replay | exchanges | same | differs on purpose | deployment conditions | pending |\n"
      << "|---|---|---|---|---|---|\n";
  const auto row = [&](const std::string& name, const Found& found) {
    std::map<std::string, int> n;
    for (const auto& key : found.keys) ++n[found.by_key.at(key).at("outcome").get<std::string>()];
    out << "| " << name << " | " << found.keys.size() << " | " << n["same"] << " | "
        << n["decision"] << " | " << n["condition"] << " | " << n["pending"] << " |\n";
  };
  row("plain mock", plain);
  row("`--imitate " + in.profile + "`", imitate);
  std::string table = out.str();
  table.pop_back();  // the template ends the line
  return table;
}

std::string exchanges_table(const Found& plain, const Found& imitate) {
  std::ostringstream out;
  out << "| exchange | plain mock | `--imitate` |\n|---|---|---|\n";
  for (const auto& key : plain.keys) {
    const auto other = imitate.by_key.find(key);
    out << "| `" << key << "` | " << outcome_cell(plain.by_key.at(key)) << " | "
        << (other == imitate.by_key.end() ? "not replayed" : outcome_cell(other->second)) << " |\n";
  }
  std::string table = out.str();
  table.pop_back();  // the template ends the line
  return table;
}

std::string declaration_entry(const Declaration& d, const std::vector<std::string>& profile) {
  std::string out = "- **`" + d.id + "`**: " + d.what + ". " + d.reason;
  if (!d.imitated_by.empty()) {
    const bool in_profile =
        std::find(profile.begin(), profile.end(), d.imitated_by) != profile.end();
    out += " Under `--imitate`: condition `" + d.imitated_by + "`" +
           (in_profile ? "." : " (not in the profile yet: see the pending entries).");
  }
  if (!d.fixed_by.empty()) out += " Fixed by: " + d.fixed_by + ".";
  out += " Exchanges: ";
  for (std::size_t i = 0; i < d.exchanges.size(); ++i) {
    out += (i == 0 ? "`" : ", `") + d.exchanges[i] + "`";
  }
  return out + ".\n";
}

std::string declarations_list(const std::vector<Declaration>& declarations,
                              const std::vector<std::string>& profile) {
  const std::pair<const char*, const char*> sections[] = {
      {"condition", "The recorded deployment's conditions"},
      {"decision", "The mock's decisions"},
      {"pending", "Pending: fixed by work in progress"}};
  std::string out;
  for (const auto& [category, title] : sections) {
    std::string entries;
    for (const auto& d : declarations) {
      if (d.category == category) entries += declaration_entry(d, profile);
    }
    if (!entries.empty())
      out += std::string(out.empty() ? "" : "\n") + "#### " + title + "\n\n" + entries;
  }
  return out;
}

std::string same_cell(const std::string& list, const Found& plain) {
  std::string keys;
  std::istringstream in(list);
  for (std::string key; std::getline(in, key, ';');) {
    const auto first = key.find_first_not_of(' ');
    key =
        first == std::string::npos ? "" : key.substr(first, key.find_last_not_of(' ') - first + 1);
    const auto x = plain.by_key.find(key);
    if (x == plain.by_key.end()) throw std::runtime_error("{{same}}: no exchange '" + key + "'");
    if (x->second.at("outcome") != "same") {
      throw std::runtime_error("{{same}} claims '" + key + "' is the same, but the replay finds " +
                               outcome_cell(x->second));
    }
    keys += (keys.empty() ? "`" : ", `") + key + "`";
  }
  return "**same** (replayed: " + keys + ")";
}

std::string declared_cell(const std::string& id, const std::vector<Declaration>& declarations) {
  for (const auto& d : declarations) {
    if (d.id != id) continue;
    const std::string by = d.fixed_by.empty() ? "" : ", fixed by " + d.fixed_by;
    return "**" + std::string(label(d.category)) + "** (`" + id + "`" + by + "): " + d.reason;
  }
  throw std::runtime_error("{{declared " + id + "}}: no such declaration");
}

std::string directive(const std::string& text, const PageInputs& in, const Found& plain,
                      const Found& imitate) {
  if (text == "counts") return counts_table(in, plain, imitate);
  if (text == "exchanges") return exchanges_table(plain, imitate);
  if (text == "declarations") return declarations_list(in.declarations, in.profile_conditions);
  if (text.rfind("same ", 0) == 0) return same_cell(text.substr(5), plain);
  if (text.rfind("declared ", 0) == 0) return declared_cell(text.substr(9), in.declarations);
  throw std::runtime_error("unknown directive {{" + text + "}}");
}

}  // namespace

std::string render_page(const PageInputs& in) {
  const Found plain = found_in(in.plain);
  const Found imitate = found_in(in.imitate);
  const std::string& text = in.template_text;
  const auto title_end = text.find('\n');
  if (title_end == std::string::npos) throw std::runtime_error("the template has no title line");
  std::string out = text.substr(0, title_end + 1) + "\n> Generated from ";
  for (std::size_t i = 0; i < in.sources.size(); ++i) {
    out += (i == 0 ? "`" : i + 1 == in.sources.size() ? " and `" : ", `") + in.sources[i] + "`";
  }
  out +=
      ": do not edit this page; edit those and run `cmake --build build --target "
      "fidelity-page`.\n";
  std::size_t at = title_end + 1;
  for (std::size_t open = text.find("{{", at); open != std::string::npos;
       open = text.find("{{", at)) {
    const auto close = text.find("}}", open);
    if (close == std::string::npos) throw std::runtime_error("a {{ without its }}");
    out += text.substr(at, open - at) +
           directive(text.substr(open + 2, close - open - 2), in, plain, imitate);
    at = close + 2;
  }
  return out + text.substr(at);
}

}  // namespace webdata::mock::replay
