// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The HTTP interface: POST /ask, POST /ask/stream (SSE), GET /health.
#pragma once

#include "agent.hpp"

#include <agentio/http/router.hpp>

#include <boost/json/object.hpp>
#include <boost/system/result.hpp>

#include <string>

namespace facturas {

/// A question as the client sent it, checked.
struct ask_request
{
    std::string session_id;
    std::string question;
};

/// The body of /ask, or the 400 answer (Spanish, naming the field).
boost::system::result<ask_request, ask_result> parse_ask(std::string_view body);

/** The routes, served by an agentio::http::server; `options` as the router
    takes them (`observe`: the access log and the HTTP metrics). */
agentio::http::router<> make_routes(invoice_agent& agent, agentio::http::router_options options = {});

} // namespace facturas
