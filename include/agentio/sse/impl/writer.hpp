//
// agentio/sse/impl/writer.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_SSE_IMPL_WRITER_HPP
#define AGENTIO_SSE_IMPL_WRITER_HPP

#include <agentio/detail/stream_ops.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http/chunk_encode.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/serializer.hpp>
#include <boost/beast/http/write.hpp>

#include <cassert>

namespace agentio::sse {

namespace detail {

class writer_category final : public system::error_category
{
public:
    char const* name() const noexcept override { return "agentio.sse"; }

    std::string message(int ev) const override
    {
        switch(static_cast<error>(ev))
        {
        case error::client_gone: return "the client closed the event stream";
        case error::slow_client: return "the client reads too slowly: event queue full";
        case error::finished: return "the event stream is finished";
        }
        return "unknown agentio.sse error";
    }
};

inline constexpr auto tuple_awaitable = asio::as_tuple(asio::use_awaitable);

} // namespace detail

inline system::error_category const& error_category() noexcept
{
    static detail::writer_category const category;
    return category;
}

namespace detail {

// The io_context behind an executor (plain, or a strand of one, typed or
// type-erased as agentio::http::server makes them); null otherwise.
inline asio::io_context* io_context_of(asio::any_io_executor const& ex) noexcept
{
    if(auto const* plain = ex.target<asio::io_context::executor_type>())
        return &plain->context();
    if(auto const* strand = ex.target<asio::strand<asio::io_context::executor_type>>())
        return &strand->get_inner_executor().context();
    if(auto const* strand = ex.target<asio::strand<asio::any_io_executor>>())
        return io_context_of(strand->get_inner_executor());
    return nullptr;
}

} // namespace detail

template<class AsyncStream>
basic_writer<AsyncStream>::basic_writer(AsyncStream& stream, writer_options options)
    : stream_(stream)
    , options_(options)
    , queue_(stream.get_executor(), options.max_queued_bytes)
    , joined_(stream.get_executor())
    , probe_(stream.get_executor())
    , io_context_(detail::io_context_of(stream.get_executor()))
{
    // Used as a condition variable: it never expires, and cancel() wakes every waiter.
    joined_.expires_at(asio::steady_timer::time_point::max());
    detail::open_writers().fetch_add(1, std::memory_order_relaxed);
}

template<class AsyncStream>
basic_writer<AsyncStream>::~basic_writer()
{
    // The background loops refer to this object: finish() must have joined them.
    // Unless the io_context was stopped and is destroying its suspended
    // coroutines (a server shutting down): then nothing resumes them.
    assert((running_ == 0 || (io_context_ && io_context_->stopped())) &&
        "agentio::sse::writer destroyed before co_await finish()");
    detail::open_writers().fetch_sub(1, std::memory_order_relaxed);
}

template<class AsyncStream>
void basic_writer<AsyncStream>::fail(system::error_code ec)
{
    if(failure_)
        return;
    failure_ = ec;
    gone_signal_.emit(asio::cancellation_type::terminal);
    queue_.close(); // wakes the pump and the senders waiting for room
    probe_.cancel();
}

template<class AsyncStream>
asio::awaitable<system::error_code> basic_writer<AsyncStream>::start(unsigned http_version)
{
    namespace http = beast::http;
    http::response<http::empty_body> res{http::status::ok, http_version};
    for(auto const& f : headers_)
        res.insert(f.name_string(), f.value());
    res.set(http::field::content_type, "text/event-stream");
    res.set(http::field::cache_control, "no-cache");
    res.set("X-Accel-Buffering", "no");
    chunked_ = http_version >= 11;
    if(chunked_)
        res.chunked(true);
    res.keep_alive(false); // the connection ends with the stream (see the class notes)
    http::response_serializer<http::empty_body> sr(res);
    agentio::detail::expires_after(stream_, options_.write_timeout);
    auto [ec, n] = co_await http::async_write_header(stream_, sr, detail::tuple_awaitable);
    if(ec)
    {
        fail(ec);
        co_return ec;
    }
    started_ = true;
    auto const ex = co_await asio::this_coro::executor;
    running_ = 2;
    asio::co_spawn(ex, pump(), asio::detached);
    asio::co_spawn(ex, watch(), asio::detached);
    co_return system::error_code{};
}

template<class AsyncStream>
asio::awaitable<system::error_code> basic_writer<AsyncStream>::enqueue(std::string text)
{
    if(options_.on_overflow == overflow_policy::disconnect)
    {
        if(queue_.try_push(std::move(text)))
            co_return system::error_code{};
        fail(error::slow_client);
        agentio::detail::close_stream(stream_);
        co_return failure_;
    }
    // (Not `if(co_await ...)`: GCC 12 miscompiles a class-type result tested in place in a
    // template coroutine, and the frame is resumed corrupted.)
    auto const refused = co_await queue_.push(std::move(text));
    if(refused)
        co_return failure_ ? failure_ : make_error_code(error::finished); // closed while waiting for room
    co_return system::error_code{};
}

template<class AsyncStream>
asio::awaitable<system::error_code> basic_writer<AsyncStream>::send(std::string_view type, std::string_view data,
    std::string_view id)
{
    if(failure_)
        co_return failure_;
    if(finishing_ || !started_)
        co_return make_error_code(error::finished);
    std::string text;
    append_event(text, {.type = type, .data = data, .id = id});
    co_return co_await enqueue(std::move(text));
}

template<class AsyncStream>
asio::awaitable<system::error_code> basic_writer<AsyncStream>::comment(std::string_view text)
{
    if(failure_)
        co_return failure_;
    if(finishing_ || !started_)
        co_return make_error_code(error::finished);
    std::string formatted;
    append_comment(formatted, text);
    co_return co_await enqueue(std::move(formatted));
}

template<class AsyncStream>
asio::awaitable<void> basic_writer<AsyncStream>::pump()
{
    namespace http = beast::http;
    bool const heartbeat = options_.heartbeat.count() > 0;
    while(!failure_)
    {
        // (Not `c ? co_await a : co_await b`: GCC 12 destroys the result of such a branch twice.)
        std::optional<std::string> first;
        if(heartbeat)
            first = co_await queue_.pop_for(options_.heartbeat);
        else
            first = co_await queue_.pop();
        if(failure_)
            break;
        if(!first)
        {
            if(queue_.closed())
                break; // finished, and everything queued was flushed
            first.emplace();
            append_comment(*first); // idle for a whole interval: keep the connection alive
        }
        // Whatever queued up meanwhile goes out in the same write.
        inflight_ = std::move(*first);
        while(auto more = queue_.try_pop())
            inflight_ += *more;

        agentio::detail::expires_after(stream_, options_.write_timeout);
        system::error_code ec;
        std::size_t n = 0;
        if(chunked_)
            std::tie(ec, n) = co_await asio::async_write(stream_, http::make_chunk(asio::buffer(inflight_)),
                detail::tuple_awaitable);
        else
            std::tie(ec, n) = co_await asio::async_write(stream_, asio::buffer(inflight_), detail::tuple_awaitable);
        written_ += n;
        if(ec)
            fail(ec == beast::error::timeout ? make_error_code(error::slow_client)
                                             : make_error_code(error::client_gone));
    }
    if(!failure_ && chunked_)
    {
        agentio::detail::expires_after(stream_, options_.write_timeout);
        auto [ec, n] = co_await asio::async_write(stream_, http::make_chunk_last(), detail::tuple_awaitable);
        written_ += n;
        if(ec)
            fail(make_error_code(error::client_gone));
    }
    --running_;
    joined_.cancel();
}

template<class AsyncStream>
asio::awaitable<void> basic_writer<AsyncStream>::watch()
{
    // The client sends nothing after its request: a completed read means it
    // closed the connection (or sent something we must not mistake for more).
    // Read without a deadline: a pending read keeps the one it started with
    // (beast::basic_stream sets a new deadline only on the idle direction),
    // so the pump's write timeouts do not apply to it. Through the stream
    // itself, so a TLS stream decrypts what comes (its close_notify is the end).
    char sink[256];
    for(;;)
    {
        agentio::detail::expires_never(stream_);
        auto [ec, n] = co_await stream_.async_read_some(asio::buffer(sink), detail::tuple_awaitable);
        // Told to stop: whatever the read returned. Its result may have been
        // queued before finish() cancelled it (the client closing just as the
        // stream ended), and then the cancellation found nothing to abort.
        if(stop_watching_)
            break;
        if(ec == asio::error::eof)
        {
            co_await probe_after_eof();
            break;
        }
        if(ec)
        {
            fail(make_error_code(error::client_gone));
            break;
        }
    }
    --running_;
    joined_.cancel();
}

template<class AsyncStream>
asio::awaitable<void> basic_writer<AsyncStream>::probe_after_eof()
{
    // The end of the client's data is either a half-close (it still reads the
    // answer) or a close. Only a write tells them apart: a closed peer answers
    // one with a reset, and the next write fails, which fails the stream. So
    // comments go out soon after, then every second, until the stream ends.
    // Once finishing, the pump's own last writes tell a closed peer: no more probes.
    for(int probes = 0; !failure_ && !stop_watching_; ++probes)
    {
        if(!finishing_)
        {
            std::string probe;
            append_comment(probe, "");
            queue_.try_push(std::move(probe)); // when the queue is full, its own writes probe
        }
        probe_.expires_after(probes < 2 ? std::chrono::milliseconds(50) : std::chrono::milliseconds(1000));
        co_await probe_.async_wait(detail::tuple_awaitable);
        // (A cancel that came after the timer expired is lost: stop_watching_ is what ends this loop.)
    }
}

template<class AsyncStream>
asio::awaitable<system::error_code> basic_writer<AsyncStream>::finish()
{
    finishing_ = true;
    queue_.close();
    if(!started_)
        co_return failure_;
    bool watcher_stopped = false;
    while(running_ > 0)
    {
        if(running_ == 1 && !watcher_stopped)
        {
            // The pump has ended (it always ends before the watcher can be
            // told to): everything was flushed, now stop reading.
            watcher_stopped = true;
            stop_watching_ = true;
            agentio::detail::cancel_stream(stream_);
            probe_.cancel();
        }
        co_await joined_.async_wait(detail::tuple_awaitable);
    }
    co_return failure_;
}

} // namespace agentio::sse

#endif
