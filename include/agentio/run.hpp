//
// agentio/run.hpp
// ~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// One piece of work run to its end on a program's io_context (opening a
// store, a command-line question). A server runs until a signal through the
// application kit (app::serve, app::run_until_signal in <agentio/app/serve.hpp>).
//
//   auto store = agentio::run_to_completion(ioc, open_store(uri));
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

} // namespace agentio

#endif
