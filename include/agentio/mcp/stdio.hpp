//
// agentio/mcp/stdio.hpp
// ~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// The MCP stdio transport: one JSON-RPC message per line on stdin, one per
// line on stdout, nothing else on stdout (logs belong on stderr). Requests
// are served concurrently, so `ping` and `notifications/cancelled` are not
// stuck behind a slow tool; lines go out whole and in the order they were
// sent.
//

#ifndef AGENTIO_MCP_STDIO_HPP
#define AGENTIO_MCP_STDIO_HPP

#include <agentio/async_queue.hpp>
#include <agentio/json_text.hpp>
#include <agentio/mcp/server.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/write.hpp>

#include <unistd.h>

#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace agentio::mcp {

struct stdio_options
{
    /// The longest line accepted; a longer one ends the session with a -32700 error.
    std::size_t max_line_bytes = 16 * 1024 * 1024;
};

namespace detail {

// What the reader, the handlers and the writer share; kept alive by each of them.
struct stdio_state
{
    async_queue<std::string> lines; // to stdout, whole and in order
    std::size_t active = 0;         // handlers running
    bool input_over = false;
    session client;

    explicit stdio_state(asio::any_io_executor ex) : lines(std::move(ex)), client([this](json::object m) { send(m); })
    {
    }

    void send(json::object const& message)
    {
        std::string line = to_json_text(message);
        line.push_back('\n');
        lines.try_push(std::move(line)); // refused once stdout broke: nobody reads any more
    }

    // The last line is queued once the input is over and every handler has answered.
    void close_when_done()
    {
        if(input_over && active == 0)
            lines.close();
    }
};

// Writes the queued lines until the queue closes; what queued up during a
// write goes out in the next one, gathered.
inline asio::awaitable<void> write_stdio_lines(std::shared_ptr<stdio_state> state, asio::posix::stream_descriptor& out)
{
    std::vector<std::string> batch;
    std::vector<asio::const_buffer> buffers;
    while(auto line = co_await state->lines.pop())
    {
        batch.clear();
        batch.push_back(std::move(*line));
        while(auto more = state->lines.try_pop())
            batch.push_back(std::move(*more));
        buffers.clear();
        for(auto const& l : batch)
            buffers.push_back(asio::buffer(l));
        auto [ec, n] = co_await asio::async_write(out, buffers, asio::as_tuple(asio::use_awaitable));
        (void)n;
        if(ec)
        {
            state->lines.close(); // stdout is gone: drop what is left
            break;
        }
    }
}

template<tool_catalog Tools>
asio::awaitable<void> serve_stdio_line(server<Tools> const& srv, std::shared_ptr<stdio_state> state, std::string line)
{
    auto reply = co_await srv.handle_text(state->client, line);
    if(reply)
        state->send(*reply);
    --state->active;
    state->close_when_done();
}

template<tool_catalog Tools>
asio::awaitable<void> read_stdio_lines(server<Tools> const& srv, std::shared_ptr<stdio_state> state,
    asio::posix::stream_descriptor& in, stdio_options options)
{
    auto const ex = co_await asio::this_coro::executor;
    auto serve = [&](std::string_view text) {
        if(!text.empty() && text.back() == '\r')
            text.remove_suffix(1);
        if(text.find_first_not_of(" \t") == std::string_view::npos)
            return;
        ++state->active;
        asio::co_spawn(ex, serve_stdio_line(srv, state, std::string(text)), asio::detached);
    };
    std::string buffer;
    while(!state->lines.closed())
    {
        auto [ec, n] = co_await asio::async_read_until(in, asio::dynamic_buffer(buffer, options.max_line_bytes), '\n',
            asio::as_tuple(asio::use_awaitable));
        (void)n;
        if(ec == asio::error::not_found)
        {
            state->send(jsonrpc::make_error(nullptr, jsonrpc::parse_error,
                "Parse error: a message is longer than " + std::to_string(options.max_line_bytes) + " bytes"));
            break;
        }
        // Every whole line read so far (a client may send many at once), then,
        // at the end of input, a last line without its newline.
        std::size_t start = 0;
        for(std::size_t end; (end = buffer.find('\n', start)) != std::string::npos; start = end + 1)
            serve(std::string_view(buffer).substr(start, end - start));
        buffer.erase(0, start);
        if(ec)
        {
            serve(buffer);
            break;
        }
    }
    state->input_over = true;
    state->close_when_done();
}

} // namespace detail

/** Serves `srv` on a pair of pipes until the input ends (or stdout breaks).

    Returns after every request read has been answered and written. Run it on
    a single-threaded io_context or a strand: the session's state is not
    otherwise synchronized.

    @code
    asio::posix::stream_descriptor in(ioc, ::dup(STDIN_FILENO)), out(ioc, ::dup(STDOUT_FILENO));
    asio::co_spawn(ioc, agentio::mcp::serve_stdio(server, in, out), asio::detached);
    @endcode
*/
template<tool_catalog Tools>
asio::awaitable<void> serve_stdio(server<Tools> const& srv, asio::posix::stream_descriptor& in,
    asio::posix::stream_descriptor& out, stdio_options options = {})
{
    using namespace asio::experimental::awaitable_operators;
    auto state = std::make_shared<detail::stdio_state>(co_await asio::this_coro::executor);
    co_await (detail::read_stdio_lines(srv, state, in, options) && detail::write_stdio_lines(state, out));
}

/** Serves `srv` on this process's standard input and output until the input
    ends: what a program started by an MCP client (its stdio transport) does.
    Runs `ioc` (single-threaded; the tools may use it too) until then, and
    stops it. Returns 0, or 1 when the session failed (the reason is written
    to stderr: stdout carries the protocol).
*/
template<tool_catalog Tools>
int run_stdio(server<Tools> const& srv, asio::io_context& ioc, stdio_options options = {})
{
    asio::posix::stream_descriptor in(ioc, ::dup(STDIN_FILENO));
    asio::posix::stream_descriptor out(ioc, ::dup(STDOUT_FILENO));
    int status = 0;
    asio::co_spawn(ioc, serve_stdio(srv, in, out, std::move(options)), [&](std::exception_ptr e) {
        if(e)
        {
            status = 1;
            try
            {
                std::rethrow_exception(e);
            }
            catch(std::exception const& failure)
            {
                std::fprintf(stderr, "mcp stdio: %s\n", failure.what());
            }
            catch(...)
            {
                std::fprintf(stderr, "mcp stdio: the session failed\n");
            }
        }
        ioc.stop();
    });
    ioc.run();
    return status;
}

} // namespace agentio::mcp

#endif
