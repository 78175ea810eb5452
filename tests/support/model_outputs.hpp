// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// What a Chat Completions model writes for one request, in order: a model
// tested without an endpoint in front of it.
#pragma once

#include <agentio/chat_completions/model.hpp>

#include <boost/asio/awaitable.hpp>

#include <memory>
#include <utility>
#include <vector>

namespace agentio_test {

inline boost::asio::awaitable<std::vector<agentio::chat_completions::output>>
model_outputs(agentio::chat_completions::model& model, agentio::chat_completions::request request,
    agentio::chat_completions::call_context ctx)
{
    namespace cc = agentio::chat_completions;
    // Shared with the sink: a model may hold its sink past its answer.
    auto outputs = std::make_shared<std::vector<cc::output>>();
    cc::output_sink sink = [outputs](cc::output o) { outputs->push_back(std::move(o)); };
    co_await model.complete(std::move(request), ctx, std::move(sink));
    co_return std::move(*outputs);
}

} // namespace agentio_test
