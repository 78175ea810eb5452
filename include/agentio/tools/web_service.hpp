//
// agentio/tools/web_service.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// How the ready-made tools speak to a public web service: over the library's
// HTTP client, with a timeout, retries of what may succeed again (429, 5xx,
// a dropped connection) honouring `Retry-After`, a cap on requests in flight
// (Wikimedia asks for at most three, Open-Meteo's free tier answers five), a
// small cache of answers the tool found good, and a User-Agent that says who
// is asking, as Wikimedia's policy requires. A tool of one's own over another
// service uses it the same way.
//

#ifndef AGENTIO_TOOLS_WEB_SERVICE_HPP
#define AGENTIO_TOOLS_WEB_SERVICE_HPP

#include <agentio/config.hpp>
#include <agentio/http/client.hpp>
#include <agentio/version.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/beast/version.hpp>
#include <boost/system/result.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace agentio::tools {

/// The User-Agent the tools send by default: the library, where to learn about it, and its HTTP stack.
inline constexpr std::string_view default_user_agent =
    "agentio/" AGENTIO_VERSION_STRING
    " (https://github.com/agentio/agentio; LLM agent tools) " BOOST_BEAST_VERSION_STRING;

/// How a tool speaks to its service.
struct service_options
{
    /// One request, from asking for a connection to the last byte.
    std::chrono::milliseconds timeout{15000};
    /// Further attempts after a 429, a 5xx or a dropped connection.
    unsigned max_retries = 2;
    /// The first wait between attempts, doubled each time up to `max_delay`, less up to a quarter at random.
    std::chrono::milliseconds initial_delay{500};
    std::chrono::milliseconds max_delay{8000};
    /// A `Retry-After` above this is not waited for: the attempt fails instead.
    std::chrono::milliseconds max_retry_after{30000};
    /// How long an answer the tool kept (`web_service::remember`) is served again; zero: never.
    std::chrono::seconds cache_ttl{600};
    /// Answers kept at most; the one closest to expiring goes first.
    std::size_t cache_entries = 256;
    /// Requests to this service in flight at once; the others wait their turn.
    std::size_t max_concurrent = 3;
    /// Sent with every request. Wikimedia asks for a contact (a URL or an e-mail) in parentheses: put your own.
    std::string user_agent = std::string(default_user_agent);
};

/// What `web_service::fetch` got: the last response (any status), and whether it came from the cache.
struct fetched
{
    http::client_response response;
    bool cached = false;
    /// Attempts made (0 when cached).
    unsigned attempts = 0;
};

/// The counters of a service, for tests and metrics.
struct service_stats
{
    std::uint64_t requests = 0;     ///< requests sent, retries included
    std::uint64_t retries = 0;      ///< of which retries
    std::uint64_t cache_hits = 0;   ///< answers served from the cache
    std::uint64_t cache_misses = 0; ///< fetches the cache could not answer
};

/** One public service as a tool reaches it. Cheap to copy (copies share the
    cache, the cap and the counters); thread-safe; the client must outlive it. */
class web_service
{
public:
    /// @param name how messages name the service ("Wikipedia", "Open-Meteo")
    AGENTIO_DECL web_service(http::client& client, std::string name, service_options options = {});

    /** Sends `request` (its `User-Agent` and timeout set unless given), again
        after a 429, a 5xx or a retryable transport error while attempts
        remain, and gives the last response whatever its status: the tool
        reads a service's own error body. A response remembered for the same
        request and still fresh is given without asking.

        @return the response; or, when no response came at all (refused,
        timed out, dropped, every attempt), a sentence naming the service and
        what happened */
    AGENTIO_DECL boost::asio::awaitable<boost::system::result<fetched, std::string>>
    fetch(http::client_request request);

    /** Keeps `response` as the answer to `request` for `options().cache_ttl`
        (or `ttl` when given): only what the tool read as a good answer, never
        an error that came as a 200. */
    AGENTIO_DECL void remember(http::client_request const& request, http::client_response const& response,
        std::optional<std::chrono::seconds> ttl = std::nullopt);

    std::string const& name() const noexcept;
    service_options const& options() const noexcept;
    AGENTIO_DECL service_stats stats() const;

    /** Sends `traceparent` (a tool call's, `tool_context::traceparent`) as
        the W3C header with each request of this copy, so that a service that
        traces joins the caller's trace; empty: none. A tool sets it on its
        per-call copy; the cache does not key on it. */
    void set_traceparent(std::string_view traceparent) { traceparent_.assign(traceparent); }

private:
    struct state;
    std::shared_ptr<state> state_;
    std::string traceparent_;
};

/// The query string value `text` percent-encoded for a URL (RFC 3986 unreserved characters kept).
AGENTIO_DECL std::string url_encode(std::string_view text);

/** A sentence for a model about a response that is not what the service
    answers when it works: "Wikipedia answered HTTP 503 (Service Unavailable):
    <the start of its text>". HTML is reduced to its text. */
AGENTIO_DECL std::string describe_failure(std::string_view service, http::client_response const& response);

} // namespace agentio::tools

#ifdef AGENTIO_HEADER_ONLY
#include <agentio/tools/impl/web_service.ipp>
#endif

#endif
