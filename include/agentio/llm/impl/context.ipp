//
// agentio/llm/impl/context.ipp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_LLM_IMPL_CONTEXT_IPP
#define AGENTIO_LLM_IMPL_CONTEXT_IPP

#include <agentio/llm/context.hpp>
#include <agentio/detail/utf8.hpp>

#include <boost/json/serialize.hpp>

#include <algorithm>
#include <charconv>
#include <utility>

namespace agentio::llm {

namespace detail {

// Published context windows (tokens), by model id prefix; the longest prefix wins.
struct known_window
{
    std::string_view prefix;
    std::uint64_t tokens;
};

inline constexpr known_window known_windows[] = {
    {"claude-", 200000},      // every Claude 3, 3.5, 3.7, 4 and 4.5 model
    {"gpt-5", 400000},        // gpt-5, -mini, -nano
    {"gpt-4.1", 1047576},     // gpt-4.1, -mini, -nano
    {"gpt-4o", 128000},       // gpt-4o, gpt-4o-mini
    {"gpt-4-turbo", 128000},  //
    {"gpt-4", 8192},          // the original gpt-4
    {"gpt-3.5-turbo", 16385}, //
    {"o1-mini", 128000},      //
    {"o1", 200000},           //
    {"o3", 200000},           // o3, o3-mini
    {"o4-mini", 200000},      //
};

// Bytes of text, JSON or base64 per token: what the common tokenizers give
// for English and Spanish prose (the calibration corrects the rest).
inline constexpr std::uint64_t bytes_per_token = 4;
// A message's role and separators; a block's framing.
inline constexpr std::uint64_t message_overhead = 4;
inline constexpr std::uint64_t block_overhead = 2;
// An image of unknown size: about what a 1 000 × 1 000 picture costs.
inline constexpr std::uint64_t image_tokens = 1600;

inline std::uint64_t text_tokens(std::size_t bytes) noexcept
{
    return (bytes + bytes_per_token - 1) / bytes_per_token;
}

inline std::uint64_t json_tokens(json::value const& v)
{
    return text_tokens(json::serialize(v).size());
}

struct block_tokens
{
    std::uint64_t operator()(text_block const& b) const noexcept { return text_tokens(b.text.size()); }
    std::uint64_t operator()(image_block const&) const noexcept { return image_tokens; }
    std::uint64_t operator()(thinking_block const& b) const noexcept
    {
        return text_tokens(b.thinking.size() + b.signature.size());
    }
    std::uint64_t operator()(tool_use_block const& b) const
    {
        auto const input = b.raw_input.empty() ? json_tokens(b.input) : text_tokens(b.raw_input.size());
        return text_tokens(b.id.size() + b.name.size()) + input + block_overhead;
    }
    std::uint64_t operator()(tool_result_block const& b) const
    {
        std::uint64_t n = text_tokens(b.tool_use_id.size()) + block_overhead;
        for(auto const& part : b.content)
            n += std::visit([this](auto const& p) { return (*this)(p); }, part);
        return n;
    }
    std::uint64_t operator()(opaque_block const& b) const { return json_tokens(b.value); }
};

// The first unsigned number in `s` after `from`, if any.
inline std::optional<std::uint64_t> number_after(std::string_view s, std::size_t from)
{
    auto const start = s.find_first_of("0123456789", from);
    if(start == std::string_view::npos)
        return std::nullopt;
    std::uint64_t n = 0;
    auto const [end, ec] = std::from_chars(s.data() + start, s.data() + s.size(), n);
    (void)end;
    if(ec != std::errc())
        return std::nullopt;
    return n;
}

} // namespace detail

AGENTIO_DECL std::optional<std::uint64_t> known_context_window(std::string_view model) noexcept
{
    std::optional<std::uint64_t> found;
    std::size_t longest = 0;
    for(auto const& w : detail::known_windows)
        if(model.starts_with(w.prefix) && w.prefix.size() > longest)
        {
            found = w.tokens;
            longest = w.prefix.size();
        }
    return found;
}

AGENTIO_DECL context_window context_window_for(std::string_view model, unsigned max_tokens,
    std::optional<std::uint64_t> configured) noexcept
{
    context_window w;
    w.tokens = configured ? *configured : known_context_window(model).value_or(default_context_window);
    w.output_reserve = max_tokens;
    return w;
}

AGENTIO_DECL std::uint64_t token_estimator::raw_tokens(message const& m) noexcept
{
    std::uint64_t n = detail::message_overhead;
    try
    {
        for(auto const& b : m.content)
            n += std::visit(detail::block_tokens{}, b) + detail::block_overhead;
    }
    catch(...)
    {
        // Serializing a block's JSON ran out of memory: count what was counted.
    }
    return n;
}

AGENTIO_DECL std::uint64_t token_estimator::raw_tokens(request const& r) noexcept
{
    std::uint64_t n = detail::text_tokens(r.system.size()) + detail::message_overhead;
    for(auto const& t : r.tools)
        n += detail::text_tokens(t.name.size() + t.description.size() + t.input_schema_text.size()) +
            detail::message_overhead;
    for(auto const& m : r.messages)
        n += raw_tokens(m);
    return n;
}

AGENTIO_DECL std::uint64_t token_estimator::corrected(std::uint64_t raw) const noexcept
{
    double const exact = static_cast<double>(raw) * factor();
    return static_cast<std::uint64_t>(exact + 0.999);
}

AGENTIO_DECL void token_estimator::calibrate(std::uint64_t raw, usage const& reported) noexcept
{
    auto const counted = reported.input_tokens + reported.cache_creation_input_tokens +
        reported.cache_read_input_tokens;
    if(raw == 0 || counted == 0)
        return;
    double const observed = std::clamp(static_cast<double>(counted) / static_cast<double>(raw), 0.5, 4.0);
    if(!calibrated_.exchange(true, std::memory_order_relaxed))
    {
        factor_.store(observed, std::memory_order_relaxed); // the first count replaces the guess
        return;
    }
    // Then a moving average: one odd request does not swing it, a new kind of text moves it within a few.
    double current = factor_.load(std::memory_order_relaxed);
    while(!factor_.compare_exchange_weak(current, current * 0.6 + observed * 0.4, std::memory_order_relaxed))
    {
    }
}

AGENTIO_DECL bool begins_turn(message const& m) noexcept
{
    return m.role == role::user && std::any_of(m.content.begin(), m.content.end(), [](content_block const& b) {
        return !std::holds_alternative<tool_result_block>(b);
    });
}

AGENTIO_DECL std::optional<std::size_t> first_message_that_fits(std::span<message const> messages, std::uint64_t budget,
    token_estimator const& estimator)
{
    // From the end: the size of messages[i..], and the earliest turn start whose suffix still fits.
    std::uint64_t size = 0;
    std::optional<std::size_t> first;
    for(std::size_t i = messages.size(); i-- > 0;)
    {
        size += estimator.tokens(messages[i]);
        if(size > budget)
            return first;
        if(begins_turn(messages[i]))
            first = i;
    }
    return std::size_t{0}; // all of it fits
}

AGENTIO_DECL std::size_t latest_turn_begin(std::span<message const> messages) noexcept
{
    for(std::size_t i = messages.size(); i-- > 0;)
        if(begins_turn(messages[i]))
            return i;
    return 0;
}

AGENTIO_DECL std::optional<std::size_t> first_message_to_send(request const& r, std::uint64_t window,
    token_estimator const& estimator, double room)
{
    request fixed = r;
    fixed.messages = {};
    auto const fixed_tokens = estimator.tokens(fixed);
    auto const usable = window > r.max_tokens ? window - r.max_tokens : 0;
    auto const budget = static_cast<std::uint64_t>(static_cast<double>(usable) * room);
    if(fixed_tokens >= budget)
        return std::nullopt;
    return first_message_that_fits(r.messages, budget - fixed_tokens, estimator);
}

AGENTIO_DECL std::uint64_t latest_turn_tokens(request const& r, token_estimator const& estimator)
{
    request latest = r;
    latest.messages = r.messages.subspan(latest_turn_begin(r.messages));
    return estimator.tokens(latest) + r.max_tokens;
}

AGENTIO_DECL std::string_view to_string(context_policy p) noexcept
{
    return p == context_policy::trim ? "trim" : "compact";
}

AGENTIO_DECL std::optional<context_policy> parse_context_policy(std::string_view word) noexcept
{
    if(word == "trim")
        return context_policy::trim;
    if(word == "compact")
        return context_policy::compact;
    return std::nullopt;
}

namespace detail {

inline void append_clipped(std::string& out, std::string_view text, std::size_t max_bytes)
{
    if(text.size() <= max_bytes)
    {
        out.append(text);
        return;
    }
    out.append(text.substr(0, agentio::detail::utf8_floor(text, max_bytes)));
    out.append(" [...]");
}

} // namespace detail

AGENTIO_DECL std::string transcript(std::span<message const> messages, std::size_t max_block_bytes)
{
    std::string out;
    for(auto const& m : messages)
        for(auto const& b : m.content)
        {
            if(auto const* t = std::get_if<text_block>(&b))
            {
                if(t->text.empty())
                    continue;
                out.append(m.role == role::user ? "[user]\n" : "[assistant]\n");
                detail::append_clipped(out, t->text, max_block_bytes);
            }
            else if(auto const* use = std::get_if<tool_use_block>(&b))
            {
                out.append("[tool call ").append(use->name).append("]\n");
                detail::append_clipped(out, json::serialize(use->input), max_block_bytes);
            }
            else if(auto const* result = std::get_if<tool_result_block>(&b))
            {
                out.append(result->is_error ? "[tool error]\n" : "[tool result]\n");
                std::string text;
                for(auto const& part : result->content)
                    if(auto const* pt = std::get_if<text_block>(&part))
                        text.append(pt->text);
                    else
                        text.append("[image]");
                detail::append_clipped(out, text, max_block_bytes);
            }
            else if(std::holds_alternative<image_block>(b))
                out.append(m.role == role::user ? "[user]\n[image]" : "[assistant]\n[image]");
            else
                continue; // reasoning: the model's own, not part of what was said
            out.append("\n\n");
        }
    return out;
}

AGENTIO_DECL std::string system_with_summary(std::string_view system, std::string_view heading,
    std::string_view summary)
{
    std::string out(system);
    if(summary.empty())
        return out;
    if(!out.empty())
        out.append("\n\n");
    out.append(heading).append("\n").append(summary);
    return out;
}

AGENTIO_DECL std::optional<context_overflow> as_context_overflow(error const& e)
{
    if(e.what != error::kind::http_status && e.what != error::kind::stream_error)
        return std::nullopt;
    std::string_view const m = e.message;
    context_overflow out;
    // Anthropic: "prompt is too long: 208437 tokens > 200000 maximum", or with the answer's room, "input length
    // and `max_tokens` exceed context limit: 198000 + 8192 > 200000, decrease input length or `max_tokens`…".
    for(std::string_view const words :
        {std::string_view("prompt is too long"), std::string_view("exceed context limit")})
        if(auto const at = m.find(words); at != std::string_view::npos)
        {
            out.tokens = detail::number_after(m, at);
            if(auto const gt = m.find('>', at); gt != std::string_view::npos)
                out.limit = detail::number_after(m, gt);
            return out;
        }
    // OpenAI: code context_length_exceeded; "This model's maximum context length is 128000 tokens. However,
    // your messages resulted in 130532 tokens."
    bool const openai = e.type == "context_length_exceeded" ||
        m.find("maximum context length") != std::string_view::npos;
    if(!openai)
        return std::nullopt;
    if(auto const at = m.find("maximum context length"); at != std::string_view::npos)
        out.limit = detail::number_after(m, at);
    if(auto const at = m.find("resulted in"); at != std::string_view::npos)
        out.tokens = detail::number_after(m, at);
    else if(auto const asked = m.find("you requested"); asked != std::string_view::npos)
    {
        // "you requested 130000 tokens (120000 in the messages, 10000 in the completion)": the messages' part.
        auto const paren = m.find('(', asked);
        out.tokens = detail::number_after(m, paren == std::string_view::npos ? asked : paren);
    }
    return out;
}

} // namespace agentio::llm

#endif
