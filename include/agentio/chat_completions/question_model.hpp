//
// agentio/chat_completions/question_model.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// A model that answers one question at a time: an application whose agent
// takes a question (a pipeline, a retrieval service with its own threads)
// rather than a conversation. The question is the last message, a user's
// with text; the conversation before it stays in the request for whoever
// wants it. The client's tools are refused: such an agent cannot hand a
// call back to the client.
//

#ifndef AGENTIO_CHAT_COMPLETIONS_QUESTION_MODEL_HPP
#define AGENTIO_CHAT_COMPLETIONS_QUESTION_MODEL_HPP

#include <agentio/chat_completions/model.hpp>

#include <boost/asio/awaitable.hpp>

#include <optional>
#include <string>

namespace agentio::chat_completions {

/** The refusals of a @ref question_model, in the application's language
    (`{model}` is the model's id). Both are 400s naming the field. */
struct question_texts
{
    /// `messages`: the last message is not a user's, or has no text.
    std::string no_question = "The last message must be the user's question, with text.";
    /// `tools`: the request offers the client's tools.
    std::string no_client_tools = "The model '{model}' does not call the client's tools.";
    /// `decisions`: the request answers approvals, which this model never asks for.
    std::string no_decisions = "The model '{model}' never waits for approvals: there is nothing to decide.";
};

/** The question a request asks: the text of its last message when that is a
    user's and holds more than blanks; nothing otherwise. */
std::optional<std::string> last_question(request const& r);

/** A model that answers the last user message.

    `complete` checks the request (@ref question_texts), then calls
    `answer(question, r, ctx, sink)`, which writes the outputs as any
    model does and ends with one `finished` or `failed`.
*/
class question_model : public model
{
public:
    explicit question_model(model_card card, question_texts texts = {});

    model_card const& card() const noexcept final { return card_; }

    asio::awaitable<void> complete(request r, call_context const& ctx, output_sink sink) final;

protected:
    /// Answers `question`, the last user message of `r`.
    virtual asio::awaitable<void> answer(std::string question, request r, call_context const& ctx,
        output_sink sink) = 0;

private:
    model_card card_;
    question_texts texts_;
};

} // namespace agentio::chat_completions

#ifdef AGENTIO_HEADER_ONLY
#include <agentio/chat_completions/impl/question_model.ipp>
#endif

#endif
