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

#include <agentio/json_text.hpp>
#include <agentio/mcp/server.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>

#include <deque>
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
struct stdio_state : std::enable_shared_from_this<stdio_state>
{
    asio::posix::stream_descriptor& out;
    std::deque<std::string> queue;
    bool writing = false;
    bool broken = false;  // stdout closed: drop what is left
    std::size_t active = 0; // handlers running
    asio::steady_timer wake; // woken when a handler ends or the queue empties
    session client;

    stdio_state(asio::posix::stream_descriptor& o)
        : out(o), wake(o.get_executor()), client([this](json::object m) { send(std::move(m)); })
    {
    }

    void send(json::object const& message)
    {
        if(broken)
            return;
        std::string line = to_json_text(message);
        line.push_back('\n');
        queue.push_back(std::move(line));
        if(!writing)
        {
            writing = true;
            asio::co_spawn(out.get_executor(), drain(shared_from_this()), asio::detached);
        }
    }

    static asio::awaitable<void> drain(std::shared_ptr<stdio_state> self)
    {
        // Whatever queued up while the last write ran goes out in one gathered write.
        std::deque<std::string> batch;
        std::vector<asio::const_buffer> buffers;
        while(!self->queue.empty() && !self->broken)
        {
            batch.swap(self->queue);
            buffers.clear();
            for(auto const& line : batch)
                buffers.push_back(asio::buffer(line));
            auto [ec, n] = co_await asio::async_write(self->out, buffers, asio::as_tuple(asio::use_awaitable));
            (void)n;
            if(ec)
                self->broken = true;
            batch.clear();
        }
        self->queue.clear();
        self->writing = false;
        self->wake.cancel();
    }
};

template<tool_catalog Tools>
asio::awaitable<void> serve_stdio_line(server<Tools> const& srv, std::shared_ptr<stdio_state> state, std::string line)
{
    auto reply = co_await srv.handle_text(state->client, line);
    if(reply)
        state->send(*reply);
    --state->active;
    state->wake.cancel();
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
    auto const ex = co_await asio::this_coro::executor;
    auto state = std::make_shared<detail::stdio_state>(out);
    auto serve = [&](std::string_view text) {
        if(!text.empty() && text.back() == '\r')
            text.remove_suffix(1);
        if(text.find_first_not_of(" \t") == std::string_view::npos)
            return;
        ++state->active;
        asio::co_spawn(ex, detail::serve_stdio_line(srv, state, std::string(text)), asio::detached);
    };
    std::string buffer;
    for(;;)
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
        if(state->broken)
            break;
    }
    // The input is over: finish what was asked, then let the writer empty its queue.
    while((state->active > 0 || state->writing) && !state->broken)
    {
        state->wake.expires_after(std::chrono::hours(1));
        co_await state->wake.async_wait(asio::as_tuple(asio::use_awaitable));
    }
}

} // namespace agentio::mcp

#endif
