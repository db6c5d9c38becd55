#pragma once

// The server's side of a WebSocket upgrade: only server.cpp and websocket.cpp include this (it
// pulls in Beast); routes use websocket.hpp.
#include <functional>
#include <string>

#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>

#include "http/websocket.hpp"

namespace webdata::mock::http {

/// Answers the upgrade request on `stream` (the HTTP session gives it up) and runs the
/// connection for `route` until it is over. `log` receives one line when the connection ends.
void accept_websocket(WebSocketHub& hub, boost::beast::tcp_stream stream,
                      boost::beast::http::request<boost::beast::http::string_body> request,
                      WebSocketRoute route, std::function<void(const std::string&)> log);
/// The same over TLS (WSS).
void accept_websocket(WebSocketHub& hub,
                      boost::beast::ssl_stream<boost::beast::tcp_stream> stream,
                      boost::beast::http::request<boost::beast::http::string_body> request,
                      WebSocketRoute route, std::function<void(const std::string&)> log);

}  // namespace webdata::mock::http
