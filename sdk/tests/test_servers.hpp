#pragma once

// Small in-test servers for the SDK's TLS and proxy paths (Beast, Asio and OpenSSL, each on its
// own thread, stopped on destruction):
// - TestCertificate: a throwaway self-signed certificate and key, written as PEM files;
// - TlsRelay: terminates TLS and relays the bytes to a plain TCP backend (the in-process mock),
//   so HTTPS requests and the wss watcher reach the real mock;
// - ConnectProxy: an HTTP CONNECT proxy, optionally asking for Basic credentials;
// - ScriptedService: answers WebSocket upgrades as told (decline with a status, or accept and
//   close with a code) and every other request with a fixed JSON body.
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace webdata::testing {

/// A self-signed certificate for `names` (DNS names or IP addresses, as subjectAltName) and
/// its private key, as PEM files in a fresh temporary directory removed on destruction.
class TestCertificate {
 public:
  explicit TestCertificate(const std::vector<std::string>& names);
  ~TestCertificate();
  TestCertificate(const TestCertificate&) = delete;
  TestCertificate& operator=(const TestCertificate&) = delete;

  const std::string& cert_file() const { return cert_file_; }
  const std::string& key_file() const { return key_file_; }
  /// A directory holding the certificate under its subject hash (`<hash>.0`), as a CA path.
  const std::string& ca_dir() const { return ca_dir_; }

 private:
  std::filesystem::path dir_;
  std::string cert_file_;
  std::string key_file_;
  std::string ca_dir_;
};

/// Accepts TLS on a loopback port with `certificate` and relays every connection's plain bytes
/// to 127.0.0.1:`backend_port`.
class TlsRelay {
 public:
  TlsRelay(const TestCertificate& certificate, std::uint16_t backend_port);
  ~TlsRelay();
  TlsRelay(const TlsRelay&) = delete;
  TlsRelay& operator=(const TlsRelay&) = delete;

  std::uint16_t port() const;
  /// "https://127.0.0.1:<port>".
  std::string url() const;
  /// Connections whose TLS handshake succeeded.
  int handshakes() const;
  /// Connections whose TLS handshake failed (the client refused the certificate).
  int failed_handshakes() const;

  struct Impl;

 private:
  std::shared_ptr<Impl> impl_;
};

/// An HTTP proxy that opens CONNECT tunnels (and refuses everything else with 405). With
/// `credentials` ("user:password") it requires them as Basic Proxy-Authorization (else 407).
class ConnectProxy {
 public:
  explicit ConnectProxy(std::optional<std::string> credentials = std::nullopt);
  ~ConnectProxy();
  ConnectProxy(const ConnectProxy&) = delete;
  ConnectProxy& operator=(const ConnectProxy&) = delete;

  std::uint16_t port() const;
  /// The targets of the tunnels opened so far ("127.0.0.1:4433").
  std::vector<std::string> tunnels() const;
  /// CONNECT requests refused for missing or wrong credentials.
  int refused() const;

  struct Impl;

 private:
  std::shared_ptr<Impl> impl_;
};

/// A plain HTTP service scripted for the watcher's edge cases.
class ScriptedService {
 public:
  struct Script {
    /// Non-zero: the WebSocket upgrade is declined with this status (and `decline_body`).
    int decline_status = 0;
    std::string decline_body = R"({"success":false,"error":"declined"})";
    /// Without `decline_status`: the upgrade is accepted, then closed with this code and reason.
    std::uint16_t close_code = 1000;
    std::string close_reason = R"({"type":"done"})";
    /// The answer to every plain request (a job status, for polling).
    std::string status_body = R"({"success":true,"status":"completed","total":0,"completed":0,)"
                              R"("creditsUsed":0,"data":[]})";
  };

  explicit ScriptedService(Script script);
  ~ScriptedService();
  ScriptedService(const ScriptedService&) = delete;
  ScriptedService& operator=(const ScriptedService&) = delete;

  /// "http://127.0.0.1:<port>".
  std::string url() const;
  int upgrades() const;        ///< WebSocket upgrade requests received.
  int plain_requests() const;  ///< Other requests received.

  struct Impl;

 private:
  std::shared_ptr<Impl> impl_;
};

}  // namespace webdata::testing
