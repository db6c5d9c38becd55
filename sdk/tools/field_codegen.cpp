// Writes the SDK's field lists from their descriptions: `webdata-field-codegen IN.json OUT.inc`.
// Each model's JSON mapping is described once, as data, in a `*.fields.json` beside the source
// that includes the generated file (docs/architecture.md, "The SDK's JSON mapping", has the
// format); this program turns a description into the `fields(IO&, Model&)` functions and codec
// definitions the codec machinery (src/codec.hpp) expects. It refuses, with the file and the
// entry, anything it does not understand, so a typo never becomes a silently missing field.
#include <cctype>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace {

using nlohmann::ordered_json;

struct Failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// "articleRank" -> "article_rank": the member a wire name maps to unless `as` says otherwise.
std::string snake_case(const std::string& wire) {
  std::string out;
  for (char c : wire) {
    if (std::isupper(static_cast<unsigned char>(c)) != 0) {
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

std::string body_of(const ordered_json& entries, const std::string& var) {
  std::string out = " {\n";
  for (const auto& e : entries) {
    try {
      out += "  " + entry_line(e.get<std::string>(), var) + "\n";
    } catch (const Failure& f) {
      throw Failure("entry \"" + e.get<std::string>() + "\": " + f.what());
    }
  }
  return out + "}\n";
}

std::string doc_of(const ordered_json& item) {
  if (!item.contains("doc")) return "";
  return "/// " + item["doc"].get<std::string>() + "\n";
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

/// A model read from answers only (`Reader`), or written and read (`IO`, both directions).
std::string model(const ordered_json& m) {
  const std::string type = m.at("type").get<std::string>();
  const std::string io = m.value("io", "answer");
  std::string head;
  if (io == "answer") {
    head = "void fields(Reader& io, " + type + "& m)";
  } else if (io == "both") {
    head = "template <class IO, class M, IfModel<M, " + type + "> = 0>\nvoid fields(IO& io, M& m)";
  } else {
    throw Failure(type + ": unknown io '" + io + "'");
  }
  try {
    return doc_of(m) + head + body_of(m.at("fields"), "m") +
           codec_of(type, m.value("codec", io == "answer" ? "answer" : "fields")) + "\n";
  } catch (const Failure& f) {
    throw Failure(type + ": " + f.what());
  }
}

std::string generate(const ordered_json& doc, const std::string& source) {
  std::string out =
      "// Generated by webdata-field-codegen from " + source + "; edit that file.\n\n";
  for (const auto& list : doc.value("lists", ordered_json::array()))
    out += shared_list(list) + "\n";
  for (const auto& m : doc.value("models", ordered_json::array())) out += model(m);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: webdata-field-codegen IN.fields.json OUT.inc\n";
    return 2;
  }
  try {
    std::ifstream in(argv[1]);
    if (!in) throw Failure("cannot read the file");
    const std::string name = std::string(argv[1]).substr(std::string(argv[1]).rfind('/') + 1);
    const std::string text = generate(ordered_json::parse(in), name);
    std::ofstream out(argv[2], std::ios::trunc);
    out << text;
    if (!out.flush()) throw Failure(std::string("cannot write ") + argv[2]);
  } catch (const std::exception& e) {
    std::cerr << argv[1] << ": " << e.what() << "\n";
    return 1;
  }
  return 0;
}
