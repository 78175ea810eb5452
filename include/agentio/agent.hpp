//
// agentio/agent.hpp
// ~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// What a program with an agent includes: tools (agentio::function_tool, typed
// tools, toolsets), the orchestrator and its events, the providers and the
// one chosen by the environment (llm::make_provider), and agent::ask. The
// other strategies (agent/react.hpp, agent/plan_execute.hpp, agent/strategy.hpp)
// are included on their own.
//

#ifndef AGENTIO_AGENT_HPP
#define AGENTIO_AGENT_HPP

#include <agentio/agent/ask.hpp>
#include <agentio/agent/orchestrator.hpp>
#include <agentio/llm/environment.hpp>
#include <agentio/run.hpp>
#include <agentio/tool.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/describe/class.hpp>

#endif
