// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Test that header file is self-contained.
#include <agentio/sse/writer.hpp>

#include <agentio/http/any_stream.hpp>
#include <agentio/sse/parser.hpp>

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/_experimental/test/stream.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/http.hpp>
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <atomic>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <thread>
#include <utility>

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace sse = agentio::sse;
using tcp = asio::ip::tcp;
using namespace std::chrono_literals;

namespace {

constexpr auto tuple_awaitable = asio::as_tuple(asio::use_awaitable);

struct client_result
{
    http::response<http::string_body> response;
    std::vector<sse::event> events;
    sse::end_state end = sse::end_state::clean;
    std::string raw;
};

// Runs `server_side(stream)` on the accepted end of a loopback connection while
// a plain blocking client on another thread does `client_side(socket)`.
void with_connection(std::function<asio::awaitable<void>(beast::tcp_stream&)> server_side,
    std::function<void(tcp::socket&)> client_side, int client_receive_buffer = 0)
{
    asio::io_context ioc;
    tcp::acceptor acceptor(ioc, {asio::ip::make_address("127.0.0.1"), 0});
    auto const ep = acceptor.local_endpoint();
    std::thread client([&] {
        asio::io_context cioc;
        tcp::socket s(cioc);
        s.open(tcp::v4());
        if(client_receive_buffer)
            s.set_option(asio::socket_base::receive_buffer_size(client_receive_buffer));
        s.connect(ep);
        client_side(s);
    });
    asio::co_spawn(
        ioc,
        [&]() -> asio::awaitable<void> {
            auto sock = co_await acceptor.async_accept(asio::use_awaitable);
            sock.set_option(asio::socket_base::send_buffer_size(4096));
            beast::tcp_stream stream(std::move(sock));
            co_await server_side(stream);
            beast::error_code ignored;
            stream.socket().shutdown(tcp::socket::shutdown_send, ignored);
            stream.socket().close(ignored);
        },
        [](std::exception_ptr e) {
            if(e)
                std::rethrow_exception(e);
        });
    ioc.run();
    client.join();
}

// Reads everything until the server closes, then decodes HTTP and SSE.
client_result read_all(tcp::socket& s)
{
    client_result r;
    beast::error_code ec;
    asio::read(s, asio::dynamic_buffer(r.raw), ec);
    http::response_parser<http::string_body> p;
    p.eager(true);
    p.body_limit(64 * 1024 * 1024);
    p.put(asio::buffer(r.raw), ec);
    if(!p.is_done())
        p.put_eof(ec);
    r.response = p.release();
    sse::parser sp;
    sp.feed(r.response.body(), [&](sse::event const& e) { r.events.push_back(e); });
    r.end = sp.finish();
    return r;
}

// Decodes what a client end of an in-memory stream holds.
client_result decode(std::string raw)
{
    client_result r;
    r.raw = std::move(raw);
    beast::error_code ec;
    http::response_parser<http::string_body> p;
    p.eager(true);
    p.put(asio::buffer(r.raw), ec);
    BOOST_TEST(p.is_done()); // the last chunk ended it
    r.response = p.release();
    sse::parser sp;
    sp.feed(r.response.body(), [&](sse::event const& e) { r.events.push_back(e); });
    r.end = sp.finish();
    return r;
}

void rethrow(std::exception_ptr e)
{
    if(e)
        std::rethrow_exception(e);
}

// A stream that runs `after_last_chunk` right after the completion of the write
// that carries HTTP's last chunk has been delivered: the client's next move lands
// between the end of the writer's flush and finish() stopping its reader.
class last_chunk_hook
{
public:
    using executor_type = beast::test::stream::executor_type;

    last_chunk_hook(beast::test::stream& inner, std::function<void()> after_last_chunk)
        : inner_(inner)
        , after_last_chunk_(std::move(after_last_chunk))
    {
    }

    executor_type get_executor() noexcept { return inner_.get_executor(); }

    // No cancellation of a read that already completed: as on a socket.
    void cancel() {}

    friend void beast_close_socket(last_chunk_hook& s) { s.inner_.close(); }

    template<class MutableBuffers, class Token>
    auto async_read_some(MutableBuffers const& buffers, Token&& token)
    {
        return inner_.async_read_some(buffers, std::forward<Token>(token));
    }

    template<class ConstBuffers, class Token>
    auto async_write_some(ConstBuffers const& buffers, Token&& token)
    {
        bool const last = beast::buffers_to_string(buffers).ends_with("0\r\n\r\n");
        return asio::async_initiate<Token, void(boost::system::error_code, std::size_t)>(
            [this, last](auto handler, ConstBuffers const& b) {
                inner_.async_write_some(b,
                    [this, last, h = std::move(handler)](boost::system::error_code ec, std::size_t n) mutable {
                        std::move(h)(ec, n); // the writer's flush ends here
                        if(last && after_last_chunk_)
                            std::exchange(after_last_chunk_, nullptr)();
                    });
            },
            token, buffers);
    }

private:
    beast::test::stream& inner_;
    std::function<void()> after_last_chunk_;
};
} // namespace

BOOST_AUTO_TEST_SUITE(sse_writer)

// The writer is a template over the stream: here Beast's in-memory stream,
// no socket, no deadline.
BOOST_AUTO_TEST_CASE(on_an_in_memory_stream_events_are_chunked_and_finish_ends_the_body)
{
    asio::io_context ioc;
    beast::test::stream server(ioc);
    beast::test::stream client(ioc);
    server.connect(client);
    bool finished = false;
    asio::co_spawn(
        ioc,
        [&]() -> asio::awaitable<void> {
            sse::basic_writer<beast::test::stream> w(server);
            w.headers().set("Mcp-Session-Id", "s1");
            BOOST_TEST(!(co_await w.start(11)));
            BOOST_TEST(!(co_await w.send("chunk", R"({"content":"Hola"})")));
            BOOST_TEST(!(co_await w.send("done", "{}", "7")));
            BOOST_TEST(!(co_await w.finish()));
            finished = true;
        },
        rethrow);
    ioc.run();
    BOOST_TEST(finished);
    auto const got = decode(std::string(client.str()));
    BOOST_TEST(got.response.result_int() == 200);
    BOOST_TEST(got.response[http::field::content_type] == "text/event-stream");
    BOOST_TEST(got.response[http::field::transfer_encoding] == "chunked");
    BOOST_TEST(got.response["Mcp-Session-Id"] == "s1");
    BOOST_TEST(got.raw.ends_with("0\r\n\r\n"));
    BOOST_REQUIRE(got.events.size() == 2u);
    BOOST_TEST(got.events[0].type == "chunk");
    BOOST_TEST(got.events[0].data == R"({"content":"Hola"})");
    BOOST_TEST(got.events[1].type == "done");
    BOOST_TEST(got.events[1].last_event_id == "7");
    BOOST_TEST((got.end == sse::end_state::clean));
}

// The client closing just as the stream ends: its end-of-data is queued after
// finish() has cancelled the reader, so the cancellation finds nothing to abort.
// finish() still returns (it once waited forever, the reader probing a client
// that had left: found as a portfolio chat connection that never closed).
BOOST_AUTO_TEST_CASE(a_client_closing_as_the_stream_ends_does_not_hold_finish)
{
    asio::io_context ioc;
    beast::test::stream server(ioc);
    beast::test::stream client(ioc);
    server.connect(client);
    last_chunk_hook hooked(server, [&] { client.close(); });
    bool finished = false;
    asio::co_spawn(
        ioc,
        [&]() -> asio::awaitable<void> {
            sse::basic_writer<last_chunk_hook> w(hooked, {.heartbeat = 0ms});
            BOOST_TEST(!(co_await w.start(11)));
            BOOST_TEST(!(co_await w.send("done", "{}")));
            co_await w.finish();
            finished = true;
        },
        rethrow);
    ioc.run_for(5s);
    ioc.stop(); // a writer still waiting is destroyed with the stopped context, not left running
    BOOST_TEST(finished);
    BOOST_TEST(std::string(client.str()).ends_with("0\r\n\r\n"));
}

BOOST_AUTO_TEST_CASE(on_an_in_memory_stream_the_peer_closing_fires_the_disconnect_slot)
{
    asio::io_context ioc;
    beast::test::stream server(ioc);
    std::optional<beast::test::stream> client(ioc);
    server.connect(*client);
    bool fired = false;
    boost::system::error_code end;
    asio::co_spawn(
        ioc,
        [&]() -> asio::awaitable<void> {
            // Through the type-erased stream, as the server hands it to a handler.
            agentio::http::any_stream erased(server);
            sse::basic_writer<agentio::http::any_stream> w(erased, {.heartbeat = 0ms});
            w.disconnect_slot().assign([&](asio::cancellation_type) { fired = true; });
            BOOST_TEST(!(co_await w.start(11)));
            client.reset(); // the client leaves: its end is gone (closing alone is a half-close)
            asio::steady_timer t(co_await asio::this_coro::executor);
            for(int i = 0; i < 100 && !w.client_gone(); ++i)
            {
                t.expires_after(10ms);
                co_await t.async_wait(tuple_awaitable);
            }
            auto const sent = co_await w.send("chunk", "{}");
            BOOST_TEST((sent == sse::error::client_gone));
            end = co_await w.finish();
        },
        rethrow);
    ioc.run();
    BOOST_TEST(fired);
    BOOST_TEST((end == sse::error::client_gone));
}

BOOST_AUTO_TEST_CASE(headers_events_and_a_clean_end)
{
    client_result got;
    with_connection(
        [](beast::tcp_stream& stream) -> asio::awaitable<void> {
            sse::writer w(stream);
            BOOST_TEST(!(co_await w.start(11)));
            BOOST_TEST(!(co_await w.send("chunk", R"({"content":"Según los datos"})")));
            BOOST_TEST(!(co_await w.send("clear_streaming", "{}")));
            BOOST_TEST(!(co_await w.send("multi", "line 1\nline 2", "7")));
            BOOST_TEST(!(co_await w.finish()));
            auto const late = co_await w.send("late", "x");
            BOOST_TEST((late == sse::make_error_code(sse::error::finished)));
        },
        [&](tcp::socket& s) { got = read_all(s); });
    BOOST_TEST(got.response.result_int() == 200u);
    BOOST_TEST(got.response[http::field::content_type] == "text/event-stream");
    BOOST_TEST(got.response[http::field::cache_control] == "no-cache");
    BOOST_TEST(got.response["X-Accel-Buffering"] == "no");
    BOOST_TEST(got.response[http::field::transfer_encoding] == "chunked");
    BOOST_REQUIRE(got.events.size() == 3u);
    BOOST_TEST(got.events[0].type == "chunk");
    BOOST_TEST(got.events[0].data == R"({"content":"Según los datos"})");
    BOOST_TEST(got.events[2].data == "line 1\nline 2");
    BOOST_TEST(got.events[2].last_event_id == "7");
    BOOST_TEST((got.end == sse::end_state::clean));
    BOOST_TEST(got.raw.ends_with("0\r\n\r\n")); // the last chunk
}

BOOST_AUTO_TEST_CASE(idle_streams_get_heartbeat_comments)
{
    client_result got;
    with_connection(
        [](beast::tcp_stream& stream) -> asio::awaitable<void> {
            sse::writer w(stream, {.heartbeat = 20ms});
            co_await w.start(11);
            asio::steady_timer idle(stream.get_executor(), 150ms);
            co_await idle.async_wait(tuple_awaitable);
            co_await w.send("done", R"({"status":"completed"})");
            co_await w.finish();
        },
        [&](tcp::socket& s) { got = read_all(s); });
    std::size_t comments = 0;
    for(std::size_t at = 0; (at = got.response.body().find(":\n\n", at)) != std::string::npos; ++at)
        ++comments;
    BOOST_TEST(comments >= 3u);
    BOOST_REQUIRE(got.events.size() == 1u); // comments dispatch nothing
    BOOST_TEST(got.events[0].type == "done");
}

BOOST_AUTO_TEST_CASE(a_slow_client_slows_the_producer_and_the_queue_stays_bounded)
{
    constexpr int count = 3000;
    std::string const payload(1000, 'x');
    client_result got;
    std::size_t max_queued = 0;
    with_connection(
        [&](beast::tcp_stream& stream) -> asio::awaitable<void> {
            sse::writer w(stream, {.max_queued_bytes = 16 * 1024, .heartbeat = {}});
            co_await w.start(11);
            for(int i = 0; i < count; ++i)
            {
                auto ec = co_await w.send("e", std::to_string(i) + payload);
                BOOST_REQUIRE(!ec);
                max_queued = std::max(max_queued, w.queued_bytes());
            }
            BOOST_TEST(!(co_await w.finish()));
        },
        [&](tcp::socket& s) {
            std::this_thread::sleep_for(300ms); // not reading yet: the producer must wait
            got = read_all(s);
        },
        8192);
    // No more than the limit ever waited in memory.
    BOOST_TEST(max_queued <= 16u * 1024);
    BOOST_TEST(max_queued > 8u * 1024); // the producer did run ahead until the limit
    BOOST_REQUIRE(got.events.size() == static_cast<std::size_t>(count));
    for(int i = 0; i < count; i += 499)
        BOOST_TEST(got.events[static_cast<std::size_t>(i)].data == std::to_string(i) + payload);
    BOOST_TEST((got.end == sse::end_state::clean));
}

BOOST_AUTO_TEST_CASE(the_disconnect_policy_drops_a_client_that_does_not_read)
{
    int sent = 0;
    boost::system::error_code last;
    with_connection(
        [&](beast::tcp_stream& stream) -> asio::awaitable<void> {
            sse::writer w(stream,
                {.max_queued_bytes = 16 * 1024, .on_overflow = sse::overflow_policy::disconnect, .heartbeat = {}});
            co_await w.start(11);
            std::string const payload(1000, 'x');
            for(; sent < 100000; ++sent)
                if((last = co_await w.send("e", payload)))
                    break;
            co_await w.finish();
        },
        [&](tcp::socket& s) {
            std::this_thread::sleep_for(300ms);
            std::string rest;
            beast::error_code ec;
            asio::read(s, asio::dynamic_buffer(rest), ec); // the server hung up
        },
        8192);
    BOOST_TEST((last == sse::make_error_code(sse::error::slow_client)));
    BOOST_TEST(sent < 100000);
}

BOOST_AUTO_TEST_CASE(the_client_leaving_cancels_the_producer)
{
    boost::system::error_code wait_result, send_result, finish_result;
    auto elapsed = 0ms;
    with_connection(
        [&](beast::tcp_stream& stream) -> asio::awaitable<void> {
            sse::writer w(stream);
            co_await w.start(11);
            // A producer busy with something long, bound to the writer's signal.
            auto const t0 = std::chrono::steady_clock::now();
            asio::steady_timer work(stream.get_executor(), 10s);
            std::tie(wait_result) = co_await work.async_wait(asio::bind_cancellation_slot(w.disconnect_slot(),
                tuple_awaitable));
            elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0);
            BOOST_TEST(w.client_gone());
            send_result = co_await w.send("chunk", "{}");
            finish_result = co_await w.finish();
        },
        [&](tcp::socket& s) {
            std::string head(64, '\0');
            s.read_some(asio::buffer(head)); // the response header arrived
            s.close();                       // and the client leaves
        });
    BOOST_TEST((wait_result == asio::error::operation_aborted));
    BOOST_TEST(elapsed < 5000ms);
    BOOST_TEST((send_result == sse::make_error_code(sse::error::client_gone)));
    BOOST_TEST((finish_result == sse::make_error_code(sse::error::client_gone)));
}

BOOST_AUTO_TEST_CASE(a_stopped_io_context_may_destroy_an_open_stream)
{
    // A server shutting down stops its io_context and destroys the suspended
    // connections, writers included, on the type-erased strands
    // agentio::http::server gives them: that is no misuse of the writer.
    auto ioc = std::make_unique<asio::io_context>();
    std::optional<tcp::acceptor> acceptor(std::in_place, *ioc, tcp::endpoint{asio::ip::make_address("127.0.0.1"), 0});
    auto const ep = acceptor->local_endpoint();
    std::atomic<bool> started{false};
    asio::any_io_executor const ex = ioc->get_executor();
    asio::co_spawn(
        asio::make_strand(ex),
        [&]() -> asio::awaitable<void> {
            auto sock = co_await acceptor->async_accept(asio::make_strand(ex), asio::use_awaitable);
            beast::tcp_stream stream(std::move(sock));
            sse::writer w(stream);
            co_await w.start(11);
            started = true;
            asio::steady_timer forever(stream.get_executor(), std::chrono::hours(1));
            co_await forever.async_wait(asio::use_awaitable);
            co_await w.finish();
        },
        asio::detached);
    std::promise<void> released;
    std::thread client([&, done = released.get_future()] {
        asio::io_context cioc;
        tcp::socket s(cioc);
        s.connect(ep);
        std::string head(64, '\0');
        s.read_some(asio::buffer(head)); // the stream is open
        while(!started)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        ioc->stop();
        done.wait(); // the connection stays open until the server is gone
    });
    ioc->run();
    acceptor.reset();
    ioc.reset(); // destroys the suspended coroutine and its writer
    released.set_value();
    client.join();
    BOOST_TEST(started.load());
}

BOOST_AUTO_TEST_CASE(http_1_0_gets_a_close_delimited_body)
{
    client_result got;
    with_connection(
        [](beast::tcp_stream& stream) -> asio::awaitable<void> {
            sse::writer w(stream);
            co_await w.start(10);
            co_await w.send("a", "1");
            co_await w.finish();
        },
        [&](tcp::socket& s) { got = read_all(s); });
    BOOST_TEST(got.response[http::field::transfer_encoding] == "");
    BOOST_REQUIRE(got.events.size() == 1u);
    BOOST_TEST(got.events[0].data == "1");
}

BOOST_AUTO_TEST_SUITE_END()
