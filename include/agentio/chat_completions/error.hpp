//
// agentio/chat_completions/error.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Errors as OpenAI's API reports them: `{"error": {"message", "type",
// "param", "code"}}` with the matching status. The official clients choose
// their exception class by the status and show the message; `param` names
// the request field at fault.
//

#ifndef AGENTIO_CHAT_COMPLETIONS_ERROR_HPP
#define AGENTIO_CHAT_COMPLETIONS_ERROR_HPP

#include <agentio/config.hpp>
#include <agentio/http/server.hpp>

#include <boost/json/object.hpp>

#include <string>
#include <string_view>

namespace agentio::chat_completions {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace json = boost::json;

/// An error answer of the API.
struct api_error
{
    /// The HTTP status (400, 401, 404, 413, 429, 500, 502, ...).
    unsigned status = 400;
    std::string message = {};
    /// `invalid_request_error`, `authentication_error`, `not_found_error`,
    /// `server_error`...; empty: the type OpenAI uses for `status`.
    std::string type = {};
    /// The request field at fault (`messages[2].role`); empty: null.
    std::string param = {};
    /// A machine-readable code (`model_not_found`, `invalid_type`); empty: null.
    std::string code = {};
};

/// The error type OpenAI's API uses for an HTTP status.
std::string_view error_type_for(unsigned status) noexcept;

/// The error object, `{"error": {...}}`: an error response's body, and the
/// `data:` line of a stream that fails midway.
json::object to_json(api_error const& e);

/// A 400 naming the field at fault.
api_error invalid_request(std::string message, std::string param = {}, std::string code = {});

/** Writes an error response of the HTTP server in this shape (its 404, 405,
    413, 503...): pass it as `server_options::error_body` and
    `router_options::error_body` so a client of the API never meets another.
*/
void write_error_body(http::response& res, std::string_view detail);

} // namespace agentio::chat_completions

#ifdef AGENTIO_HEADER_ONLY
#include <agentio/chat_completions/impl/error.ipp>
#endif

#endif
