//
// agentio/testing/detail/fake_llm_stream.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Streams: the event writer, the Anthropic and OpenAI event sequences, faults mid-stream.
//

#ifndef AGENTIO_TESTING_DETAIL_FAKE_LLM_STREAM_HPP
#define AGENTIO_TESTING_DETAIL_FAKE_LLM_STREAM_HPP

#include <agentio/testing/detail/fake_llm_plan.hpp>
#include <agentio/json_text.hpp>
#include <agentio/sse/format.hpp>
#include <agentio/testing/detail/fake_llm_wire.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/deferred.hpp>
#include <boost/asio/experimental/parallel_group.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http/chunk_encode.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/serializer.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/stream_parser.hpp>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <deque>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <unordered_map>
#include <utility>

namespace agentio::testing::detail {

// ================================================================================
// Streams
// ================================================================================

inline constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);

// GCC 12 note: a coroutine holding both a `co_await` whose (non-void) result
// is discarded and a `co_return co_await ...` is miscompiled: a later resume
// finds a corrupt resume index (SIGILL/SIGSEGV, invisible to ASan). Results
// are therefore always named, and awaited values returned in two steps.

// One response written on the connection by hand: the header, one HTTP chunk
// per event, the pacing between pieces, and the stream faults. A `watch`
// coroutine runs beside the producer to notice the client leaving.
class event_stream
{
public:
    event_stream(beast::tcp_stream& stream, provider p, std::chrono::steady_clock::duration write_timeout)
        : stream_(stream)
        , timer_(stream.get_executor())
        , write_timeout_(write_timeout)
        , provider_(p)
    {
    }

    asio::any_io_executor get_executor() { return timer_.get_executor(); }
    void set_interval(std::chrono::milliseconds interval) noexcept { interval_ = interval; }
    void set_ending_fault(fault const* f) noexcept { ending_ = f; }

    // Writes the response header; false if the stream must stop.
    asio::awaitable<bool> start(beast::http::response<beast::http::empty_body>& header)
    {
        chunked_ = header.version() >= 11;
        header.chunked(chunked_);
        header.keep_alive(false); // the server closes the connection after a written response
        beast::http::response_serializer<beast::http::empty_body> sr(header);
        stream_.expires_after(write_timeout_);
        auto [ec, n] = co_await beast::http::async_write_header(stream_, sr, use_tuple);
        if(ec)
            co_return stop_gone();
        bool const go_on = co_await after_event();
        co_return go_on;
    }

    // Sends one event; `piece` events wait for the token interval first.
    // False: stop producing (a fault ended the stream, or the client left).
    asio::awaitable<bool> send(std::string_view type, std::string_view data, bool piece)
    {
        if(stopped_)
            co_return false;
        if(piece && interval_.count() > 0)
        {
            timer_.expires_after(interval_);
            [[maybe_unused]] auto const [ec] = co_await timer_.async_wait(use_tuple); // cancelled: see gone_
            if(gone_)
                co_return stop_gone();
        }
        buffer_.clear();
        sse::append_event(buffer_, {.type = type, .data = data});
        if(!co_await write_buffer())
            co_return false;
        ++events_;
        bool const go_on = co_await after_event();
        co_return go_on;
    }

    // Ends the body with the last chunk, unless the connection is gone.
    asio::awaitable<void> finish()
    {
        if(gone_ || closed_ || !chunked_)
            co_return;
        stream_.expires_after(write_timeout_);
        auto [ec, n] = co_await asio::async_write(stream_, beast::http::make_chunk_last(), use_tuple);
        if(ec)
            gone_ = true;
    }

    // Waits `d` (zero: until the client leaves). False if the client left.
    asio::awaitable<bool> pause(std::chrono::milliseconds d)
    {
        if(d.count() > 0)
            timer_.expires_after(d);
        else
            timer_.expires_at(asio::steady_timer::time_point::max());
        [[maybe_unused]] auto const [ec] = co_await timer_.async_wait(use_tuple); // cancelled: see gone_
        co_return !gone_;
    }

    // Closes the connection at once: FIN, or RST with `reset`.
    void close(bool reset)
    {
        system::error_code ignored;
        if(reset)
            stream_.socket().set_option(asio::socket_base::linger(true, 0), ignored);
        stream_.socket().close(ignored);
        closed_ = stopped_ = true;
    }

    // Reads until the client leaves (or the producer is done and cancels
    // this): nothing is expected from it while the response streams.
    asio::awaitable<void> watch()
    {
        co_await asio::this_coro::throw_if_cancelled(false);
        char sink[64];
        for(;;)
        {
            auto [ec, n] = co_await stream_.socket().async_read_some(asio::buffer(sink), use_tuple);
            if(!ec)
                continue;
            if(ec != asio::error::operation_aborted && !closed_)
            {
                gone_ = true;
                timer_.cancel();
            }
            co_return;
        }
    }

private:
    bool stop_gone() noexcept
    {
        gone_ = stopped_ = true;
        return false;
    }

    asio::awaitable<bool> write_buffer()
    {
        stream_.expires_after(write_timeout_);
        system::error_code ec;
        std::size_t n = 0;
        if(chunked_)
            std::tie(ec, n) = co_await asio::async_write(stream_, beast::http::make_chunk(asio::buffer(buffer_)),
                use_tuple);
        else
            std::tie(ec, n) = co_await asio::async_write(stream_, asio::buffer(buffer_), use_tuple);
        if(ec || gone_)
            co_return stop_gone();
        co_return true;
    }

    // Applies the ending fault once its number of events went out.
    asio::awaitable<bool> after_event()
    {
        if(!ending_ || events_ != ending_->after_events)
            co_return true;
        fault const& f = *std::exchange(ending_, nullptr);
        switch(f.kind)
        {
        case fault_kind::midstream_error:
        {
            buffer_.clear();
            if(provider_ == provider::anthropic)
            {
                std::string_view const type = f.error_type.empty() ? std::string_view("overloaded_error")
                                                                   : std::string_view(f.error_type);
                sse::append_event(buffer_,
                    {.type = "error",
                        .data = anthropic_error_event(type,
                            f.error_message.empty() ? anthropic_error_message(type)
                                                    : std::string_view(f.error_message))});
            }
            else
            {
                auto e = openai_error_for(500);
                if(!f.error_type.empty())
                    e.type = f.error_type;
                if(!f.error_message.empty())
                    e.message = f.error_message;
                sse::append_event(buffer_, {.data = openai_error_body(e)});
            }
            if(co_await write_buffer())
                ++events_;
            stopped_ = true; // finish() ends the body after the error, as the API does
            co_return false;
        }
        case fault_kind::truncate: stopped_ = true; co_return false;
        case fault_kind::disconnect: close(f.reset); co_return false;
        case fault_kind::stall:
            if(co_await pause(f.duration))
                co_return true;
            co_return stop_gone();
        case fault_kind::http_error:
        case fault_kind::slow_tokens: break;
        }
        co_return true;
    }

    beast::tcp_stream& stream_;
    asio::steady_timer timer_;
    std::chrono::steady_clock::duration write_timeout_;
    provider provider_;
    std::chrono::milliseconds interval_{0};
    fault const* ending_ = nullptr;
    std::string buffer_; // the event being written, reused
    std::size_t events_ = 0;
    bool chunked_ = true;
    bool stopped_ = false; // the producer must stop
    bool gone_ = false;    // the client left or the connection failed
    bool closed_ = false;  // we closed the connection
};

// The producer of a response and `es.watch()` as a group: whichever ends
// first cancels the other. A plain function on purpose: with GCC 12, an
// awaitable handed to a coroutine as a by-value parameter can be destroyed
// by the caller while the callee still uses it (docs/notes/engineering-notes.md);
// co_spawn is an ordinary function, so the producer goes there directly.
inline auto beside_watch(event_stream& es, asio::awaitable<void> producer)
{
    auto const ex = es.get_executor();
    return asio::experimental::make_parallel_group(asio::co_spawn(ex, std::move(producer), asio::deferred),
        asio::co_spawn(ex, es.watch(), asio::deferred));
}

// Neither coroutine throws by design; should one, say so and go on.
inline void report_failures(std::exception_ptr const& a, std::exception_ptr const& b) noexcept
{
    for(auto const& ep : {a, b})
    {
        if(!ep)
            continue;
        try
        {
            std::rethrow_exception(ep);
        }
        catch(std::exception const& e)
        {
            std::fprintf(stderr, "agentio::testing::fake_llm: stream: %s\n", e.what());
        }
        catch(...)
        {
            std::fprintf(stderr, "agentio::testing::fake_llm: stream: unknown exception\n");
        }
    }
}

// The events of an Anthropic stream; returns early when `es` says stop.
inline asio::awaitable<void> send_anthropic_events(event_stream& es, response_plan const& plan)
{
    std::string data;
    data = R"({"type":"message_start","message":{"id":)";
    append_json_string(data, anthropic_message_id());
    data.append(R"(,"type":"message","role":"assistant","model":)");
    append_json_string(data, plan.model);
    data.append(R"(,"content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":)");
    append_json_number(data, static_cast<std::int64_t>(plan.input_tokens));
    data.append(R"(,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":1,)"
                R"("service_tier":"standard"}}})");
    if(!co_await es.send("message_start", data, false))
        co_return;

    constexpr std::string_view ping = R"({"type": "ping"})"; // with the space, as the API writes it
    bool pinged = false;
    for(std::size_t i = 0; i < plan.blocks.size(); ++i)
    {
        auto const& b = plan.blocks[i];
        auto const index = static_cast<std::int64_t>(i);
        data = R"({"type":"content_block_start","index":)";
        append_json_number(data, index);
        switch(b.kind)
        {
        case block_kind::thinking:
            data.append(R"(,"content_block":{"type":"thinking","thinking":"","signature":""}})");
            break;
        case block_kind::text: data.append(R"(,"content_block":{"type":"text","text":""}})"); break;
        case block_kind::tool_use:
            data.append(R"(,"content_block":{"type":"tool_use","id":)");
            append_json_string(data, b.id);
            data.append(R"(,"name":)");
            append_json_string(data, b.name);
            data.append(R"(,"input":{}}})");
            break;
        }
        if(!co_await es.send("content_block_start", data, false))
            co_return;
        if(!pinged)
        {
            pinged = true;
            if(!co_await es.send("ping", ping, false))
                co_return;
        }

        auto delta = [&](std::string_view type, std::string_view field, std::string_view value) {
            data = R"({"type":"content_block_delta","index":)";
            append_json_number(data, index);
            data.append(R"(,"delta":{"type":)");
            append_json_string(data, type);
            data.push_back(',');
            append_json_string(data, field);
            data.push_back(':');
            append_json_string(data, value);
            data.append("}}");
        };
        switch(b.kind)
        {
        case block_kind::thinking:
            for(auto const& piece : b.pieces)
            {
                delta("thinking_delta", "thinking", piece);
                if(!co_await es.send("content_block_delta", data, true))
                    co_return;
            }
            delta("signature_delta", "signature", b.signature);
            if(!co_await es.send("content_block_delta", data, false))
                co_return;
            break;
        case block_kind::text:
            for(auto const& piece : b.pieces)
            {
                delta("text_delta", "text", piece);
                if(!co_await es.send("content_block_delta", data, true))
                    co_return;
            }
            break;
        case block_kind::tool_use:
            delta("input_json_delta", "partial_json", ""); // the API's first fragment is empty
            if(!co_await es.send("content_block_delta", data, false))
                co_return;
            for(auto const& piece : b.pieces)
            {
                delta("input_json_delta", "partial_json", piece);
                if(!co_await es.send("content_block_delta", data, true))
                    co_return;
            }
            break;
        }

        // A tool call cut by max_tokens is left open, as the API leaves it.
        bool const cut = b.kind == block_kind::tool_use && i + 1 == plan.blocks.size() &&
            plan.stop_reason == "max_tokens";
        if(!cut)
        {
            data = R"({"type":"content_block_stop","index":)";
            append_json_number(data, index);
            data.push_back('}');
            if(!co_await es.send("content_block_stop", data, false))
                co_return;
        }
    }
    if(!pinged && !co_await es.send("ping", ping, false))
        co_return;

    data = R"({"type":"message_delta","delta":{"stop_reason":)";
    append_json_string(data, plan.stop_reason);
    data.append(R"(,"stop_sequence":null},"usage":{"output_tokens":)");
    append_json_number(data, static_cast<std::int64_t>(plan.output_tokens));
    data.append("}}");
    if(!co_await es.send("message_delta", data, false))
        co_return;
    [[maybe_unused]] bool const sent = co_await es.send("message_stop", R"({"type":"message_stop"})", false);
}

// The chunks of an OpenAI stream; returns early when `es` says stop.
inline asio::awaitable<void> send_openai_events(event_stream& es, response_plan const& plan, bool include_usage)
{
    // Every chunk starts alike: same id, created, model and fingerprint.
    std::string prefix = R"({"id":)";
    append_json_string(prefix, openai_completion_id());
    prefix.append(R"(,"object":"chat.completion.chunk","created":)");
    append_json_number(prefix, unix_now());
    prefix.append(R"(,"model":)");
    append_json_string(prefix, plan.model);
    prefix.append(R"(,"system_fingerprint":)");
    append_json_string(prefix, openai_fingerprint());
    prefix.append(R"(,"choices":[)");

    std::string data;
    auto chunk = [&](auto&& append_delta, std::string_view finish_reason = {}) {
        data = prefix;
        data.append(R"({"index":0,"delta":)");
        append_delta(data);
        data.append(R"(,"logprobs":null,"finish_reason":)");
        if(finish_reason.empty())
            data.append("null");
        else
            append_json_string(data, finish_reason);
        data.append("}]}");
    };

    bool const has_text = std::any_of(plan.blocks.begin(), plan.blocks.end(),
        [](auto const& b) { return b.kind == block_kind::text; });
    chunk([&](std::string& out) {
        out.append(has_text ? R"({"role":"assistant","content":"","refusal":null})"
                            : R"({"role":"assistant","content":null})");
    });
    if(!co_await es.send({}, data, false))
        co_return;

    std::int64_t call_index = 0;
    for(auto const& b : plan.blocks)
    {
        if(b.kind == block_kind::text)
        {
            for(auto const& piece : b.pieces)
            {
                chunk([&](std::string& out) {
                    out.append(R"({"content":)");
                    append_json_string(out, piece);
                    out.push_back('}');
                });
                if(!co_await es.send({}, data, true))
                    co_return;
            }
        }
        else if(b.kind == block_kind::tool_use)
        {
            chunk([&](std::string& out) {
                out.append(R"({"tool_calls":[{"index":)");
                append_json_number(out, call_index);
                out.append(R"(,"id":)");
                append_json_string(out, b.id);
                out.append(R"(,"type":"function","function":{"name":)");
                append_json_string(out, b.name);
                out.append(R"(,"arguments":""}}]})");
            });
            if(!co_await es.send({}, data, false))
                co_return;
            for(auto const& piece : b.pieces)
            {
                chunk([&](std::string& out) {
                    out.append(R"({"tool_calls":[{"index":)");
                    append_json_number(out, call_index);
                    out.append(R"(,"function":{"arguments":)");
                    append_json_string(out, piece);
                    out.append("}}]}");
                });
                if(!co_await es.send({}, data, true))
                    co_return;
            }
            ++call_index;
        }
    }
    chunk([](std::string& out) { out.append("{}"); }, openai_finish_reason(plan.stop_reason));
    if(!co_await es.send({}, data, false))
        co_return;
    if(include_usage)
    {
        data = prefix;
        data.append("],");
        append_openai_usage(data, plan, true);
        data.push_back('}');
        if(!co_await es.send({}, data, false))
            co_return;
    }
    [[maybe_unused]] bool const sent = co_await es.send({}, "[DONE]", false);
}

// A whole streamed response: the header, the events, then the end of the
// body (unless a fault closed the connection or the client left).
inline asio::awaitable<void> stream_response(event_stream& es, beast::http::response<beast::http::empty_body>& header,
    response_plan const& plan, provider p, bool include_usage)
{
    co_await asio::this_coro::throw_if_cancelled(false);
    bool const started = co_await es.start(header); // a fault may strike before the first event
    if(started && p == provider::anthropic)
        co_await send_anthropic_events(es, plan);
    else if(started)
        co_await send_openai_events(es, plan, include_usage);
    co_await es.finish();
}

// A non-streamed answer with a stream fault: held back (stall), cut
// (truncate: the header promises more than is sent), or never sent (disconnect).
inline asio::awaitable<void> answer_with_fault(event_stream& es, beast::tcp_stream& stream, http::response& res,
    fault const& f, std::chrono::steady_clock::duration write_timeout)
{
    co_await asio::this_coro::throw_if_cancelled(false);
    namespace bhttp = beast::http;
    res.keep_alive(false);
    if(f.kind == fault_kind::disconnect)
    {
        es.close(f.reset);
        co_return;
    }
    if(f.kind == fault_kind::stall && !co_await es.pause(f.duration))
        co_return;
    stream.expires_after(write_timeout);
    if(f.kind == fault_kind::truncate)
    {
        bhttp::response_serializer<bhttp::string_body> sr(res);
        auto [ec, n] = co_await bhttp::async_write_header(stream, sr, use_tuple);
        if(!ec)
        {
            // Named, not discarded: see the note at the top of this section.
            [[maybe_unused]] auto const [wec, wn] = co_await asio::async_write(stream,
                asio::buffer(res.body().data(), res.body().size() / 2), use_tuple);
        }
        es.close(false);
        co_return;
    }
    [[maybe_unused]] auto const [wec, wn] = co_await bhttp::async_write(stream, res, use_tuple);
}

} // namespace agentio::testing::detail

#endif
