//
// agentio/agent/ask.hpp
// ~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// One question to an agent in one call: the short form of the orchestrator,
// for scripts, tests and a first program. Servers keep the orchestrator, its
// sink and a conversation of their own.
//

#ifndef AGENTIO_AGENT_ASK_HPP
#define AGENTIO_AGENT_ASK_HPP

#include <agentio/agent/orchestrator.hpp>
#include <agentio/llm/environment.hpp>
#include <agentio/run.hpp>
#include <agentio/tool/toolset.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>

#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentio::agent {

/// What @ref ask and @ref async_ask do besides the question.
struct ask_options
{
    /// The system prompt; empty: none.
    std::string system = {};
    /// The model; empty: `AGENT_MODEL`, else the provider's default (@ref llm::model_settings::effective_model).
    std::string model = {};
    /// Model calls at most (the tool loop's rounds).
    unsigned max_rounds = 10;
    unsigned max_tokens = 4096;
    /// The sentences the run writes (`agentio::spanish_messages`, say).
    messages texts = {};
    /// Sees each event as it happens (a tool's call, the text as it streams); empty: none.
    std::function<void(event const&)> on_event = {};
};

/// What @ref ask returns: the answer's text and how the run went.
struct answer
{
    /// The answer, whole; what streamed before the model's last tool call is not part of it.
    std::string text = {};
    /// Outcome, usage, rounds, each tool's timing; `error_message` when the run failed.
    run_result result = {};

    /// Whether the run completed (the text is the model's answer).
    bool ok() const noexcept { return result.status == run_result::outcome::completed; }
};

/** Asks `provider` one question with the tools `Tools...`, as a coroutine.

    @code
    auto a = co_await agent::async_ask<get_weather>(provider, "¿Qué tiempo hace en Sevilla?");
    @endcode
*/
template<tool... Tools, llm::provider Provider>
asio::awaitable<answer> async_ask(Provider& provider, std::string question, ask_options options = {})
{
    agent::options o;
    o.model = options.model;
    o.system = std::move(options.system);
    o.max_tokens = options.max_tokens;
    o.limits.max_rounds = options.max_rounds;
    o.texts = options.texts;
    orchestrator run(provider, toolset<Tools...>{}, std::move(o));
    std::vector<llm::message> conversation{llm::message::user(std::move(question))};
    answer out;
    auto sink = [&out, &options](event const& e) {
        if(auto const* t = std::get_if<text_delta>(&e))
            out.text += t->text;
        else if(std::holds_alternative<round_end>(e))
            out.text.clear(); // what came before a tool call was the model thinking aloud
        if(options.on_event)
            options.on_event(e);
    };
    out.result = co_await run.run(conversation, sink);
    co_return out;
}

/** Asks one question with the tools `Tools...` of the model the environment
    names, and waits for the answer: `AGENT_PROVIDER` (`anthropic` or
    `openai`), its key (`ANTHROPIC_API_KEY` or `OPENAI_API_KEY`), its base
    URL (`ANTHROPIC_BASE_URL`, `OPENAI_BASE_URL`) and `AGENT_MODEL`
    (@ref llm::model_settings).

    @code
    auto a = agentio::agent::ask<agentio::function_tool<"add", "Adds two numbers.", add>>("What is 2 + 40?");
    std::cout << a.text << '\n';
    @endcode

    @return The answer; a failed run is an answer too (`ok()` false, `result.error_message` says why).
    @throws std::invalid_argument naming the variable when one is malformed or a needed key is missing.
*/
template<tool... Tools>
answer ask(std::string question, ask_options options = {})
{
    auto settings = llm::model_settings::from_environment();
    if(!settings)
        throw std::invalid_argument(to_string(settings.error()));
    if(auto const missing = settings->missing_variable())
        throw std::invalid_argument(*missing + " is not set: the provider needs it");
    if(options.model.empty())
        options.model = settings->effective_model();
    asio::io_context ioc;
    http::client http(ioc.get_executor());
    auto provider = llm::make_provider(*settings, http);
    return run_to_completion(ioc, async_ask<Tools...>(provider, std::move(question), std::move(options)));
}

} // namespace agentio::agent

#endif
