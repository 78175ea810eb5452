// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The labour-law agent as an OpenAI-compatible model (`normativa`), served at
// /v1/chat/completions and /v1/models next to /api/rag-agent: the last user
// message is the question, asked on a new thread; the searches stream as
// `reasoning_content` and so do the sources at the end; the answer is the
// `content`.
#pragma once

#include "agent.hpp"

#include <agentio/chat_completions.hpp>

#include <memory>

namespace normativa {

/// The agent as a model of the endpoint (which must not outlive `service`).
std::shared_ptr<agentio::chat_completions::model> make_openai_model(rag_service& service);

} // namespace normativa
