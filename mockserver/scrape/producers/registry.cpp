#include "scrape/producers/registry.hpp"

namespace webdata::mock::scrape {

namespace produce {

// One declaration per producer, defined in the file of its name.
Producer markdown, html, raw_html, raw_base64, links, images, summary, json_format,
    deterministic_json, extract, branding, attributes, question, query, highlights, not_made,
    screenshot, change_tracking;

namespace {

constexpr Reads kPage = Reads::kPage;

const std::vector<Row> kRows = {
    // name               field             versions       reads              producer
    {"markdown",          "markdown",       kBothVersions, kPage,             markdown},
    {"html",              "html",           kBothVersions, kPage,             html},
    {"rawHtml",           "rawHtml",        kBothVersions, kPage,             raw_html},
    {"links",             "links",          kBothVersions, kPage,             links},
    {"images",            "images",         kV2,           kPage,             images},
    {"summary",           "summary",        kBothVersions, kPage,             summary},
    {"json",              "json",           kBothVersions, kPage,             json_format},
    {"deterministicJson", "json",           kV2,           kPage,             deterministic_json},
    {"extract",           "extract",        kV1,           kPage,             extract},
    {"branding",          "branding",       kV2,           kPage,             branding},
    {"attributes",        "attributes",     kV2,           kPage,             attributes},
    {"question",          "answer",         kV2,           kPage,             question},
    {"query",             "answer",         kV2,           kPage,             query},
    {"highlights",        "highlights",     kV2,           kPage,             highlights},
    {"rawBase64",         "rawBase64",      kV2,           kPage,             raw_base64},
    {"audio",             "warning",        kV2,           kPage,             not_made},
    {"video",             "warning",        kV2,           kPage,             not_made},
    {"product",           "warning",        kV2,           kPage,             not_made},
    {"menu",              "warning",        kV2,           kPage,             not_made},
    {"screenshot",        "screenshot",     kBothVersions, kPage,             screenshot},
    {"changeTracking",    "changeTracking", kBothVersions, Reads::kDelivered, change_tracking},
};

std::optional<Failure> produce_each(const FormatInput& in, Reads reads, nlohmann::json& data,
                                    std::int64_t& credits) {
  for (const Row& row : kRows) {
    if (row.reads != reads || (row.versions & in.version.bit) == 0 || !in.options.wants(row.name))
      continue;
    if (auto failed = row.produce(in, row, data, credits)) return failed;
  }
  return std::nullopt;
}

}  // namespace

const std::vector<Row>& rows() { return kRows; }

}  // namespace produce

std::optional<Failure> produce_formats(const FormatInput& in, nlohmann::json& data,
                                       std::int64_t& credits) {
  if (auto failed = produce::produce_each(in, produce::Reads::kPage, data, credits)) return failed;
  produce::redact_delivered(in.options, data);
  return produce::produce_each(in, produce::Reads::kDelivered, data, credits);
}

}  // namespace webdata::mock::scrape
