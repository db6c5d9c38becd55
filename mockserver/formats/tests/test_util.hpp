#pragma once

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include "content/document.hpp"

namespace formats_test {

inline std::string load(const std::string& name) {
  std::ifstream in(std::string(WEBDATA_FORMATS_TEST_DATA) + "/" + name, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline webdata::mock::content::Document parse(const std::string& html,
                                              const std::string& url = "https://example.com/page",
                                              int status = 200) {
  return webdata::mock::content::Document::parse({url, "text/html; charset=utf-8", status, html});
}

/// Validation errors of `value` against a draft-07 schema (valijson); empty when valid.
inline std::vector<std::string> schema_errors(const nlohmann::json& schema_json,
                                              const nlohmann::json& value) {
  valijson::Schema schema;
  valijson::SchemaParser parser;
  valijson::adapters::NlohmannJsonAdapter schema_adapter(schema_json);
  parser.populateSchema(schema_adapter, schema);
  valijson::Validator validator;
  valijson::ValidationResults results;
  valijson::adapters::NlohmannJsonAdapter value_adapter(value);
  std::vector<std::string> errors;
  if (!validator.validate(schema, value_adapter, &results)) {
    valijson::ValidationResults::Error error;
    while (results.popError(error)) {
      std::string path;
      for (const auto& p : error.context) path += p;
      errors.push_back(path + ": " + error.description);
    }
  }
  return errors;
}

}  // namespace formats_test
