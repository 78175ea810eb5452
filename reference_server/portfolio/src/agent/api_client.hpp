// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The REST API as the tools see it: JSON over agentio's HTTP client (one place
// for business logic; the tools are clients of the same API as everybody
// else). Failures are classified so the tools can give the model the Spanish
// messages of docs/apps/portfolio/tools.md (API unreachable, 404, 422, server error).
#pragma once

#include <agentio/http/client.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/json/value.hpp>
#include <boost/url/param.hpp>
#include <boost/url/url.hpp>

#include <chrono>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

namespace portfolio::agent {

/// Why a call gave no usable body.
enum class api_failure
{
    none,
    unreachable,  ///< no HTTP answer: refused, timed out, reset
    not_found,    ///< 404
    invalid,      ///< 400, 413 or 422: the request was wrong; `detail` says why
    server_error, ///< 5xx
    unexpected    ///< any other status, or a body that is not JSON
};

/// The body of a successful call, or why it failed.
struct api_result
{
    boost::json::value body;
    int status = 0; ///< HTTP status; 0 without an answer
    api_failure failure = api_failure::none;
    std::string detail; ///< the API's `detail`, or the transport's message

    bool ok() const noexcept { return failure == api_failure::none; }
};

class api_client
{
public:
    /// @param base_url e.g. "http://127.0.0.1:8080/api/v1"
    /// @param timeout  for a whole call (default 30 s)
    api_client(agentio::http::client& http, std::string base_url,
        std::chrono::steady_clock::duration timeout = std::chrono::seconds(30));

    /// The URL of `segments` below the base URL, with `params` as its query,
    /// built by Boost.URL: each segment stays one path segment whatever it
    /// holds ('/', '?', '%', "..": percent-encoded), each key and value is encoded
    /// for the query with everything but unreserved characters escaped ('+'
    /// too, which a query decoder reads as a space). An unusable base URL
    /// gives an empty URL, which the call reports as unreachable.
    boost::urls::url url(std::initializer_list<std::string_view> segments,
        std::initializer_list<boost::urls::param_view> params = {}) const;

    /// `traceparent`: the calling tool's (`tool_context::traceparent`), so
    /// that the API's spans join the question's trace; empty: none is sent.
    boost::asio::awaitable<api_result> get(boost::urls::url target, std::string_view traceparent = {}) const;
    boost::asio::awaitable<api_result> post(boost::urls::url target, boost::json::value const& body,
        std::string_view traceparent = {}) const;

    /// GET of a target already encoded, relative to the base URL
    /// ("/datos-relevantes?limit=1"): its segments and query are appended by Boost.URL.
    boost::asio::awaitable<api_result> get(std::string encoded_target) const;

    std::string const& base_url() const noexcept { return base_url_; }

private:
    boost::asio::awaitable<api_result> call(agentio::http::client_request req, std::string_view traceparent) const;

    agentio::http::client* http_;
    std::string base_url_;
    std::optional<boost::urls::url> base_; // parsed once; empty when base_url_ is not a URL
    std::chrono::steady_clock::duration timeout_;
};

} // namespace portfolio::agent
