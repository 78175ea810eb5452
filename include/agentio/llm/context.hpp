//
// agentio/llm/context.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// What fits in a model's context window: each model's window and the room
// kept for its answer, a request's size estimated before it is sent (and
// corrected by what the provider counted), which older turns to leave out
// when a conversation outgrows the window, and a provider's "too long"
// refusal recognized in either wire format. A stored conversation grows
// without end; what is sent to the model must not.
//

#ifndef AGENTIO_LLM_CONTEXT_HPP
#define AGENTIO_LLM_CONTEXT_HPP

#include <agentio/config.hpp>
#include <agentio/llm/conversation.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace agentio::llm {

/// How much a model reads and writes in one call, in tokens.
struct context_window
{
    /// Everything one call holds: the request and the answer.
    std::uint64_t tokens = 0;
    /// Kept free for the answer (the request's `max_tokens`).
    std::uint64_t output_reserve = 0;

    /// What the request (system prompt, tools, messages) may take.
    constexpr std::uint64_t input_budget() const noexcept
    {
        return tokens > output_reserve ? tokens - output_reserve : 0;
    }
};

/** The context window of a known Anthropic or OpenAI model, found by the
    longest prefix of its id that the table knows ("claude-sonnet-4-5-2025…"
    is "claude-sonnet-4-5"); nothing for a model it does not know. */
AGENTIO_DECL std::optional<std::uint64_t> known_context_window(std::string_view model) noexcept;

/// The window assumed for a model nobody described (the smallest common one today).
inline constexpr std::uint64_t default_context_window = 128000;

/** The window to plan `model`'s requests with: `configured` (an
    application's `AGENT_CONTEXT_WINDOW`) when given, else the table's,
    else @ref default_context_window; `output_reserve` is the requests'
    `max_tokens`. */
AGENTIO_DECL context_window context_window_for(std::string_view model, unsigned max_tokens,
    std::optional<std::uint64_t> configured = {}) noexcept;

/** Estimates how many tokens a request takes before it is sent, and learns
    from the `usage` the answers report.

    The raw estimate counts about four bytes of text, JSON or base64 a
    token, plus each message's framing and a flat size per image; the
    provider's own count, given to `calibrate`, sets a correction factor
    (kept between 0.5 and 4) the first time, then moves it toward what the
    provider's tokenizer does with this application's text. Safe to share
    between threads.
*/
class token_estimator
{
public:
    /// The raw estimate of a text (about four bytes a token).
    static constexpr std::uint64_t raw_text_tokens(std::string_view text) noexcept { return (text.size() + 3) / 4; }
    /// The raw estimate of one message.
    AGENTIO_DECL static std::uint64_t raw_tokens(message const& m) noexcept;

    /// The raw estimate of a whole request: system prompt, tool definitions, messages.
    AGENTIO_DECL static std::uint64_t raw_tokens(request const& r) noexcept;

    /// A message's tokens, corrected.
    std::uint64_t tokens(message const& m) const noexcept { return corrected(raw_tokens(m)); }

    /// A request's tokens, corrected.
    std::uint64_t tokens(request const& r) const noexcept { return corrected(raw_tokens(r)); }

    /// A raw estimate, corrected by what the provider counted so far.
    AGENTIO_DECL std::uint64_t corrected(std::uint64_t raw) const noexcept;

    /** What the provider counted for a request whose raw estimate was
        `raw`: its input tokens, cached ones included. Ignored when either
        is zero. */
    AGENTIO_DECL void calibrate(std::uint64_t raw, usage const& reported) noexcept;

    /// The correction factor (1 until calibrated).
    double factor() const noexcept { return factor_.load(std::memory_order_relaxed); }

    /** Notes the window a provider named when it refused a request for its
        size: requests are not planned beyond it again (the smallest one
        named wins). */
    void learn_window(std::uint64_t tokens) noexcept
    {
        auto current = window_.load(std::memory_order_relaxed);
        while((current == 0 || tokens < current) &&
            !window_.compare_exchange_weak(current, tokens, std::memory_order_relaxed))
        {
        }
    }

    /// The window a provider named, if one did.
    std::optional<std::uint64_t> learned_window() const noexcept
    {
        auto const w = window_.load(std::memory_order_relaxed);
        return w == 0 ? std::nullopt : std::optional<std::uint64_t>(w);
    }

private:
    std::atomic<double> factor_{1.0};
    std::atomic<bool> calibrated_{false};
    std::atomic<std::uint64_t> window_{0};
};

/** Where to start the messages sent so that they fit `budget` tokens: the
    smallest index whose messages, from it to the end, fit. Only whole turns
    are left out (a turn begins at a user message that is not tool
    results), so a tool call never loses its result and the model never sees
    a conversation that starts with an answer; the latest turn always stays.

    @return the index, or nothing when the latest turn alone does not fit.
*/
AGENTIO_DECL std::optional<std::size_t> first_message_that_fits(std::span<message const> messages, std::uint64_t budget,
    token_estimator const& estimator);

/// Whether a message begins a turn: a user's message that is not only tool results.
AGENTIO_DECL bool begins_turn(message const& m) noexcept;

/// Where the latest turn of `messages` begins (0 when none does).
AGENTIO_DECL std::size_t latest_turn_begin(std::span<message const> messages) noexcept;

/** Where `r`'s messages must begin for `r` to fit `window` tokens: the room
    left by its system prompt, its tools and its answer's `max_tokens`,
    scaled by `room` (the estimate's margin). 0 when all of them fit;
    nothing when even the latest turn alone does not. */
AGENTIO_DECL std::optional<std::size_t> first_message_to_send(request const& r, std::uint64_t window,
    token_estimator const& estimator, double room = 0.95);

/** The size of `r` with only its latest turn, its answer's `max_tokens`
    included: what an error names when that does not fit. */
AGENTIO_DECL std::uint64_t latest_turn_tokens(request const& r, token_estimator const& estimator);

/// What to do with the older turns of a conversation that outgrows the window.
enum class context_policy
{
    /// Leave them out of the request (the conversation keeps them).
    trim,
    /// Have the model summarize them; the summary stands for them from then on.
    compact
};

/// "trim" or "compact".
AGENTIO_DECL std::string_view to_string(context_policy p) noexcept;

/// The policy a word names ("trim", "compact"), or nothing.
AGENTIO_DECL std::optional<context_policy> parse_context_policy(std::string_view word) noexcept;

/** A summary that stands for the first messages of a conversation (a
    compaction): the model reads it in their place. */
struct conversation_summary
{
    std::string text = {};
    /** How many of the conversation's first messages it stands for; 0: it
        stands for what came before the conversation's first message (a
        conversation given from after the summary). */
    std::size_t covers = 0;
};

/** A conversation as text for a model to summarize: one paragraph a block,
    each headed by who wrote it (`[user]`, `[assistant]`, `[tool call name]`,
    `[tool result]`), a block's text cut to `max_block_bytes` on a character
    boundary. */
AGENTIO_DECL std::string transcript(std::span<message const> messages, std::size_t max_block_bytes = 4000);

/// The system prompt with a summary after it, under `heading`; the prompt alone when there is no summary.
AGENTIO_DECL std::string system_with_summary(std::string_view system, std::string_view heading,
    std::string_view summary);

/// What a provider said when it refused a request for its size.
struct context_overflow
{
    /// The request's tokens, when the provider said.
    std::optional<std::uint64_t> tokens = {};
    /// The window, when the provider said.
    std::optional<std::uint64_t> limit = {};
};

/** The provider refused the request because it does not fit the model's
    window: Anthropic's `invalid_request_error` "prompt is too long: N
    tokens > M maximum" and OpenAI's `context_length_exceeded` ("maximum
    context length is M tokens. However, your messages resulted in N
    tokens"), with the sizes when the message gives them. Nothing for any
    other error. */
AGENTIO_DECL std::optional<context_overflow> as_context_overflow(error const& e);

} // namespace agentio::llm

#ifdef AGENTIO_HEADER_ONLY
#include <agentio/llm/impl/context.ipp>
#endif

#endif
