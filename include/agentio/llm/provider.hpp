//
// agentio/llm/provider.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// What the orchestrator is generic over: a provider opens a streamed model
// call and decodes it as it arrives. The HTTP providers are in
// http_provider.hpp (anthropic.hpp, openai.hpp); a test or another transport
// can be one too, without the HTTP stack.
//
//   auto opened = co_await provider.open(request);   // result<stream, error>
//   while(!stream.done())
//       co_await stream.read(events);                 // text as it arrives
//   auto response = stream.finish(failure);           // the whole answer
//

#ifndef AGENTIO_LLM_PROVIDER_HPP
#define AGENTIO_LLM_PROVIDER_HPP

#include <agentio/llm/conversation.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/assert/source_location.hpp>
#include <boost/system/result.hpp>

#include <concepts>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <variant>
#include <vector>

namespace agentio::llm {

namespace asio = boost::asio;

/// `result<T, llm::error>::value()` throws this on an error.
[[noreturn]] inline void throw_exception_from_error(error const& e, boost::source_location const&)
{
    throw std::runtime_error(e.message);
}

/** What the orchestrator needs of a provider; @ref http_provider is one. */
// clang-format off
template<class P>
concept provider = requires(P& p, request const& r, std::vector<stream_event>& events, error& failure) {
    typename P::stream_type;
    { p.open(r) } -> std::same_as<asio::awaitable<boost::system::result<typename P::stream_type, error>>>;
    { p.backoff(0u) } -> std::same_as<asio::awaitable<void>>;
    requires requires(typename P::stream_type& s) {
        { s.read(events) } -> std::same_as<asio::awaitable<std::optional<error>>>;
        { s.done() } -> std::convertible_to<bool>;
        { s.produced_output() } -> std::convertible_to<bool>;
        { s.finish(failure) } -> std::same_as<std::optional<response>>;
    };
};
// clang-format on

/** A provider that counts a request's input tokens with the model's own
    tokenizer, without calling the model (Anthropic's `count_tokens`). */
template<class P>
concept token_counter = requires(P& p, request const& r)
{
    {
        p.count_tokens(r)
        } -> std::same_as<asio::awaitable<boost::system::result<std::uint64_t, error>>>;
};

/** One model call read to its end: the whole response, or why it failed.

    What a fixed pipeline needs where the orchestrator's loop is not wanted
    (a SQL step, a summary): `provider.open`, every event read, `finish`.
    `on_text`, if set, gets the text as it arrives (to stream it on).

    @note `r` holds views: what it refers to (model, system, messages) must
    outlive the call.
*/
template<provider P>
asio::awaitable<boost::system::result<response, error>> complete(P& provider, request r,
    std::function<void(std::string_view)> on_text = {})
{
    auto opened = co_await provider.open(r);
    if(!opened)
        co_return opened.error();
    auto& stream = *opened;
    std::vector<stream_event> events;
    while(!stream.done())
    {
        events.clear();
        auto failed = co_await stream.read(events);
        if(failed)
            co_return std::move(*failed);
        if(on_text)
            for(auto const& e : events)
                if(auto const* t = std::get_if<text_delta>(&e))
                    on_text(t->text);
    }
    error failure;
    auto finished = stream.finish(failure);
    if(!finished)
        co_return failure;
    co_return std::move(*finished);
}

} // namespace agentio::llm

#endif
