// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// How asistente chooses a strategy when the request does not say: a message
// the words call plain chat ("hola", "gracias", "hazlo más corto") is chat at
// once, with no classification call; otherwise a short classification call to
// the model (PLATFORM_ROUTER=model), falling back to the words of the request
// (Spanish and English) when the call fails or its reply is not exactly a
// label; PLATFORM_ROUTER=keywords skips the call.
#pragma once

#include <agentio/agent/strategy.hpp>

namespace platform {

/// The words that suggest plan-and-execute, ReAct or plain chat, in Spanish and English.
agentio::agent::keyword_rules routing_rules();

} // namespace platform
