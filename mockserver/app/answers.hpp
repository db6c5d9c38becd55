#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "http/server.hpp"
#include "requests/validate.hpp"
#include "scrape/scraper.hpp"

// The answers several resources write alike: refusals of a request's fields, a scrape's failure,
// a document, and what a deployment without its database answers.

namespace webdata::mock {

/// 400 BAD_REQUEST with the refusal's `error`, `details` and `hint`.
http::Response refusal_answer(const requests::Refusal& refusal);
/// A refusal of one field: `{code, path, message}` as its one issue, "PATH_TEXT: MESSAGE" as
/// the hint. `path` is the path (an array); `code` is zod's name of the issue.
http::Response field_refusal(const std::string& path_text, const nlohmann::json& path,
                             const std::string& message, const std::string& code = "custom");
/// The same refusal of a top-level field `field`.
http::Response field_refusal(const std::string& field, const std::string& message);
/// 400 BAD_REQUEST `error` with the field's one issue (`code`, `message`) as `details`, without a
/// hint: the answer of the checks made after the schema (crawl paths, webhooks, paging).
http::Response field_error(const std::string& field, const std::string& error,
                           const std::string& message, const std::string& code = "custom");
/// The answer of a scrape that produced no document.
http::Response failure_answer(const scrape::Failure& failure);
/// `{"data": <document>, "success": true}` around a document already serialized.
http::Response document_answer(const std::string& document);
/// 400 BAD_REQUEST_INVALID_JSON, the answer to a body that is not JSON.
http::Response malformed_json();
/// 500 UNKNOWN_ERROR with an exception id, as a deployment without its database answers
/// what needs it.
http::Response database_unavailable();
/// A non-negative integer query parameter from `min` to `max` into `out`: nullopt when absent
/// or read, the error text (naming the parameter) when bad. Shared by paged routes.
std::optional<std::string> query_count(const http::Request& request, const char* name,
                                       std::size_t min, std::size_t max, std::size_t& out);

}  // namespace webdata::mock
