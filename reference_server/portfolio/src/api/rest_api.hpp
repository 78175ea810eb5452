// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The read-only REST API under /api/v1 (docs/apps/portfolio/rest-api.md): list, search,
// aggregate, distinct values, by id, by initiative, the cross-table view of one
// initiative, the tables with their row counts, dropdown values and health.
// Requests are validated on the network thread; SQL runs on the query pool's
// threads.
#pragma once

#include "api/query.hpp"

#include <agentio/http/any_stream.hpp>
#include <agentio/http/router.hpp>
#include <agentio/sqlite.hpp>

#include <memory>
#include <optional>
#include <string>

namespace portfolio::api {

/// What a route answers: a status and a JSON body.
struct api_reply
{
    int status = 200;
    std::string body;
};

/// The API's routes: an agentio::http::router answering as the API always has
/// (Spanish details, HEAD a 405, a trailing slash ignored).
class rest_api
{
public:
    rest_api(std::shared_ptr<database_schema const> schema, agentio::sqlite::query_pool& pool, limits lim = {});

    /// Answers a request whose path starts with /api (an
    /// agentio::http::streaming_request_handler; no route streams).
    boost::asio::awaitable<std::optional<boost::beast::http::message_generator>>
    operator()(agentio::http::request&& req, agentio::http::any_stream& stream) const;

private:
    agentio::http::router<agentio::http::any_stream> routes_;
};

/// Reads a request's JSON body (an empty body is an empty object); a
/// malformed one is a 400 naming the byte where it went wrong. Shared by
/// every JSON endpoint of the server, so their errors read alike.
checked<boost::json::value> parse_json_body(std::string_view body);

/// Builds the HTTP response for an api_reply.
agentio::http::response make_json_response(api_reply reply, agentio::http::request const& req);

} // namespace portfolio::api
