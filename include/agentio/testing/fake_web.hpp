//
// agentio/testing/fake_web.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Fakes of the public web services behind the web tools, on one loopback
// port, each with its own wire format (docs/notes/web-tools-plan.md):
// Tavily search (`POST /search`), DuckDuckGo's HTML results page
// (`/html/`), the MediaWiki action API of any Wikipedia
// (`/{lang}/w/api.php`), and Open-Meteo's geocoding (`/v1/search`) and
// forecast (`/v1/forecast`). What they know is a small "world" (search
// answers, Wikipedia pages, places) read from JSON; forecasts are
// deterministic functions of the coordinates and the day. Faults make a
// service fail the way it does in production: its own error bodies, HTML
// where JSON is expected, invalid JSON, cut bodies, stalls, disconnects,
// DuckDuckGo's bot check, MediaWiki's errors inside a 200, Open-Meteo's
// error appended to a streamed body.
//
// The world file format and the faults are documented in
// docs/guide/12-fake-llm.md ("Fake web services").
//

#ifndef AGENTIO_TESTING_FAKE_WEB_HPP
#define AGENTIO_TESTING_FAKE_WEB_HPP

#include <agentio/config.hpp>
#include <agentio/http/server.hpp>
#include <agentio/http/url.hpp>
#include <agentio/testing/detail/fake_web_handler.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/http/fields.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <boost/system/result.hpp>

#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace agentio::testing {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace json = boost::json;
namespace system = boost::system;
using tcp = asio::ip::tcp;

/** A failure one of the fake services plays instead of its answer.

    A fault answers the first `times` requests of its service that contain
    `when_contains` (0: all of them); each fault counts the requests it
    answered, so that two faults of one service with `times = 1` answer the
    first and the second request. The first fault in the order they were
    added that still applies wins. Faults are checked after the API key
    (Tavily) and the User-Agent policy (Wikipedia), before the parameters.

    Kinds, and the services that play them:
    @li `http_error` (all): `status` with the service's own error body
        (Tavily `{"detail":{"error":…}}`, Open-Meteo `{"error":true,"reason":…}`,
        MediaWiki and DuckDuckGo an HTML page) and, when set,
        `Retry-After: retry_after_seconds`.
    @li `garbage` (all): 200 with a body that is not JSON; DuckDuckGo: an
        unrelated HTML page without results.
    @li `html_page` (all): `status` with a `text/html` maintenance page.
    @li `truncate` (all): the answer with a `Content-Length` larger than what
        is sent, then the connection is closed.
    @li `stall` (all): no answer; the connection stays open until the client leaves.
    @li `disconnect` (all): the connection is closed without an answer.
    @li `blocked` (duckduckgo): the bot-check page (`anomaly-modal`,
        `challenge-form`) with 202, or with 200 when `status` is 200.
    @li `api_error` (wikipedia): 200 with an `error` body and the
        `MediaWiki-API-Error` header (`internal_api_error_DBQueryError`).
    @li `stream_error` (geocoding, forecast): 200, the JSON cut and followed by
        `Unexpected error while streaming data: …`.
*/
struct web_fault
{
    /// `tavily`, `duckduckgo`, `wikipedia`, `geocoding` or `forecast`.
    std::string service;

    /// One of the kinds above.
    std::string kind;

    /// http_error, html_page: the HTTP status; blocked: 200 or (anything else) 202.
    unsigned status = 500;

    /// http_error: sent as `Retry-After`.
    std::optional<unsigned> retry_after_seconds;

    /// How many matching requests the fault answers; 0: all.
    std::size_t times = 0;

    /// Only requests whose target or body contains this text; empty: all.
    std::string when_contains;
};

/** What the fake services know, in its JSON form (the world file):
    `search` answers, `wikipedia` pages per language, `places`, `faults`.

    Build it with @ref parse_web_world or @ref read_web_world, which check it;
    @ref fake_web::set_world checks it again.
*/
struct web_world
{
    json::object data;
};

/// A world that could not be read: where, and why.
class web_world_error : public std::runtime_error
{
public:
    web_world_error(std::string file, std::string pointer, std::string const& message)
        : std::runtime_error((file.empty() ? std::string() : file + ": ") +
              (pointer.empty() ? std::string() : pointer + ": ") + message)
        , file_(std::move(file))
        , pointer_(std::move(pointer))
    {
    }

    /// The file, if the world came from one.
    std::string const& file() const noexcept { return file_; }

    /// JSON Pointer (RFC 6901) to the offending value, e.g. `/places/2/latitude`.
    std::string const& pointer() const noexcept { return pointer_; }

private:
    std::string file_;
    std::string pointer_;
};

/** Checks a world in its JSON form (docs/guide/12-fake-llm.md).

    Unknown keys are errors, so that a typo does not silently change a test.

    @throws web_world_error naming the offending value by JSON Pointer.
*/
web_world parse_web_world(json::value const& v);

/** Reads and checks a world file.

    @throws web_world_error with the file and the JSON Pointer of the first problem.
*/
web_world read_web_world(std::filesystem::path const& file);

/// Settings of a @ref fake_web.
struct fake_web_options
{
    /// The key Tavily requires as `Authorization: Bearer K`.
    std::string tavily_key = "tvly-test";

    /// The forecast's first day, `YYYY-MM-DD` (its current time is 10:15 that day).
    std::string today = "2026-12-01";

    /// How many requests `requests()` keeps (the most recent ones); 0 keeps none.
    std::size_t max_recorded_requests = 1000;

    /// Limits and timeouts of the HTTP server; every client is on loopback,
    /// so there is no per-address bound.
    http::server_options server{.max_connections_per_address = 0};
};

/// A request the fake received, for tests to assert on.
struct recorded_web_request
{
    /// The service it went to (as in @ref web_fault::service); empty for an unknown path.
    std::string service;
    std::string method;
    std::string target;
    beast::http::fields headers;
    std::string body;
};

/** The fake web services on one port.

    @code
    asio::io_context ioc;
    agentio::testing::fake_web web(ioc.get_executor());
    web.set_world(agentio::testing::read_web_world("tests/web/world.json"));
    web.start().value();
    // TAVILY_BASE_URL=web.tavily_base_url(), WIKIPEDIA_API_URL=web.wikipedia_api_url(), ...
    ioc.run();
    @endcode

    Every member function may be called from any thread while the server
    runs on another.

    @note Destroy it after the io_context stopped running (or after every
    connection ended): connections keep its state alive, but the listening
    socket is a member.
*/
class fake_web
{
public:
    /** @param ex The executor of an io_context (each connection gets a strand on it).
        @param options Keys, the date, limits.
        @throws std::invalid_argument when `options.today` is not a date `YYYY-MM-DD`.
    */
    explicit fake_web(asio::any_io_executor ex, fake_web_options options = {});

    fake_web(fake_web const&) = delete;
    fake_web& operator=(fake_web const&) = delete;

    /** Replaces what the services know; the faults of the world replace those
        of the previous world (faults added with @ref add_fault stay).

        @throws web_world_error The world in force is kept then.
    */
    void set_world(web_world w);

    /** Adds a fault after the others.

        @throws std::invalid_argument for an unknown service or kind, or a
        kind the service does not play.
    */
    void add_fault(web_fault f);

    /// Removes every fault, the world's included.
    void clear_faults();

    /** Listens and starts serving.

        @param endpoint Where; port 0 picks a free port.
        @return The endpoint bound, or the error (e.g. address in use).
    */
    system::result<tcp::endpoint> start(tcp::endpoint const& endpoint = tcp::endpoint(asio::ip::address_v4::loopback(),
                                            0));

    /// The endpoint bound by `start`.
    tcp::endpoint endpoint() const;

    /// Stops accepting connections; answers in progress go on.
    void stop();

    /// `http://127.0.0.1:PORT`.
    std::string base_url() const;

    /// Tavily's base URL (`TAVILY_BASE_URL`): @ref base_url.
    std::string tavily_base_url() const;

    /// DuckDuckGo's HTML page (`WEB_SEARCH_FALLBACK_URL`): `base_url() + "/html/"`.
    std::string duckduckgo_url() const;

    /// The MediaWiki API (`WIKIPEDIA_API_URL`): `base_url() + "/{lang}/w/api.php"`, with the literal `{lang}`.
    std::string wikipedia_api_url() const;

    /// Open-Meteo geocoding (`OPEN_METEO_GEOCODING_URL`): `base_url() + "/v1/search"`.
    std::string geocoding_url() const;

    /// Open-Meteo forecast (`OPEN_METEO_FORECAST_URL`): `base_url() + "/v1/forecast"`.
    std::string forecast_url() const;

    /// Connections open right now.
    std::size_t connection_count() const noexcept;

    /// The requests received so far, oldest first (at most `max_recorded_requests`).
    std::vector<recorded_web_request> requests() const;

    /// Forgets recorded requests and how many requests each fault answered.
    void reset();

private:
    std::shared_ptr<detail::fake_web_state> state_;
    http::server<detail::fake_web_handler> server_;
};

} // namespace agentio::testing

#ifdef AGENTIO_HEADER_ONLY
#include <agentio/testing/impl/fake_web.ipp>
#endif

#endif
