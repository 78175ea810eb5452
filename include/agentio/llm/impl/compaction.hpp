//
// agentio/llm/impl/compaction.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_LLM_IMPL_COMPACTION_HPP
#define AGENTIO_LLM_IMPL_COMPACTION_HPP

#include <agentio/detail/utf8.hpp>

#include <algorithm>
#include <utility>

namespace agentio::llm {

namespace detail {

inline constexpr agentio::messages english_compaction_texts{};

// Leading and trailing whitespace off a model's answer.
inline std::string trimmed(std::string text)
{
    auto const is_space = [](char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; };
    while(!text.empty() && is_space(text.back()))
        text.pop_back();
    std::size_t lead = 0;
    while(lead < text.size() && is_space(text[lead]))
        ++lead;
    text.erase(0, lead);
    return text;
}

} // namespace detail

template<provider P>
asio::awaitable<boost::system::result<written_summary, error>> summarize_conversation(P& provider,
    std::string_view model, std::span<message const> messages, std::string_view previous, std::uint64_t input_budget,
    unsigned max_tokens, token_estimator& estimator, agentio::messages const& texts)
{
    written_summary out;
    out.text = std::string(previous);
    std::size_t next = 0;
    while(next < messages.size())
    {
        // The message: the request, the summary so far, then as much of the conversation as the budget holds.
        std::string body(texts.compaction_request);
        if(!out.text.empty())
            body.append("\n\n").append(texts.compaction_previous).append("\n").append(out.text);
        body.append("\n\n<conversation>\n");
        std::string_view constexpr close = "</conversation>";
        auto const fixed = estimator.corrected(token_estimator::raw_text_tokens(texts.compaction_instructions) +
            token_estimator::raw_text_tokens(body) + token_estimator::raw_text_tokens(close) + 16);
        if(fixed >= input_budget)
            co_return error{error::kind::protocol, 0, {}, "the conversation's summary leaves no room to extend it"};
        auto const room = input_budget - fixed;
        std::size_t const began = body.size();
        while(next < messages.size())
        {
            auto piece = transcript(messages.subspan(next, 1));
            if(estimator.corrected((body.size() - began + piece.size() + 3) / 4) > room)
            {
                if(body.size() == began)
                {
                    // One message larger than a whole call: what fits of it.
                    auto const bytes = static_cast<std::size_t>(static_cast<double>(room) * 4 /
                        std::max(estimator.factor(), 0.5) * 0.95);
                    piece.resize(agentio::detail::utf8_floor(piece, std::min(bytes, piece.size())));
                    body.append(piece).append("\n");
                    ++next;
                }
                break;
            }
            body.append(piece);
            ++next;
        }
        body.append(close);
        message const asked = message::user(std::move(body));
        request r{.model = model,
            .system = texts.compaction_instructions,
            .messages = std::span<message const>(&asked, 1),
            .tools = {},
            .choice = {},
            .max_tokens = max_tokens,
            .temperature = {},
            .thinking_budget = {},
            .stop = {}};
        auto const estimated = token_estimator::raw_tokens(r);
        auto answered = co_await complete(provider, r);
        if(!answered)
        {
            if(auto const overflow = as_context_overflow(answered.error()); overflow && overflow->limit)
                estimator.learn_window(*overflow->limit);
            co_return std::move(answered.error());
        }
        estimator.calibrate(estimated, answered->tokens);
        ++out.calls;
        out.tokens += answered->tokens;
        auto text = detail::trimmed(answered->assistant.text());
        if(text.empty())
            co_return error{error::kind::protocol, 0, {}, "the model wrote no summary"};
        out.text = std::move(text);
    }
    co_return out;
}

namespace detail {

// Near the window's edge, the provider's own count decides: it calibrates the
// estimate, and a request it finds too large leaves out more whole turns.
inline asio::awaitable<void> check_with_count(fitted_context& out, request const& base,
    std::span<message const> conversation, context_plan const& plan, token_estimator& estimator)
{
    if(!plan.count_tokens || plan.window == 0)
        co_return;
    request r = base;
    out.apply(r, conversation);
    auto const raw = token_estimator::raw_tokens(r);
    auto const usable = plan.window > base.max_tokens ? plan.window - base.max_tokens : 0;
    if(estimator.corrected(raw) * 10 < usable * 8)
        co_return; // far from the edge: the estimate is enough
    auto counted = co_await plan.count_tokens(r);
    if(!counted)
        co_return; // the estimate stands
    ++out.token_counts;
    estimator.calibrate(raw, usage{*counted, 0, 0, 0});
    if(*counted <= usable)
        co_return;
    auto const protect = plan.keep_from ? std::min(*plan.keep_from, conversation.size())
                                        : latest_turn_begin(conversation);
    if(auto const more = first_message_to_send(r, plan.window, estimator, plan.room);
        more && *more > 0 && out.first + *more <= protect)
        out.first += *more;
}

} // namespace detail

template<provider P>
asio::awaitable<boost::system::result<fitted_context, context_too_big>> fit_context(P& provider, request const& base,
    std::span<message const> conversation, conversation_summary const* summary, context_plan const& plan,
    token_estimator& estimator)
{
    auto const& texts = plan.texts ? *plan.texts : detail::english_compaction_texts;
    fitted_context out;
    // A summary never stands for the latest turn: the question is always sent as asked.
    std::size_t const protect = plan.keep_from ? std::min(*plan.keep_from, conversation.size())
                                               : latest_turn_begin(conversation);
    std::size_t const covered = summary ? std::min(summary->covers, protect) : 0;
    std::string_view const summary_text = summary ? std::string_view(summary->text) : std::string_view();
    out.system = system_with_summary(base.system, texts.compaction_heading, summary_text);
    out.first = covered;
    if(plan.window == 0)
        co_return out;
    auto const tail = conversation.subspan(covered);
    request r = base;
    r.system = out.system;
    r.messages = tail;
    auto first = first_message_to_send(r, plan.window, estimator, plan.room);
    if(first && covered + *first > protect)
        first.reset(); // only what follows the latest turn's start would fit
    if(!first)
    {
        request latest = r;
        latest.messages = conversation.subspan(protect);
        co_return context_too_big{estimator.tokens(latest) + base.max_tokens, plan.window};
    }
    if(*first == 0)
    {
        co_await detail::check_with_count(out, base, conversation, plan, estimator);
        co_return out;
    }
    out.first = covered + *first; // trimmed: what is sent unless a summary is made
    if(plan.policy == context_policy::trim)
    {
        co_await detail::check_with_count(out, base, conversation, plan, estimator);
        co_return out;
    }

    // Summarize enough that what is kept takes about half the room: the next
    // turns fit without another summary for a while.
    request bare = base;
    bare.messages = {};
    auto const usable = plan.window > base.max_tokens ? plan.window - base.max_tokens : 0;
    auto const budget = static_cast<std::uint64_t>(static_cast<double>(usable) * plan.room);
    auto const fixed = estimator.tokens(bare) + plan.summary_max_tokens;
    auto const half = budget > fixed ? (budget - fixed) / 2 : 0;
    auto const kept = first_message_that_fits(tail, half, estimator);
    std::size_t const cut = std::min(std::max(kept ? *kept : protect - covered, *first), protect - covered);
    auto const summary_window = plan.window > plan.summary_max_tokens ? plan.window - plan.summary_max_tokens : 0;
    auto written = co_await summarize_conversation(provider, base.model, tail.first(cut), summary_text,
        static_cast<std::uint64_t>(static_cast<double>(summary_window) * plan.room), plan.summary_max_tokens, estimator,
        texts);
    if(!written)
    {
        out.summary_failure = std::move(written.error());
        co_await detail::check_with_count(out, base, conversation, plan, estimator);
        co_return out;
    }
    out.summary_calls = written->calls;
    out.summary_usage = written->tokens;
    auto system = system_with_summary(base.system, texts.compaction_heading, written->text);
    r.system = system;
    r.messages = tail.subspan(cut);
    auto const after = first_message_to_send(r, plan.window, estimator, plan.room);
    if(!after || covered + cut + *after > protect)
    {
        out.summary_failure = error{error::kind::protocol, 0, {}, "the summary leaves no room for the latest turn"};
        co_await detail::check_with_count(out, base, conversation, plan, estimator);
        co_return out;
    }
    out.system = std::move(system);
    out.first = covered + cut + *after;
    out.compacted = conversation_summary{std::move(written->text), covered + cut};
    co_await detail::check_with_count(out, base, conversation, plan, estimator);
    co_return out;
}

} // namespace agentio::llm

#endif
