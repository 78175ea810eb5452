//
// agentio/chat_completions.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Any agent as an OpenAI-compatible model: the Chat Completions API
// (`/v1/chat/completions`, `/v1/models`) in front of models an application
// adds — agents with server-side tools (agent_model), several strategies
// over them (strategy_model), agents that answer one question
// (question_model), or anything that writes the outputs of
// chat_completions::model. See docs/guide/11-chat-completions.md.
//

#ifndef AGENTIO_CHAT_COMPLETIONS_HPP
#define AGENTIO_CHAT_COMPLETIONS_HPP

#include <agentio/chat_completions/agent_model.hpp>
#include <agentio/chat_completions/endpoint.hpp>
#include <agentio/chat_completions/error.hpp>
#include <agentio/chat_completions/files.hpp>
#include <agentio/chat_completions/metrics.hpp>
#include <agentio/chat_completions/model.hpp>
#include <agentio/chat_completions/question_model.hpp>
#include <agentio/chat_completions/request.hpp>
#include <agentio/chat_completions/strategy_model.hpp>

#endif
