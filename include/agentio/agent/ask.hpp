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
#include <optional>
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

/** What @ref ask of a type returns: the @ref answer (its `text` is the JSON
    the model wrote) and the value, set exactly when `ok()`. */
template<class T>
struct typed_answer : answer
{
    std::optional<T> value = {};
};

namespace detail {

template<tool... Tools, llm::provider Provider>
auto ask_orchestrator(Provider& provider, ask_options const& options)
{
    agent::options o;
    o.model = options.model;
    o.system = options.system;
    o.max_tokens = options.max_tokens;
    o.limits.max_rounds = options.max_rounds;
    o.texts = options.texts;
    return orchestrator(provider, toolset<Tools...>{}, std::move(o));
}

// Gathers the answer's text and passes each event on.
struct ask_sink
{
    answer* out;
    ask_options const* options;

    void operator()(event const& e) const
    {
        if(auto const* t = std::get_if<text_delta>(&e))
            out->text += t->text;
        else if(std::holds_alternative<round_end>(e))
            out->text.clear(); // what came before a tool call was the model thinking aloud
        if(options->on_event)
            options->on_event(e);
    }
};

// The blocking form: the provider the environment names, and the question's
// coroutine (`ask(provider)`) run to completion on an io_context of its own.
template<class Ask>
auto ask_environment(ask_options& options, Ask ask)
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
    return run_to_completion(ioc, ask(provider));
}

} // namespace detail

/** Asks `provider` one question with the tools `Tools...`, as a coroutine.

    @code
    auto a = co_await agent::async_ask<get_weather>(provider, "¿Qué tiempo hace en Sevilla?");
    @endcode
*/
template<tool... Tools, llm::provider Provider>
asio::awaitable<answer> async_ask(Provider& provider, std::string question, ask_options options)
{
    auto const run = detail::ask_orchestrator<Tools...>(provider, options);
    std::vector<llm::message> conversation{llm::message::user(std::move(question))};
    answer out;
    detail::ask_sink const sink{&out, &options};
    out.result = co_await run.run(conversation, sink);
    co_return out;
}

/** Asks `provider` one question whose answer is a `T`, with the tools
    `Tools...`, as a coroutine: the model answers in JSON that follows `T`'s
    schema, validated and converted (see `orchestrator::run<T>`).

    @code
    struct verdict { bool is_spam; std::string reason; };
    // BOOST_DESCRIBE_STRUCT and field_traits<verdict> as for a tool's arguments
    auto a = co_await agent::async_ask<verdict>(provider, "Is this e-mail spam? ...");
    if(a.value && a.value->is_spam) ...
    @endcode
*/
template<class T, tool... Tools, llm::provider Provider>
requires(!tool<T>) asio::awaitable<typed_answer<T>> async_ask(Provider& provider, std::string question,
    ask_options options)
{
    auto const run = detail::ask_orchestrator<Tools...>(provider, options);
    std::vector<llm::message> conversation{llm::message::user(std::move(question))};
    typed_answer<T> out;
    detail::ask_sink const sink{&out, &options};
    auto typed = co_await run.template run<T>(conversation, sink);
    out.text = typed.answer; // the accepted answer, not the rejected ones before it
    out.value = std::move(typed.value);
    out.result = std::move(typed);
    co_return out;
}

/// `async_ask` with the default @ref ask_options. Not a default argument:
/// GCC 12 destroys a coroutine's defaulted class-type argument twice.
template<tool... Tools, llm::provider Provider>
asio::awaitable<answer> async_ask(Provider& provider, std::string question)
{
    return async_ask<Tools...>(provider, std::move(question), ask_options{});
}

/// The typed `async_ask` with the default @ref ask_options.
template<class T, tool... Tools, llm::provider Provider>
requires(!tool<T>) asio::awaitable<typed_answer<T>> async_ask(Provider& provider, std::string question)
{
    return async_ask<T, Tools...>(provider, std::move(question), ask_options{});
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
    return detail::ask_environment(options,
        [&](auto& provider) { return async_ask<Tools...>(provider, std::move(question), std::move(options)); });
}

/** Asks one question whose answer is a `T`, with the tools `Tools...`, of the
    model the environment names, and waits for the answer (see the other
    @ref ask for the variables, and `orchestrator::run<T>` for the answer).

    @code
    auto a = agentio::agent::ask<city_weather>("¿Qué tiempo hace en Sevilla? En grados y una palabra.");
    if(a.value)
        std::cout << a.value->celsius << '\n';
    @endcode
*/
template<class T, tool... Tools>
requires(!tool<T>) typed_answer<T> ask(std::string question, ask_options options = {})
{
    return detail::ask_environment(options,
        [&](auto& provider) { return async_ask<T, Tools...>(provider, std::move(question), std::move(options)); });
}

} // namespace agentio::agent

#endif
