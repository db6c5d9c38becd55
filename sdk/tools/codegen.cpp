// webdata_codegen: writes the SDK's declarations that are described as data.
//
//   webdata_codegen fields IN.fields.json OUT.inc   one source's field lists (src/*.fields.json)
//   webdata_codegen enums IN.json OUT.hpp           the enumerations (include/webdata/enums.json)
//
// A field list describes a model's JSON mapping once, beside the source that includes the
// generated file; an enumeration lists its wire values once. docs/architecture.md ("The SDK's
// JSON mapping") has both formats. The program refuses, with the file and the entry, anything it
// does not understand, so a typo never becomes a silently missing field or constant.
#include <algorithm>
#include <cctype>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace {

using nlohmann::ordered_json;

struct Failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// "articleRank" -> "article_rank", "crawl.started" -> "crawl_started": the C++ name of a wire
/// name unless `as` says otherwise.
std::string snake_case(const std::string& wire) {
  std::string out;
  for (char c : wire) {
    if (c == '.') {
      out += '_';
    } else if (std::isupper(static_cast<unsigned char>(c)) != 0) {
      out += '_';
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else {
      out += c;
    }
  }
  return out;
}

std::vector<std::string> words_of(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

/// The C++ name of a rule word of an entry.
std::string rule_of(const std::string& word) {
  if (word == "required") return "kRequired";
  if (word == "essential") return "kEssential";
  if (word == "omit_empty") return "kOmitEmpty";
  if (word == "null_unset") return "kNullUnset";
  throw Failure("unknown word '" + word + "'");
}

/// One member entry: `wire [as member] [with Codec] [rule...]`.
std::string member_line(const std::vector<std::string>& w, const std::string& var) {
  const std::string& wire = w[0];
  std::string member = snake_case(wire);
  std::string codec;
  std::string rules;
  for (std::size_t i = 1; i < w.size(); ++i) {
    const bool has_value = i + 1 < w.size();
    if (w[i] == "as" && has_value) {
      member = w[++i];
    } else if (w[i] == "with" && has_value) {
      codec = w[++i];
    } else {
      rules += (rules.empty() ? "" : " | ") + rule_of(w[i]);
    }
  }
  const std::string target = "\"" + wire + "\", " + var + "." + member;
  if (!codec.empty() && !rules.empty())
    throw Failure("a member read `with` a codec takes no rules");
  if (!codec.empty()) return "io.with(" + target + ", " + codec + "{});";
  return "io(" + target + (rules.empty() ? "" : ", " + rules) + ");";
}

/// One entry of a list: a member, `extras`, `also wire [as member]` or `use list_function`.
std::string entry_line(const std::string& entry, const std::string& var) {
  const auto hash = entry.find('#');
  const std::vector<std::string> w = words_of(entry.substr(0, hash));
  const std::string note = hash == std::string::npos ? "" : "  // " + entry.substr(hash + 2);
  if (w.empty()) throw Failure("empty entry");
  if (w[0] == "extras" && w.size() == 1) return "io.extras(" + var + ".extras);" + note;
  if (w[0] == "use" && w.size() == 2) return w[1] + "(io, " + var + ");" + note;
  if (w[0] == "also" && (w.size() == 2 || (w.size() == 4 && w[2] == "as"))) {
    const std::string member = w.size() == 4 ? w[3] : snake_case(w[1]);
    return "io.also(\"" + w[1] + "\", " + var + "." + member + ");" + note;
  }
  return member_line(w, var) + note;
}

/// What an entry names: its wire name (`also` too), the list it uses, or `extras`.
std::string named_by(const std::string& entry) {
  const std::vector<std::string> w = words_of(entry.substr(0, entry.find('#')));
  if (w.size() >= 2 && (w[0] == "also" || w[0] == "use")) return w[1];
  return w.empty() ? "" : w[0];
}

std::string body_of(const ordered_json& entries, const std::string& var) {
  std::string out = " {\n";
  std::vector<std::string> seen;
  for (const auto& e : entries) {
    const std::string entry = e.get<std::string>();
    try {
      const std::string line = entry_line(entry, var);
      if (std::find(seen.begin(), seen.end(), named_by(entry)) != seen.end()) {
        throw Failure("'" + named_by(entry) + "' is listed twice");
      }
      seen.push_back(named_by(entry));
      out += "  " + line + "\n";
    } catch (const Failure& f) {
      throw Failure("entry \"" + entry + "\": " + f.what());
    }
  }
  return out + "}\n";
}

/// `text` as `///` lines of at most 100 columns.
std::string comment(const std::string& text, const std::string& indent) {
  std::string out;
  std::string line;
  for (const std::string& word : words_of(text)) {
    if (!line.empty() && indent.size() + 4 + line.size() + 1 + word.size() > 100) {
      out += indent + "/// " + line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  return out + indent + "/// " + line + "\n";
}

std::string doc_of(const ordered_json& item, const std::string& indent = "") {
  return item.contains("doc") ? comment(item["doc"].get<std::string>(), indent) : "";
}

/// A list other lists `use`: `template <class IO, class R> void name(IO& io, R& r)`.
std::string shared_list(const ordered_json& list) {
  return doc_of(list) + "template <class IO, class R>\nvoid " + list.at("name").get<std::string>() +
         "(IO& io, R& r)" + body_of(list.at("fields"), "r");
}

/// The codec definition after a model's list, from its `codec` word.
std::string codec_of(const std::string& type, const std::string& codec) {
  if (codec == "answer") return "WEBDATA_ANSWER_CODEC(" + type + ")\n";
  if (codec == "fields") return "WEBDATA_FIELDS_CODEC(" + type + ")\n";
  const std::vector<std::string> w = words_of(codec);
  if (w.size() == 2 && w[0] == "bare_or_fields") {
    return "WEBDATA_BARE_OR_FIELDS_CODEC(" + type + ", \"" + w[1] + "\")\n";
  }
  if (codec == "none") return "";
  throw Failure("unknown codec '" + codec + "'");
}

/// The function a model's list becomes, and the codec it has unless `codec` says otherwise: read
/// from answers only (`Reader`), written only (`Writer`, a request body), or both (`IO`).
std::pair<std::string, std::string> head_of(const std::string& type, const std::string& io) {
  if (io == "answer") return {"void fields(Reader& io, " + type + "& m)", "answer"};
  if (io == "request") return {"void fields(Writer& io, const " + type + "& m)", "none"};
  if (io == "both") {
    return {"template <class IO, class M, IfModel<M, " + type + "> = 0>\nvoid fields(IO& io, M& m)",
            "fields"};
  }
  throw Failure(type + ": unknown io '" + io + "'");
}

std::string model(const ordered_json& m) {
  const std::string type = m.at("type").get<std::string>();
  const auto [head, codec] = head_of(type, m.value("io", "answer"));
  try {
    return doc_of(m) + head + body_of(m.at("fields"), "m") +
           codec_of(type, m.value("codec", codec)) + "\n";
  } catch (const std::exception& f) {  // a Failure, or a missing key of the JSON
    throw Failure(type + ": " + f.what());
  }
}

std::string generated_from(const std::string& source) {
  return "// Generated by webdata_codegen from " + source + "; edit that file.\n";
}

std::string field_lists(const ordered_json& doc, const std::string& source) {
  std::string out = generated_from(source) + "\n";
  for (const auto& list : doc.value("lists", ordered_json::array())) {
    out += shared_list(list) + "\n";
  }
  for (const auto& m : doc.value("models", ordered_json::array())) out += model(m);
  return out;
}

// ---- open enumerations

/// `static T name() { return T("wire"); }` from `wire [as name] [# doc]`.
std::string constant(const std::string& type, const std::string& entry) {
  const auto hash = entry.find('#');
  const std::vector<std::string> w = words_of(entry.substr(0, hash));
  const bool renamed = w.size() == 3 && w[1] == "as";
  if (w.size() != 1 && !renamed)
    throw Failure("value \"" + entry + "\": expected 'wire [as name]'");
  const std::string doc = hash == std::string::npos ? "" : comment(entry.substr(hash + 2), "  ");
  const std::string name = renamed ? w[2] : snake_case(w[0]);
  return doc + "  static " + type + " " + name + "() { return " + type + "(\"" + w[0] + "\"); }\n";
}

/// The wire values of an enumeration.
std::vector<std::string> wires_of(const ordered_json& values) {
  std::vector<std::string> wires;
  for (const auto& v : values) {
    const std::string entry = v.get<std::string>();
    wires.push_back(words_of(entry.substr(0, entry.find('#'))).at(0));
  }
  return wires;
}

/// `bool name() const`: true for the values the predicate lists, each one of `wires`.
std::string predicate(const ordered_json& p, const std::vector<std::string>& wires) {
  std::string test;
  for (const auto& v : p.at("values")) {
    if (std::find(wires.begin(), wires.end(), v.get<std::string>()) == wires.end()) {
      throw Failure(p.at("name").get<std::string>() + ": '" + v.get<std::string>() +
                    "' is not one of the values");
    }
    test +=
        (test.empty() ? "" : " || ") + std::string("value() == \"") + v.get<std::string>() + "\"";
  }
  return doc_of(p, "  ") + "  bool " + p.at("name").get<std::string>() + "() const {\n    return " +
         test + ";\n  }\n";
}

std::string enumeration(const ordered_json& e) {
  const std::string type = e.at("name").get<std::string>();
  std::string out = doc_of(e, "") + "class " + type + " : public OpenEnum<" + type +
                    "> {\n public:\n  using OpenEnum::OpenEnum;\n";
  try {
    for (const auto& v : e.at("values")) out += constant(type, v.get<std::string>());
    const std::vector<std::string> wires = wires_of(e.at("values"));
    for (const auto& p : e.value("predicates", ordered_json::array())) out += predicate(p, wires);
  } catch (const std::exception& f) {  // a Failure, or a missing key of the JSON
    throw Failure(type + ": " + f.what());
  }
  return out + "};\n\n";
}

std::string enumerations(const ordered_json& doc, const std::string& source) {
  std::string about = doc_of(doc);  // a comment on the file, not on a declaration
  for (std::size_t at = about.find("///"); at != std::string::npos; at = about.find("///", at)) {
    about.erase(at, 1);
  }
  std::string out = "#pragma once\n\n" + generated_from(source) + about +
                    "\n#include \"webdata/open_enum.hpp\"\n\nnamespace webdata {\n\n";
  for (const auto& e : doc.at("enums")) out += enumeration(e);
  return out + "}  // namespace webdata\n";
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc == 4 ? argv[1] : "";
  if (mode != "fields" && mode != "enums") {
    std::cerr << "usage: webdata_codegen fields IN.fields.json OUT.inc\n"
                 "       webdata_codegen enums IN.json OUT.hpp\n";
    return 2;
  }
  try {
    std::ifstream in(argv[2]);
    if (!in) throw Failure("cannot read the file");
    const std::string path = argv[2];
    const std::string name = path.substr(path.rfind('/') + 1);
    const ordered_json doc = ordered_json::parse(in);
    const std::string text = mode == "fields" ? field_lists(doc, name) : enumerations(doc, name);
    std::ofstream out(argv[3], std::ios::trunc);
    out << text;
    if (!out.flush()) throw Failure(std::string("cannot write ") + argv[3]);
  } catch (const std::exception& e) {
    std::cerr << argv[2] << ": " << e.what() << "\n";
    return 1;
  }
  return 0;
}
