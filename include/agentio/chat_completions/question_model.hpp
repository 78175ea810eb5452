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
// call back to the client. Such an agent may stop for a person's approval
// of one of its own calls (`awaiting_approval`); the request that carries
// the decisions then goes to `resume`, with the question and the turn.
//

#ifndef AGENTIO_CHAT_COMPLETIONS_QUESTION_MODEL_HPP
#define AGENTIO_CHAT_COMPLETIONS_QUESTION_MODEL_HPP

#include <agentio/chat_completions/model.hpp>

#include <boost/asio/awaitable.hpp>

#include <optional>
#include <string>
#include <vector>

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
    /// `messages`: decisions, but the last message is not the model's turn with its calls.
    std::string no_paused_turn = "The decisions answer the model's calls: the last message must be its turn with them.";
    /// `decisions[i].tool_call_id`: a decision on no call of that turn (`{id}`).
    std::string unknown_call = "The decision on '{id}' answers no call of the last turn.";
};

/** An answer that stopped for approvals, resumed by a request with the
    decisions: checked, each decision on a call of `turn`. */
struct paused_answer
{
    /// The question the turn answers: the last user message with text before it.
    std::string question = {};
    /// The model's turn with its calls (the request's last message, as the model wrote it).
    llm::message turn = {llm::role::assistant, {}};
    /// The person's decisions (`request::decisions`).
    std::vector<approval> decisions = {};
};

/** The question a request asks: the text of its last message when that is a
    user's and holds more than blanks; nothing otherwise. */
std::optional<std::string> last_question(request const& r);

/** A model that answers the last user message.

    `complete` checks the request (@ref question_texts), then calls
    `answer(question, r, ctx, sink)`, which writes the outputs as any
    model does and ends with one `finished`, `failed` or, for a model that
    `pauses_for_approval`, `awaiting_approval`. A request with decisions
    goes to `resume` instead, for such a model only.
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

    /** Whether an answer may stop for a person's approval of one of the
        agent's calls: then requests with decisions go to `resume`; else
        they are refused (`question_texts::no_decisions`). */
    virtual bool pauses_for_approval() const noexcept { return false; }

    /** Goes on with an answer that stopped with `awaiting_approval`: the
        request's last message is the turn, and its decisions are on calls of
        that turn (whether each call that needed one has one is the agent's
        to say). The default refuses. */
    virtual asio::awaitable<void> resume(paused_answer paused, request r, call_context const& ctx, output_sink sink);

private:
    model_card card_;
    question_texts texts_;
};

} // namespace agentio::chat_completions

#ifdef AGENTIO_HEADER_ONLY
#include <agentio/chat_completions/impl/question_model.ipp>
#endif

#endif
