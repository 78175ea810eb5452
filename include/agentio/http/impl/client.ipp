//
// agentio/http/impl/client.ipp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_HTTP_IMPL_CLIENT_IPP
#define AGENTIO_HTTP_IMPL_CLIENT_IPP

#include <agentio/config.hpp>
#include <agentio/http/detail/client_exchange.hpp>

#include <boost/asio/dispatch.hpp>
#include <boost/assert.hpp>

#include <charconv>
#include <cstdlib>

namespace agentio::http {

namespace detail {

AGENTIO_DECL void start_request(std::shared_ptr<client_state> const& state, client_request req,
    asio::any_completion_handler<void(client_error, client_response)> handler)
{
    auto x = std::make_shared<exchange>(state);
    auto const strand = x->strand;
    launch(state->ex, strand, exchange::run_request(std::move(x), std::move(req)), std::move(handler));
}

AGENTIO_DECL void start_open(std::shared_ptr<client_state> const& state, client_request req,
    asio::any_completion_handler<void(client_error, response_stream)> handler)
{
    auto x = std::make_shared<exchange>(state);
    auto const strand = x->strand;
    launch(state->ex, strand, exchange::run_open(std::move(x), std::move(req)), std::move(handler));
}

AGENTIO_DECL void start_read_some(std::shared_ptr<exchange> x,
    asio::any_completion_handler<void(client_error, std::string_view)> handler)
{
    auto const& io_ex = x->state->ex;
    auto const strand = x->strand;
    launch(io_ex, strand, exchange::run_read_some(std::move(x)), std::move(handler));
}

AGENTIO_DECL void start_read_all(std::shared_ptr<exchange> x,
    asio::any_completion_handler<void(client_error, std::string)> handler)
{
    auto const io_ex = x->state->ex;
    auto const strand = x->strand;
    launch(io_ex, strand, exchange::run_read_all(std::move(x)), std::move(handler));
}

} // namespace detail

AGENTIO_DECL system::error_category const& client_category() noexcept
{
    static detail::client_category_impl const category;
    return category;
}

AGENTIO_DECL bool client_error::retryable() const noexcept
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

AGENTIO_DECL proxy_settings proxy_settings::from_environment()
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

AGENTIO_DECL bool proxy_settings::bypass(std::string_view host, std::uint16_t port) const
{
    return detail::no_proxy_matches(no_proxy, host, port);
}

AGENTIO_DECL std::string_view client_response::header(std::string_view name) const
{
    auto const it = headers.find(name);
    return it == headers.end() ? std::string_view{} : std::string_view(it->value());
}

AGENTIO_DECL std::optional<std::chrono::seconds> client_response::retry_after() const
{
    auto const v = header("retry-after");
    std::uint64_t n = 0;
    auto const [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
    if(v.empty() || ec != std::errc{} || ptr != v.data() + v.size())
        return std::nullopt;
    return std::chrono::seconds(static_cast<std::chrono::seconds::rep>(std::min<std::uint64_t>(n, 1u << 30)));
}

// --- response_stream ----------------------------------------------------------

AGENTIO_DECL response_stream& response_stream::operator=(response_stream&& other) noexcept
{
    if(this != &other)
    {
        close();
        x_ = std::move(other.x_);
    }
    return *this;
}

AGENTIO_DECL response_stream::~response_stream()
{
    close();
}

AGENTIO_DECL void response_stream::close() noexcept
{
    if(!x_)
        return;
    // On the exchange's strand, where a read may be pending: closing the
    // socket there ends it (with an error), and the connection is not pooled.
    auto x = std::move(x_);
    auto const strand = x->strand;
    asio::dispatch(strand, [x = std::move(x)] { x->abandon(); });
}

AGENTIO_DECL unsigned response_stream::status() const noexcept
{
    BOOST_ASSERT(x_);
    return x_->parser->get().result_int();
}

AGENTIO_DECL beast::http::fields const& response_stream::headers() const noexcept
{
    BOOST_ASSERT(x_);
    return x_->parser->get();
}

AGENTIO_DECL bool response_stream::done() const noexcept
{
    return x_ && x_->finished;
}

// --- client -------------------------------------------------------------------

AGENTIO_DECL client::client(asio::any_io_executor ex, client_options options)
    : state_(std::make_shared<detail::client_state>(std::move(ex), std::move(options)))
{
}

AGENTIO_DECL client::~client()
{
    if(state_)
        state_->pool.shutdown();
}

AGENTIO_DECL std::size_t client::idle_connections() const
{
    return state_->pool.idle_count();
}

AGENTIO_DECL client_stats client::stats() const noexcept
{
    return {state_->connections_opened.load(), state_->connections_reused.load(), state_->stale_retries.load()};
}

AGENTIO_DECL client_options const& client::options() const noexcept
{
    return state_->opts;
}

AGENTIO_DECL asio::any_io_executor client::get_executor() const noexcept
{
    return state_->ex;
}

} // namespace agentio::http

#endif
