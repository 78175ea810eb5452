// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The shape of every error answer of the server, its own and the HTTP layer's:
// `{"detail": "..."}`, what the REST API's clients read (FastAPI's shape).
#pragma once

#include <agentio/http/server.hpp>
#include <agentio/json_text.hpp>

#include <string>
#include <string_view>

namespace portfolio {

/// An agentio::http::error_body_writer for `{"detail": "..."}`.
inline void write_detail(agentio::http::response& res, std::string_view detail)
{
    res.set(boost::beast::http::field::content_type, "application/json");
    std::string body = "{\"detail\":";
    agentio::append_json_string(body, detail);
    body.push_back('}');
    res.body() = std::move(body);
}

/// An error answer in the server's shape.
inline agentio::http::response error_response(boost::beast::http::status status, std::string_view detail,
    unsigned version = 11, bool keep_alive = true)
{
    return agentio::http::make_error_response(status, detail, version, keep_alive, write_detail);
}

} // namespace portfolio
