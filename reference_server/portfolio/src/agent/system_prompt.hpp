// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The agent's Spanish system prompt: role, data model,
// tool guidance, visualization, assumptions, response format. Built from the
// metadata the tools and the REST API use (table_metadata.hpp,
// field_metadata.hpp, the toolset), so it cannot drift from them.
#pragma once

#include <string>

namespace portfolio::agent {

/// The prompt, built once.
std::string const& system_prompt();

} // namespace portfolio::agent
