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

#include <agentio/http/detail/client_exchange.hpp>

#include <boost/asio/dispatch.hpp>
#include <boost/assert.hpp>

#include <charconv>
#include <cstdlib>

namespace agentio::http {

inline system::error_category const& client_category() noexcept
{
    static detail::client_category_impl const category;
    return category;
}

inline bool client_error::retryable() const noexcept
{
    namespace error = asio::error;
    if(!code.failed())
        return false;
    return code == client_errc::connect_timeout || code == client_errc::idle_timeout ||
        code == client_errc::total_timeout || code == client_errc::closed_before_response ||
        code == client_errc::closed_mid_body || code == error::connection_refused || code == error::connection_reset ||
        code == error::connection_aborted || code == error::broken_pipe || code == error::eof ||
        code == error::timed_out || code == error::host_unreachable || code == error::network_unreachable ||
        code == error::network_down || code == error::network_reset || code == error::host_not_found_try_again;
}

inline proxy_settings proxy_settings::from_environment()
{
    auto get = [](char const* name) -> std::string {
        char const* v = std::getenv(name);
        return v ? v : "";
    };
    proxy_settings s;
    s.https_proxy = get("https_proxy");
    if(s.https_proxy.empty())
        s.https_proxy = get("HTTPS_PROXY");
    s.http_proxy = get("http_proxy");
    if(s.http_proxy.empty() && std::getenv("REQUEST_METHOD") == nullptr)
        s.http_proxy = get("HTTP_PROXY");
    s.no_proxy = get("no_proxy");
    if(s.no_proxy.empty())
        s.no_proxy = get("NO_PROXY");
    return s;
}

inline bool proxy_settings::bypass(std::string_view host, std::uint16_t port) const
{
    return detail::no_proxy_matches(no_proxy, host, port);
}

inline std::string_view client_response::header(std::string_view name) const
{
    auto const it = headers.find(name);
    return it == headers.end() ? std::string_view{} : std::string_view(it->value());
}

inline std::optional<std::chrono::seconds> client_response::retry_after() const
{
    auto const v = header("retry-after");
    std::uint64_t n = 0;
    auto const [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
    if(v.empty() || ec != std::errc{} || ptr != v.data() + v.size())
        return std::nullopt;
    return std::chrono::seconds(static_cast<std::chrono::seconds::rep>(std::min<std::uint64_t>(n, 1u << 30)));
}

// --- response_stream ----------------------------------------------------------

inline response_stream& response_stream::operator=(response_stream&& other) noexcept
{
    if(this != &other)
    {
        close();
        x_ = std::move(other.x_);
    }
    return *this;
}

inline response_stream::~response_stream()
{
    close();
}

inline void response_stream::close() noexcept
{
    if(!x_)
        return;
    // On the exchange's strand, where a read may be pending: closing the
    // socket there ends it (with an error), and the connection is not pooled.
    auto x = std::move(x_);
    auto const strand = x->strand;
    asio::dispatch(strand, [x = std::move(x)] { x->abandon(); });
}

inline unsigned response_stream::status() const noexcept
{
    BOOST_ASSERT(x_);
    return x_->parser->get().result_int();
}

inline beast::http::fields const& response_stream::headers() const noexcept
{
    BOOST_ASSERT(x_);
    return x_->parser->get();
}

inline bool response_stream::done() const noexcept
{
    return x_ && x_->finished;
}

template<asio::completion_token_for<void(client_error, std::string_view)> Token>
auto response_stream::async_read_some(Token&& token)
{
    BOOST_ASSERT(x_);
    return asio::async_initiate<Token, void(client_error, std::string_view)>(
        [](auto handler, std::shared_ptr<detail::exchange> x) {
            auto const& io_ex = x->state->ex;
            auto const strand = x->strand;
            detail::launch(io_ex, strand, detail::exchange::run_read_some(std::move(x)), std::move(handler));
        },
        token, x_);
}

template<asio::completion_token_for<void(client_error, std::string)> Token>
auto response_stream::async_read_all(Token&& token)
{
    BOOST_ASSERT(x_);
    return asio::async_initiate<Token, void(client_error, std::string)>(
        [](auto handler, std::shared_ptr<detail::exchange> x) {
            auto const io_ex = x->state->ex;
            auto const strand = x->strand;
            detail::launch(io_ex, strand, detail::exchange::run_read_all(std::move(x)), std::move(handler));
        },
        token, x_);
}

// --- client -------------------------------------------------------------------

inline client::client(asio::any_io_executor ex, client_options options)
    : state_(std::make_shared<detail::client_state>(std::move(ex), std::move(options)))
{
}

inline client::~client()
{
    if(state_)
        state_->pool.shutdown();
}

template<asio::completion_token_for<void(client_error, client_response)> Token>
auto client::async_request(client_request req, Token&& token)
{
    return asio::async_initiate<Token, void(client_error, client_response)>(
        [](auto handler, std::shared_ptr<detail::client_state> const& state, client_request r) {
            auto x = std::make_shared<detail::exchange>(state);
            auto const strand = x->strand;
            detail::launch(state->ex, strand, detail::exchange::run_request(std::move(x), std::move(r)),
                std::move(handler));
        },
        token, state_, std::move(req));
}

template<asio::completion_token_for<void(client_error, response_stream)> Token>
auto client::async_open(client_request req, Token&& token)
{
    return asio::async_initiate<Token, void(client_error, response_stream)>(
        [](auto handler, std::shared_ptr<detail::client_state> const& state, client_request r) {
            auto x = std::make_shared<detail::exchange>(state);
            auto const strand = x->strand;
            detail::launch(state->ex, strand, detail::exchange::run_open(std::move(x), std::move(r)),
                std::move(handler));
        },
        token, state_, std::move(req));
}

inline std::size_t client::idle_connections() const
{
    return state_->pool.idle_count();
}

inline client_stats client::stats() const noexcept
{
    return {state_->connections_opened.load(), state_->connections_reused.load(), state_->stale_retries.load()};
}

inline client_options const& client::options() const noexcept
{
    return state_->opts;
}

inline asio::any_io_executor client::get_executor() const noexcept
{
    return state_->ex;
}

} // namespace agentio::http

#endif
