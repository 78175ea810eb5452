// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The invoice agent as an OpenAI-compatible model (`facturas`), served at
// /v1/chat/completions and /v1/models next to /ask: the last user message is
// the question, the session is `session_id` (or one of its own for each
// request), the SQL and the rows it read stream as `reasoning_content`, the
// answer as `content`.
#pragma once

#include "agent.hpp"

#include <agentio/chat_completions.hpp>

#include <memory>

namespace facturas {

/// The agent as a model of the endpoint (which must not outlive `agent`).
std::shared_ptr<agentio::chat_completions::model> make_openai_model(invoice_agent& agent);

} // namespace facturas
