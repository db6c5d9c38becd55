// Content pipeline benchmark: HTML to markdown (gumbo parse + the mock's markdown renderer) on
// the bundled pages of the virtual web and on one large generated page, in MB of input HTML
// per second. bench/turndown_bench.js converts the same files with turndown.
//
//   content_bench --fixtures mockserver/fixtures/web/__files --out DIR [--seconds 2]
//                 [--large-mb 4]
//
// Writes DIR/large.html (the generated page) and DIR/bundled.txt (the bundled files, one path a
// line) for turndown_bench.js, then prints `result:` lines read by bench/run.sh.

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "bench_util.hpp"
#include "content/document.hpp"

namespace fs = std::filesystem;
using namespace webdata::bench;
using webdata::mock::content::Document;
using webdata::mock::content::Options;
using webdata::mock::content::Page;

namespace {

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// A long documentation-like article: headings, paragraphs with inline markup and links, lists,
// tables, code blocks, images and a navigation/footer boilerplate. Deterministic.
std::string large_page(std::size_t target_bytes) {
  std::string html =
      "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Generated "
      "handbook</title><meta name=\"description\" content=\"A large generated page\"></head><body>"
      "<header><nav><a href=\"/\">Home</a> <a href=\"/docs\">Docs</a> <a href=\"/blog\">Blog</a>"
      "</nav></header><main><article><h1>Generated handbook</h1>";
  static const char* const kWords[] = {"pipeline", "connector", "schema",   "offset",  "batch",
                                       "retry",    "parquet",   "snapshot", "watermark", "sink",
                                       "source",   "transform", "cursor",   "partition", "replay"};
  std::size_t section = 0;
  std::size_t word = 0;
  auto words = [&](int n) {
    std::string out;
    for (int i = 0; i < n; ++i) {
      if (i) out += ' ';
      out += kWords[(word++ * 7 + 3) % 15];
    }
    return out;
  };
  while (html.size() < target_bytes) {
    ++section;
    const std::string n = std::to_string(section);
    html += "<section id=\"s" + n + "\"><h2>Section " + n + ": " + words(3) + "</h2>";
    for (int p = 0; p < 4; ++p) {
      html += "<p>" + words(12) + " <a href=\"/docs/" + n + "/" + std::to_string(p) + "\">" +
              words(2) + "</a> " + words(8) + " <strong>" + words(2) + "</strong>, <em>" +
              words(3) + "</em> and <code>" + words(1) + "()</code> " + words(10) + ".</p>";
    }
    html += "<h3>Steps</h3><ol>";
    for (int i = 0; i < 4; ++i) html += "<li>" + words(6) + " <a href=\"#s" + n + "\">here</a></li>";
    html += "</ol><ul>";
    for (int i = 0; i < 3; ++i) {
      html += "<li>" + words(4) + "<ul><li>" + words(3) + "</li><li>" + words(3) + "</li></ul></li>";
    }
    html += "</ul><table><thead><tr><th>key</th><th>type</th><th>default</th></tr></thead><tbody>";
    for (int i = 0; i < 4; ++i) {
      html += "<tr><td>" + words(1) + "</td><td>" + words(1) + "</td><td>" + std::to_string(i) +
              "</td></tr>";
    }
    html += "</tbody></table><pre><code class=\"language-sh\">webdata run --" + words(1) +
            " " + words(2) + "\nwebdata status &lt;id&gt;\n</code></pre>"
            "<blockquote><p>" + words(10) + "</p></blockquote>"
            "<p><img src=\"/img/" + n + ".png\" alt=\"" + words(2) + "\"></p></section>";
  }
  html += "</article></main><footer><p>Copyright. <a href=\"/privacy\">Privacy</a></p></footer>"
          "</body></html>";
  return html;
}

struct Input {
  std::string name;
  std::string html;
};

// MB/s of HTML converted, repeated over all inputs until `seconds` have passed. The pages are
// built and converted once before the clock starts, as turndown_bench.js reads its strings and
// warms V8 up before timing: otherwise the first rounds of a 1 s run on the 4 MB page mostly
// measure the allocator growing the heap.
double throughput(const std::vector<Input>& inputs, const Options& options, double seconds,
                  std::size_t& markdown_bytes) {
  std::vector<Page> pages;
  for (const auto& input : inputs) {
    Page page;
    page.url = "https://bench.example.test/" + input.name;
    page.content_type = "text/html; charset=utf-8";
    page.body = input.html;
    pages.push_back(std::move(page));
  }
  for (const auto& page : pages) (void)Document::parse(page).markdown(options);
  std::size_t bytes = 0;
  const auto start = Clock::now();
  do {
    markdown_bytes = 0;
    for (const auto& page : pages) {
      const Document doc = Document::parse(page);
      markdown_bytes += doc.markdown(options).size();
      bytes += page.body.size();
    }
  } while (seconds_since(start) < seconds);
  return static_cast<double>(bytes) / 1e6 / seconds_since(start);
}

}  // namespace

int main(int argc, char** argv) {
  const fs::path fixtures = arg(argc, argv, "--fixtures", "mockserver/fixtures/web/__files");
  const fs::path out = arg(argc, argv, "--out", "build-bench/bench-inputs");
  const double seconds = std::stod(arg(argc, argv, "--seconds", "2"));
  const double large_mb = std::stod(arg(argc, argv, "--large-mb", "4"));
  const std::string only = arg(argc, argv, "--only", "");  // bundled | large (for profiling)
  fs::create_directories(out);

  std::vector<Input> bundled;
  std::vector<fs::path> paths;
  for (const auto& entry : fs::recursive_directory_iterator(fixtures)) {
    if (entry.is_regular_file() && entry.path().extension() == ".html") paths.push_back(entry.path());
  }
  std::sort(paths.begin(), paths.end());
  std::ofstream list(out / "bundled.txt");
  std::size_t bundled_bytes = 0;
  for (const auto& path : paths) {
    bundled.push_back({path.filename().string(), read_file(path)});
    bundled_bytes += bundled.back().html.size();
    list << fs::absolute(path).string() << "\n";
  }
  const std::vector<Input> large = {
      {"large.html", large_page(static_cast<std::size_t>(large_mb * 1e6))}};
  std::ofstream(out / "large.html", std::ios::binary) << large[0].html;

  Options full;
  full.only_main_content = false;
  const Options main_only;  // the scrape default
  std::size_t md_full = 0, md_main = 0, md_large = 0, md_large_main = 0;
  const bool do_bundled = only.empty() || only == "bundled";
  const bool do_large = only.empty() || only == "large";
  const double bundled_full = do_bundled ? throughput(bundled, full, seconds, md_full) : 0;
  const double bundled_main = do_bundled ? throughput(bundled, main_only, seconds, md_main) : 0;
  const double large_full = do_large ? throughput(large, full, seconds, md_large) : 0;
  const double large_main = do_large ? throughput(large, main_only, seconds, md_large_main) : 0;

  std::cout << "result: content_bundled_files=" << bundled.size()
            << "\nresult: content_bundled_kb=" << fmt("%.0f", static_cast<double>(bundled_bytes) / 1e3)
            << "\nresult: content_large_kb=" << fmt("%.0f", static_cast<double>(large[0].html.size()) / 1e3)
            << "\nresult: content_bundled_md_kb=" << fmt("%.0f", static_cast<double>(md_full) / 1e3)
            << "\nresult: content_large_md_kb=" << fmt("%.0f", static_cast<double>(md_large) / 1e3)
            << "\nresult: content_bundled_mb_s=" << fmt("%.2f", bundled_full)
            << "\nresult: content_bundled_main_mb_s=" << fmt("%.2f", bundled_main)
            << "\nresult: content_large_mb_s=" << fmt("%.2f", large_full)
            << "\nresult: content_large_main_mb_s=" << fmt("%.2f", large_main) << "\n";
  return 0;
}
