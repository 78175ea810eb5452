//
// agentio/chat_completions/request.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// A `POST /v1/chat/completions` body read into the library's neutral
// conversation: system and developer messages become the system prompt,
// `tool` messages become tool results, an assistant's `tool_calls` become
// tool-use blocks. Everything is checked the way OpenAI's API checks it, and
// a bad body is a 400 whose `param` names the field
// (`messages[2].tool_calls[0].function.name`).
//

#ifndef AGENTIO_CHAT_COMPLETIONS_REQUEST_HPP
#define AGENTIO_CHAT_COMPLETIONS_REQUEST_HPP

#include <agentio/chat_completions/error.hpp>
#include <agentio/config.hpp>
#include <agentio/llm/conversation.hpp>

#include <boost/json/object.hpp>
#include <boost/system/result.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agentio::chat_completions {

/// A tool the client declares: the client runs it, the server never does.
struct client_tool
{
    std::string name = {};
    std::string description = {};
    /// `parameters`; an empty object schema when the client sent none.
    json::object parameters = {};
};

/** A person's decision on a call an earlier answer stopped for
    (@ref awaiting_approval): the request that carries it resumes that answer. */
struct approval
{
    std::string tool_call_id = {};
    bool approved = false;
    /// Why not, for the model (empty: a plain no).
    std::string reason = {};
};

/// A chat completion request, read and checked.
struct request
{
    /// The model asked for: which agent answers.
    std::string model = {};
    /// The `system` and `developer` messages, in order, joined by a blank line.
    std::string system = {};
    /// The conversation, without the system messages. Consecutive messages
    /// of one role are merged (a run of `tool` messages is one user turn).
    std::vector<llm::message> messages = {};
    /// The client's tools (`tools`).
    std::vector<client_tool> tools = {};
    /// `tool_choice` and `parallel_tool_calls`; none when the client sent neither.
    std::optional<llm::tool_choice> choice = {};
    bool stream = false;
    /// `stream_options.include_usage`: a last chunk with the usage.
    bool include_usage = false;
    /// `max_completion_tokens`, or the older `max_tokens`.
    std::optional<unsigned> max_tokens = {};
    std::optional<double> temperature = {};
    /// `stop`: up to four sequences.
    std::vector<std::string> stop = {};
    /// `user`, if sent.
    std::string user = {};
    /** Decisions on the calls the conversation's last turn (the model's,
        its calls unanswered) stopped for: the answer resumes there. Set by
        doors that can ask a person (AG-UI's `resume`, A2A's next message);
        the OpenAI wire has no field for it. */
    std::vector<approval> decisions = {};
    /// The body's other fields, untouched: an application reads its own
    /// extensions here (`session_id`, `agent_type`).
    json::object extra = {};
};

/// Bounds of what a request may hold.
struct parse_options
{
    std::size_t max_messages = 2048;
    std::size_t max_tools = 128;
    std::size_t max_stop_sequences = 4;
    /// JSON nesting of the body (Boost.JSON's default is 32).
    std::size_t max_depth = 64;
};

/** Reads a request body.

    @return the request, or a 400 (`invalid_request_error`) naming the field:
    a body that is not a JSON object, a missing or mistyped field, an empty
    `messages`, an unknown role, a `tool` message answering no call, an
    assistant's calls left unanswered before the next turn, `n` other than
    1, more than four stop sequences, `stream_options` without `stream`.
*/
boost::system::result<request, api_error> parse_request(std::string_view body, parse_options const& options = {});

} // namespace agentio::chat_completions

#ifdef AGENTIO_HEADER_ONLY
#include <agentio/chat_completions/impl/request.ipp>
#endif

#endif
