// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// A coroutine driven to its end on a test's io_context, its value returned:
// what it throws fails the test, and so does one still running after `limit`
// (the io_context idle that long), instead of a test that hangs.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <exception>
#include <optional>
#include <utility>

namespace agentio_test {

template<class T>
T run_on(boost::asio::io_context& ioc, boost::asio::awaitable<T> work,
    std::chrono::steady_clock::duration limit = std::chrono::seconds(20))
{
    std::optional<T> out;
    boost::asio::co_spawn(ioc, std::move(work), [&](std::exception_ptr e, T v) {
        if(e)
            std::rethrow_exception(e);
        out = std::move(v);
    });
    while(!out && ioc.run_one_for(limit))
        ;
    BOOST_TEST_REQUIRE(out.has_value());
    return std::move(*out);
}

} // namespace agentio_test
