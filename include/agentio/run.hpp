//
// agentio/run.hpp
// ~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// The end of a server's main(): its io_context run on N threads until
// SIGINT or SIGTERM, then a stop the program chooses (stop accepting, close
// clients), and the threads joined.
//
//   server.start();
//   agentio::run_until_signal(ioc, threads, [&] { server.stop(); ioc.stop(); });
//

#ifndef AGENTIO_RUN_HPP
#define AGENTIO_RUN_HPP

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>

#include <csignal>
#include <functional>
#include <thread>
#include <vector>

namespace agentio {

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
