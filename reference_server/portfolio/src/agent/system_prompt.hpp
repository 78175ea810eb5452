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
