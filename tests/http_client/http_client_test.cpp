// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Test that header file is self-contained.
#include <agentio/http/client.hpp>
#include <agentio/trace.hpp>

#include "spans.hpp"
#include "test_tls.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/bind_executor.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/connect.hpp>
#include <boost/asio/deferred.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ah = agentio::http;
using tcp = asio::ip::tcp;
using namespace std::chrono_literals;
using clock_type = std::chrono::steady_clock;

namespace {

constexpr auto tuple_awaitable = asio::as_tuple(asio::use_awaitable);

bool contains(std::string_view text, std::string_view part)
{
    return text.find(part) != std::string_view::npos;
}

// ---------------------------------------------------------------------------
// A loopback HTTP/1.1 server (plain or TLS) whose behaviour the path selects.

struct server_state
{
    explicit server_state(asio::io_context& ioc)
        : acceptor(asio::make_strand(ioc))
        , gate(ioc, clock_type::time_point::max())
    {
    }

    tcp::acceptor acceptor;
    std::shared_ptr<asio::ssl::context> tls;
    asio::steady_timer gate; // /chunked waits on it between its two chunks
    std::atomic<int> accepted{0};
    std::atomic<int> requests{0};
    std::atomic<int> closed{0};
    std::mutex mutex;
    std::vector<std::string> arrivals; // request targets, in order
    std::string last_sni;
    std::map<std::string, std::string> last_headers;
    std::string last_body;
};

template<class Stream>
asio::awaitable<bool> write_raw(Stream& stream, std::string_view data)
{
    auto [ec, n] = co_await asio::async_write(stream, asio::buffer(data.data(), data.size()), tuple_awaitable);
    co_return !ec;
}

template<class Stream>
asio::awaitable<void> pause(Stream& stream, std::chrono::milliseconds d)
{
    asio::steady_timer t(stream.get_executor(), d);
    co_await t.async_wait(tuple_awaitable);
}

template<class Stream>
asio::awaitable<void> serve(std::shared_ptr<server_state> st, Stream& stream)
{
    beast::flat_buffer buf;
    bool drop_next = false;
    for(;;)
    {
        http::request_parser<http::string_body> parser;
        parser.body_limit(1 << 20);
        auto [ec, n] = co_await http::async_read(stream, buf, parser, tuple_awaitable);
        if(ec)
            break;
        auto req = parser.release();
        ++st->requests;
        std::string const target(req.target());
        std::string const path = target.substr(0, target.find('?'));
        {
            std::lock_guard lock(st->mutex);
            st->arrivals.push_back(target);
            st->last_headers.clear();
            for(auto const& f : req)
                st->last_headers[std::string(f.name_string())] = std::string(f.value());
            st->last_body = req.body();
        }
        if(drop_next || path == "/no-answer")
            break; // close without a byte of response

        if(path == "/stall")
        {
            co_await pause(stream, 30s);
            break;
        }
        if(path == "/chunked")
        {
            if(!co_await write_raw(stream,
                   "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                   "Transfer-Encoding: chunked\r\n\r\n5\r\nfirst\r\n"))
                break;
            co_await st->gate.async_wait(tuple_awaitable);
            if(!co_await write_raw(stream, "6\r\nsecond\r\n0\r\n\r\n"))
                break;
            continue;
        }
        if(path == "/chunked-many")
        {
            std::string wire = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
            for(int i = 0; i < 100; ++i)
            {
                std::string const piece = "piece-" + std::to_string(i) + ";";
                char size[16];
                std::snprintf(size, sizeof size, "%zx", piece.size());
                wire += std::string(size) + ";ext=1\r\n" + piece + "\r\n";
            }
            wire += "0\r\nX-Trailer: yes\r\n\r\n";
            if(!co_await write_raw(stream, wire))
                break;
            continue;
        }
        if(path == "/mid-body")
        {
            std::string const wire = "HTTP/1.1 200 OK\r\nContent-Length: 5000\r\n\r\n" + std::string(1200, 'm');
            co_await write_raw(stream, wire);
            break;
        }
        if(path == "/drip")
        {
            if(!co_await write_raw(stream, "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n"))
                break;
            bool ok = true;
            for(int i = 0; i < 100 && ok; ++i)
            {
                co_await pause(stream, 50ms);
                ok = co_await write_raw(stream, "x");
            }
            if(!ok)
                break;
            continue;
        }
        if(path == "/huge" || path == "/huge-chunked")
        {
            bool const chunked = path == "/huge-chunked";
            // Named, not built inside the co_await expressions (GCC 12, see docs/notes/engineering-notes.md).
            std::string const head = chunked ? "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                                             : "HTTP/1.1 200 OK\r\nContent-Length: 2097152\r\n\r\n";
            std::string const piece = chunked ? "10000\r\n" + std::string(64 * 1024, 'h') + "\r\n"
                                              : std::string(64 * 1024, 'h');
            bool ok = co_await write_raw(stream, head);
            for(int i = 0; i < 32 && ok; ++i)
                ok = co_await write_raw(stream, piece);
            if(ok && chunked)
                ok = co_await write_raw(stream, "0\r\n\r\n");
            if(!ok)
                break;
            continue;
        }
        if(path == "/big-header")
        {
            // Raw: Beast's fields refuse a field this large (as they should).
            std::string const wire = "HTTP/1.1 200 OK\r\nX-Big: " + std::string(100 * 1024, 'b') +
                "\r\nContent-Length: 3\r\n\r\nbig";
            if(!co_await write_raw(stream, wire))
                break;
            continue;
        }
        if(path == "/slow")
            co_await pause(stream, 50ms);

        if(req.method() == http::verb::head)
        {
            http::response<http::empty_body> head{http::status::ok, 11};
            head.content_length(5);
            head.keep_alive(req.keep_alive());
            auto [wec, wn] = co_await http::async_write(stream, head, tuple_awaitable);
            if(wec || !head.keep_alive())
                break;
            continue;
        }

        http::response<http::string_body> res{http::status::ok, 11};
        res.keep_alive(req.keep_alive());
        if(path == "/echo")
        {
            res.body() = std::string(http::to_string(req.method())) + " " + target + "\n" + req.body();
        }
        else if(path == "/status/503")
        {
            res.result(http::status::service_unavailable);
            res.set(http::field::retry_after, "7");
            res.body() = "busy";
        }
        else if(path == "/close-header")
        {
            res.keep_alive(false);
            res.body() = "bye";
        }
        else if(path == "/json")
        {
            res.set(http::field::content_type, "application/json");
            res.body() = R"({"ok":true,"items":[1,2,3]})";
        }
        else
        {
            res.body() = "hello";
        }
        res.prepare_payload();
        auto [wec, wn] = co_await http::async_write(stream, res, tuple_awaitable);
        if(wec || !res.keep_alive() || path == "/close-after")
            break;
        if(path == "/drop-next")
            drop_next = true;
    }
    beast::error_code ignored;
    beast::get_lowest_layer(stream).socket().close(ignored);
    ++st->closed;
}

asio::awaitable<void> plain_session(std::shared_ptr<server_state> st, tcp::socket socket)
{
    beast::tcp_stream stream(std::move(socket));
    co_await serve(st, stream);
}

asio::awaitable<void> tls_session(std::shared_ptr<server_state> st, tcp::socket socket)
{
    beast::ssl_stream<beast::tcp_stream> stream(beast::tcp_stream(std::move(socket)), *st->tls);
    auto [ec] = co_await stream.async_handshake(asio::ssl::stream_base::server, tuple_awaitable);
    if(ec)
    {
        ++st->closed;
        co_return;
    }
    if(char const* sni = SSL_get_servername(stream.native_handle(), TLSEXT_NAMETYPE_host_name))
    {
        std::lock_guard lock(st->mutex);
        st->last_sni = sni;
    }
    co_await serve(st, stream);
}

// Accepts and holds connections without a byte: TLS handshakes never finish.
asio::awaitable<void> silent_session(std::shared_ptr<server_state> st, tcp::socket socket)
{
    asio::steady_timer t(socket.get_executor(), 30s);
    co_await t.async_wait(tuple_awaitable);
    ++st->closed;
}

enum class server_kind
{
    plain,
    tls,
    silent
};

asio::awaitable<void> accept_loop(std::shared_ptr<server_state> st, server_kind kind)
{
    for(;;)
    {
        auto [ec, socket] = co_await st->acceptor.async_accept(asio::make_strand(st->acceptor.get_executor()),
            tuple_awaitable);
        if(ec)
            co_return;
        ++st->accepted;
        auto const ex = socket.get_executor();
        switch(kind)
        {
        case server_kind::plain: asio::co_spawn(ex, plain_session(st, std::move(socket)), asio::detached); break;
        case server_kind::tls: asio::co_spawn(ex, tls_session(st, std::move(socket)), asio::detached); break;
        case server_kind::silent: asio::co_spawn(ex, silent_session(st, std::move(socket)), asio::detached); break;
        }
    }
}

class test_server
{
public:
    explicit test_server(asio::io_context& ioc, server_kind kind = server_kind::plain,
        std::shared_ptr<asio::ssl::context> tls = nullptr)
        : st_(std::make_shared<server_state>(ioc))
        , kind_(kind)
    {
        st_->tls = std::move(tls);
        tcp::endpoint const ep(asio::ip::make_address("127.0.0.1"), 0);
        st_->acceptor.open(ep.protocol());
        st_->acceptor.set_option(asio::socket_base::reuse_address(true));
        st_->acceptor.bind(ep);
        st_->acceptor.listen();
        port_ = st_->acceptor.local_endpoint().port();
        asio::co_spawn(st_->acceptor.get_executor(), accept_loop(st_, kind), asio::detached);
    }

    ~test_server()
    {
        beast::error_code ignored;
        st_->acceptor.close(ignored);
    }

    std::uint16_t port() const { return port_; }

    std::string url(std::string_view path, std::string_view host = "127.0.0.1") const
    {
        return std::string(kind_ == server_kind::plain ? "http://" : "https://") + std::string(host) + ":" +
            std::to_string(port_) + std::string(path);
    }

    std::string authority(std::string_view host = "127.0.0.1") const
    {
        return std::string(host) + ":" + std::to_string(port_);
    }

    void open_gate() { st_->gate.cancel(); }

    server_state& state() { return *st_; }
    int accepted() const { return st_->accepted.load(); }
    int requests() const { return st_->requests.load(); }
    int closed() const { return st_->closed.load(); }

    std::string header(std::string const& name)
    {
        std::lock_guard lock(st_->mutex);
        auto it = st_->last_headers.find(name);
        return it == st_->last_headers.end() ? std::string() : it->second;
    }

private:
    std::shared_ptr<server_state> st_;
    server_kind kind_;
    std::uint16_t port_ = 0;
};

// A port nobody listens on (bound, then released).
std::uint16_t closed_port()
{
    asio::io_context ioc;
    tcp::acceptor a(ioc, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
    return a.local_endpoint().port();
}

// Runs a test coroutine on `ioc` (on this thread) and fails if it does not
// finish within `limit`; rethrows what the coroutine threw.
template<class MakeTest>
void run_test(asio::io_context& ioc, MakeTest make_test, std::chrono::seconds limit = 20s)
{
    bool done = false;
    std::exception_ptr failure;
    auto body = make_test();
    asio::co_spawn(ioc, std::move(body), [&](std::exception_ptr ep) {
        failure = ep;
        done = true;
        ioc.stop();
    });
    ioc.run_for(limit);
    BOOST_REQUIRE_MESSAGE(done, "the test coroutine did not finish in time");
    if(failure)
        std::rethrow_exception(failure);
}

ah::client_request get(std::string url)
{
    ah::client_request r;
    r.url = std::move(url);
    return r;
}

auto elapsed_since(clock_type::time_point t0)
{
    return clock_type::now() - t0;
}

// ---------------------------------------------------------------------------
// TLS material, made once per test run.

struct tls_material
{
    test_tls::authority ca;
    test_tls::pem_pair good = ca.issue({"DNS:localhost", "IP:127.0.0.1"});
    test_tls::pem_pair wrong_host = ca.issue({"DNS:wrong.example"});
    test_tls::pem_pair name_only = ca.issue({"DNS:localhost"});

    std::shared_ptr<asio::ssl::context> server(test_tls::pem_pair const& pair) const
    {
        auto ctx = std::make_shared<asio::ssl::context>(asio::ssl::context::tls_server);
        ctx->use_certificate_chain(asio::buffer(pair.certificate));
        ctx->use_private_key(asio::buffer(pair.private_key), asio::ssl::context::pem);
        return ctx;
    }

    // A client context that trusts the test CA only.
    std::shared_ptr<asio::ssl::context> client() const
    {
        auto ctx = std::make_shared<asio::ssl::context>(asio::ssl::context::tls_client);
        ctx->set_verify_mode(asio::ssl::verify_peer);
        auto const pem = ca.certificate_pem();
        ctx->add_certificate_authority(asio::buffer(pem));
        return ctx;
    }
};

tls_material const& tls()
{
    static tls_material const m;
    return m;
}

// Opens /chunked, reads its first chunk, starts a read that waits for the
// second (held back by the server) and closes the stream under it.
asio::awaitable<void> close_with_a_read_pending(ah::client& c, test_server& srv, std::string url)
{
    auto req = get(std::move(url));
    auto [err, stream] = co_await c.async_open(std::move(req), asio::use_awaitable);
    BOOST_REQUIRE_MESSAGE(!err, err.message);
    auto [e1, first] = co_await stream.async_read_some(asio::use_awaitable);
    BOOST_TEST(first == "first");
    asio::steady_timer done(co_await asio::this_coro::executor, clock_type::time_point::max());
    ah::client_error pending;
    int calls = 0;
    stream.async_read_some([&](ah::client_error e, std::string_view) {
        pending = std::move(e);
        ++calls;
        done.cancel();
    });
    stream.close();
    BOOST_TEST(!stream.is_open());
    co_await done.async_wait(tuple_awaitable);
    BOOST_TEST(calls == 1);
    BOOST_TEST((pending.code == asio::error::operation_aborted), pending.message);
    BOOST_TEST(pending.message == "response stream from " + srv.authority() + " was closed");
    BOOST_TEST(c.idle_connections() == 0u);
}

} // namespace

// ===========================================================================
BOOST_AUTO_TEST_SUITE(http_client)

BOOST_AUTO_TEST_CASE(get_with_content_length)
{
    asio::io_context ioc;
    test_server srv(ioc);
    ah::client c(ioc.get_executor());
    run_test(ioc, [&]() -> asio::awaitable<void> {
        auto req1 = get(srv.url("/json"));
        auto [err, res] = co_await c.async_request(std::move(req1), asio::use_awaitable);
        BOOST_TEST(!err, err.message);
        BOOST_TEST(res.status == 200u);
        BOOST_TEST(res.ok());
        BOOST_TEST(res.body == R"({"ok":true,"items":[1,2,3]})");
        BOOST_TEST(res.header("content-type") == "application/json");
        BOOST_TEST(res.header("Content-Type") == "application/json");
        BOOST_TEST(res.header("x-absent").empty());
    });
}

BOOST_AUTO_TEST_CASE(default_and_user_headers)
{
    asio::io_context ioc;
    test_server srv(ioc);
    ah::client c(ioc.get_executor());
    run_test(ioc, [&]() -> asio::awaitable<void> {
        ah::client_request r;
        r.method = http::verb::post;
        r.url = srv.url("/echo?x=1&y=%20z#fragment");
        r.body = R"({"q":1})";
        r.headers.set(http::field::content_type, "application/json");
        auto [err, res] = co_await c.async_request(std::move(r), asio::use_awaitable);
        BOOST_TEST(!err, err.message);
        BOOST_TEST(res.body == "POST /echo?x=1&y=%20z\n{\"q\":1}");
        BOOST_TEST(srv.header("Host") == srv.authority());
        BOOST_TEST(srv.header("User-Agent") == "agentio/" AGENTIO_VERSION_STRING);
        BOOST_TEST(srv.header("Content-Length") == "7");
        BOOST_TEST(srv.header("Content-Type") == "application/json");

        ah::client_request mine;
        mine.url = "http://user:pa%3Ass@" + srv.authority() + "/echo";
        mine.headers.set(http::field::user_agent, "mine/1");
        std::tie(err, res) = co_await c.async_request(std::move(mine), asio::use_awaitable);
        BOOST_TEST(!err, err.message);
        BOOST_TEST(res.body == "GET /echo\n");
        BOOST_TEST(srv.header("User-Agent") == "mine/1");
        BOOST_TEST(srv.header("Content-Length").empty()); // a GET without body has none
        BOOST_TEST(srv.header("Authorization") == "Basic " + std::string("dXNlcjpwYTpzcw==")); // user:pa:ss
    });
}

BOOST_AUTO_TEST_CASE(completion_token_callback)
{
    asio::io_context ioc;
    test_server srv(ioc);
    ah::client c(ioc.get_executor());
    auto strand = asio::make_strand(ioc);
    int calls = 0;
    bool on_strand = false;
    std::string body;
    auto on_done = [&](ah::client_error err, ah::client_response res) {
        ++calls;
        on_strand = strand.running_in_this_thread();
        BOOST_TEST(!err, err.message);
        body = res.body;
        ioc.stop();
    };
    c.async_request(get(srv.url("/hello")), asio::bind_executor(strand, on_done));
    ioc.run_for(10s);
    BOOST_TEST(calls == 1);
    BOOST_TEST(on_strand); // the handler's associated executor is honoured
    BOOST_TEST(body == "hello");
}

BOOST_AUTO_TEST_CASE(completion_token_use_awaitable_never_throws)
{
    asio::io_context ioc;
    ah::client c(ioc.get_executor());
    auto const port = closed_port();
    run_test(ioc, [&]() -> asio::awaitable<void> {
        // A tuple, not an exception, even on failure.
        auto req2 = get("http://127.0.0.1:" + std::to_string(port) + "/");
        std::tuple<ah::client_error, ah::client_response> result = co_await c.async_request(std::move(req2),
            asio::use_awaitable);
        auto const& err = std::get<0>(result);
        BOOST_TEST((err.code == asio::error::connection_refused), err.message);
        BOOST_TEST(err.message == "connection refused to 127.0.0.1:" + std::to_string(port));
        BOOST_TEST(err.retryable());
    });
}

BOOST_AUTO_TEST_CASE(completion_token_deferred)
{
    asio::io_context ioc;
    test_server srv(ioc);
    ah::client c(ioc.get_executor());
    // Nothing happens until the deferred operation is launched.
    auto op = c.async_request(get(srv.url("/hello")), asio::deferred);
    run_test(ioc, [&]() -> asio::awaitable<void> {
        asio::steady_timer t(ioc, 20ms);
        co_await t.async_wait(asio::use_awaitable);
        BOOST_TEST(srv.requests() == 0);
        auto [err, res] = co_await std::move(op)(asio::use_awaitable);
        BOOST_TEST(!err, err.message);
        BOOST_TEST(res.body == "hello");
        BOOST_TEST(srv.requests() == 1);
    });
}

BOOST_AUTO_TEST_CASE(chunked_body_is_streamed_incrementally)
{
    asio::io_context ioc;
    test_server srv(ioc);
    ah::client c(ioc.get_executor());
    run_test(ioc, [&]() -> asio::awaitable<void> {
        auto req3 = get(srv.url("/chunked"));
        auto [err, stream] = co_await c.async_open(std::move(req3), asio::use_awaitable);
        BOOST_REQUIRE_MESSAGE(!err, err.message);
        BOOST_TEST(stream.status() == 200u);
        BOOST_TEST(stream.headers()[http::field::content_type] == "text/event-stream");
        // The server holds its second chunk until we open the gate: the first
        // must arrive alone, without the client waiting for the whole body.
        auto [e1, first] = co_await stream.async_read_some(asio::use_awaitable);
        BOOST_TEST(!e1, e1.message);
        BOOST_TEST(first == "first");
        srv.open_gate();
        std::string rest;
        for(;;)
        {
            auto [e, piece] = co_await stream.async_read_some(asio::use_awaitable);
            BOOST_REQUIRE_MESSAGE(!e, e.message);
            if(piece.empty())
                break;
            rest += piece;
        }
        BOOST_TEST(rest == "second");
        BOOST_TEST(stream.done());
        BOOST_TEST(c.idle_connections() == 1u); // back in the pool at the end of the body
        auto [e2, after] = co_await stream.async_read_some(asio::use_awaitable);
        BOOST_TEST(!e2);
        BOOST_TEST(after.empty());
    });
}

BOOST_AUTO_TEST_CASE(chunked_encoding_with_extensions_and_trailer)
{
    asio::io_context ioc;
    test_server srv(ioc);
    ah::client c(ioc.get_executor());
    run_test(ioc, [&]() -> asio::awaitable<void> {
        auto req4 = get(srv.url("/chunked-many"));
        auto [err, res] = co_await c.async_request(std::move(req4), asio::use_awaitable);
        BOOST_TEST(!err, err.message);
        std::string expected;
        for(int i = 0; i < 100; ++i)
            expected += "piece-" + std::to_string(i) + ";";
        BOOST_TEST(res.body == expected);
        BOOST_TEST(c.idle_connections() == 1u);
    });
}

BOOST_AUTO_TEST_CASE(read_all_of_a_stream_returns_the_connection)
{
    asio::io_context ioc;
    test_server srv(ioc);
    ah::client c(ioc.get_executor());
    run_test(ioc, [&]() -> asio::awaitable<void> {
        auto req5 = get(srv.url("/chunked-many"));
        auto [err, stream] = co_await c.async_open(std::move(req5), asio::use_awaitable);
        BOOST_REQUIRE(!err);
        auto [e, body] = co_await stream.async_read_all(asio::use_awaitable);
        BOOST_TEST(!e, e.message);
        BOOST_TEST(body.size() == 10u * 8 + 90u * 9); // "piece-N;" with N of one or two digits
        BOOST_TEST(c.idle_connections() == 1u);
    });
}

BOOST_AUTO_TEST_CASE(server_closes_mid_body)
{
    asio::io_context ioc;
    test_server srv(ioc);
    ah::client c(ioc.get_executor());
    run_test(ioc, [&]() -> asio::awaitable<void> {
        auto req6 = get(srv.url("/mid-body"));
        auto [err, res] = co_await c.async_request(std::move(req6), asio::use_awaitable);
        BOOST_TEST((err.code == ah::client_errc::closed_mid_body), err.message);
        BOOST_TEST(err.message == "server closed the connection mid-body (1200 of 5000 bytes) from " + srv.authority());
        BOOST_TEST(err.retryable());
        BOOST_TEST(c.idle_connections() == 0u);
    });
}

BOOST_AUTO_TEST_CASE(idle_timeout_while_waiting_for_the_header)
{
    asio::io_context ioc;
    test_server srv(ioc);
    ah::client_options o;
    o.idle_timeout = 150ms;
    ah::client c(ioc.get_executor(), o);
    run_test(ioc, [&]() -> asio::awaitable<void> {
        auto const t0 = clock_type::now();
        auto req7 = get(srv.url("/stall"));
        auto [err, res] = co_await c.async_request(std::move(req7), asio::use_awaitable);
        auto const took = elapsed_since(t0);
        BOOST_TEST((err.code == ah::client_errc::idle_timeout), err.message);
        BOOST_TEST(err.message == "timed out after 150 ms waiting for data from " + srv.authority());
        BOOST_TEST((took >= 150ms));
        BOOST_TEST((took < 3s));
        BOOST_TEST(c.idle_connections() == 0u);
    });
}

BOOST_AUTO_TEST_CASE(total_timeout_with_a_slow_dripping_body)
{
    asio::io_context ioc;
    test_server srv(ioc);
    ah::client_options o;
    o.idle_timeout = 200ms; // the server sends a byte every 50 ms: never idle that long
    o.total_timeout = 300ms;
    ah::client c(ioc.get_executor(), o);
    run_test(ioc, [&]() -> asio::awaitable<void> {
        auto const t0 = clock_type::now();
        auto req8 = get(srv.url("/drip"));
        auto [err, res] = co_await c.async_request(std::move(req8), asio::use_awaitable);
        auto const took = elapsed_since(t0);
        BOOST_TEST((err.code == ah::client_errc::total_timeout), err.message);
        BOOST_TEST(err.message == "request to " + srv.authority() + " exceeded its total timeout of 300 ms");
        BOOST_TEST((took >= 300ms));
        BOOST_TEST((took < 3s));
        BOOST_TEST(res.body.size() < 100u); // what arrived before the deadline
    });
}

BOOST_AUTO_TEST_CASE(total_timeout_applies_to_streams)
{
    asio::io_context ioc;
    test_server srv(ioc);
    ah::client c(ioc.get_executor());
    run_test(ioc, [&]() -> asio::awaitable<void> {
        auto r = get(srv.url("/drip"));
        r.total_timeout = 250ms;
        auto [err, stream] = co_await c.async_open(std::move(r), asio::use_awaitable);
        BOOST_REQUIRE_MESSAGE(!err, err.message);
        ah::client_error e;
        std::size_t got = 0;
        for(;;)
        {
            auto [e1, piece] = co_await stream.async_read_some(asio::use_awaitable);
            if(e1 || piece.empty())
            {
                e = e1;
                break;
            }
            got += piece.size();
        }
        BOOST_TEST((e.code == ah::client_errc::total_timeout), e.message);
        BOOST_TEST(got > 0u);
        BOOST_TEST(got < 100u);
    });
}

BOOST_AUTO_TEST_CASE(response_body_limit)
{
    asio::io_context ioc;
    test_server srv(ioc);
    ah::client_options o;
    o.max_response_bytes = 1024 * 1024;
    ah::client c(ioc.get_executor(), o);
    run_test(ioc, [&]() -> asio::awaitable<void> {
        // Known from Content-Length: refused before reading the body.
        auto req9 = get(srv.url("/huge"));
        auto [err, res] = co_await c.async_request(std::move(req9), asio::use_awaitable);
        BOOST_TEST((err.code == ah::client_errc::body_too_large), err.message);
        BOOST_TEST(err.message == "response body exceeds 1048576 bytes from " + srv.authority());
        BOOST_TEST(!err.retryable());
        // Chunked: noticed while streaming.
        auto req10 = get(srv.url("/huge-chunked"));
        std::tie(err, res) = co_await c.async_request(std::move(req10), asio::use_awaitable);
        BOOST_TEST((err.code == ah::client_errc::body_too_large), err.message);
        BOOST_TEST(res.body.size() <= 1024u * 1024u);
        // The per-request override lifts it.
        auto big = get(srv.url("/huge-chunked"));
        big.max_response_bytes = 4 * 1024 * 1024;
        std::tie(err, res) = co_await c.async_request(std::move(big), asio::use_awaitable);
        BOOST_TEST(!err, err.message);
        BOOST_TEST(res.body.size() == 2u * 1024u * 1024u);
    });
}

BOOST_AUTO_TEST_CASE(response_header_limit)
{
    asio::io_context ioc;
    test_server srv(ioc);
    ah::client c(ioc.get_executor());
    run_test(ioc, [&]() -> asio::awaitable<void> {
        auto req11 = get(srv.url("/big-header"));
        auto [err, res] = co_await c.async_request(std::move(req11), asio::use_awaitable);
        BOOST_TEST((err.code == ah::client_errc::header_too_large), err.message);
        BOOST_TEST(err.message == "response header exceeds 65536 bytes from " + srv.authority());
    });
}

BOOST_AUTO_TEST_CASE(keep_alive_connection_is_reused)
{
    asio::io_context ioc;
    test_server srv(ioc);
    ah::client c(ioc.get_executor());
    run_test(ioc, [&]() -> asio::awaitable<void> {
        for(int i = 0; i < 10; ++i)
        {
            auto req12 = get(srv.url("/hello"));
            auto [err, res] = co_await c.async_request(std::move(req12), asio::use_awaitable);
            BOOST_REQUIRE_MESSAGE(!err, err.message);
            BOOST_TEST(res.body == "hello");
        }
        BOOST_TEST(srv.accepted() == 1);
        BOOST_TEST(srv.requests() == 10);
        BOOST_TEST(c.stats().connections_opened == 1u);
        BOOST_TEST(c.stats().connections_reused == 9u);
        BOOST_TEST(c.idle_connections() == 1u);
    });
}

BOOST_AUTO_TEST_CASE(head_response_has_no_body_and_keeps_the_connection)
{
    asio::io_context ioc;
    test_server srv(ioc);
    ah::client c(ioc.get_executor());
    run_test(ioc, [&]() -> asio::awaitable<void> {
        ah::client_request r = get(srv.url("/hello"));
        r.method = http::verb::head;
        auto [err, res] = co_await c.async_request(std::move(r), asio::use_awaitable);
        BOOST_TEST(!err, err.message);
        BOOST_TEST(res.status == 200u);
        BOOST_TEST(res.header("content-length") == "5");
        BOOST_TEST(res.body.empty());
        auto req13 = get(srv.url("/hello"));
        std::tie(err, res) = co_await c.async_request(std::move(req13), asio::use_awaitable);
        BOOST_TEST(res.body == "hello");
        BOOST_TEST(srv.accepted() == 1);
    });
}

BOOST_AUTO_TEST_CASE(connection_close_is_not_pooled)
{
    asio::io_context ioc;
    test_server srv(ioc);
    ah::client c(ioc.get_executor());
    run_test(ioc, [&]() -> asio::awaitable<void> {
        auto req14 = get(srv.url("/close-header"));
        auto [err, res] = co_await c.async_request(std::move(req14), asio::use_awaitable);
        BOOST_TEST(!err, err.message);
        BOOST_TEST(res.body == "bye");
        BOOST_TEST(c.idle_connections() == 0u);
        // A request asking for close is not pooled either.
        auto r = get(srv.url("/hello"));
        r.headers.set(http::field::connection, "close");
        std::tie(err, res) = co_await c.async_request(std::move(r), asio::use_awaitable);
        BOOST_TEST(!err, err.message);
        BOOST_TEST(c.idle_connections() == 0u);
        BOOST_TEST(srv.accepted() == 2);
    });
}

BOOST_AUTO_TEST_CASE(status_codes_are_values_with_retry_after)
{
    asio::io_context ioc;
    test_server srv(ioc);
    ah::client c(ioc.get_executor());
    run_test(ioc, [&]() -> asio::awaitable<void> {
        auto req15 = get(srv.url("/status/503"));
        auto [err, res] = co_await c.async_request(std::move(req15), asio::use_awaitable);
        BOOST_TEST(!err);
        BOOST_TEST(res.status == 503u);
        BOOST_TEST(!res.ok());
        BOOST_TEST(res.retry_after().has_value());
        BOOST_TEST(res.retry_after().value_or(0s).count() == 7);
        BOOST_TEST(res.body == "busy");
    });
}

BOOST_AUTO_TEST_CASE(bad_urls_are_errors_with_messages)
{
    asio::io_context ioc;
    ah::client c(ioc.get_executor());
    run_test(ioc, [&]() -> asio::awaitable<void> {
        auto req16 = get("ftp://127.0.0.1/x");
        auto [err, res] = co_await c.async_request(std::move(req16), asio::use_awaitable);
        BOOST_TEST((err.code == ah::client_errc::unsupported_scheme), err.message);
        BOOST_TEST(err.message == "unsupported URL scheme 'ftp' in 'ftp://127.0.0.1/x' (only http and https)");
        auto req17 = get("http://exa mple/");
        std::tie(err, res) = co_await c.async_request(std::move(req17), asio::use_awaitable);
        BOOST_TEST((err.code == ah::client_errc::bad_url), err.message);
        BOOST_TEST(contains(err.message, "invalid URL 'http://exa mple/'"));
        auto req18 = get("http:///path");
        std::tie(err, res) = co_await c.async_request(std::move(req18), asio::use_awaitable);
        BOOST_TEST((err.code == ah::client_errc::bad_url), err.message);
        auto req19 = get("http://127.0.0.1:99999/");
        std::tie(err, res) = co_await c.async_request(std::move(req19), asio::use_awaitable);
        BOOST_TEST((err.code == ah::client_errc::bad_url), err.message);
        BOOST_TEST(!err.retryable());
    });
}

BOOST_AUTO_TEST_CASE(host_names_are_resolved)
{
    asio::io_context ioc;
    test_server srv(ioc);
    ah::client c(ioc.get_executor());
    run_test(ioc, [&]() -> asio::awaitable<void> {
        // "localhost" may resolve to ::1 first, where nobody listens: the next address is tried.
        auto req20 = get(srv.url("/hello", "localhost"));
        auto [err, res] = co_await c.async_request(std::move(req20), asio::use_awaitable);
        BOOST_TEST(!err, err.message);
        BOOST_TEST(res.body == "hello");
        BOOST_TEST(srv.header("Host") == srv.authority("localhost"));
    });
}

BOOST_AUTO_TEST_CASE(stale_pooled_connection_is_retried_once)
{
    asio::io_context ioc;
    test_server srv(ioc);
    ah::client c(ioc.get_executor());
    run_test(ioc, [&]() -> asio::awaitable<void> {
        // The server answers, keeps the connection open, then drops the next
        // request on it without a byte: as a server closing an idle
        // keep-alive connection just as the request goes out.
        auto req21 = get(srv.url("/drop-next"));
        auto [err, res] = co_await c.async_request(std::move(req21), asio::use_awaitable);
        BOOST_REQUIRE(!err);
        ah::client_request post;
        post.method = http::verb::post;
        post.url = srv.url("/echo");
        post.body = "once";
        std::tie(err, res) = co_await c.async_request(std::move(post), asio::use_awaitable);
        BOOST_TEST(!err, err.message);
        BOOST_TEST(res.body == "POST /echo\nonce");
        BOOST_TEST(c.stats().stale_retries == 1u);
        BOOST_TEST(srv.accepted() == 2);
        BOOST_TEST(srv.requests() == 3);
    });
}

BOOST_AUTO_TEST_CASE(connection_closed_by_server_while_idle_is_replaced)
{
    asio::io_context ioc;
    test_server srv(ioc);
    ah::client c(ioc.get_executor());
    run_test(ioc, [&]() -> asio::awaitable<void> {
        auto req22 = get(srv.url("/close-after"));
        auto [err, res] = co_await c.async_request(std::move(req22), asio::use_awaitable);
        BOOST_REQUIRE(!err);
        BOOST_TEST(c.idle_connections() == 1u); // the client could not know
        auto req23 = get(srv.url("/hello"));
        std::tie(err, res) = co_await c.async_request(std::move(req23), asio::use_awaitable);
        BOOST_TEST(!err, err.message);
        BOOST_TEST(res.body == "hello");
        BOOST_TEST(srv.accepted() == 2);
    });
}

BOOST_AUTO_TEST_CASE(an_idle_connection_the_server_closes_leaves_the_pool)
{
    // Not left in CLOSE_WAIT until the next request: the pool watches idle connections.
    asio::io_context ioc;
    test_server srv(ioc);
    ah::client_options o;
    o.watch_idle_connections = true;
    ah::client c(ioc.get_executor(), o);
    run_test(ioc, [&]() -> asio::awaitable<void> {
        auto req = get(srv.url("/close-after"));
        auto [err, res] = co_await c.async_request(std::move(req), asio::use_awaitable);
        BOOST_REQUIRE(!err);
        asio::steady_timer pause(co_await asio::this_coro::executor);
        for(int i = 0; i < 100 && c.idle_connections() != 0; ++i)
        {
            pause.expires_after(std::chrono::milliseconds(10));
            co_await pause.async_wait(asio::use_awaitable);
        }
        BOOST_TEST(c.idle_connections() == 0u);
        auto again = get(srv.url("/hello"));
        std::tie(err, res) = co_await c.async_request(std::move(again), asio::use_awaitable);
        BOOST_TEST(!err, err.message);
        BOOST_TEST(c.stats().stale_retries == 0u); // a fresh connection, not a dead one tried first
    });
}

BOOST_AUTO_TEST_CASE(fresh_connection_closed_without_answer_is_not_retried)
{
    asio::io_context ioc;
    test_server srv(ioc);
    ah::client c(ioc.get_executor());
    run_test(ioc, [&]() -> asio::awaitable<void> {
        auto req24 = get(srv.url("/no-answer"));
        auto [err, res] = co_await c.async_request(std::move(req24), asio::use_awaitable);
        BOOST_TEST((err.code == ah::client_errc::closed_before_response), err.message);
        BOOST_TEST(err.message == "server " + srv.authority() + " closed the connection before responding");
        BOOST_TEST(err.retryable());
        BOOST_TEST(srv.requests() == 1);
        BOOST_TEST(c.stats().stale_retries == 0u);
    });
}

BOOST_AUTO_TEST_CASE(pool_caps_connections_and_serves_waiters_in_order)
{
    asio::io_context ioc;
    test_server srv(ioc);
    ah::client_options o;
    o.max_connections_per_origin = 2;
    ah::client c(ioc.get_executor(), o);
    int done = 0;
    std::vector<std::string> failures;
    for(int i = 0; i < 6; ++i)
        c.async_request(get(srv.url("/slow?" + std::to_string(i))), [&](ah::client_error err, ah::client_response) {
            if(err)
                failures.push_back(err.message);
            if(++done == 6)
                ioc.stop();
        });
    ioc.run_for(10s);
    BOOST_TEST(done == 6);
    BOOST_TEST(failures.empty());
    BOOST_TEST(srv.accepted() == 2);
    auto const& order = srv.state().arrivals;
    BOOST_REQUIRE(order.size() == 6u);
    // First come, first served: requests reach the server pair by pair.
    BOOST_TEST((std::set<std::string>{order[0], order[1]} == std::set<std::string>{"/slow?0", "/slow?1"}));
    BOOST_TEST((std::set<std::string>{order[2], order[3]} == std::set<std::string>{"/slow?2", "/slow?3"}));
    BOOST_TEST((std::set<std::string>{order[4], order[5]} == std::set<std::string>{"/slow?4", "/slow?5"}));
    BOOST_TEST(c.idle_connections() == 2u);
}

BOOST_AUTO_TEST_CASE(waiting_for_a_connection_honours_the_total_timeout)
{
    asio::io_context ioc;
    test_server srv(ioc);
    ah::client_options o;
    o.max_connections_per_origin = 1;
    ah::client c(ioc.get_executor(), o);
    run_test(ioc, [&]() -> asio::awaitable<void> {
        auto first = get(srv.url("/stall"));
        first.total_timeout = 1s;
        c.async_request(std::move(first), [](ah::client_error, ah::client_response) {});
        auto second = get(srv.url("/hello"));
        second.total_timeout = 150ms;
        auto const t0 = clock_type::now();
        auto [err, res] = co_await c.async_request(std::move(second), asio::use_awaitable);
        BOOST_TEST((err.code == ah::client_errc::total_timeout), err.message);
        BOOST_TEST(contains(err.message, "waiting for a free connection to " + srv.authority()));
        BOOST_TEST((elapsed_since(t0) < 900ms)); // not after the first one gave up
        // Once the first one times out, its slot is free again.
        auto req25 = get(srv.url("/hello"));
        std::tie(err, res) = co_await c.async_request(std::move(req25), asio::use_awaitable);
        BOOST_TEST(!err, err.message);
    });
}

BOOST_AUTO_TEST_CASE(cancellation_through_a_bound_slot)
{
    asio::io_context ioc;
    test_server srv(ioc);
    ah::client c(ioc.get_executor());
    run_test(ioc, [&]() -> asio::awaitable<void> {
        asio::cancellation_signal signal;
        auto const t0 = clock_type::now();
        asio::steady_timer t(ioc, 100ms);
        t.async_wait([&](boost::system::error_code) { signal.emit(asio::cancellation_type::terminal); });
        auto stall = get(srv.url("/stall"));
        auto [err, res] = co_await c.async_request(std::move(stall),
            asio::bind_cancellation_slot(signal.slot(), asio::use_awaitable));
        BOOST_TEST((err.code == asio::error::operation_aborted), err.message);
        BOOST_TEST(err.message == "request to " + srv.authority() + " was cancelled");
        BOOST_TEST(!err.retryable());
        BOOST_TEST((elapsed_since(t0) < 2s));
        BOOST_TEST(c.idle_connections() == 0u); // a cancelled connection is never pooled
        auto req26 = get(srv.url("/hello"));
        std::tie(err, res) = co_await c.async_request(std::move(req26), asio::use_awaitable);
        BOOST_TEST(!err, err.message);
        BOOST_TEST(c.stats().connections_opened == 2u);
    });
}

BOOST_AUTO_TEST_CASE(cancellation_by_awaitable_operators)
{
    using namespace asio::experimental::awaitable_operators;
    asio::io_context ioc;
    test_server srv(ioc);
    ah::client c(ioc.get_executor());
    run_test(ioc, [&]() -> asio::awaitable<void> {
        // Keep a connection in the pool, to check the cancelled one does not join it.
        auto req27 = get(srv.url("/hello"));
        auto [err, res] = co_await c.async_request(std::move(req27), asio::use_awaitable);
        BOOST_REQUIRE(!err);
        BOOST_TEST(c.idle_connections() == 1u);

        asio::steady_timer t(ioc, 100ms);
        auto const t0 = clock_type::now();
        auto request = c.async_request(get(srv.url("/stall")), asio::use_awaitable);
        auto timeout = t.async_wait(asio::use_awaitable);
        auto winner = co_await (std::move(request) || std::move(timeout));
        BOOST_TEST(winner.index() == 1u);
        BOOST_TEST((elapsed_since(t0) < 2s));
        BOOST_TEST(c.idle_connections() == 0u);

        // Streams too: cancel a read that waits for the second chunk.
        auto req28 = get(srv.url("/chunked"));
        auto [e, stream] = co_await c.async_open(std::move(req28), asio::use_awaitable);
        BOOST_REQUIRE(!e);
        auto [e1, first] = co_await stream.async_read_some(asio::use_awaitable);
        BOOST_TEST(first == "first");
        t.expires_after(100ms);
        auto read = stream.async_read_some(asio::use_awaitable);
        auto timeout2 = t.async_wait(asio::use_awaitable);
        auto winner2 = co_await (std::move(read) || std::move(timeout2));
        BOOST_TEST(winner2.index() == 1u);
        auto [e2, more] = co_await stream.async_read_some(asio::use_awaitable);
        BOOST_TEST((e2.code == asio::error::operation_aborted), e2.message); // the stream stays failed
        BOOST_TEST(c.idle_connections() == 0u);
    });
}

BOOST_AUTO_TEST_CASE(destroying_a_stream_early_closes_its_connection)
{
    asio::io_context ioc;
    test_server srv(ioc);
    ah::client c(ioc.get_executor());
    run_test(ioc, [&]() -> asio::awaitable<void> {
        {
            auto req29 = get(srv.url("/chunked"));
            auto [err, stream] = co_await c.async_open(std::move(req29), asio::use_awaitable);
            BOOST_REQUIRE(!err);
            auto [e1, first] = co_await stream.async_read_some(asio::use_awaitable);
            BOOST_TEST(first == "first");
        } // half-read: must not go back to the pool
        BOOST_TEST(c.idle_connections() == 0u);
        auto req30 = get(srv.url("/hello"));
        auto [err, res] = co_await c.async_request(std::move(req30), asio::use_awaitable);
        BOOST_TEST(!err, err.message);
        BOOST_TEST(srv.accepted() == 2);
    });
}

BOOST_AUTO_TEST_CASE(closing_a_stream_with_a_read_pending)
{
    asio::io_context ioc;
    test_server srv(ioc);
    ah::client c(ioc.get_executor());
    run_test(ioc, [&]() -> asio::awaitable<void> {
        auto url = srv.url("/chunked");
        co_await close_with_a_read_pending(c, srv, std::move(url));
    });
}

BOOST_AUTO_TEST_CASE(concurrent_requests_from_several_threads)
{
    asio::io_context ioc(4);
    test_server srv(ioc);
    ah::client_options o;
    o.max_connections_per_origin = 4;
    ah::client c(ioc.get_executor(), o);
    std::atomic<int> ok{0};
    std::atomic<int> failed{0};
    std::atomic<int> finished{0};
    constexpr int workers = 16;
    constexpr int per_worker = 25;
    auto work = [&]() -> asio::awaitable<void> {
        for(int i = 0; i < per_worker; ++i)
        {
            auto req31 = get(srv.url("/json"));
            auto [err, res] = co_await c.async_request(std::move(req31), asio::use_awaitable);
            if(!err && res.status == 200 && res.body == R"({"ok":true,"items":[1,2,3]})")
                ++ok;
            else
                ++failed;
        }
        if(++finished == workers)
            ioc.stop();
    };
    for(int w = 0; w < workers; ++w)
        asio::co_spawn(asio::make_strand(ioc), work(), asio::detached);
    std::vector<std::thread> threads;
    for(int t = 0; t < 4; ++t)
        threads.emplace_back([&] { ioc.run_for(30s); });
    for(auto& t : threads)
        t.join();
    BOOST_TEST(ok.load() == workers * per_worker);
    BOOST_TEST(failed.load() == 0);
    BOOST_TEST(srv.accepted() <= 4);
    BOOST_TEST(c.idle_connections() <= 4u);
}

BOOST_AUTO_TEST_SUITE_END()

// ===========================================================================
BOOST_AUTO_TEST_SUITE(http_client_tls)

BOOST_AUTO_TEST_CASE(https_to_an_ip_address)
{
    asio::io_context ioc;
    test_server srv(ioc, server_kind::tls, tls().server(tls().good));
    ah::client_options o;
    o.tls = tls().client();
    ah::client c(ioc.get_executor(), o);
    run_test(ioc, [&]() -> asio::awaitable<void> {
        auto req32 = get(srv.url("/hello"));
        auto [err, res] = co_await c.async_request(std::move(req32), asio::use_awaitable);
        BOOST_TEST(!err, err.message);
        BOOST_TEST(res.body == "hello");
        std::lock_guard lock(srv.state().mutex);
        BOOST_TEST(srv.state().last_sni.empty()); // no SNI for IP addresses (RFC 6066)
    });
}

BOOST_AUTO_TEST_CASE(https_to_a_name_sends_sni_and_reuses_the_connection)
{
    asio::io_context ioc;
    test_server srv(ioc, server_kind::tls, tls().server(tls().good));
    ah::client_options o;
    o.tls = tls().client();
    ah::client c(ioc.get_executor(), o);
    run_test(ioc, [&]() -> asio::awaitable<void> {
        for(int i = 0; i < 5; ++i)
        {
            auto req33 = get(srv.url("/chunked-many", "localhost"));
            auto [err, res] = co_await c.async_request(std::move(req33), asio::use_awaitable);
            BOOST_REQUIRE_MESSAGE(!err, err.message);
            BOOST_TEST(res.body.size() == 890u);
        }
        BOOST_TEST(srv.accepted() == 1);
        std::lock_guard lock(srv.state().mutex);
        BOOST_TEST(srv.state().last_sni == "localhost");
    });
}

BOOST_AUTO_TEST_CASE(certificate_for_another_host_is_refused)
{
    asio::io_context ioc;
    test_server srv(ioc, server_kind::tls, tls().server(tls().wrong_host));
    ah::client_options o;
    o.tls = tls().client();
    ah::client c(ioc.get_executor(), o);
    run_test(ioc, [&]() -> asio::awaitable<void> {
        auto req34 = get(srv.url("/hello", "localhost"));
        auto [err, res] = co_await c.async_request(std::move(req34), asio::use_awaitable);
        BOOST_TEST((err.code == ah::client_errc::tls_verify_failed), err.message);
        BOOST_TEST(err.message ==
            "certificate verify failed for " + srv.authority("localhost") + " (hostname mismatch)");
        BOOST_TEST(!err.retryable());
        BOOST_TEST(srv.requests() == 0);
    });
}

BOOST_AUTO_TEST_CASE(ip_address_must_be_in_the_certificate)
{
    asio::io_context ioc;
    test_server srv(ioc, server_kind::tls, tls().server(tls().name_only));
    ah::client_options o;
    o.tls = tls().client();
    ah::client c(ioc.get_executor(), o);
    run_test(ioc, [&]() -> asio::awaitable<void> {
        auto req35 = get(srv.url("/hello"));
        auto [err, res] = co_await c.async_request(std::move(req35), asio::use_awaitable);
        BOOST_TEST((err.code == ah::client_errc::tls_verify_failed), err.message);
        BOOST_TEST(err.message == "certificate verify failed for " + srv.authority() + " (IP address mismatch)");
        // The same certificate is fine by name.
        auto req36 = get(srv.url("/hello", "localhost"));
        std::tie(err, res) = co_await c.async_request(std::move(req36), asio::use_awaitable);
        BOOST_TEST(!err, err.message);
    });
}

BOOST_AUTO_TEST_CASE(untrusted_ca_is_refused_with_the_default_context)
{
    asio::io_context ioc;
    test_server srv(ioc, server_kind::tls, tls().server(tls().good));
    ah::client c(ioc.get_executor()); // system store: the test CA is unknown
    run_test(ioc, [&]() -> asio::awaitable<void> {
        auto req37 = get(srv.url("/hello"));
        auto [err, res] = co_await c.async_request(std::move(req37), asio::use_awaitable);
        BOOST_TEST((err.code == ah::client_errc::tls_verify_failed), err.message);
        BOOST_TEST(err.message ==
            "certificate verify failed for " + srv.authority() + " (unable to get local issuer certificate)");
        BOOST_TEST(srv.requests() == 0);
    });
}

BOOST_AUTO_TEST_CASE(tls_handshake_counts_against_the_connect_timeout)
{
    asio::io_context ioc;
    test_server srv(ioc, server_kind::silent);
    ah::client_options o;
    o.tls = tls().client();
    o.connect_timeout = 200ms;
    ah::client c(ioc.get_executor(), o);
    run_test(ioc, [&]() -> asio::awaitable<void> {
        auto const t0 = clock_type::now();
        auto req38 = get(srv.url("/hello"));
        auto [err, res] = co_await c.async_request(std::move(req38), asio::use_awaitable);
        BOOST_TEST((err.code == ah::client_errc::connect_timeout), err.message);
        BOOST_TEST(err.message == "timed out after 200 ms connecting to " + srv.authority());
        BOOST_TEST(err.retryable());
        BOOST_TEST((elapsed_since(t0) >= 200ms));
        BOOST_TEST((elapsed_since(t0) < 3s));
    });
}

BOOST_AUTO_TEST_CASE(tls_server_closing_mid_body)
{
    asio::io_context ioc;
    test_server srv(ioc, server_kind::tls, tls().server(tls().good));
    ah::client_options o;
    o.tls = tls().client();
    ah::client c(ioc.get_executor(), o);
    run_test(ioc, [&]() -> asio::awaitable<void> {
        auto req39 = get(srv.url("/mid-body"));
        auto [err, res] = co_await c.async_request(std::move(req39), asio::use_awaitable);
        BOOST_TEST((err.code == ah::client_errc::closed_mid_body), err.message);
        BOOST_TEST(err.message == "server closed the connection mid-body (1200 of 5000 bytes) from " + srv.authority());
    });
}

BOOST_AUTO_TEST_CASE(tls_stream_is_incremental)
{
    asio::io_context ioc;
    test_server srv(ioc, server_kind::tls, tls().server(tls().good));
    ah::client_options o;
    o.tls = tls().client();
    ah::client c(ioc.get_executor(), o);
    run_test(ioc, [&]() -> asio::awaitable<void> {
        auto req40 = get(srv.url("/chunked"));
        auto [err, stream] = co_await c.async_open(std::move(req40), asio::use_awaitable);
        BOOST_REQUIRE_MESSAGE(!err, err.message);
        auto [e1, first] = co_await stream.async_read_some(asio::use_awaitable);
        BOOST_TEST(first == "first");
        srv.open_gate();
        auto [e2, rest] = co_await stream.async_read_all(asio::use_awaitable);
        BOOST_TEST(!e2, e2.message);
        BOOST_TEST(rest == "second");
        BOOST_TEST(c.idle_connections() == 1u);
    });
}

BOOST_AUTO_TEST_CASE(closing_a_tls_stream_with_a_read_pending)
{
    asio::io_context ioc;
    test_server srv(ioc, server_kind::tls, tls().server(tls().good));
    ah::client_options o;
    o.tls = tls().client();
    ah::client c(ioc.get_executor(), o);
    run_test(ioc, [&]() -> asio::awaitable<void> {
        auto url = srv.url("/chunked");
        co_await close_with_a_read_pending(c, srv, std::move(url));
    });
}

BOOST_AUTO_TEST_SUITE_END()

// ===========================================================================
// A forward proxy: CONNECT tunnels (recorded) and absolute-form requests
// (answered itself).

namespace {

struct proxy_state
{
    explicit proxy_state(asio::io_context& ioc) : acceptor(ioc) {}

    tcp::acceptor acceptor;
    bool refuse = false;
    int tunnels = 0;
    std::vector<std::string> targets;
    std::vector<std::string> authorizations;
    std::vector<std::string> hosts;
};

asio::awaitable<void> relay(tcp::socket& from, tcp::socket& to)
{
    char data[16 * 1024];
    for(;;)
    {
        auto [ec, n] = co_await from.async_read_some(asio::buffer(data), tuple_awaitable);
        if(ec)
            break;
        auto [wec, wn] = co_await asio::async_write(to, asio::buffer(data, n), tuple_awaitable);
        if(wec)
            break;
    }
    beast::error_code ignored;
    from.close(ignored);
    to.close(ignored);
}

asio::awaitable<void> proxy_session(std::shared_ptr<proxy_state> st, tcp::socket socket)
{
    beast::flat_buffer buf;
    http::request_parser<http::string_body> parser;
    auto [ec, n] = co_await http::async_read(socket, buf, parser, tuple_awaitable);
    if(ec)
        co_return;
    auto const& req = parser.get();
    st->targets.emplace_back(req.target());
    st->authorizations.emplace_back(req[http::field::proxy_authorization]);
    st->hosts.emplace_back(req[http::field::host]);
    if(req.method() != http::verb::connect)
    {
        http::response<http::string_body> res{http::status::ok, 11};
        res.body() = "via proxy " + std::string(req.target());
        res.keep_alive(false);
        res.prepare_payload();
        co_await http::async_write(socket, res, tuple_awaitable);
        co_return;
    }
    if(st->refuse)
    {
        co_await write_raw(socket, "HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n");
        co_return;
    }
    std::string const target(req.target());
    auto const colon = target.rfind(':');
    tcp::resolver resolver(socket.get_executor());
    std::string const host = target.substr(0, colon);
    std::string const port = target.substr(colon + 1);
    auto [rec, results] = co_await resolver.async_resolve(host, port, tuple_awaitable);
    tcp::socket upstream(socket.get_executor());
    if(!rec)
        std::tie(rec, std::ignore) = co_await asio::async_connect(upstream, results, tuple_awaitable);
    if(rec)
    {
        co_await write_raw(socket, "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n");
        co_return;
    }
    ++st->tunnels;
    if(!co_await write_raw(socket, "HTTP/1.1 200 Connection established\r\n\r\n"))
        co_return;
    using namespace asio::experimental::awaitable_operators;
    co_await (relay(socket, upstream) && relay(upstream, socket));
}

class test_proxy
{
public:
    explicit test_proxy(asio::io_context& ioc) : st_(std::make_shared<proxy_state>(ioc))
    {
        tcp::endpoint const ep(asio::ip::make_address("127.0.0.1"), 0);
        st_->acceptor.open(ep.protocol());
        st_->acceptor.bind(ep);
        st_->acceptor.listen();
        asio::co_spawn(st_->acceptor.get_executor(), loop(st_), asio::detached);
    }

    ~test_proxy()
    {
        beast::error_code ignored;
        st_->acceptor.close(ignored);
    }

    std::string authority() const { return "127.0.0.1:" + std::to_string(st_->acceptor.local_endpoint().port()); }
    proxy_state& state() { return *st_; }

private:
    static asio::awaitable<void> loop(std::shared_ptr<proxy_state> st)
    {
        for(;;)
        {
            auto [ec, socket] = co_await st->acceptor.async_accept(tuple_awaitable);
            if(ec)
                co_return;
            auto const ex = socket.get_executor();
            asio::co_spawn(ex, proxy_session(st, std::move(socket)), asio::detached);
        }
    }

    std::shared_ptr<proxy_state> st_;
};

} // namespace

BOOST_AUTO_TEST_SUITE(http_client_proxy)

BOOST_AUTO_TEST_CASE(https_through_a_connect_tunnel)
{
    asio::io_context ioc;
    test_server srv(ioc, server_kind::tls, tls().server(tls().good));
    test_proxy proxy(ioc);
    ah::client_options o;
    o.tls = tls().client();
    o.proxy.https_proxy = "http://user:s%40cret@" + proxy.authority();
    ah::client c(ioc.get_executor(), o);
    run_test(ioc, [&]() -> asio::awaitable<void> {
        for(int i = 0; i < 3; ++i)
        {
            auto req41 = get(srv.url("/hello", "localhost"));
            auto [err, res] = co_await c.async_request(std::move(req41), asio::use_awaitable);
            BOOST_REQUIRE_MESSAGE(!err, err.message);
            BOOST_TEST(res.body == "hello");
        }
        auto const& st = proxy.state();
        BOOST_TEST(st.tunnels == 1); // the tunnelled connection is pooled and reused
        BOOST_REQUIRE(st.targets.size() == 1u);
        BOOST_TEST(st.targets[0] == srv.authority("localhost"));
        BOOST_TEST(st.hosts[0] == srv.authority("localhost"));
        BOOST_TEST(st.authorizations[0] == "Basic dXNlcjpzQGNyZXQ="); // user:s@cret
        std::lock_guard lock(srv.state().mutex);
        BOOST_TEST(srv.state().last_sni == "localhost"); // TLS is end to end, with the target's name
    });
}

BOOST_AUTO_TEST_CASE(proxy_refusing_connect)
{
    asio::io_context ioc;
    test_server srv(ioc, server_kind::tls, tls().server(tls().good));
    test_proxy proxy(ioc);
    proxy.state().refuse = true;
    ah::client_options o;
    o.tls = tls().client();
    o.proxy.https_proxy = proxy.authority(); // no scheme: http
    ah::client c(ioc.get_executor(), o);
    run_test(ioc, [&]() -> asio::awaitable<void> {
        auto req42 = get(srv.url("/hello"));
        auto [err, res] = co_await c.async_request(std::move(req42), asio::use_awaitable);
        BOOST_TEST((err.code == ah::client_errc::proxy_refused), err.message);
        BOOST_TEST(err.message ==
            "proxy " + proxy.authority() + " refused CONNECT to " + srv.authority() + ": 403 Forbidden");
        BOOST_TEST(srv.accepted() == 0);
    });
}

BOOST_AUTO_TEST_CASE(proxy_connection_refused_names_the_proxy)
{
    asio::io_context ioc;
    ah::client_options o;
    auto const port = closed_port();
    o.proxy.https_proxy = "http://127.0.0.1:" + std::to_string(port);
    ah::client c(ioc.get_executor(), o);
    run_test(ioc, [&]() -> asio::awaitable<void> {
        auto req43 = get("https://api.example.test/v1");
        auto [err, res] = co_await c.async_request(std::move(req43), asio::use_awaitable);
        BOOST_TEST((err.code == asio::error::connection_refused), err.message);
        BOOST_TEST(err.message == "connection refused to proxy 127.0.0.1:" + std::to_string(port));
    });
}

BOOST_AUTO_TEST_CASE(http_through_a_proxy_in_absolute_form)
{
    asio::io_context ioc;
    test_proxy proxy(ioc);
    ah::client_options o;
    o.proxy.http_proxy = "http://agent:pw@" + proxy.authority();
    ah::client c(ioc.get_executor(), o);
    run_test(ioc, [&]() -> asio::awaitable<void> {
        // The name need not resolve: the proxy does that.
        auto req44 = get("http://api.example.test:8080/v1/x?y=1");
        auto [err, res] = co_await c.async_request(std::move(req44), asio::use_awaitable);
        BOOST_TEST(!err, err.message);
        BOOST_TEST(res.body == "via proxy http://api.example.test:8080/v1/x?y=1");
        auto const& st = proxy.state();
        BOOST_REQUIRE(st.hosts.size() == 1u);
        BOOST_TEST(st.hosts[0] == "api.example.test:8080");
        BOOST_TEST(st.authorizations[0] == "Basic YWdlbnQ6cHc=");
    });
}

BOOST_AUTO_TEST_CASE(no_proxy_goes_direct)
{
    asio::io_context ioc;
    test_server srv(ioc);
    test_proxy proxy(ioc);
    ah::client_options o;
    o.proxy.http_proxy = proxy.authority();
    o.proxy.no_proxy = "example.com, 127.0.0.1";
    ah::client c(ioc.get_executor(), o);
    run_test(ioc, [&]() -> asio::awaitable<void> {
        auto req45 = get(srv.url("/hello"));
        auto [err, res] = co_await c.async_request(std::move(req45), asio::use_awaitable);
        BOOST_TEST(!err, err.message);
        BOOST_TEST(res.body == "hello");
        BOOST_TEST(proxy.state().targets.empty());
        // Not listed: through the proxy.
        auto req46 = get(srv.url("/hello", "localhost"));
        std::tie(err, res) = co_await c.async_request(std::move(req46), asio::use_awaitable);
        BOOST_TEST(!err, err.message);
        BOOST_TEST(res.body == "via proxy " + srv.url("/hello", "localhost"));
    });
}

BOOST_AUTO_TEST_CASE(no_proxy_rules)
{
    ah::proxy_settings p;
    p.no_proxy = " .example.com,api.test:8443, 10.0.0.0/8,[::1], 192.168.1.7 ,fd00::/8";
    BOOST_TEST(p.bypass("example.com", 443));
    BOOST_TEST(p.bypass("API.Example.com", 443));
    BOOST_TEST(!p.bypass("badexample.com", 443));
    BOOST_TEST(p.bypass("api.test", 8443));
    BOOST_TEST(!p.bypass("api.test", 443));
    BOOST_TEST(p.bypass("10.1.2.3", 80));
    BOOST_TEST(!p.bypass("11.1.2.3", 80));
    BOOST_TEST(p.bypass("::1", 80));
    BOOST_TEST(p.bypass("[::1]", 80));
    BOOST_TEST(p.bypass("fd12::5", 80));
    BOOST_TEST(p.bypass("192.168.1.7", 80));
    BOOST_TEST(!p.bypass("127.0.0.1", 80)); // loopback is not implicitly exempt
    BOOST_TEST(!p.bypass("localhost", 80));
    p.no_proxy = "*";
    BOOST_TEST(p.bypass("anything.at.all", 1));
    p.no_proxy = "";
    BOOST_TEST(!p.bypass("example.com", 443));
    p.no_proxy = "example.com";
    BOOST_TEST(p.bypass("sub.example.com", 1)); // as curl: a bare domain covers its subdomains
}

BOOST_AUTO_TEST_CASE(settings_from_the_environment)
{
    auto clear = [] {
        for(char const* v :
            {"https_proxy", "HTTPS_PROXY", "http_proxy", "HTTP_PROXY", "no_proxy", "NO_PROXY", "REQUEST_METHOD"})
            ::unsetenv(v);
    };
    struct restore
    {
        decltype(clear)& f;
        ~restore() { f(); }
    } restore_env{clear};
    clear();
    ::setenv("HTTPS_PROXY", "http://upper:3128", 1);
    ::setenv("https_proxy", "http://lower:3128", 1);
    ::setenv("HTTP_PROXY", "http://plain:3128", 1);
    ::setenv("NO_PROXY", "localhost", 1);
    auto s = ah::proxy_settings::from_environment();
    BOOST_TEST(s.https_proxy == "http://lower:3128"); // lower case first, as curl
    BOOST_TEST(s.http_proxy == "http://plain:3128");
    BOOST_TEST(s.no_proxy == "localhost");
    ::setenv("REQUEST_METHOD", "GET", 1); // a CGI program: HTTP_PROXY may come from the client ("httpoxy")
    s = ah::proxy_settings::from_environment();
    BOOST_TEST(s.http_proxy.empty());
}

BOOST_AUTO_TEST_SUITE_END()

// ===========================================================================
// Client spans: a request with a traceparent is traced, its child's context goes out.

namespace {

using agentio_test::finished_spans;
using agentio_test::tracing_on;

// Absent attributes read "<absent>", to tell them from empty ones.
std::string attribute_text(agentio::trace::span_data const& d, std::string_view key)
{
    for(auto const& a : d.attributes)
        if(a.key == key)
            return agentio_test::attribute_text(d, key);
    return "<absent>";
}

constexpr std::string_view caller_traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

} // namespace

BOOST_AUTO_TEST_SUITE(http_client_spans)

BOOST_AUTO_TEST_CASE(a_traced_request_is_a_child_span_whose_context_goes_out)
{
    asio::io_context ioc;
    test_server srv(ioc);
    agentio::trace::tracer tracer(tracing_on());
    ah::client_options o;
    o.tracer = &tracer;
    ah::client c(ioc.get_executor(), o);
    run_test(ioc, [&]() -> asio::awaitable<void> {
        ah::client_request r;
        r.method = http::verb::post;
        r.url = "http://user:secret@" + srv.authority() + "/echo?api_key=sk-123&q=hola#frag";
        r.headers.set("traceparent", caller_traceparent);
        auto [err, res] = co_await c.async_request(std::move(r), asio::use_awaitable);
        BOOST_TEST(!err, err.message);
        BOOST_TEST(res.status == 200u);
    });
    auto const spans = finished_spans(tracer);
    BOOST_REQUIRE_EQUAL(spans.size(), 1u);
    auto const& span = spans.front();
    auto const caller = agentio::trace::parse_traceparent(caller_traceparent).value();
    BOOST_TEST(span.name == "POST");
    BOOST_TEST(static_cast<int>(span.kind) == static_cast<int>(agentio::trace::span_kind::client));
    BOOST_TEST((span.context.trace_id == caller.trace_id));
    BOOST_TEST((span.parent_span_id == caller.span_id));
    BOOST_TEST(static_cast<int>(span.status) == static_cast<int>(agentio::trace::status_code::unset));
    BOOST_TEST(attribute_text(span, "http.request.method") == "POST");
    BOOST_TEST(attribute_text(span, "server.address") == "127.0.0.1");
    BOOST_TEST(attribute_text(span, "server.port") == srv.authority().substr(srv.authority().rfind(':') + 1));
    BOOST_TEST(attribute_text(span, "http.response.status_code") == "200");
    // No credentials, no query value, no fragment.
    BOOST_TEST(attribute_text(span, "url.full") ==
        "http://REDACTED:REDACTED@" + srv.authority() + "/echo?api_key=REDACTED&q=REDACTED");
    // The server got the client span's context, not the caller's.
    BOOST_TEST(srv.header("traceparent") == agentio::trace::format_traceparent(span.context));
}

BOOST_AUTO_TEST_CASE(an_error_status_or_a_failure_marks_the_span)
{
    asio::io_context ioc;
    test_server srv(ioc);
    agentio::trace::tracer tracer(tracing_on());
    ah::client_options o;
    o.tracer = &tracer;
    o.connect_timeout = 2s;
    ah::client c(ioc.get_executor(), o);
    // A port nobody listens on: bound, then closed.
    std::string refused_url;
    {
        tcp::acceptor a(ioc, {asio::ip::make_address("127.0.0.1"), 0});
        refused_url = "http://127.0.0.1:" + std::to_string(a.local_endpoint().port()) + "/";
    }
    run_test(ioc, [&]() -> asio::awaitable<void> {
        auto busy = get(srv.url("/status/503"));
        busy.headers.set("traceparent", caller_traceparent);
        auto [err, res] = co_await c.async_request(std::move(busy), asio::use_awaitable);
        BOOST_TEST(!err);
        BOOST_TEST(res.status == 503u);
        auto nobody = get(refused_url);
        nobody.headers.set("traceparent", caller_traceparent);
        std::tie(err, res) = co_await c.async_request(std::move(nobody), asio::use_awaitable);
        BOOST_TEST(bool(err));
    });
    auto const spans = finished_spans(tracer);
    BOOST_REQUIRE_EQUAL(spans.size(), 2u);
    BOOST_TEST(static_cast<int>(spans[0].status) == static_cast<int>(agentio::trace::status_code::error));
    BOOST_TEST(attribute_text(spans[0], "http.response.status_code") == "503");
    BOOST_TEST(attribute_text(spans[0], "error.type") == "503");
    BOOST_TEST(static_cast<int>(spans[1].status) == static_cast<int>(agentio::trace::status_code::error));
    BOOST_TEST(attribute_text(spans[1], "error.type") != "<absent>");
    BOOST_TEST(attribute_text(spans[1], "http.response.status_code") == "<absent>");
    BOOST_TEST(contains(spans[1].status_message, "127.0.0.1"), spans[1].status_message);
}

BOOST_AUTO_TEST_CASE(a_streamed_body_ends_its_span_at_its_end)
{
    asio::io_context ioc;
    test_server srv(ioc);
    agentio::trace::tracer tracer(tracing_on());
    ah::client_options o;
    o.tracer = &tracer;
    ah::client c(ioc.get_executor(), o);
    std::uint64_t ended_with_the_header = 99;
    run_test(ioc, [&]() -> asio::awaitable<void> {
        auto r = get(srv.url("/chunked"));
        r.headers.set("traceparent", caller_traceparent);
        auto [err, stream] = co_await c.async_open(std::move(r), asio::use_awaitable);
        BOOST_REQUIRE_MESSAGE(!err, err.message);
        ended_with_the_header = tracer.ended();
        srv.open_gate();
        auto [e, all] = co_await stream.async_read_all(asio::use_awaitable);
        BOOST_TEST(!e, e.message);
        BOOST_TEST(all == "firstsecond");
    });
    BOOST_TEST(ended_with_the_header == 0u); // open while the body streams
    auto const spans = finished_spans(tracer);
    BOOST_REQUIRE_EQUAL(spans.size(), 1u);
    BOOST_TEST(spans[0].name == "GET");
    BOOST_TEST(static_cast<int>(spans[0].status) == static_cast<int>(agentio::trace::status_code::unset));
}

BOOST_AUTO_TEST_CASE(a_request_without_context_or_a_tracer_off_records_nothing)
{
    asio::io_context ioc;
    test_server srv(ioc);
    agentio::trace::tracer on(tracing_on());
    agentio::trace::tracer off;
    ah::client_options with_on;
    with_on.tracer = &on;
    ah::client_options with_off;
    with_off.tracer = &off;
    ah::client traced(ioc.get_executor(), with_on);
    ah::client untraced(ioc.get_executor(), with_off);
    run_test(ioc, [&]() -> asio::awaitable<void> {
        auto plain = get(srv.url("/echo")); // no traceparent: an exporter's own POST looks like this
        auto [err, res] = co_await traced.async_request(std::move(plain), asio::use_awaitable);
        BOOST_TEST(!err);
        BOOST_TEST(srv.header("traceparent").empty());
        auto malformed = get(srv.url("/echo"));
        malformed.headers.set("traceparent", "00-zz");
        std::tie(err, res) = co_await traced.async_request(std::move(malformed), asio::use_awaitable);
        BOOST_TEST(!err);
        auto passed = get(srv.url("/echo"));
        passed.headers.set("traceparent", caller_traceparent);
        std::tie(err, res) = co_await untraced.async_request(std::move(passed), asio::use_awaitable);
        BOOST_TEST(!err);
        // A tracer that is off passes the caller's context on unchanged.
        BOOST_TEST(srv.header("traceparent") == caller_traceparent);
    });
    BOOST_TEST(on.ended() == 0u);
    BOOST_TEST(off.ended() == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
