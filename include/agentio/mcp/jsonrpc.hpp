//
// agentio/mcp/jsonrpc.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// JSON-RPC 2.0 as MCP uses it: classifying an incoming message, and building
// results, errors and notifications. Transport-free: the MCP server and its
// transports share it.
//

#ifndef AGENTIO_MCP_JSONRPC_HPP
#define AGENTIO_MCP_JSONRPC_HPP

#include <boost/json/object.hpp>
#include <boost/json/string.hpp>
#include <boost/json/value.hpp>

#include <string>
#include <string_view>

namespace agentio::mcp::jsonrpc {

namespace json = boost::json;

/// The error codes of JSON-RPC 2.0 and of MCP.
enum error_code : int
{
    parse_error = -32700,                  ///< the bytes are not JSON
    invalid_request = -32600,              ///< JSON, but not a JSON-RPC request
    method_not_found = -32601,             ///< unknown (or not offered) method
    invalid_params = -32602,               ///< the method's params are wrong; also an unknown tool
    internal_error = -32603,               ///< the server failed
    resource_not_found = -32002,           ///< MCP up to 2025-11-25: resources/read of an unknown URI
    header_mismatch = -32020,              ///< MCP 2026-07-28: an HTTP header disagrees with the body
    missing_client_capability = -32021,    ///< MCP 2026-07-28: the request needs a capability the client lacks
    unsupported_protocol_version = -32022, ///< MCP 2026-07-28: `data` lists the versions supported
};

/// What an incoming message is.
enum class kind
{
    request,      ///< has "method" and an "id"
    notification, ///< has "method" and no "id"
    response,     ///< has an "id" and "result" or "error": an answer to our own request
    invalid       ///< anything else (answered with -32600 when it has a usable id)
};

/** Classifies `message` by the JSON-RPC 2.0 rules.

    On `kind::invalid`, `why` says what is wrong, for the error's message.
*/
inline kind classify(json::value const& message, std::string& why)
{
    auto const* o = message.if_object();
    if(!o)
    {
        why = message.is_array() ? "batches are not supported" : "a message must be a JSON object";
        return kind::invalid;
    }
    auto const* version = o->if_contains("jsonrpc");
    if(!version || !version->is_string() || version->get_string() != "2.0")
    {
        why = "\"jsonrpc\" must be \"2.0\"";
        return kind::invalid;
    }
    auto const* id = o->if_contains("id");
    if(id && !id->is_string() && !id->is_int64() && !id->is_uint64())
    {
        // MCP forbids null ids; JSON-RPC forbids fractional ones.
        why = "\"id\" must be a string or an integer";
        return kind::invalid;
    }
    if(auto const* method = o->if_contains("method"))
    {
        if(!method->is_string())
        {
            why = "\"method\" must be a string";
            return kind::invalid;
        }
        if(auto const* params = o->if_contains("params"); params && !params->is_object())
        {
            // JSON-RPC allows by-position params; MCP only ever uses an object.
            why = "\"params\" must be an object";
            return kind::invalid;
        }
        return id ? kind::request : kind::notification;
    }
    if(id && (o->contains("result") || o->contains("error")))
        return kind::response;
    why = "a message needs \"method\", or \"result\"/\"error\" with an \"id\"";
    return kind::invalid;
}

/// `{"jsonrpc":"2.0","id":id,"result":result}`
inline json::object make_result(json::value id, json::value result)
{
    return json::object{{"jsonrpc", "2.0"}, {"id", std::move(id)}, {"result", std::move(result)}};
}

/// `{"jsonrpc":"2.0","id":id,"error":{"code","message"[,"data"]}}`; `id` is null when unknown.
inline json::object make_error(json::value id, int code, std::string_view message, json::value data = nullptr)
{
    json::object error{{"code", code}, {"message", message}};
    if(!data.is_null())
        error["data"] = std::move(data);
    return json::object{{"jsonrpc", "2.0"}, {"id", std::move(id)}, {"error", std::move(error)}};
}

/// `{"jsonrpc":"2.0","method":method,"params":params}`
inline json::object make_notification(std::string_view method, json::object params)
{
    return json::object{{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}};
}

/// `{"jsonrpc":"2.0","id":id,"method":method,"params":params}`: a request of ours to the client.
inline json::object make_request(json::value id, std::string_view method, json::object params)
{
    return json::object{{"jsonrpc", "2.0"}, {"id", std::move(id)}, {"method", method}, {"params", std::move(params)}};
}

} // namespace agentio::mcp::jsonrpc

#endif
