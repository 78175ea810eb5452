//
// agentio/llm/compaction.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// One request kept within the model's window, whatever the conversation's
// length: the older turns left out (trim) or summarized by the model into a
// text that stands for them from then on (compact). The one place where both
// the orchestrator and a fixed pipeline (a single model call) decide what of a
// conversation the model is sent.
//

#ifndef AGENTIO_LLM_COMPACTION_HPP
#define AGENTIO_LLM_COMPACTION_HPP

#include <agentio/llm/context.hpp>
#include <agentio/llm/provider.hpp>
#include <agentio/messages.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/system/result.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace agentio::llm {

/// How a conversation is kept within a window.
struct context_plan
{
    /// The window in tokens; 0: the conversation is sent whole.
    std::uint64_t window = 0;
    context_policy policy = context_policy::compact;
    /// Of the window, what the estimate may plan to use (its margin).
    double room = 0.95;
    /// The summary's own `max_tokens`.
    unsigned summary_max_tokens = 1024;
    /// The summarizing call's sentences (@ref messages::compaction_instructions and
    /// the three after it); null: the English defaults.
    agentio::messages const* texts = nullptr;
    /** The provider's exact count of a request's input tokens
        (`count_tokens` of a @ref token_counter), asked for a request whose
        estimate comes near the window's edge: it calibrates the estimate,
        and a request it finds too large leaves out more turns. Empty: the
        estimate alone decides. */
    std::function<asio::awaitable<boost::system::result<std::uint64_t, error>>(request const&)> count_tokens = {};
    /** Where the latest turn begins, when the conversation's user messages
        after it are not new turns (a ReAct scratchpad's observations);
        unset: at the last user message that is not tool results. */
    std::optional<std::size_t> keep_from = {};
};

/** What to send of a conversation: the system prompt (with the summary,
    when there is one) and the messages from `first` on. */
struct fitted_context
{
    /// The system prompt to send: the request's, then the summary.
    std::string system = {};
    /// The conversation's first message sent.
    std::size_t first = 0;
    /** A summary made for this request, which stands for the conversation's
        first `covers` messages from now on: what a thread stores. Nothing
        when none was made. */
    std::optional<conversation_summary> compacted = {};
    /// Model calls that writing it took, and their tokens.
    unsigned summary_calls = 0;
    usage summary_usage = {};
    /** Why a summary could not be made: the request was trimmed instead,
        and the conversation and its summary are as they were. */
    std::optional<error> summary_failure = {};
    /// How many times the provider counted the request (`context_plan::count_tokens`).
    unsigned token_counts = 0;

    /// Points `r` at what to send (`r` then views this object and `conversation`).
    void apply(request& r, std::span<message const> conversation) const
    {
        r.system = system;
        r.messages = conversation.subspan(first);
    }
};

/// Even the latest turn alone does not fit: the sizes, in tokens.
struct context_too_big
{
    /// The request with only the latest turn, its `max_tokens` included.
    std::uint64_t tokens = 0;
    std::uint64_t window = 0;
};

/// A summary written by the model, and what it took.
struct written_summary
{
    std::string text = {};
    unsigned calls = 0;
    usage tokens = {};
};

/** Has the model summarize `messages`, with `previous` (an earlier summary
    that stands for what came before them) folded in. A conversation larger
    than `input_budget` tokens is read in pieces, each summary carried into
    the next call.

    @return the summary, or the provider's error (also an empty answer,
    as `error::kind::protocol`).
*/
template<provider P>
asio::awaitable<boost::system::result<written_summary, error>> summarize_conversation(P& provider,
    std::string_view model, std::span<message const> messages, std::string_view previous, std::uint64_t input_budget,
    unsigned max_tokens, token_estimator& estimator, agentio::messages const& texts);

/** Decides what of `conversation` a request sends so that it fits
    `plan.window`.

    @param base the request's model, system prompt, tools and `max_tokens`
    (its messages are ignored)
    @param conversation the whole conversation; its first `summary->covers`
    messages are stood for by `summary`
    @param summary the conversation's summary so far, or null

    With `context_policy::compact`, a request that would not fit has the
    turns it would leave out summarized (with the summary so far) until
    what is kept takes about half the room; should that fail, the request
    is trimmed instead and `summary_failure` says why. The latest turn is
    always sent whole.

    @return what to send, or the sizes when even the latest turn does not fit.
*/
template<provider P>
asio::awaitable<boost::system::result<fitted_context, context_too_big>> fit_context(P& provider, request const& base,
    std::span<message const> conversation, conversation_summary const* summary, context_plan const& plan,
    token_estimator& estimator);

} // namespace agentio::llm

#include <agentio/llm/impl/compaction.hpp>

#endif
