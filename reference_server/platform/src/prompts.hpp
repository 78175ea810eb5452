// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// What the platform tells the model.
#pragma once

#include <string>

namespace platform {

/// The system prompt of `asistente`.
std::string asistente_prompt();

/// The system prompt of `asistente`'s plain chat (a message that needs no tool).
std::string chat_prompt();

} // namespace platform
