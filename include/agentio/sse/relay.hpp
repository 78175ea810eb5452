//
// agentio/sse/relay.hpp
// ~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Work whose progress is an event stream: a producer coroutine puts events
// in a sink (from any thread, never waiting), and they go out as SSE in
// order. A client that leaves cancels the producer; the relay returns only
// once the producer has ended, so what the producer holds (the connection's
// objects) stays valid for it.
//
//   routes.post("/ask", [&](auto&& req, auto const&, http::any_stream& stream)
//       -> asio::awaitable<std::optional<beast::http::message_generator>> {
//       auto work = [&](sse::event_sink sink) { return agent.answer(question, std::move(sink)); };
//       co_await sse::relay(stream, req.version(), std::move(work));
//       co_return std::nullopt;
//   });
//

#ifndef AGENTIO_SSE_RELAY_HPP
#define AGENTIO_SSE_RELAY_HPP

#include <agentio/async_queue.hpp>
#include <agentio/sse/writer.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/this_coro.hpp>

#include <functional>
#include <memory>
#include <string>

namespace agentio::sse {

/// One event to send: its type and its data (JSON text, usually).
struct relayed_event
{
    std::string type = {};
    std::string data = {};
};

/// Where a producer puts its events; callable from any thread, never waits.
using event_sink = std::function<void(relayed_event const&)>;

namespace detail {

template<class Producer>
asio::awaitable<void> produce_then_close(Producer produce, event_sink sink,
    std::shared_ptr<async_queue<relayed_event>> events)
{
    co_await produce(std::move(sink));
    events->close();
}

} // namespace detail

/** Runs `produce(sink)` (returning `asio::awaitable<void>`) as its own
    coroutine on the caller's executor and sends each event it puts in the
    sink as SSE on `stream`, in order, until it returns.

    The response starts before the producer does (status 200,
    `text/event-stream`); a stream that cannot start is finished and the
    producer never runs. A client that leaves emits terminal cancellation on
    the producer; events after that are dropped. Returns after the producer
    has returned (or thrown: the exception is not rethrown here) and the
    stream is finished.

    @param stream the connection (see @ref basic_writer)
    @param http_version the request's, for the response
    @param produce called once with the sink
    @param headers fields added to the response's head (e.g. `X-Session-Id`)
*/
template<class AsyncStream, class Producer>
asio::awaitable<void> relay(AsyncStream& stream, unsigned http_version, Producer produce,
    beast::http::fields const& headers)
{
    auto const ex = co_await asio::this_coro::executor;
    basic_writer<AsyncStream> out(stream);
    for(auto const& field : headers)
        out.headers().set(field.name_string(), field.value());
    if(auto ec = co_await out.start(http_version))
    {
        co_await out.finish();
        co_return;
    }
    auto events = std::make_shared<async_queue<relayed_event>>(ex);
    // The signal belongs to the producer's completion, which may outlive this
    // frame's wait by nothing: the writer only relays the client's leaving to it.
    auto cancel = std::make_shared<asio::cancellation_signal>();
    out.disconnect_slot().assign([cancel](asio::cancellation_type t) { cancel->emit(t); });
    event_sink sink = [events](relayed_event const& e) { events->try_push(e); };
    asio::co_spawn(ex, detail::produce_then_close(std::move(produce), std::move(sink), events),
        asio::bind_cancellation_slot(cancel->slot(), [cancel, events](std::exception_ptr) { events->close(); }));
    bool client_gone = false;
    for(;;)
    {
        auto e = co_await events->pop();
        if(!e)
            break;
        if(client_gone)
            continue;
        auto const failed = co_await out.send(e->type, e->data);
        client_gone = static_cast<bool>(failed);
    }
    out.disconnect_slot().clear();
    co_await out.finish();
}

/// As above, the response's head without fields of the caller's.
template<class AsyncStream, class Producer>
asio::awaitable<void> relay(AsyncStream& stream, unsigned http_version, Producer produce)
{
    beast::http::fields const none;
    co_await relay(stream, http_version, std::move(produce), none);
}

} // namespace agentio::sse

#endif
