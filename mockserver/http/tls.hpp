#pragma once

#include <string>
#include <vector>

// TLS for the mock's HTTP server (HTTPS and WSS): the settings, a check of certificate files,
// and throwaway self-signed certificates for tests (ADR 0007). Only http/ sees OpenSSL types.
namespace webdata::mock::http {

struct TlsOptions {
  std::string cert_file;     ///< PEM certificate chain, leaf first.
  std::string key_file;      ///< PEM private key of the leaf.
  bool self_signed = false;  ///< Make a throwaway certificate at start instead of the files.
  bool enabled() const { return self_signed || !cert_file.empty() || !key_file.empty(); }
};

/// Why `cert_file` and `key_file` cannot serve TLS (missing, unreadable, not PEM, the key not
/// the certificate's), or "" when they can.
std::string check_tls_files(const std::string& cert_file, const std::string& key_file);

/// A certificate and key written to a fresh private temporary directory.
struct SelfSignedCertificate {
  std::string dir;
  std::string cert_file;  ///< Also the CA a client trusts: the certificate signs itself.
  std::string key_file;
};

/// Makes a P-256 key and a certificate for `names` (host names and IP addresses, written as
/// subjectAltName DNS or IP entries), valid from an hour ago for 30 days, with the OpenSSL API
/// (no external tool). Throws std::runtime_error when it cannot.
SelfSignedCertificate make_self_signed_certificate(const std::vector<std::string>& names);

/// Removes the directory of a certificate made above (best effort).
void remove_self_signed_certificate(const SelfSignedCertificate& certificate);

}  // namespace webdata::mock::http
