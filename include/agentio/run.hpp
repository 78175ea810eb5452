//
// agentio/run.hpp
// ~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// The two ways a program's main() runs its io_context: one piece of work
// to its end (opening a store, a command-line question) and, for a server,
// N threads until SIGINT or SIGTERM, then a stop the program chooses (stop
// accepting, close clients), and the threads joined.
//
//   auto store = agentio::run_to_completion(ioc, open_store(uri));
//   server.start();
//   agentio::run_until_signal(ioc, threads, [&] { server.stop(); ioc.stop(); });
//

#ifndef AGENTIO_RUN_HPP
#define AGENTIO_RUN_HPP

#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/use_future.hpp>

#include <chrono>
#include <csignal>
#include <functional>
#include <future>
#include <thread>
#include <vector>

namespace agentio {

/** Runs `work` on `ioc`, from this thread, until it ends, and returns its
    result (or throws its exception). Other work on `ioc` may never end (an
    MCP client's reader, a server not yet started): it runs meanwhile, and
    stays for the next run. */
template<class T>
T run_to_completion(boost::asio::io_context& ioc, boost::asio::awaitable<T> work)
{
    auto done = boost::asio::co_spawn(ioc, std::move(work), boost::asio::use_future);
    ioc.restart();
    while(done.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
        if(ioc.run_one() == 0)
            ioc.restart(); // out of work for a moment (the result is being set): go on
    ioc.restart();
    return done.get();
}

/** Runs `ioc` on `threads` threads (this one included) until it runs out of
    work; on SIGINT or SIGTERM, `on_signal` runs on one of them (it should
    end the work: stop the servers, `ioc.stop()`). Returns once every thread
    has returned. */
inline void run_until_signal(boost::asio::io_context& ioc, unsigned threads, std::function<void()> on_signal)
{
    boost::asio::signal_set signals(ioc, SIGINT, SIGTERM);
    signals.async_wait([&on_signal](boost::system::error_code ec, int) {
        if(!ec && on_signal)
            on_signal();
    });
    ioc.restart();
    std::vector<std::thread> pool;
    for(unsigned i = 1; i < threads; ++i)
        pool.emplace_back([&ioc] { ioc.run(); });
    ioc.run();
    for(auto& t : pool)
        t.join();
}

} // namespace agentio

#endif
