#include "http/tls.hpp"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <stdexcept>

#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <boost/asio/ip/address.hpp>
#include <boost/asio/ssl/context.hpp>

#include "http/tls_context.hpp"

namespace webdata::mock::http {
namespace {

namespace fs = std::filesystem;

std::string openssl_error() {
  const unsigned long code = ERR_get_error();
  ERR_clear_error();
  if (code == 0) return "unknown OpenSSL error";
  std::array<char, 256> text{};
  ERR_error_string_n(code, text.data(), text.size());
  return text.data();
}

// Why a file cannot be read, or "".
std::string unreadable(const std::string& what, const std::string& path) {
  if (path.empty()) return what + " not given";
  std::error_code ec;
  if (!fs::exists(path, ec)) return "cannot read " + what + " '" + path + "': no such file";
  if (fs::is_directory(path, ec)) return "cannot read " + what + " '" + path + "': a directory";
  std::ifstream in(path);
  if (!in) return "cannot read " + what + " '" + path + "': permission denied";
  return "";
}

template <class T, void (*Free)(T*)>
struct Deleter {
  void operator()(T* p) const { Free(p); }
};
using PkeyPtr = std::unique_ptr<EVP_PKEY, Deleter<EVP_PKEY, EVP_PKEY_free>>;
using X509Ptr = std::unique_ptr<X509, Deleter<X509, X509_free>>;
using BnPtr = std::unique_ptr<BIGNUM, Deleter<BIGNUM, BN_free>>;

void fail(const std::string& step) {
  throw std::runtime_error("cannot make a self-signed certificate: " + step + ": " +
                           openssl_error());
}

void add_extension(X509* cert, int nid, const std::string& value) {
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, cert, cert, nullptr, nullptr, 0);
  X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value.c_str());
  if (ext == nullptr) fail("extension " + value);
  const int ok = X509_add_ext(cert, ext, -1);
  X509_EXTENSION_free(ext);
  if (ok != 1) fail("extension " + value);
}

void write_pem(const std::string& path, bool private_key, const std::function<int(FILE*)>& write) {
  // The key is created 0600 from the start, never readable by others even for a moment.
  const mode_t old = umask(private_key ? 077 : 022);
  FILE* file = std::fopen(path.c_str(), "w");
  umask(old);
  if (file == nullptr) throw std::runtime_error("cannot write '" + path + "'");
  const int ok = write(file);
  const bool closed = std::fclose(file) == 0;
  if (ok != 1 || !closed) throw std::runtime_error("cannot write '" + path + "'");
}

}  // namespace

std::string load_tls_files(boost::asio::ssl::context& context, const std::string& cert_file,
                           const std::string& key_file) {
  if (auto why = unreadable("TLS certificate", cert_file); !why.empty()) return why;
  if (auto why = unreadable("TLS key", key_file); !why.empty()) return why;
  boost::system::error_code ec;
  context.use_certificate_chain_file(cert_file, ec);
  if (ec) {
    return "TLS certificate '" + cert_file + "' is not a PEM certificate (" + ec.message() + ")";
  }
  // Read on its own first: OpenSSL refuses a key of another certificate while loading it, and
  // the two faults need different words.
  if (FILE* file = std::fopen(key_file.c_str(), "r")) {
    PkeyPtr key(PEM_read_PrivateKey(file, nullptr, nullptr, nullptr));
    std::fclose(file);
    if (!key) {
      return "TLS key '" + key_file + "' is not a PEM private key (" + openssl_error() + ")";
    }
  }
  const std::string mismatch =
      "TLS key '" + key_file + "' does not belong to the certificate '" + cert_file + "'";
  context.use_private_key_file(key_file, boost::asio::ssl::context::pem, ec);
  if (ec || SSL_CTX_check_private_key(context.native_handle()) != 1) {
    ERR_clear_error();
    return mismatch;
  }
  return "";
}

std::string check_tls_files(const std::string& cert_file, const std::string& key_file) {
  boost::asio::ssl::context context(boost::asio::ssl::context::tls_server);
  return load_tls_files(context, cert_file, key_file);
}

SelfSignedCertificate make_self_signed_certificate(const std::vector<std::string>& names) {
  PkeyPtr key(EVP_EC_gen("P-256"));
  if (!key) fail("P-256 key");

  X509Ptr cert(X509_new());
  if (!cert || X509_set_version(cert.get(), 2) != 1) fail("certificate");
  std::array<unsigned char, 16> serial{};
  if (RAND_bytes(serial.data(), static_cast<int>(serial.size())) != 1) fail("serial number");
  serial[0] &= 0x7f;  // a positive INTEGER
  BnPtr bn(BN_bin2bn(serial.data(), static_cast<int>(serial.size()), nullptr));
  if (!bn || BN_to_ASN1_INTEGER(bn.get(), X509_get_serialNumber(cert.get())) == nullptr) {
    fail("serial number");
  }
  // An hour back: a client whose clock runs a little behind still accepts it.
  if (X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600) == nullptr ||
      X509_gmtime_adj(X509_getm_notAfter(cert.get()), 30L * 24 * 3600) == nullptr) {
    fail("validity");
  }
  if (X509_set_pubkey(cert.get(), key.get()) != 1) fail("public key");
  X509_NAME* name = X509_get_subject_name(cert.get());
  if (X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                                 reinterpret_cast<const unsigned char*>("webdata-mock"), -1, -1,
                                 0) != 1 ||
      X509_set_issuer_name(cert.get(), name) != 1) {
    fail("subject");
  }

  std::string alt;
  for (const auto& n : names) {
    if (n.empty()) continue;
    boost::system::error_code ec;
    boost::asio::ip::make_address(n, ec);
    alt += (alt.empty() ? "" : ",") + std::string(ec ? "DNS:" : "IP:") + n;
  }
  if (alt.empty()) alt = "DNS:localhost";
  // CA:TRUE so that clients can name this very file as their CA; it signs only itself.
  add_extension(cert.get(), NID_basic_constraints, "critical,CA:TRUE,pathlen:0");
  add_extension(cert.get(), NID_key_usage, "critical,digitalSignature,keyCertSign");
  add_extension(cert.get(), NID_ext_key_usage, "serverAuth");
  add_extension(cert.get(), NID_subject_key_identifier, "hash");
  add_extension(cert.get(), NID_subject_alt_name, alt);
  if (X509_sign(cert.get(), key.get(), EVP_sha256()) == 0) fail("signature");

  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") +
                        "/webdata-mock-tls-XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr) {
    throw std::runtime_error("cannot make a self-signed certificate: cannot create a directory "
                             "like '" + pattern + "'");
  }
  SelfSignedCertificate out{pattern, pattern + "/cert.pem", pattern + "/key.pem"};
  try {
    write_pem(out.cert_file, false,
              [&](FILE* f) { return PEM_write_X509(f, cert.get()); });
    write_pem(out.key_file, true, [&](FILE* f) {
      return PEM_write_PrivateKey(f, key.get(), nullptr, nullptr, 0, nullptr, nullptr);
    });
  } catch (...) {
    remove_self_signed_certificate(out);
    throw;
  }
  return out;
}

void remove_self_signed_certificate(const SelfSignedCertificate& certificate) {
  if (certificate.dir.empty()) return;
  std::error_code ec;
  fs::remove_all(certificate.dir, ec);
}

}  // namespace webdata::mock::http
