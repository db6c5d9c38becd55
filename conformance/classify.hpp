#pragma once

// What a deployment's own answers say about it, for the precheck: whether an optional part is
// available, absent (no such route, or the deployment says it lacks what the part needs: a model,
// a key, a provider, an engine) or broken (it is there but answers 500 or something wrong), and
// why a scrape of the runner's test site failed. Pure functions over answers: the unit tests feed
// them the answers recorded from a real deployment (tests/data/real/).

#include <string>

#include <nlohmann/json.hpp>

namespace webdata::conformance {

/// One answer of the deployment, as the classifiers read it.
struct Answer {
  int status = 0;  ///< 0: no HTTP answer (see `transport_error`).
  std::string content_type;
  std::string body;
  nlohmann::json json =
      nlohmann::json::value_t::discarded;  ///< `body` parsed; discarded if not JSON.
  std::string transport_error;
};

/// Whether a deployment offers an optional part.
enum class Presence {
  kAvailable,  ///< The cases that need it run.
  kAbsent,     ///< Not there: the rules that need it are skipped, in the deployment's words.
  kBroken,     ///< There, but failing: its own rule fails; other rules that need it are skipped.
};
/// "available", "absent", "broken".
const char* presence_name(Presence presence);

/// A finding of the precheck about one part: its presence and what the deployment answered.
struct Finding {
  Presence presence = Presence::kAvailable;
  std::string detail;
};

/// The `error` text of an answer (a string `error`, else a string `message`), or the first line
/// of a body that is not JSON; empty when there is none.
std::string error_text(const Answer& answer);
/// "HTTP 500 SCRAPE_DNS_RESOLUTION_ERROR: <error>", "HTTP 404, HTML page", "no HTTP answer (...)":
/// the status and what the body says about it, on one line.
std::string short_answer(const Answer& answer);
/// Whether `message` says the deployment lacks what a feature needs: a model or its key, a
/// provider, a configuration, the feature itself ("OpenAI API key is missing", "... none is
/// configured", "Agent beta is not enabled.", "not supported", "Failed to process natural
/// language prompt", as a deployment without a language model answers a params preview).
bool says_missing(const std::string& message);
/// "this deployment has no GET /v2/team/queue-status (HTTP 404, HTML page)": what the SDK says of
/// an answer that is not JSON on a route the deployment lacks. `route` is "METHOD /path".
std::string no_route_message(const std::string& route, const Answer& answer);

/// A request to a route: 404 or 405 is absent (the route is missing; an answer that is not JSON
/// reads as no_route_message()); an answer whose error says_missing() is absent, quoting it; 5xx
/// or no answer is broken; anything else (2xx, or a 4xx about the request) is available.
Finding classify_route(const std::string& route, const Answer& answer);

/// A v2 scrape asking for a format or option that fills the document field `field`: available
/// when the document has it; absent when the scrape is refused (4xx), when no engine of the
/// deployment can do it (SCRAPE_ALL_ENGINES_FAILED of a page it scrapes otherwise), when the
/// error says_missing(), or when the answer lacks the field with a `warning` (an engine without
/// screenshots says so); broken on any other failure, and on an answer without the field and
/// without a warning (the request was silently not done).
Finding classify_scrape_feature(const std::string& field, const Answer& answer);

/// A scrape of a PDF: absent when refused as such (400, SCRAPE_UNSUPPORTED_FILE_ERROR), available
/// on a 200 with success, else broken.
Finding classify_pdf(const Answer& answer);

/// A v2 search for `query`: available with web results; absent without results (no search
/// provider), when refused (4xx) or when the error says_missing(); broken on 5xx.
Finding classify_search(const std::string& query, const Answer& answer);

/// Whether the deployment has a language model, from the answers that need one: the params
/// preview (`preview`, POST /v2/crawl/params-preview with a prompt) and a scrape asking for the
/// json format (`json_scrape`). Absent when either says_missing(), quoting it; else available
/// (a model that is there but fails is judged by the cases).
Finding classify_model(const Answer& preview, const Answer& json_scrape);

/// Why the deployment could not scrape the runner's test site, named from its answer: the
/// precheck's stop message.
struct FetchFailure {
  std::string headline;  ///< "the target cannot fetch this runner's test site."
  std::string cause;     ///< The request and the deployment's status, code and message.
  std::string advice;    ///< What to do; about the site's address only for fetch errors.
};
/// Where the runner's test site is, as the failure explains it.
struct SiteAddress {
  std::string page;         ///< The URL the scrape asked for.
  std::string site_host;    ///< HOST:PORT given to the target (--site-host).
  std::string site_listen;  ///< ADDRESS:PORT the site listens on.
  bool reached = false;     ///< The site saw the scrape's request.
};
FetchFailure explain_fetch_failure(const Answer& answer, const SiteAddress& site);

}  // namespace webdata::conformance
