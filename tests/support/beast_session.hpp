#pragma once

#include <memory>

#include <boost/asio.hpp>
#include <boost/beast/http.hpp>

namespace webdata::testing {

/// Writes `session->response` on `session->socket`; then, on a keep-alive connection,
/// `read_next(session)` reads the next request, else the sending side is shut. For the small
/// Beast servers of the tests (a Session with `socket` and `response`).
template <class Session, class ReadNext>
void write_then_read_next(const std::shared_ptr<Session>& session, ReadNext read_next) {
  boost::beast::http::async_write(
      session->socket, session->response,
      [session, read_next](boost::system::error_code ec, std::size_t) {
        if (ec) return;
        if (session->response.keep_alive()) return read_next(session);
        boost::system::error_code ignored;
        session->socket.shutdown(boost::asio::ip::tcp::socket::shutdown_send, ignored);
      });
}

}  // namespace webdata::testing
