#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <webdata/webdata.hpp>

namespace webdata::cli {

/// Markdown renderings of the API's results, for people and for piping into other tools.
/// A document whose only output is markdown prints as that markdown, unchanged.
void render_document(std::ostream& out, const Document& doc);
/// Document `number` (from 1) of a crawl or batch: a `---` rule unless it is the `first` one
/// printed, a `<!-- page N: URL (status) -->` line, then `render_document`.
void render_job_document(std::ostream& out, const Document& doc, std::size_t number, bool first);
void render_search(std::ostream& out, const SearchResults& results);
void render_search_v1(std::ostream& out, const v1::SearchResults& results);
void render_agent(std::ostream& out, const AgentResult& result);
void render_errors(std::ostream& out, const JobErrors& errors);
void render_active(std::ostream& out, const std::vector<ActiveCrawl>& crawls);
/// An extract job's `data` (a string as is, anything else as a fenced json block), then with
/// `sources` a `Sources:` list naming the pages of each field.
void render_extract(std::ostream& out, const ExtractResult& result);
/// "extract ID: STATE, N credits, T tokens, expires ..." (and `error: ...` of a failed job), then
/// the data of a completed one (render_extract).
void render_extract_status(std::ostream& out, const std::string& id, const ExtractResult& result);
/// Why a job ended `failed`, in one line: the `error` of its status; "the service gave no reason"
/// when it sent none or an empty one (`("error": {})` added when it sent that, as some
/// deployments do). nullopt for a job that did not fail and has no error.
std::optional<std::string> job_error(const JobStatus& status);
/// The same for an extract job.
std::optional<std::string> extract_error(const ExtractResult& result);
/// "crawl ID: completed, 12/12 pages, 12 credits, expires ..." style summary (and the error of a
/// failed job on a second line).
void render_status(std::ostream& out, const std::string& kind, const std::string& id,
                   const JobStatus& status);

}  // namespace webdata::cli
