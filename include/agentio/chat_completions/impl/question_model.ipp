//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_CHAT_COMPLETIONS_IMPL_QUESTION_MODEL_IPP
#define AGENTIO_CHAT_COMPLETIONS_IMPL_QUESTION_MODEL_IPP

#include <agentio/chat_completions/question_model.hpp>
#include <agentio/messages.hpp>

#include <algorithm>
#include <variant>

namespace agentio::chat_completions {

AGENTIO_DECL std::optional<std::string> last_question(request const& r)
{
    if(r.messages.empty() || r.messages.back().role != llm::role::user)
        return std::nullopt;
    auto text = r.messages.back().text();
    if(text.find_first_not_of(" \t\r\n") == std::string::npos)
        return std::nullopt;
    return text;
}

namespace detail {

// The question and the turn a request with decisions resumes, or the 400 naming what is wrong.
inline boost::system::result<paused_answer, api_error> paused_answer_of(request const& r, question_texts const& texts)
{
    auto const has_calls = [](llm::message const& m) {
        return std::any_of(m.content.begin(), m.content.end(),
            [](auto const& b) { return std::holds_alternative<llm::tool_use_block>(b); });
    };
    if(r.messages.empty() || r.messages.back().role != llm::role::assistant || !has_calls(r.messages.back()))
        return invalid_request(texts.no_paused_turn, "messages", "invalid_value");
    paused_answer out;
    out.turn = r.messages.back();
    for(std::size_t i = r.messages.size() - 1; i-- > 0;)
    {
        auto const& m = r.messages[i];
        if(m.role != llm::role::user)
            continue;
        auto text = m.text();
        if(text.find_first_not_of(" \t\r\n") == std::string::npos)
            continue; // a user message of tool results only
        out.question = std::move(text);
        break;
    }
    if(out.question.empty())
        return invalid_request(texts.no_question, "messages", "invalid_value");
    for(std::size_t i = 0; i < r.decisions.size(); ++i)
    {
        auto const& id = r.decisions[i].tool_call_id;
        bool const known = std::any_of(out.turn.content.begin(), out.turn.content.end(), [&](auto const& b) {
            auto const* call = std::get_if<llm::tool_use_block>(&b);
            return call && call->id == id;
        });
        if(!known)
            return invalid_request(format_message(texts.unknown_call, {{"id", id}}),
                "decisions[" + std::to_string(i) + "].tool_call_id", "invalid_value");
    }
    out.decisions = r.decisions;
    return out;
}

} // namespace detail

AGENTIO_DECL asio::awaitable<void> question_model::resume(paused_answer, request, call_context const&, output_sink sink)
{
    sink(failed{
        invalid_request(format_message(texts_.no_decisions, {{"model", card_.id}}), "decisions", "invalid_value")});
    co_return;
}

AGENTIO_DECL question_model::question_model(model_card card, question_texts texts)
    : card_(std::move(card))
    , texts_(std::move(texts))
{
}

AGENTIO_DECL asio::awaitable<void> question_model::complete(request r, call_context const& ctx, output_sink sink)
{
    if(!r.decisions.empty())
    {
        if(!pauses_for_approval())
        {
            sink(failed{invalid_request(format_message(texts_.no_decisions, {{"model", card_.id}}), "decisions",
                "invalid_value")});
            co_return;
        }
        auto paused = detail::paused_answer_of(r, texts_);
        if(!paused)
        {
            sink(failed{std::move(paused.error())});
            co_return;
        }
        if(!r.tools.empty())
        {
            sink(failed{invalid_request(format_message(texts_.no_client_tools, {{"model", card_.id}}), "tools",
                "invalid_value")});
            co_return;
        }
        co_await resume(std::move(*paused), std::move(r), ctx, std::move(sink));
        co_return;
    }
    auto question = last_question(r);
    if(!question)
    {
        sink(failed{invalid_request(texts_.no_question, "messages", "invalid_value")});
        co_return;
    }
    if(!r.tools.empty())
    {
        sink(failed{
            invalid_request(format_message(texts_.no_client_tools, {{"model", card_.id}}), "tools", "invalid_value")});
        co_return;
    }
    co_await answer(std::move(*question), std::move(r), ctx, std::move(sink));
}

} // namespace agentio::chat_completions

#endif
