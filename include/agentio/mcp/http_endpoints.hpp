//
// agentio/mcp/http_endpoints.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Both MCP HTTP transports behind one request handler, as the specification's
// backwards-compatibility section asks of a server that keeps old clients:
// Streamable HTTP on its path, the 2024-11-05 HTTP+SSE on its two.
//

#ifndef AGENTIO_MCP_HTTP_ENDPOINTS_HPP
#define AGENTIO_MCP_HTTP_ENDPOINTS_HPP

#include <agentio/mcp/http.hpp>
#include <agentio/mcp/legacy_sse.hpp>

#include <optional>
#include <utility>

namespace agentio::mcp {

/** Streamable HTTP and HTTP+SSE on one server.

    @code
    agentio::mcp::server<my_tools> mcp(tools);
    agentio::http::server http(ex, agentio::mcp::http_endpoints(mcp));   // /mcp, /sse and /messages/
    @endcode

    Copies share their sessions.
*/
template<tool_catalog Tools>
class http_endpoints
{
public:
    explicit http_endpoints(server<Tools> const& srv, http_options streamable_options = {},
        legacy_sse_options legacy_options = {})
        : streamable_(srv, std::move(streamable_options))
        , legacy_(srv, std::move(legacy_options))
    {
    }

    /// The request handler, on any AsyncStream: the legacy transport's paths
    /// go to it, everything else to Streamable HTTP.
    template<class Stream>
    asio::awaitable<std::optional<beast::http::message_generator>> operator()(http::request&& req, Stream& stream) const
    {
        if(legacy_.handles(req.target()))
            return legacy_(std::move(req), stream);
        return streamable_(std::move(req), stream);
    }

    streamable_http<Tools> const& streamable() const noexcept { return streamable_; }
    legacy_sse<Tools> const& legacy() const noexcept { return legacy_; }

private:
    streamable_http<Tools> streamable_;
    legacy_sse<Tools> legacy_;
};

} // namespace agentio::mcp

#endif
