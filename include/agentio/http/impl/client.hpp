//
// agentio/http/impl/client.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_HTTP_IMPL_CLIENT_HPP
#define AGENTIO_HTTP_IMPL_CLIENT_HPP

#include <agentio/config.hpp>

#include <boost/asio/any_completion_handler.hpp>
#include <boost/assert.hpp>

namespace agentio::http {

// The operations take any completion token, but the work behind them is
// compiled once: each initiation erases the handler's type
// (`any_completion_handler` keeps its executor, allocator and cancellation
// slot) and hands it to a non-template function, defined in client.ipp.
namespace detail {

AGENTIO_DECL void start_request(std::shared_ptr<client_state> const& state, client_request req,
    asio::any_completion_handler<void(client_error, client_response)> handler);
AGENTIO_DECL void start_open(std::shared_ptr<client_state> const& state, client_request req,
    asio::any_completion_handler<void(client_error, response_stream)> handler);
AGENTIO_DECL void start_read_some(std::shared_ptr<exchange> x,
    asio::any_completion_handler<void(client_error, std::string_view)> handler);
AGENTIO_DECL void start_read_all(std::shared_ptr<exchange> x,
    asio::any_completion_handler<void(client_error, std::string)> handler);

} // namespace detail

template<asio::completion_token_for<void(client_error, std::string_view)> Token>
auto response_stream::async_read_some(Token&& token)
{
    BOOST_ASSERT(x_);
    return asio::async_initiate<Token, void(client_error, std::string_view)>(
        [](auto handler, std::shared_ptr<detail::exchange> x) {
            detail::start_read_some(std::move(x), std::move(handler));
        },
        token, x_);
}

template<asio::completion_token_for<void(client_error, std::string)> Token>
auto response_stream::async_read_all(Token&& token)
{
    BOOST_ASSERT(x_);
    return asio::async_initiate<Token, void(client_error, std::string)>(
        [](auto handler, std::shared_ptr<detail::exchange> x) {
            detail::start_read_all(std::move(x), std::move(handler));
        },
        token, x_);
}

template<asio::completion_token_for<void(client_error, client_response)> Token>
auto client::async_request(client_request req, Token&& token)
{
    return asio::async_initiate<Token, void(client_error, client_response)>(
        [](auto handler, std::shared_ptr<detail::client_state> const& state, client_request r) {
            detail::start_request(state, std::move(r), std::move(handler));
        },
        token, state_, std::move(req));
}

template<asio::completion_token_for<void(client_error, response_stream)> Token>
auto client::async_open(client_request req, Token&& token)
{
    return asio::async_initiate<Token, void(client_error, response_stream)>(
        [](auto handler, std::shared_ptr<detail::client_state> const& state, client_request r) {
            detail::start_open(state, std::move(r), std::move(handler));
        },
        token, state_, std::move(req));
}

} // namespace agentio::http

#endif
