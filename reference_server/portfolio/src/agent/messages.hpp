// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The sentences agentio writes for the model and the user, in Spanish: the
// agent's language (its prompt, its tools' messages and its errors).
#ifndef PORTFOLIO_AGENT_MESSAGES_HPP
#define PORTFOLIO_AGENT_MESSAGES_HPP

#include <agentio/messages.hpp>

namespace portfolio::agent {

inline constexpr agentio::messages const& spanish_messages = agentio::spanish_messages;

} // namespace portfolio::agent

#endif
