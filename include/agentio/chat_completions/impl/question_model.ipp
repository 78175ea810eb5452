//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_CHAT_COMPLETIONS_IMPL_QUESTION_MODEL_IPP
#define AGENTIO_CHAT_COMPLETIONS_IMPL_QUESTION_MODEL_IPP

#include <agentio/chat_completions/question_model.hpp>
#include <agentio/messages.hpp>

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

AGENTIO_DECL question_model::question_model(model_card card, question_texts texts)
    : card_(std::move(card))
    , texts_(std::move(texts))
{
}

AGENTIO_DECL asio::awaitable<void> question_model::complete(request r, call_context const& ctx, output_sink sink)
{
    if(!r.decisions.empty())
    {
        sink(failed{
            invalid_request(format_message(texts_.no_decisions, {{"model", card_.id}}), "decisions", "invalid_value")});
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
