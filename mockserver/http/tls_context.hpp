#pragma once

// The server's OpenSSL context: only server.cpp and tls.cpp include this (it pulls in Asio's SSL).
#include <string>

#include <boost/asio/ssl/context.hpp>

namespace webdata::mock::http {

/// Loads `cert_file` and `key_file` into `context`; the reason (naming the file) when it fails.
std::string load_tls_files(boost::asio::ssl::context& context, const std::string& cert_file,
                           const std::string& key_file);

}  // namespace webdata::mock::http
