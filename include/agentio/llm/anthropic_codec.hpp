//
// agentio/llm/anthropic_codec.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// The Anthropic Messages wire format, without any I/O: the request body and
// headers, the decoding of a streamed answer event by event, the
// non-streaming body, and error bodies. The provider (anthropic.hpp) adds the
// network; tests feed the recorded fixtures straight in.
//

#ifndef AGENTIO_LLM_ANTHROPIC_CODEC_HPP
#define AGENTIO_LLM_ANTHROPIC_CODEC_HPP

#include <agentio/config.hpp>
#include <agentio/llm/conversation.hpp>
#include <agentio/sse/parser.hpp>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agentio::llm::anthropic {

/** The `anthropic-version` header value.

    2026-10-21 authenticates with `Authorization: Bearer` and refuses
    `temperature`, `top_p` and `top_k`; 2023-06-01 takes `x-api-key` and
    accepts them.
*/
enum class api_version
{
    v2023_06_01,
    v2026_10_21
};

/// The header value of a version.
constexpr std::string_view to_string(api_version v) noexcept
{
    return v == api_version::v2023_06_01 ? "2023-06-01" : "2026-10-21";
}

/// A version from its header value; empty for an unknown one.
constexpr std::optional<api_version> parse_api_version(std::string_view s) noexcept
{
    if(s == "2023-06-01")
        return api_version::v2023_06_01;
    if(s == "2026-10-21")
        return api_version::v2026_10_21;
    return std::nullopt;
}

/// The JSON body of `POST /v1/messages` for a request.
json::object make_request_body(request const& r, api_version version, bool stream = true);

/// The authentication header of a version: name and value.
std::pair<std::string_view, std::string> auth_header(api_version version, std::string_view api_key);

/// The neutral stop reason of an Anthropic `stop_reason`.
stop_reason parse_stop_reason(std::string_view s) noexcept;

/** An error from an HTTP error response (status and body).

    The body is `{"type":"error","error":{"type","message"},"request_id"}`;
    anything else still gives an error naming the status.
*/
error error_from_body(unsigned status, std::string_view body);

/** The answer of a non-streaming call (a `Message` JSON body). */
std::optional<response> parse_response_body(std::string_view body, error& failure);

/** Decodes a streamed answer, one SSE event at a time.

    Follows the event grammar of the Messages API: `message_start`, then per
    content block `content_block_start`, deltas and `content_block_stop`,
    then `message_delta` (cumulative usage) and `message_stop`; `ping` and
    unknown events are ignored, an `error` event is an error. Tool arguments
    are assembled from their `input_json_delta` fragments and parsed when the
    block ends (or at the end, for a block cut by `max_tokens`).
*/
class stream_decoder
{
public:
    /** Takes the next event.

        @param e the SSE event
        @param out receives what should reach the user now (text, thinking,
        tool calls starting)
        @return an error for an `error` event or a malformed stream
    */
    std::optional<error> feed(sse::event const& e, std::vector<stream_event>& out);

    /// Whether `message_stop` arrived.
    bool complete() const noexcept { return complete_; }

    /// Whether anything was decoded since `message_start` (text, a block).
    bool produced_output() const noexcept { return produced_; }

    /** The answer, once the stream is over.

        @return an error when the stream ended before `message_stop`.
    */
    std::optional<response> finish(error& failure);

private:
    struct block_state
    {
        content_block block;
        bool open = true;
    };

    void close_block(block_state& b);

    response response_;
    std::vector<block_state> blocks_;
    bool started_ = false;
    bool complete_ = false;
    bool produced_ = false;
};

} // namespace agentio::llm::anthropic

#ifdef AGENTIO_HEADER_ONLY
#include <agentio/llm/impl/anthropic_codec.ipp>
#endif

#endif
