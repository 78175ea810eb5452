//
// agentio/llm/conversation.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// A provider-neutral conversation: messages made of content blocks, what a
// model is asked (a request) and what it answered (a response), the events
// of a streamed answer, and the errors of talking to a model. Providers map
// this to and from their wire formats; the orchestrator only sees this.
//

#ifndef AGENTIO_LLM_CONVERSATION_HPP
#define AGENTIO_LLM_CONVERSATION_HPP

#include <agentio/tool/descriptor.hpp>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace agentio::llm {

namespace json = boost::json;

/// Plain text.
struct text_block
{
    std::string text = {};
};

/// An image, base64-encoded.
struct image_block
{
    std::string media_type = {};
    std::string base64_data = {};
};

/// The model's reasoning (Anthropic extended thinking). Must be sent back
/// unchanged, signature included, when the turn continues with tool results.
struct thinking_block
{
    std::string thinking = {};
    std::string signature = {};
};

/// A call the model asks for.
struct tool_use_block
{
    std::string id = {};
    std::string name = {};
    /// The arguments as parsed JSON; null when `raw_input` is not valid JSON
    /// (a call cut short by `max_tokens`, or a model producing bad JSON).
    json::value input = {};
    /// The arguments exactly as streamed.
    std::string raw_input = {};
};

/// The answer to a tool call, sent in the next user message.
struct tool_result_block
{
    std::string tool_use_id = {};
    std::vector<std::variant<text_block, image_block>> content = {};
    bool is_error = false;
};

/// A block this library does not model (Anthropic `redacted_thinking`,
/// server tool blocks), kept as the provider sent it so it can be sent back.
struct opaque_block
{
    json::object value = {};
};

/// One block of a message's content.
using content_block =
    std::variant<text_block, image_block, thinking_block, tool_use_block, tool_result_block, opaque_block>;

/// Who speaks. The system prompt is not a message: see @ref request::system.
enum class role
{
    user,
    assistant
};

/// A turn of the conversation.
struct message
{
    llm::role role = llm::role::user;
    std::vector<content_block> content = {};

    /// A user message with one text block.
    static message user(std::string text) { return {llm::role::user, {text_block{std::move(text)}}}; }

    /// An assistant message with one text block.
    static message assistant(std::string text) { return {llm::role::assistant, {text_block{std::move(text)}}}; }

    /// The text blocks, concatenated.
    std::string text() const
    {
        std::string out;
        for(auto const& b : content)
            if(auto const* t = std::get_if<text_block>(&b))
                out += t->text;
        return out;
    }
};

/// How the model may use tools.
struct tool_choice
{
    enum class mode
    {
        automatic, ///< the model decides (the default with tools)
        any,       ///< the model must call some tool
        named,     ///< the model must call `name`
        none       ///< no tool calls
    };

    tool_choice::mode mode = mode::automatic;
    std::string name = {};
    /// At most one tool call per turn.
    bool disable_parallel = false;
};

/** An answer in JSON that follows a schema (structured output): OpenAI's
    `response_format` of type `json_schema`, Anthropic's `output_config.format`.

    Each provider takes a subset of JSON Schema. The request says the schema
    as it is; each wire format sends what its API accepts (llm/detail/output_schema.hpp):
    OpenAI's strict mode only for a schema it takes whole, Anthropic's
    structured output with bounds moved into descriptions, or, for a schema
    outside its subset (an open object, a map), the schema in the system
    prompt. Whoever asked validates the answer against the whole schema.
*/
struct output_format
{
    /// The schema's name: letters, digits, `_` and `-`, at most 64 (OpenAI requires one).
    std::string_view name = "answer";
    /// The JSON Schema of the answer; the caller keeps it alive for the call.
    json::object const* schema = nullptr;
};

/// What a model is asked. Views: the caller keeps the referenced data alive
/// for the duration of the call.
struct request
{
    std::string_view model = {};
    std::string_view system = {};
    std::span<message const> messages = {};
    std::span<tool_descriptor const> tools = {};
    std::optional<tool_choice> choice = {};
    unsigned max_tokens = 4096;
    /// Sent only where the API accepts it (not with Anthropic's 2026-10-21 version).
    std::optional<double> temperature = {};
    /// Extended thinking budget in tokens (Anthropic; at least 1024).
    std::optional<unsigned> thinking_budget = {};
    /// Texts that end the answer when the model writes them (not included in
    /// it): OpenAI `stop` (at most 4), Anthropic `stop_sequences`. Empty: none sent.
    std::span<std::string const> stop = {};
    /// The answer is JSON that follows a schema (see @ref output_format); empty: free text.
    std::optional<output_format> output = {};
    /** Sent as the W3C `traceparent` header, so that the provider's (or a
        sibling agent's) spans join the caller's trace; empty: not sent. */
    std::string_view traceparent = {};
};

/// Why the model stopped.
enum class stop_reason
{
    end_turn,       ///< finished its answer
    tool_use,       ///< wants the results of its tool calls
    max_tokens,     ///< ran out of tokens (a tool call may be cut short)
    stop_sequence,  ///< produced one of the stop sequences
    pause_turn,     ///< paused a long server-side turn; send the content back to continue
    refusal,        ///< declined to answer (also OpenAI's content_filter)
    context_window, ///< the conversation filled the context window
    unknown         ///< a value this library does not know; see `stop_reason_text`
};

/// Token counts of one call, or totals of a run.
struct usage
{
    std::uint64_t input_tokens = 0;
    std::uint64_t output_tokens = 0;
    std::uint64_t cache_creation_input_tokens = 0;
    std::uint64_t cache_read_input_tokens = 0;

    usage& operator+=(usage const& o) noexcept
    {
        input_tokens += o.input_tokens;
        output_tokens += o.output_tokens;
        cache_creation_input_tokens += o.cache_creation_input_tokens;
        cache_read_input_tokens += o.cache_read_input_tokens;
        return *this;
    }

    friend bool operator==(usage const&, usage const&) = default;
};

/// A model's complete answer to one request.
struct response
{
    std::string id = {};
    std::string model = {};
    /// The assistant message, blocks in the order the model produced them.
    message assistant{llm::role::assistant, {}};
    llm::stop_reason stop = llm::stop_reason::unknown;
    /// The provider's own word for the stop reason.
    std::string stop_reason_text = {};
    llm::usage tokens = {};

    /// The tool calls of the answer, in order.
    std::vector<tool_use_block const*> tool_calls() const
    {
        std::vector<tool_use_block const*> out;
        for(auto const& b : assistant.content)
            if(auto const* t = std::get_if<tool_use_block>(&b))
                out.push_back(t);
        return out;
    }
};

/// Streamed text of the answer.
struct text_delta
{
    std::string text = {};
};

/// Streamed reasoning.
struct thinking_delta
{
    std::string thinking = {};
};

/// The model started a tool call (its arguments follow).
struct tool_use_started
{
    std::string id = {};
    std::string name = {};
};

/** A fragment of a started call's arguments, JSON text as the model writes
    it (Anthropic's `input_json_delta`, OpenAI's `function.arguments`): the
    fragments of one call, joined, are its `tool_use_block::raw_input`. */
struct tool_input_delta
{
    /// The call's `tool_use_started::id`.
    std::string id = {};
    std::string partial_json = {};
};

/// What a stream yields before its end; the response comes at the end.
using stream_event = std::variant<text_delta, thinking_delta, tool_use_started, tool_input_delta>;

/** What went wrong talking to a model.

    A value, not an exception: the orchestrator decides what the user sees.
*/
struct error
{
    enum class kind
    {
        http_status,   ///< the API answered with an error status
        stream_error,  ///< an `error` event in the middle of a stream
        connection,    ///< could not connect, or the connection broke
        timeout,       ///< connect, idle or total timeout
        protocol,      ///< a malformed or truncated stream, an unexpected body
        cancelled,     ///< the caller cancelled
        configuration, ///< no API key, a bad base URL
        overloaded     ///< this process is out of file descriptors or memory (not the provider's fault)
    };

    error::kind what = kind::protocol;
    /// The HTTP status for `http_status`, else 0.
    unsigned status = 0;
    /// The provider's error type (`overloaded_error`, `rate_limit_error`, ...).
    std::string type = {};
    /// A message for logs and users.
    std::string message = {};
    /// Whether the official SDKs would retry it.
    bool retryable = false;
    /// The delay the server asked for, if any.
    std::optional<std::chrono::milliseconds> retry_after = {};
    /// The provider's request id, for support.
    std::string request_id = {};
};

/// The kind's name, as metrics and spans label it: `http_status`, `stream_error`, `connection`, ...
constexpr std::string_view to_string(error::kind k) noexcept
{
    switch(k)
    {
    case error::kind::http_status: return "http_status";
    case error::kind::stream_error: return "stream_error";
    case error::kind::connection: return "connection";
    case error::kind::timeout: return "timeout";
    case error::kind::protocol: return "protocol";
    case error::kind::cancelled: return "cancelled";
    case error::kind::configuration: return "configuration";
    case error::kind::overloaded: return "overloaded";
    }
    return "unknown";
}

} // namespace agentio::llm

#endif
