// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The Spanish prompts: the agent's instructions (an expert in labour and
// Social Security law, the tools' strategy, the colloquial → legal table),
// and the pipeline's two calls (question → search keywords; answer from the
// passages given).
#pragma once

#include <agentio/retrieval.hpp>

#include <string>
#include <vector>

namespace normativa {

/// The agent's system prompt; `max_tool_rounds` is said in it.
std::string agent_system_prompt(unsigned max_tool_rounds);

/// The pipeline's first call: turns the last question into search keywords.
std::string expansion_system_prompt();

/// The pipeline's second call: answer from the passages listed.
std::string answer_system_prompt(std::vector<agentio::retrieval::chunk> const& context);

/// Cleans the expansion's answer into one search query (a line of words).
std::string keywords_from_expansion(std::string_view answer, std::string_view fallback);

} // namespace normativa
