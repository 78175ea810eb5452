// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The fake LLM as a model that also summarizes: the library's compaction
// (llm::fit_context) asks for a summary of the conversation, given between
// <conversation> tags; these answer such a request and count them.
#pragma once

#include <agentio/json_text.hpp>
#include <agentio/testing/fake_llm.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace agentio_test {

// What marks a compaction request (messages::compaction_request is followed by the conversation in these tags).
inline constexpr std::string_view summary_request_marker = "<conversation>";

// The fake's answer to a compaction request: first in its turn, before the turn's other answers.
inline agentio::testing::scripted_response summary_response(std::string text)
{
    agentio::testing::scripted_response r;
    r.when_user_message_contains = std::string(summary_request_marker);
    r.text = std::move(text);
    return r;
}

// Whether a request the fake received asked for a summary.
inline bool asks_for_summary(agentio::testing::recorded_request const& r)
{
    return agentio::to_json_text(r.body).find(summary_request_marker) != std::string::npos;
}

// How many of the requests asked for a summary.
inline std::size_t summary_requests(std::vector<agentio::testing::recorded_request> const& requests)
{
    std::size_t n = 0;
    for(auto const& r : requests)
        n += asks_for_summary(r) ? 1 : 0;
    return n;
}

} // namespace agentio_test
