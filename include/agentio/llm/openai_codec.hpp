//
// agentio/llm/openai_codec.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// The OpenAI Chat Completions wire format, as OpenAI and the compatible
// servers (Groq, Ollama, vLLM, llama.cpp) speak it, without any I/O: the
// request body, the decoding of streamed chunks (tool-call fragments by
// index, `finish_reason`, the usage chunk, `[DONE]`), the non-streaming body
// and error bodies.
//

#ifndef AGENTIO_LLM_OPENAI_CODEC_HPP
#define AGENTIO_LLM_OPENAI_CODEC_HPP

#include <agentio/config.hpp>
#include <agentio/llm/conversation.hpp>
#include <agentio/sse/parser.hpp>

#include <boost/json/object.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agentio::llm::openai {

/// Variations among OpenAI-compatible servers.
struct wire_options
{
    /// OpenAI deprecates `max_tokens` for `max_completion_tokens`; Ollama and
    /// older servers read only `max_tokens`.
    std::string_view max_tokens_field = "max_completion_tokens";

    /// Ask for the final usage chunk (`stream_options.include_usage`).
    bool include_usage = true;

    /// Send `tool_choice` (Ollama does not support it).
    bool send_tool_choice = true;
};

/// The JSON body of `POST /chat/completions` for a request.
json::object make_request_body(request const& r, wire_options const& options = {}, bool stream = true);

/// The neutral stop reason of a `finish_reason`.
stop_reason parse_finish_reason(std::string_view s) noexcept;

/// An error from an HTTP error response: `{"error":{"message","type","param","code"}}`.
error error_from_body(unsigned status, std::string_view body);

/// The answer of a non-streaming call (a `chat.completion` body).
std::optional<response> parse_response_body(std::string_view body, error& failure);

/** Decodes a streamed answer, one SSE event (one chunk) at a time.

    Text arrives in `delta.content`; tool calls in `delta.tool_calls`
    fragments keyed by `index` (id and name on the first, argument pieces
    after; Ollama sends each call whole in one fragment); the last chunk of
    the choice carries `finish_reason`; with `include_usage` a chunk with
    `"choices": []` carries the usage; `data: [DONE]` ends the stream.
*/
class stream_decoder
{
public:
    /// Takes the next event; see anthropic::stream_decoder::feed.
    std::optional<error> feed(sse::event const& e, std::vector<stream_event>& out);

    /// Whether `[DONE]` arrived.
    bool complete() const noexcept { return complete_; }

    /// Whether any text or tool call was decoded.
    bool produced_output() const noexcept { return produced_; }

    /// The answer, or an error when the stream ended before `[DONE]`.
    std::optional<response> finish(error& failure);

private:
    response response_;
    std::string text_;
    std::vector<tool_use_block> calls_;
    bool refused_ = false; // a `refusal` delta came
    bool complete_ = false;
    bool produced_ = false;
};

} // namespace agentio::llm::openai

#ifdef AGENTIO_HEADER_ONLY
#include <agentio/llm/impl/openai_codec.ipp>
#endif

#endif
