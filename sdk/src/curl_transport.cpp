#include <curl/curl.h>

#include <memory>
#include <mutex>
#include <new>
#include <string_view>
#include <vector>

#include "errors.hpp"
#include "webdata/transport.hpp"

namespace webdata {
namespace {

void global_init() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

struct Exchange {
  HttpResponse response;
  std::size_t limit = 0;
  bool truncated = false;
  CURL* handle = nullptr;
};

// Up to this many announced bytes are reserved before the body arrives: a 10 MB status chunk
// grown by doubling would hold up to 2.5x its size while it is copied (bench/run.sh sdk).
constexpr curl_off_t kMaxReserve = curl_off_t{64} << 20;

size_t on_body(char* data, size_t size, size_t count, void* user) {
  auto* ex = static_cast<Exchange*>(user);
  const size_t n = size * count;
  if (ex->response.body.empty() && ex->handle != nullptr) {
    curl_off_t length = -1;
    curl_easy_getinfo(ex->handle, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length);
    if (length > 0 && length <= kMaxReserve &&
        (ex->limit == 0 || static_cast<std::size_t>(length) <= ex->limit)) {
      try {
        ex->response.body.reserve(static_cast<std::size_t>(length));
      } catch (const std::bad_alloc&) {
        // Not fatal: the body grows as it arrives.
      }
    }
  }
  if (ex->limit != 0 && ex->response.body.size() + n > ex->limit) {
    ex->truncated = true;
    return 0;  // aborts the transfer with CURLE_WRITE_ERROR
  }
  ex->response.body.append(data, n);
  return n;
}

size_t on_header(char* data, size_t size, size_t count, void* user) {
  auto* ex = static_cast<Exchange*>(user);
  const size_t n = size * count;
  std::string_view line(data, n);
  while (!line.empty() && (line.back() == '\r' || line.back() == '\n')) line.remove_suffix(1);
  if (line.rfind("HTTP/", 0) == 0) {
    ex->response.headers.clear();  // a new status line: redirect or 100-continue before it
    return n;
  }
  const auto colon = line.find(':');
  if (colon != std::string_view::npos) {
    std::string_view value = line.substr(colon + 1);
    const auto start = value.find_first_not_of(" \t");
    value = start == std::string_view::npos ? std::string_view() : value.substr(start);
    ex->response.headers.emplace_back(std::string(line.substr(0, colon)), std::string(value));
  }
  return n;
}

// An easy handle with what stays the same from one request to the next: its connection cache,
// the options of the transport, and the header list of its last request.
struct Handle {
  explicit Handle(CURL* c) : curl(c) {}
  ~Handle() {
    curl_easy_cleanup(curl);
    curl_slist_free_all(header_list);
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;

  CURL* curl;
  Headers headers;  ///< What `header_list` was built from.
  curl_slist* header_list = nullptr;
};

// libcurl reads a method from the body options, so each request sets all of them: a handle
// that last sent a POST or a HEAD must not carry that into a GET.
void set_method(CURL* curl, const HttpRequest& request) {
  const bool standard =
      request.method == "GET" || request.method == "HEAD" || request.method == "POST";
  if (!request.body.empty() || request.method == "POST" || request.method == "PUT") {
    curl_easy_setopt(curl, CURLOPT_NOBODY, 0L);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request.body.data());
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE,
                     static_cast<curl_off_t>(request.body.size()));
  } else {
    curl_easy_setopt(curl, CURLOPT_HTTPGET, 1L);
    if (request.method == "HEAD") curl_easy_setopt(curl, CURLOPT_NOBODY, 1L);
  }
  curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, standard ? nullptr : request.method.c_str());
}

class CurlTransport final : public Transport {
 public:
  explicit CurlTransport(CurlTransportOptions options) : options_(std::move(options)) {
    global_init();
  }
  CurlTransport(const CurlTransport&) = delete;
  CurlTransport& operator=(const CurlTransport&) = delete;

  std::optional<CurlTransportOptions> connection_options() const override { return options_; }

  Result<HttpResponse> send(const HttpRequest& request) override {
    std::unique_ptr<Handle> handle = acquire();
    if (handle == nullptr) {
      return detail::error_of(ErrorKind::kTransport, "curl_easy_init failed", true);
    }
    CURL* curl = handle->curl;
    Exchange ex;
    ex.limit = options_.max_response_bytes;
    ex.handle = curl;
    // A client sends the same headers call after call; the list is rebuilt only on a change.
    if (handle->header_list == nullptr || handle->headers != request.headers) {
      curl_slist_free_all(handle->header_list);
      curl_slist* headers = nullptr;
      for (const auto& [name, value] : request.headers) {
        const std::string line = value.empty() ? name + ";" : name + ": " + value;
        headers = curl_slist_append(headers, line.c_str());
      }
      // libcurl adds "Expect: 100-continue" to large bodies, which costs a round trip.
      headers = curl_slist_append(headers, "Expect:");
      handle->header_list = headers;
      handle->headers = request.headers;
    }

    curl_easy_setopt(curl, CURLOPT_URL, request.url.c_str());
    set_method(curl, request);
    // A multipart body: libcurl writes the boundary, each part and the Content-Type header.
    // The parts are copied into the mime structure, freed once the exchange is over.
    std::unique_ptr<curl_mime, void (*)(curl_mime*)> mime(nullptr, curl_mime_free);
    if (!request.form.empty()) {
      mime.reset(curl_mime_init(curl));
      for (const auto& field : request.form) {
        curl_mimepart* part = curl_mime_addpart(mime.get());
        curl_mime_name(part, field.name.c_str());
        curl_mime_data(part, field.data.data(), field.data.size());
        if (!field.filename.empty()) curl_mime_filename(part, field.filename.c_str());
        if (!field.content_type.empty()) curl_mime_type(part, field.content_type.c_str());
      }
      curl_easy_setopt(curl, CURLOPT_MIMEPOST, mime.get());
    }
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, handle->header_list);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(request.timeout.count()));
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &ex);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &ex);

    const CURLcode rc = curl_easy_perform(curl);
    long status = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    // Nothing of this exchange may outlive it in the handle.
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, nullptr);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, nullptr);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, nullptr);
    if (mime) curl_easy_setopt(curl, CURLOPT_MIMEPOST, nullptr);
    release(std::move(handle));

    if (rc != CURLE_OK) {
      Error err;
      err.message = std::string(curl_easy_strerror(rc)) + " (" + request.method + " " +
                    request.url + ")";
      if (rc == CURLE_OPERATION_TIMEDOUT) {
        err.kind = ErrorKind::kTimeout;
        err.retryable = true;
      } else if (ex.truncated) {
        err.kind = ErrorKind::kTransport;
        err.message = "response larger than the configured limit of " +
                      std::to_string(options_.max_response_bytes) + " bytes";
      } else {
        err.kind = ErrorKind::kTransport;
        err.retryable = rc == CURLE_COULDNT_CONNECT || rc == CURLE_COULDNT_RESOLVE_HOST ||
                        rc == CURLE_GOT_NOTHING || rc == CURLE_SEND_ERROR ||
                        rc == CURLE_RECV_ERROR || rc == CURLE_PARTIAL_FILE;
      }
      return err;
    }
    ex.response.status = static_cast<int>(status);
    return std::move(ex.response);
  }

 private:
  // Easy handles keep their connection cache, so reusing them reuses connections. The options
  // that never change are set once, when the handle is made.
  std::unique_ptr<Handle> acquire() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!idle_.empty()) {
        std::unique_ptr<Handle> handle = std::move(idle_.back());
        idle_.pop_back();
        return handle;
      }
    }
    CURL* curl = curl_easy_init();
    if (curl == nullptr) return nullptr;
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS,
                     static_cast<long>(options_.connect_timeout.count()));
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");
    curl_easy_setopt(curl, CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_2TLS);
    curl_easy_setopt(curl, CURLOPT_USERAGENT, options_.user_agent.c_str());
    curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, options_.verify_tls ? 1L : 0L);
    curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, options_.verify_tls ? 2L : 0L);
    if (!options_.ca_file.empty()) curl_easy_setopt(curl, CURLOPT_CAINFO, options_.ca_file.c_str());
    if (!options_.ca_path.empty()) curl_easy_setopt(curl, CURLOPT_CAPATH, options_.ca_path.c_str());
    if (!options_.proxy.empty()) curl_easy_setopt(curl, CURLOPT_PROXY, options_.proxy.c_str());
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
    return std::make_unique<Handle>(curl);
  }
  void release(std::unique_ptr<Handle> handle) {
    std::lock_guard<std::mutex> lock(mutex_);
    idle_.push_back(std::move(handle));
  }

  CurlTransportOptions options_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<Handle>> idle_;
};

}  // namespace

std::shared_ptr<Transport> make_curl_transport(CurlTransportOptions options) {
  return std::make_shared<CurlTransport>(std::move(options));
}

}  // namespace webdata
