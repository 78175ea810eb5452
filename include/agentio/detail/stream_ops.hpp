//
// agentio/detail/stream_ops.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// What a streamed answer needs of its transport beyond reading and writing,
// for any AsyncStream: a deadline, closing, the peer's address. Each reaches
// the lowest layer (`beast::get_lowest_layer`), so a TLS stream over a
// `beast::tcp_stream` gets the TCP stream's deadline; a layer without one
// (an in-memory test stream) gets none.
//

#ifndef AGENTIO_DETAIL_STREAM_OPS_HPP
#define AGENTIO_DETAIL_STREAM_OPS_HPP

#include <boost/asio/ip/address.hpp>
#include <boost/beast/core/stream_traits.hpp>
#include <boost/system/error_code.hpp>

#include <chrono>

namespace agentio::detail {

/// Sets the deadline of the lowest layer's next operations, if it has one.
template<class Stream>
void expires_after(Stream& s, std::chrono::steady_clock::duration d)
{
    auto& lowest = boost::beast::get_lowest_layer(s);
    if constexpr(requires { lowest.expires_after(d); })
        lowest.expires_after(d);
}

/// Removes the deadline of the lowest layer's next operations, if it has one.
template<class Stream>
void expires_never(Stream& s)
{
    auto& lowest = boost::beast::get_lowest_layer(s);
    if constexpr(requires { lowest.expires_never(); })
        lowest.expires_never();
}

/// Closes the lowest layer: every pending operation completes with an error.
template<class Stream>
void close_stream(Stream& s)
{
    boost::beast::close_socket(boost::beast::get_lowest_layer(s));
}

/** Cancels the pending operations: on the lowest layer's socket when it has
    one; a stream without cancellation (`beast::test::stream`) is closed.
*/
template<class Stream>
void cancel_stream(Stream& s)
{
    auto& lowest = boost::beast::get_lowest_layer(s);
    boost::system::error_code ec;
    if constexpr(requires { lowest.socket().cancel(ec); })
        lowest.socket().cancel(ec);
    else if constexpr(requires { lowest.cancel(ec); })
        lowest.cancel(ec);
    else if constexpr(requires { lowest.cancel(); })
        lowest.cancel();
    else
        close_stream(s);
}

/// The peer's address when the lowest layer is (or holds) a socket; unspecified otherwise.
template<class Stream>
boost::asio::ip::address peer_address(Stream& s)
{
    auto& lowest = boost::beast::get_lowest_layer(s);
    boost::system::error_code ec;
    if constexpr(requires { lowest.socket().remote_endpoint(ec); })
        return lowest.socket().remote_endpoint(ec).address();
    else if constexpr(requires { lowest.remote_endpoint(ec); })
        return lowest.remote_endpoint(ec).address();
    else if constexpr(requires { lowest.peer_address(); })
        return lowest.peer_address();
    else
        return {};
}

} // namespace agentio::detail

#endif
