//
// agentio/mcp/client/error.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// What an MCP client's operations fail with.
//

#ifndef AGENTIO_MCP_CLIENT_ERROR_HPP
#define AGENTIO_MCP_CLIENT_ERROR_HPP

#include <agentio/config.hpp>

#include <boost/json/value.hpp>
#include <boost/system/error_code.hpp>
#include <boost/system/system_error.hpp>

#include <string>
#include <type_traits>

namespace agentio::mcp {

/** Why an MCP client operation failed.

    Cancellation by the caller is `boost::asio::error::operation_aborted`.
*/
enum class client_errc
{
    /// The server answered the request with a JSON-RPC error (see @ref client_error::rpc_code).
    server_error = 1,
    /// No answer within the request's timeout; the server was told to stop (`notifications/cancelled`).
    timeout,
    /// The transport failed: the process could not start or ended, the connection broke, an HTTP error status.
    transport_failed,
    /// The client was closed, or the connection ended, before the answer arrived.
    closed,
    /// The server sent something that is not MCP (not JSON, a result of the wrong shape).
    protocol_error,
    /// The server speaks no protocol version this client supports.
    unsupported_version,
    /// An operation before `connect()`, or `connect()` twice.
    not_connected,
};

AGENTIO_DECL boost::system::error_category const& client_category() noexcept;

/// Makes an error code of @ref client_errc (found by ADL).
inline boost::system::error_code make_error_code(client_errc e) noexcept
{
    return {static_cast<int>(e), client_category()};
}

/** The exception an MCP client operation throws.

    `code()` says what kind of failure (a @ref client_errc, or
    `operation_aborted` when the caller was cancelled); `what()` is a sentence
    for a log. For a JSON-RPC error of the server, `rpc_code()` and `data()`
    are the error's `code` and `data`.
*/
class client_error : public boost::system::system_error
{
public:
    client_error(boost::system::error_code ec, std::string const& what, int rpc_code = 0,
        boost::json::value data = nullptr)
        : boost::system::system_error(ec, what)
        , rpc_code_(rpc_code)
        , data_(std::move(data))
    {
    }

    /// The JSON-RPC error code (e.g. -32602), or 0 when the server sent no error.
    int rpc_code() const noexcept { return rpc_code_; }

    /// The JSON-RPC error's `data`, or null.
    boost::json::value const& data() const noexcept { return data_; }

private:
    int rpc_code_;
    boost::json::value data_;
};

} // namespace agentio::mcp

template<>
struct boost::system::is_error_code_enum<agentio::mcp::client_errc> : std::true_type
{
};

#endif
