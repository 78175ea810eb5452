//
// agentio/http/json_response.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_HTTP_JSON_RESPONSE_HPP
#define AGENTIO_HTTP_JSON_RESPONSE_HPP

#include <agentio/json_text.hpp>

#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/json/value.hpp>

namespace agentio::http {

/** A JSON answer: `Content-Type: application/json` (UTF-8, RFC 8259 §8.1),
    `Cache-Control: no-store` (an API's answers are about the moment), the
    body serialized once, its length set.

    @param status The status.
    @param body The value.
    @param version The request's HTTP version (11 for HTTP/1.1).
    @param keep_alive Whether the connection stays open after it (the request's `keep_alive()`).
*/
inline boost::beast::http::response<boost::beast::http::string_body> json_response(boost::beast::http::status status,
    boost::json::value const& body, unsigned version = 11, bool keep_alive = true)
{
    boost::beast::http::response<boost::beast::http::string_body> res{status, version};
    res.set(boost::beast::http::field::content_type, "application/json");
    res.set(boost::beast::http::field::cache_control, "no-store");
    res.keep_alive(keep_alive);
    res.body() = to_json_text(body);
    res.prepare_payload();
    return res;
}

/// The same, answering `req` (its version and keep-alive).
template<class Body, class Fields>
boost::beast::http::response<boost::beast::http::string_body> json_response(boost::beast::http::status status,
    boost::json::value const& body, boost::beast::http::request<Body, Fields> const& req)
{
    return json_response(status, body, req.version(), req.keep_alive());
}

} // namespace agentio::http

#endif
