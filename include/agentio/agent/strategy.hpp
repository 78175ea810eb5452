//
// agentio/agent/strategy.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Which way to run an agent on a request: the native tool loop
// (orchestrator), ReAct (react.hpp), plan-and-execute (plan_execute.hpp), or
// plain chat (one model call without a tool menu: a greeting, thanks, a
// rewrite of the last answer).
// A cheap classification call to the model chooses, its reply read as one
// exact label; when it cannot (the provider fails, the reply is not a
// label), words of the request decide (the application's words, in its
// language).
//
//   auto chosen = co_await agent::classify(provider, question, {.model = "claude-haiku-4-5"});
//   auto s = chosen.value_or(agent::choose_by_keywords(question, rules));
//

#ifndef AGENTIO_AGENT_STRATEGY_HPP
#define AGENTIO_AGENT_STRATEGY_HPP

#include <agentio/config.hpp>
#include <agentio/llm/provider.hpp>
#include <agentio/messages.hpp>

#include <boost/asio/awaitable.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agentio::agent {

namespace asio = boost::asio;

/// A way to run an agent.
enum class strategy
{
    tools,        ///< the native tool loop (agent::orchestrator)
    react,        ///< Thought / Action / Observation as text (agent::react)
    plan_execute, ///< a plan, its steps, a verified answer (agent::plan_execute)
    chat          ///< one model call, no tools offered (greetings, thanks, rewriting an answer)
};

/// The label: "tools", "react", "plan_execute", "chat".
constexpr std::string_view to_string(strategy s) noexcept
{
    switch(s)
    {
    case strategy::tools: return "tools";
    case strategy::react: return "react";
    case strategy::plan_execute: return "plan_execute";
    case strategy::chat: return "chat";
    }
    return "tools";
}

/// The strategy a label names exactly, or nothing.
constexpr std::optional<strategy> parse_strategy(std::string_view label) noexcept
{
    for(auto s : {strategy::tools, strategy::react, strategy::plan_execute, strategy::chat})
        if(label == to_string(s))
            return s;
    return std::nullopt;
}

/** Words that suggest a strategy, in the application's language. A word or
    phrase matches whole words of the request, case and accents of ASCII and
    Latin-1 letters folded. */
struct keyword_rules
{
    /// Words of requests with several tasks or a plan ("then", "compare", "report").
    std::vector<std::string> plan_execute = {};
    /// Words of exploratory requests ("investigate", "find out why").
    std::vector<std::string> react = {};
    /// How many plan words, or separate clauses (joined by `clause_separators`),
    /// make a request a plan.
    unsigned plan_threshold = 2;
    /// Words that join clauses ("and", ","): each one counts towards a plan.
    std::vector<std::string> clause_separators = {};
    /** Words of a message that needs no tool ("hello", "thanks", "rewrite",
        "shorter"): a message made of them and at most `chat_other_words`
        other words is plain chat. */
    std::vector<std::string> chat = {};
    /// How many words besides `chat` words a plain-chat message may have ("thanks *for everything*").
    unsigned chat_other_words = 2;
    /// The strategy when nothing matches.
    strategy otherwise = strategy::tools;
};

/** The strategy the words of `request` suggest: plan-and-execute when plan
    words and clause separators reach `plan_threshold`, else ReAct when a
    ReAct word appears, else chat when the request is `chat` words and at
    most `chat_other_words` others ("hola", "¡muchas gracias!", but not
    "hola, ¿qué tiempo hace en Bilbao?"), else `otherwise`. */
AGENTIO_DECL strategy choose_by_keywords(std::string_view request, keyword_rules const& rules);

/// The label a classifier's reply gives exactly (trimmed, lower case, quotes
/// and a trailing period removed), or nothing: "react" is one, "I'd say react" is not.
AGENTIO_DECL std::optional<strategy> parse_label(std::string_view reply);

/// How @ref classify asks.
struct classifier_options
{
    /// The model asked (a cheap one will do).
    std::string model = {};
    /// The prompt (`messages::strategy_prompt`, with {request}).
    messages texts = {};
    /// The reply is a label: a few tokens.
    unsigned max_tokens = 8;
};

/** Asks the model which strategy suits `request`, in one short call.

    @return the strategy its reply names exactly, or nothing when the call
    fails or the reply is not exactly a label (the caller falls back, e.g.
    to @ref choose_by_keywords)
*/
template<llm::provider Provider>
asio::awaitable<std::optional<strategy>> classify(Provider& provider, std::string_view request,
    classifier_options const& options)
{
    std::string const prompt = format_message(options.texts.strategy_prompt, {{"request", request}});
    std::vector<llm::message> const conversation{llm::message::user(prompt)};
    llm::request const r{.model = options.model,
        .system = {},
        .messages = conversation,
        .tools = {},
        .choice = {},
        .max_tokens = options.max_tokens,
        .temperature = 0.0,
        .thinking_budget = {},
        .stop = {}};
    auto answered = co_await llm::complete(provider, r);
    if(!answered)
        co_return std::nullopt;
    co_return parse_label(answered->assistant.text());
}

} // namespace agentio::agent

#ifdef AGENTIO_HEADER_ONLY
#include <agentio/agent/impl/strategy.ipp>
#endif

#endif
