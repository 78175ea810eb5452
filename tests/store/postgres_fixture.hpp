// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The PostgreSQL the tests run against: started by the CTest fixture
// `postgres` (scripts/postgres.sh start DIR), found through the environment
// variable AGENTIO_TEST_POSTGRES_DIR, whose file `uri` holds its URI.

#ifndef AGENTIO_TESTS_STORE_POSTGRES_FIXTURE_HPP
#define AGENTIO_TESTS_STORE_POSTGRES_FIXTURE_HPP

#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <exception>
#include <fstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>
#include "test_paths.hpp"

namespace agentio_test {

/// The cluster's directory (AGENTIO_TEST_POSTGRES_DIR).
inline std::string postgres_dir()
{
    char const* dir = std::getenv("AGENTIO_TEST_POSTGRES_DIR");
    if(!dir || !*dir)
        throw std::runtime_error("AGENTIO_TEST_POSTGRES_DIR is not set: run the tests through CTest "
                                 "(fixture postgres), or scripts/postgres.sh start DIR and export it");
    return dir;
}

/// postgresql://postgres@127.0.0.1:PORT/agentio_test
inline std::string postgres_uri()
{
    std::ifstream in(postgres_dir() + "/uri");
    std::string uri;
    if(!std::getline(in, uri) || uri.empty())
        throw std::runtime_error("no PostgreSQL URI in " + postgres_dir() + "/uri");
    return uri;
}

/// Stops and starts the server on the same port (scripts/postgres.sh restart).
inline void postgres_restart()
{
    std::string command = std::string("bash '") + AGENTIO_POSTGRES_SCRIPT + "' restart '" + postgres_dir() + "'";
    if(std::system(command.c_str()) != 0)
        throw std::runtime_error("failed: " + command);
}

/** Runs a coroutine to completion on `ctx` with `threads` threads, then
    rethrows what it threw. The context is restarted for the next run.
*/
inline void run(boost::asio::io_context& ctx, boost::asio::awaitable<void> task, int threads = 1)
{
    std::exception_ptr failure;
    bool done = false;
    boost::asio::co_spawn(ctx, std::move(task), [&](std::exception_ptr e) {
        failure = e;
        done = true;
    });
    std::vector<std::thread> others;
    for(int i = 1; i < threads; ++i)
        others.emplace_back([&] { ctx.run(); });
    ctx.run();
    for(auto& t : others)
        t.join();
    ctx.restart();
    if(failure)
        std::rethrow_exception(failure);
    BOOST_REQUIRE(done);
}

} // namespace agentio_test

#endif
