// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// What the strategies' suites run on: the fake LLM on loopback, the real
// HTTP client and a provider (OpenAI's wire or Anthropic's) on one
// io_context, a run driven to its end there, and the events it sent.
#pragma once

#include <agentio/http/client.hpp>
#include <agentio/llm/openai.hpp>
#include <agentio/testing/fake_llm.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <exception>
#include <memory>
#include <type_traits>
#include <variant>
#include <vector>

namespace agent_test {

template<class Provider>
struct provider_bench
{
    boost::asio::io_context ioc;
    agentio::testing::fake_llm fake{ioc.get_executor()};
    agentio::http::client client{ioc.get_executor()};
    /// The backoff delays the provider asked for: observed, not waited for, so the suites stay fast.
    std::vector<std::chrono::milliseconds> sleeps;
    std::unique_ptr<Provider> provider;

    /// `options` with the fake's address and key, and the backoff observed.
    explicit provider_bench(agentio::llm::provider_options options = {})
    {
        BOOST_TEST_REQUIRE(fake.start().has_value());
        options.api_key = "test-key";
        options.base_url = std::is_same_v<Provider, agentio::llm::openai_provider> ? fake.openai_base_url()
                                                                                   : fake.anthropic_base_url();
        options.sleep = [this](std::chrono::milliseconds d) -> boost::asio::awaitable<void> {
            sleeps.push_back(d);
            co_return;
        };
        options.random = [] { return 0.0; };
        provider = std::make_unique<Provider>(client, options);
    }

    provider_bench(provider_bench const&) = delete; // the provider's `sleep` holds `this`
    provider_bench& operator=(provider_bench const&) = delete;

    /// Runs `work()` (an asio::awaitable<void>) on the io_context to its end,
    /// cancelled through `slot`; what it throws fails the test.
    template<class Work>
    void run_to_end(Work& work, boost::asio::cancellation_slot slot = {})
    {
        bool finished = false;
        boost::asio::co_spawn(ioc, work(), boost::asio::bind_cancellation_slot(slot, [&](std::exception_ptr e) {
            finished = true;
            if(e)
                std::rethrow_exception(e);
        }));
        while(!finished && ioc.run_one_for(std::chrono::seconds(10)))
            ;
        BOOST_TEST_REQUIRE(finished);
    }
};

/// The events a run sent its sink, in order.
template<class Event>
struct event_log
{
    std::vector<Event> events;

    /// A sink that records each event here.
    auto recorder()
    {
        return [this](Event const& e) -> boost::asio::awaitable<void> {
            events.push_back(e);
            co_return;
        };
    }

    /// The events of one kind.
    template<class T>
    std::vector<T> all() const
    {
        std::vector<T> out;
        for(auto const& e : events)
            if(auto const* t = std::get_if<T>(&e))
                out.push_back(*t);
        return out;
    }
};

} // namespace agent_test
