#include "jobs/sitemap.hpp"

#include <array>
#include <deque>
#include <iterator>
#include <set>

#include <zlib.h>
#include <pugixml.hpp>

#include "core/text.hpp"

namespace webdata::mock::jobs {

namespace {

// The protocol's limit for one sitemap, uncompressed; a gzip stream inflating past it is a bomb.
constexpr std::size_t kMaxInflated = 50u * 1024 * 1024;

bool is_gzip(std::string_view body) {
  return body.size() >= 2 && static_cast<unsigned char>(body[0]) == 0x1f &&
         static_cast<unsigned char>(body[1]) == 0x8b;
}

/// The gzip stream inflated, or an error text in `error`.
std::string gunzip(std::string_view data, std::string& error) {
  z_stream zs{};
  if (inflateInit2(&zs, 15 + 16) != Z_OK) {
    error = "gzip: cannot start zlib";
    return "";
  }
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  std::string out;
  std::array<char, 65536> chunk{};
  int rc = Z_OK;
  while (rc == Z_OK && out.size() <= kMaxInflated) {
    zs.next_out = reinterpret_cast<Bytef*>(chunk.data());
    zs.avail_out = static_cast<uInt>(chunk.size());
    rc = inflate(&zs, Z_NO_FLUSH);
    out.append(chunk.data(), chunk.size() - zs.avail_out);
    if (rc == Z_BUF_ERROR && zs.avail_in == 0) break;  // input ended before the stream did
  }
  inflateEnd(&zs);
  if (out.size() > kMaxInflated) {
    error = "gzip: inflates past 50 MiB, the protocol's limit for one sitemap";
  } else if (rc != Z_STREAM_END) {
    error = "gzip: " + std::string(rc == Z_BUF_ERROR ? "truncated stream" : "corrupt stream");
  }
  return error.empty() ? out : "";
}

std::string_view local_name(std::string_view name) {
  const auto colon = name.find(':');
  return colon == std::string_view::npos ? name : name.substr(colon + 1);
}

/// The namespace URI of an element's name, from the nearest `xmlns` / `xmlns:prefix` on it or
/// an ancestor; "" when none is declared; nullopt for an undeclared prefix.
std::optional<std::string> namespace_of(pugi::xml_node node) {
  const std::string_view name = node.name();
  const auto colon = name.find(':');
  const std::string attribute =
      colon == std::string_view::npos ? "xmlns" : "xmlns:" + std::string(name.substr(0, colon));
  for (auto at = node; at; at = at.parent()) {
    if (const auto declared = at.attribute(attribute.c_str())) return std::string(declared.value());
  }
  if (colon == std::string_view::npos) return std::string();
  return std::nullopt;
}

bool is_sitemap_namespace(const std::string& uri) {
  static const std::set<std::string> known = {"", "http://www.sitemaps.org/schemas/sitemap/0.9",
                                              "https://www.sitemaps.org/schemas/sitemap/0.9",
                                              "http://www.google.com/schemas/sitemap/0.84",
                                              "http://www.google.com/schemas/sitemap/0.9"};
  return known.count(uri) != 0;
}

bool is_sitemap_element(pugi::xml_node node, std::string_view local) {
  if (node.type() != pugi::node_element || local_name(node.name()) != local) return false;
  const auto uri = namespace_of(node);
  return uri && is_sitemap_namespace(*uri);
}

/// `<loc>`'s text: its character data and CDATA sections joined, whitespace around dropped.
std::string loc_text(pugi::xml_node loc) {
  std::string text;
  for (const auto child : loc.children()) {
    if (child.type() == pugi::node_pcdata || child.type() == pugi::node_cdata)
      text += child.value();
  }
  return std::string(trim(text));
}

/// The `<loc>` of each `entry` child of `root` (`url` of a urlset, `sitemap` of an index).
std::vector<std::string> locations(pugi::xml_node root, std::string_view entry) {
  std::vector<std::string> out;
  for (const auto item : root.children()) {
    if (!is_sitemap_element(item, entry)) continue;
    for (const auto loc : item.children()) {
      if (!is_sitemap_element(loc, "loc")) continue;
      if (auto text = loc_text(loc); !text.empty()) out.push_back(std::move(text));
      break;  // one location per entry
    }
  }
  return out;
}

Sitemap parse_xml(std::string_view xml) {
  Sitemap out;
  pugi::xml_document doc;
  // parse_default decodes entities and keeps CDATA; pugixml expands no DTD entities, so an
  // entity bomb stays text and a DOCTYPE cannot reach a file or the network.
  const auto parsed = doc.load_buffer(xml.data(), xml.size(), pugi::parse_default);
  if (!parsed) {
    out.error =
        "malformed XML at byte " + std::to_string(parsed.offset) + ": " + parsed.description();
    return out;
  }
  const auto root = doc.document_element();
  if (is_sitemap_element(root, "urlset")) {
    out.locations = locations(root, "url");
  } else if (is_sitemap_element(root, "sitemapindex")) {
    out.is_index = true;
    out.locations = locations(root, "sitemap");
  } else {
    out.error = "not a sitemap: the root element is <" + std::string(root.name()) +
                "> (expected <urlset> or <sitemapindex> in the sitemap namespace)";
  }
  return out;
}

}  // namespace

Sitemap parse_sitemap(std::string_view body) {
  if (!is_gzip(body)) return parse_xml(body);
  Sitemap out;
  const std::string xml = gunzip(body, out.error);
  return out.error.empty() ? parse_xml(xml) : out;
}

void follow_sitemaps(std::vector<std::string> start,
                     const std::function<std::optional<std::string>(const std::string&)>& fetch,
                     const std::function<void(const std::string&)>& on_page,
                     const std::function<bool()>& stop) {
  constexpr std::size_t kMaxSitemaps = 50;
  std::deque<std::string> queue(std::make_move_iterator(start.begin()),
                                std::make_move_iterator(start.end()));
  std::set<std::string> visited;
  while (!queue.empty() && visited.size() < kMaxSitemaps && !(stop && stop())) {
    const std::string next = std::move(queue.front());
    queue.pop_front();
    if (!visited.insert(next).second) continue;
    const auto text = fetch(next);
    if (!text) continue;
    const Sitemap sitemap = parse_sitemap(*text);
    for (const auto& loc : sitemap.locations) {
      if (sitemap.is_index) {
        queue.push_back(loc);
      } else {
        on_page(loc);
      }
    }
  }
}

}  // namespace webdata::mock::jobs
