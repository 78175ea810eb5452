//
// agentio/app/serve.hpp
// ~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_APP_SERVE_HPP
#define AGENTIO_APP_SERVE_HPP

#include <agentio/http/server.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>

#include <chrono>
#include <csignal>
#include <exception>
#include <functional>
#include <memory>

namespace agentio::app {

namespace asio = boost::asio;
namespace system = boost::system;

/** Runs `ioc` on `threads` threads (this one included) until it stops. The
    first SIGINT or SIGTERM calls `on_signal` (which should end the work
    gracefully and stop `ioc` when done); a second one stops `ioc` at once.
    An exception that escapes a handler is given to `on_error` (by default
    written to stderr) and that thread goes back to work: the operation that
    threw is lost, never the process (@ref http::run_threads).
*/
inline void run_until_signal(asio::io_context& ioc, unsigned threads, std::function<void()> on_signal,
    std::function<void(std::exception_ptr)> on_error = {})
{
    asio::signal_set signals(ioc, SIGINT, SIGTERM);
    bool signalled = false; // the waits run one at a time: no race on it
    std::function<void(system::error_code, int)> wait = [&](system::error_code ec, int) {
        if(ec)
            return;
        if(signalled || !on_signal)
        {
            ioc.stop();
            return;
        }
        signalled = true;
        signals.async_wait(wait);
        on_signal();
    };
    signals.async_wait(wait);
    ioc.restart();
    http::run_threads(ioc, threads, std::move(on_error));
    system::error_code ignored;
    signals.cancel(ignored);
}

/// How @ref serve runs a server.
struct serve_options
{
    /// Threads running the io_context, this one included.
    unsigned threads = 2;

    /// After a signal, how long requests and streams in flight may take to finish (@ref http::server::shutdown).
    std::chrono::steady_clock::duration grace = std::chrono::seconds(10);

    /// Runs once the server has drained, before the io_context stops: close the MCP clients, the stores.
    std::function<asio::awaitable<void>()> on_drained = {};

    /// Where an exception that escaped a handler goes (default: stderr).
    std::function<void(std::exception_ptr)> on_error = {};
};

/** Serves until SIGINT or SIGTERM, then shuts down gracefully: `server`
    stops accepting and lets what is in flight finish for
    @ref serve_options::grace, then `on_drained` runs and the io_context
    stops. A second signal stops at once.

    @code
    agentio::http::server server(ioc.get_executor(), std::move(routes));
    server.listen(endpoint).value();
    server.start();
    agentio::app::serve(ioc, server, {.threads = 4, .on_drained = [&] { return agent.close(); }});
    @endcode
*/
template<class Handler>
void serve(asio::io_context& ioc, http::server<Handler>& server, serve_options options = {})
{
    auto on_drained = std::move(options.on_drained);
    auto const grace = options.grace;
    run_until_signal(
        ioc, options.threads,
        [&ioc, &server, grace, &on_drained] {
            server.shutdown(grace, [&ioc, &on_drained] {
                if(!on_drained)
                {
                    ioc.stop();
                    return;
                }
                asio::co_spawn(ioc, on_drained(), [&ioc](std::exception_ptr) { ioc.stop(); });
            });
        },
        std::move(options.on_error));
}

} // namespace agentio::app

#endif
