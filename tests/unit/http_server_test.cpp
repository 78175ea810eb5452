// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Test that header file is self-contained.
#include <agentio/http/server.hpp>

#include "test_http.hpp"
#include "test_tls.hpp"

#include <agentio/http/client.hpp>
#include <agentio/http/metrics.hpp>
#include <agentio/http/request_log.hpp>
#include <agentio/http/router.hpp>
#include <agentio/http/url.hpp>
#include <agentio/sse/parser.hpp>
#include <agentio/sse/writer.hpp>

#include <boost/asio/bind_cancellation_slot.hpp>

#include <boost/asio/io_context.hpp>
#include <boost/json/parse.hpp>
#include <boost/test/unit_test.hpp>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <tuple>
#include <vector>

namespace asio = boost::asio;
namespace http = boost::beast::http;
using agentio::http::request;

namespace {

// Echoes method, target and body; /throw throws; /slow waits before answering.
struct echo_handler
{
    std::shared_ptr<std::atomic<int>> calls = std::make_shared<std::atomic<int>>(0);

    asio::awaitable<http::message_generator> operator()(request&& req)
    {
        ++*calls;
        if(req.target() == "/throw")
            throw std::runtime_error("handler bug");
        agentio::http::response res{http::status::ok, req.version()};
        res.set(http::field::content_type, "text/plain");
        res.body() = std::string(req.method_string()) + " " + std::string(req.target()) + " " + req.body();
        res.keep_alive(req.keep_alive());
        res.prepare_payload();
        co_return res;
    }
};

// Streams three events on /events; on /wait, waits for the client to leave.
struct streaming_handler
{
    std::shared_ptr<std::atomic<int>> cancelled = std::make_shared<std::atomic<int>>(0);

    asio::awaitable<std::optional<http::message_generator>> operator()(request&& req, boost::beast::tcp_stream& stream)
    {
        if(req.target() != "/events" && req.target() != "/wait")
        {
            agentio::http::response res{http::status::ok, req.version()};
            res.body() = "plain";
            res.prepare_payload();
            co_return http::message_generator(std::move(res));
        }
        agentio::sse::writer w(stream, {.heartbeat = {}});
        if(!(co_await w.start(req.version())))
        {
            if(req.target() == "/events")
            {
                for(int i = 0; i < 3; ++i)
                    co_await w.send("chunk", "{\"i\":" + std::to_string(i) + "}");
            }
            else
            {
                asio::steady_timer work(stream.get_executor(), std::chrono::seconds(20));
                auto [ec] = co_await work.async_wait(asio::bind_cancellation_slot(w.disconnect_slot(),
                    asio::as_tuple(asio::use_awaitable)));
                if(ec == asio::error::operation_aborted)
                    ++*cancelled;
            }
        }
        co_await w.finish();
        co_return std::nullopt;
    }
};

// The streaming handler once more, compiled once for any transport: it takes
// the type-erased stream, as an application serving TCP and TLS does.
struct any_stream_handler
{
    asio::awaitable<std::optional<http::message_generator>> operator()(request&& req, agentio::http::any_stream& stream)
    {
        if(req.target() != "/events")
        {
            agentio::http::response res{http::status::ok, req.version()};
            res.body() = "plain";
            res.keep_alive(req.keep_alive());
            res.prepare_payload();
            co_return http::message_generator(std::move(res));
        }
        agentio::sse::basic_writer w(stream, {.heartbeat = {}});
        if(!(co_await w.start(req.version())))
            for(int i = 0; i < 3; ++i)
                co_await w.send("chunk", "{\"i\":" + std::to_string(i) + "}");
        co_await w.finish();
        co_return std::nullopt;
    }
};
static_assert(agentio::http::request_handler<any_stream_handler>);

// A server on 127.0.0.1:<ephemeral> run by two threads for the test's duration.
template<class Handler = echo_handler>
struct running_server
{
    asio::io_context ioc{2};
    agentio::http::server<Handler> server;
    asio::ip::tcp::endpoint ep;
    std::vector<std::thread> threads;

    explicit running_server(agentio::http::server_options opt = {})
        : server(ioc.get_executor(), Handler{}, std::move(opt))
    {
        ep = server.listen({asio::ip::make_address("127.0.0.1"), 0}).value();
        server.start();
        for(int i = 0; i < 2; ++i)
            threads.emplace_back([this] { ioc.run(); });
    }
    ~running_server()
    {
        server.stop();
        ioc.stop();
        for(auto& t : threads)
            t.join();
    }
};

} // namespace

BOOST_AUTO_TEST_SUITE(http_server)

BOOST_AUTO_TEST_CASE(answers_and_keeps_the_connection_alive)
{
    running_server<> s;
    BOOST_TEST(s.ep.port() != 0);
    // Three requests pipelined on one connection, the last one closing it.
    std::string const out = test_http::raw(s.ep,
        "GET /a HTTP/1.1\r\nHost: x\r\n\r\n"
        "POST /b HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"
        "GET /c HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    BOOST_TEST(out.find("GET /a ") != std::string::npos);
    BOOST_TEST(out.find("POST /b hello") != std::string::npos);
    BOOST_TEST(out.find("GET /c ") != std::string::npos);
    BOOST_TEST(*s.server.handler().calls == 3);
}

BOOST_AUTO_TEST_CASE(head_answers_carry_no_body)
{
    running_server<> s;
    // The handler builds a body for HEAD too; the server sends its header only, and the
    // next response on the connection is read where it starts.
    std::string const out = test_http::raw(s.ep,
        "HEAD /a HTTP/1.1\r\nHost: x\r\n\r\n"
        "GET /b HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    auto const second = out.find("HTTP/1.1 200 OK", 1);
    BOOST_TEST_REQUIRE(second != std::string::npos, out);
    std::string const first = out.substr(0, second);
    BOOST_TEST(first.ends_with("\r\n\r\n"), first);
    BOOST_TEST(first.find("Content-Length: 8\r\n") != std::string::npos, first); // "HEAD /a " as a GET would get it
    BOOST_TEST(out.find("HEAD /a") == std::string::npos);                        // no body
    BOOST_TEST(out.ends_with("GET /b "));
}

BOOST_AUTO_TEST_CASE(an_oversized_body_is_413_without_reading_it)
{
    agentio::http::server_options opt;
    opt.max_body_bytes = 1000;
    running_server<> s(opt);
    auto const out = test_http::raw(s.ep, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1001\r\n\r\n");
    BOOST_TEST(out.starts_with("HTTP/1.1 413"));
    BOOST_TEST(out.find("Content-Type: application/problem+json\r\n") != std::string::npos, out);
    BOOST_TEST(
        out.find(
            R"({"title":"Payload Too Large","status":413,"detail":"request body exceeds the limit of 1000 bytes"})") !=
            std::string::npos,
        out);
    BOOST_TEST(*s.server.handler().calls == 0);

    // Chunked: the limit holds while the body streams in.
    std::string chunked = "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n";
    for(int i = 0; i < 3; ++i)
        chunked += "190\r\n" + std::string(400, 'x') + "\r\n";
    chunked += "0\r\n\r\n";
    BOOST_TEST(test_http::raw(s.ep, chunked).starts_with("HTTP/1.1 413"));

    // At the limit is fine.
    auto const ok = test_http::post(s.ep, "/", std::string(1000, 'y'));
    BOOST_TEST(ok.status == 200u);
}

BOOST_AUTO_TEST_CASE(a_listening_endpoint_has_a_url)
{
    using asio::ip::make_address;
    BOOST_TEST(agentio::http::url_of({make_address("0.0.0.0"), 8080}, "/api/v1") == "http://127.0.0.1:8080/api/v1");
    BOOST_TEST(agentio::http::url_of({make_address("::"), 81}) == "http://[::1]:81");
    BOOST_TEST(agentio::http::url_of({make_address("::1"), 81}, "/") == "http://[::1]:81/");
    BOOST_TEST(agentio::http::url_of({make_address("10.1.2.3"), 443}, "/a b", "https") == "https://10.1.2.3:443/a%20b");
}

BOOST_AUTO_TEST_CASE(the_error_body_is_the_applications)
{
    agentio::http::server_options opt;
    opt.max_body_bytes = 10;
    opt.error_body = [](agentio::http::response& res, std::string_view detail) {
        res.set(boost::beast::http::field::content_type, "text/plain");
        res.body() = "error: " + std::string(detail);
    };
    running_server<> s(opt);
    auto const out = test_http::raw(s.ep, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\n");
    BOOST_TEST(out.starts_with("HTTP/1.1 413"), out);
    BOOST_TEST(out.find("Content-Type: text/plain\r\n") != std::string::npos, out);
    BOOST_TEST(out.ends_with("\r\n\r\nerror: request body exceeds the limit of 10 bytes"), out);
}

BOOST_AUTO_TEST_CASE(expect_100_continue_gets_its_interim_answer)
{
    running_server<> s;
    asio::io_context ioc;
    asio::ip::tcp::socket sock(ioc);
    sock.connect(s.ep);
    asio::write(sock,
        asio::buffer(std::string(
            "POST /e HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n")));
    std::string got(64, '\0');
    auto n = sock.read_some(asio::buffer(got));
    got.resize(n);
    BOOST_TEST(got.starts_with("HTTP/1.1 100 Continue\r\n"));
    asio::write(sock, asio::buffer(std::string("body")));
    std::string rest;
    boost::system::error_code ec;
    asio::read(sock, asio::dynamic_buffer(rest), ec);
    BOOST_TEST((got + rest).find("POST /e body") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(malformed_requests_get_400_and_huge_headers_431)
{
    agentio::http::server_options opt;
    opt.max_header_bytes = 2048;
    running_server<> s(opt);
    BOOST_TEST(test_http::raw(s.ep, "GARBAGE\r\n\r\n").starts_with("HTTP/1.1 400"));
    BOOST_TEST(test_http::raw(s.ep, "GET / HTTP/1.1\r\nContent-Length: nope\r\n\r\n").starts_with("HTTP/1.1 400"));
    BOOST_TEST(test_http::raw(s.ep, "GET / HTTP/1.1\r\nX-Big: " + std::string(4000, 'a') + "\r\n\r\n")
                   .starts_with("HTTP/1.1 431"));
    BOOST_TEST(*s.server.handler().calls == 0);
}

BOOST_AUTO_TEST_CASE(a_throwing_handler_is_a_500_and_the_server_lives_on)
{
    running_server<> s;
    auto const bad = test_http::get(s.ep, "/throw");
    BOOST_TEST(bad.status == 500u);
    BOOST_TEST(bad.detail() == "internal server error");
    BOOST_TEST(test_http::get(s.ep, "/after").status == 200u);
}

BOOST_AUTO_TEST_CASE(an_idle_connection_is_closed_after_the_header_timeout)
{
    agentio::http::server_options opt;
    opt.header_timeout = std::chrono::milliseconds(200);
    running_server<> s(opt);
    asio::io_context ioc;
    asio::ip::tcp::socket sock(ioc);
    sock.connect(s.ep);
    asio::write(sock, asio::buffer(std::string("GET / HTTP/1.1\r\nHost"))); // and then nothing
    std::string rest;
    boost::system::error_code ec;
    asio::read(sock, asio::dynamic_buffer(rest), ec); // returns when the server hangs up
    BOOST_TEST((ec == asio::error::eof || ec == asio::error::connection_reset));
    BOOST_TEST(rest.empty());
}

BOOST_AUTO_TEST_CASE(many_concurrent_clients)
{
    running_server<> s;
    std::vector<std::thread> clients;
    std::atomic<int> ok{0};
    for(int c = 0; c < 8; ++c)
        clients.emplace_back([&, c] {
            for(int i = 0; i < 25; ++i)
            {
                auto r = test_http::get(s.ep, "/c" + std::to_string(c));
                ok += r.status == 200u && r.body == "GET /c" + std::to_string(c) + " ";
            }
        });
    for(auto& t : clients)
        t.join();
    BOOST_TEST(ok == 200);
}

BOOST_AUTO_TEST_CASE(a_handler_can_stream_server_sent_events)
{
    running_server<streaming_handler> s;
    BOOST_TEST(test_http::get(s.ep, "/plain").body == "plain");
    // No half-close: to a streaming server, end of input means the client left.
    std::string const raw = test_http::raw(s.ep, "GET /events HTTP/1.1\r\nHost: x\r\n\r\n", false);
    BOOST_TEST(raw.starts_with("HTTP/1.1 200 OK\r\n"));
    BOOST_TEST(raw.find("Content-Type: text/event-stream\r\n") != std::string::npos);
    http::response_parser<http::string_body> p;
    p.eager(true);
    boost::beast::error_code ec;
    p.put(asio::buffer(raw), ec);
    BOOST_REQUIRE(p.is_done());
    std::vector<std::string> data;
    agentio::sse::parser sp;
    sp.feed(p.get().body(), [&](agentio::sse::event const& e) { data.push_back(e.data); });
    BOOST_TEST((sp.finish() == agentio::sse::end_state::clean));
    BOOST_TEST((data == std::vector<std::string>{R"({"i":0})", R"({"i":1})", R"({"i":2})"}));
}

BOOST_AUTO_TEST_CASE(a_client_leaving_a_stream_cancels_the_handler)
{
    running_server<streaming_handler> s;
    {
        asio::io_context ioc;
        asio::ip::tcp::socket sock(ioc);
        sock.connect(s.ep);
        asio::write(sock, asio::buffer(std::string("GET /wait HTTP/1.1\r\nHost: x\r\n\r\n")));
        std::string head(128, '\0');
        sock.read_some(asio::buffer(head));
        BOOST_TEST(head.starts_with("HTTP/1.1 200 OK"));
    } // the client leaves
    for(int i = 0; i < 200 && (*s.server.handler().cancelled == 0 || s.server.connection_count() != 0); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    BOOST_TEST(*s.server.handler().cancelled == 1);
    BOOST_TEST(s.server.connection_count() == 0u);
}

BOOST_AUTO_TEST_CASE(listen_reports_an_address_in_use)
{
    running_server<> s;
    asio::io_context ioc;
    agentio::http::server<echo_handler> second(ioc.get_executor(), echo_handler{});
    auto r = second.listen(s.ep);
    BOOST_TEST(r.has_error());
}

BOOST_AUTO_TEST_SUITE_END()

namespace {

http::message_generator text_answer(request const& req, std::string body)
{
    agentio::http::response res{http::status::ok, req.version()};
    res.set(http::field::content_type, "text/plain");
    res.body() = std::move(body);
    res.keep_alive(req.keep_alive());
    res.prepare_payload();
    return res;
}

agentio::http::router<boost::beast::tcp_stream> test_routes(agentio::http::router_options options = {})
{
    using agentio::http::route_params;
    agentio::http::router<boost::beast::tcp_stream> r(std::move(options));
    r.get("/items/{id}", [](request&& req, route_params const& p) -> asio::awaitable<http::message_generator> {
        co_return text_answer(req, "item " + std::string(p["id"]));
    });
    r.post("/items", [](request&& req, route_params const&) -> asio::awaitable<http::message_generator> {
        co_return text_answer(req, "created " + req.body());
    });
    r.del("/items/{id}", [](request&& req, route_params const& p) -> asio::awaitable<http::message_generator> {
        co_return text_answer(req, "deleted " + std::string(p["id"]));
    });
    r.get("/files/{path...}", [](request&& req, route_params const& p) -> asio::awaitable<http::message_generator> {
        co_return text_answer(req, "file " + std::string(p["path"]));
    });
    r.get("/events",
        [](request&& req, route_params const&,
            boost::beast::tcp_stream& stream) -> asio::awaitable<std::optional<http::message_generator>> {
            agentio::sse::writer w(stream, {.heartbeat = {}});
            if(!(co_await w.start(req.version())))
                co_await w.send("hello", "{}");
            co_await w.finish();
            co_return std::nullopt;
        });
    return r;
}

// POST /items/search added before GET /items/{id}, whose pattern also matches its path.
agentio::http::router<boost::beast::tcp_stream> overlapping_routes(agentio::http::router_options options)
{
    using agentio::http::route_params;
    agentio::http::router<boost::beast::tcp_stream> r(std::move(options));
    r.post("/items/search", [](request&& req, route_params const&) -> asio::awaitable<http::message_generator> {
        co_return text_answer(req, "search");
    });
    r.get("/items/{id}", [](request&& req, route_params const& p) -> asio::awaitable<http::message_generator> {
        co_return text_answer(req, "item " + std::string(p["id"]));
    });
    return r;
}

struct routed_server
{
    asio::io_context ioc;
    agentio::http::server<agentio::http::router<boost::beast::tcp_stream>> server;
    asio::ip::tcp::endpoint ep;
    std::thread thread;

    explicit routed_server(agentio::http::router<boost::beast::tcp_stream> routes)
        : server(ioc.get_executor(), std::move(routes))
    {
        ep = server.listen({asio::ip::make_address("127.0.0.1"), 0}).value();
        server.start();
        thread = std::thread([this] { ioc.run(); });
    }
    ~routed_server()
    {
        server.stop();
        ioc.stop();
        thread.join();
    }
};

} // namespace

namespace {

// One request with agentio's client, its TLS context given.
std::pair<agentio::http::client_error, agentio::http::client_response> https_get(std::string url,
    std::shared_ptr<asio::ssl::context> tls)
{
    asio::io_context ioc;
    agentio::http::client_options opt;
    opt.tls = std::move(tls);
    opt.connect_timeout = std::chrono::seconds(5);
    agentio::http::client c(ioc.get_executor(), opt);
    std::pair<agentio::http::client_error, agentio::http::client_response> out;
    asio::co_spawn(
        ioc,
        [&]() -> asio::awaitable<void> {
            agentio::http::client_request req;
            req.url = std::move(url);
            auto [e, r] = co_await c.async_request(std::move(req), asio::use_awaitable);
            out = {std::move(e), std::move(r)};
        },
        asio::detached);
    ioc.run();
    return out;
}

test_tls::pki const& shared_pki()
{
    static test_tls::pki const p = test_tls::make_pki();
    return p;
}

agentio::http::server_options tls_options()
{
    agentio::http::server_options opt;
    opt.tls = test_tls::server_context(shared_pki());
    return opt;
}

} // namespace

BOOST_AUTO_TEST_SUITE(http_server_tls)

BOOST_AUTO_TEST_CASE(serves_plain_and_streamed_answers_over_tls)
{
    running_server<any_stream_handler> s(tls_options());
    auto const base = "https://127.0.0.1:" + std::to_string(s.ep.port());
    auto const trusting = test_tls::client_context(shared_pki().ca_cert);

    auto [err, res] = https_get(base + "/plain", trusting);
    BOOST_TEST(!err, err.message);
    BOOST_TEST(res.status == 200u);
    BOOST_TEST(res.body == "plain");

    auto [serr, sres] = https_get(base + "/events", trusting);
    BOOST_TEST(!serr, serr.message);
    BOOST_TEST(sres.header("content-type") == "text/event-stream");
    std::vector<agentio::sse::event> events;
    agentio::sse::parser p;
    p.feed(sres.body, [&](agentio::sse::event const& e) { events.push_back(e); });
    BOOST_TEST((p.finish() == agentio::sse::end_state::clean));
    BOOST_REQUIRE(events.size() == 3u);
    BOOST_TEST(events[2].data == R"({"i":2})");
}

BOOST_AUTO_TEST_CASE(a_client_that_does_not_trust_the_ca_fails_verification)
{
    running_server<any_stream_handler> s(tls_options());
    auto [err, res] = https_get("https://127.0.0.1:" + std::to_string(s.ep.port()) + "/plain",
        test_tls::client_context({}));
    BOOST_TEST((err.code == agentio::http::client_errc::tls_verify_failed), err.message);
}

BOOST_AUTO_TEST_CASE(a_client_that_sends_nothing_is_dropped_after_the_header_timeout)
{
    auto opt = tls_options();
    opt.header_timeout = std::chrono::milliseconds(300);
    running_server<any_stream_handler> s(std::move(opt));
    asio::io_context ioc;
    asio::ip::tcp::socket sock(ioc);
    sock.connect(s.ep);
    auto const start = std::chrono::steady_clock::now();
    char byte;
    boost::system::error_code ec;
    sock.read_some(asio::buffer(&byte, 1), ec); // blocks until the server closes
    auto const waited = std::chrono::steady_clock::now() - start;
    BOOST_TEST(ec.failed());
    BOOST_TEST(waited >= std::chrono::milliseconds(250));
    BOOST_TEST(waited < std::chrono::seconds(5));
    for(int i = 0; i < 100 && s.server.connection_count() != 0; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    BOOST_TEST(s.server.connection_count() == 0u);
}

BOOST_AUTO_TEST_CASE(plain_http_on_the_tls_port_gets_no_http_answer_and_the_server_lives_on)
{
    running_server<any_stream_handler> s(tls_options());
    auto const raw = test_http::raw(s.ep, "GET /plain HTTP/1.1\r\nHost: x\r\n\r\n");
    BOOST_TEST(raw.find("HTTP/1.1") == std::string::npos);
    auto [err, res] = https_get("https://127.0.0.1:" + std::to_string(s.ep.port()) + "/plain",
        test_tls::client_context(shared_pki().ca_cert));
    BOOST_TEST(!err, err.message);
    BOOST_TEST(res.body == "plain");
}

BOOST_AUTO_TEST_CASE(a_handler_that_takes_only_a_tcp_stream_cannot_serve_tls)
{
    asio::io_context ioc;
    BOOST_CHECK_THROW(agentio::http::server<streaming_handler>(ioc.get_executor(), streaming_handler{}, tls_options()),
        std::invalid_argument);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(http_router)

BOOST_AUTO_TEST_CASE(patterns_capture_segments_percent_decoded)
{
    routed_server s(test_routes());
    auto const item = test_http::get(s.ep, "/items/a%20b?x=1");
    BOOST_TEST(item.status == 200u);
    BOOST_TEST(item.body == "item a b");
    BOOST_TEST(test_http::get(s.ep, "/files/a/b/c.txt").body == "file a/b/c.txt");
    BOOST_TEST(test_http::post(s.ep, "/items", "x").body == "created x");
    BOOST_TEST(test_http::request(s.ep, http::verb::delete_, "/items/7").body == "deleted 7");
    BOOST_TEST(test_http::get(s.ep, "/events").body.find("event: hello") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(no_route_is_404_and_another_method_405_with_allow)
{
    routed_server s(test_routes());
    auto const missing = test_http::get(s.ep, "/nope");
    BOOST_TEST(missing.status == 404u);
    BOOST_TEST(missing.body == R"({"title":"Not Found","status":404,"detail":"No route for /nope"})");
    BOOST_TEST(test_http::get(s.ep, "/items").status == 405u);  // POST only
    BOOST_TEST(test_http::get(s.ep, "/items/").status == 404u); // an empty segment is no id
    BOOST_TEST(test_http::get(s.ep, "/files").status == 404u);  // {path...} needs one segment
    auto const wrong = test_http::request(s.ep, http::verb::put, "/items/7");
    BOOST_TEST(wrong.status == 405u);
    BOOST_TEST(wrong.headers[http::field::allow] == "GET, HEAD, DELETE");
    BOOST_TEST(wrong.body.find("Method PUT not allowed; use GET, HEAD, DELETE") != std::string::npos, wrong.body);
}

// What the router observes of each request: the pattern (never the path), the status, a stream written by its
// handler; a 404 or 405 has no route.
BOOST_AUTO_TEST_CASE(each_request_is_observed_by_its_pattern_and_status)
{
    std::mutex m;
    std::vector<std::tuple<std::string, std::string, unsigned, bool>> seen;
    agentio::http::router_options o;
    o.observe = [&](agentio::http::request_observation const& r) {
        std::lock_guard lock(m);
        seen.emplace_back(std::string(http::to_string(r.method)), std::string(r.route), r.status, r.streamed);
        BOOST_TEST(r.duration.count() >= 0);
    };
    {
        routed_server s(test_routes(std::move(o)));
        BOOST_TEST(test_http::get(s.ep, "/items/42").status == 200u);
        BOOST_TEST(test_http::get(s.ep, "/nope").status == 404u);
        BOOST_TEST(test_http::get(s.ep, "/items").status == 405u);
        BOOST_TEST(test_http::get(s.ep, "/events").body.find("event: hello") != std::string::npos);
        BOOST_TEST(test_http::post(s.ep, "/items", "x").status == 200u);
        // A stream is observed when its handler returns, which may be after the client has read it (and after
        // the last answer): the server serves on until then, or for 2 s.
        for(int i = 0; i < 200; ++i)
        {
            {
                std::lock_guard lock(m);
                if(seen.size() >= 5u)
                    break;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
    }
    // The observations are compared in no particular order: the stream's may come after the next request's.
    using observed = std::tuple<std::string, std::string, unsigned, bool>;
    std::vector<observed> expected{{"GET", "/items/{id}", 200u, false}, {"GET", "", 404u, false},
        {"GET", "", 405u, false}, {"GET", "/events", 200u, true}, {"POST", "/items", 200u, false}};
    std::lock_guard lock(m);
    BOOST_TEST_REQUIRE(seen.size() == 5u);
    std::sort(seen.begin(), seen.end());
    std::sort(expected.begin(), expected.end());
    for(std::size_t i = 0; i < expected.size(); ++i)
        BOOST_TEST((seen[i] == expected[i]),
            "observation " << i << ": " << std::get<0>(seen[i]) << " '" << std::get<1>(seen[i]) << "' "
                           << std::get<2>(seen[i]));
}

// http::observe_requests: each request counted for GET /metrics and written as one `http.request` line — method,
// route pattern ("unmatched" for a 404), status, streamed, duration —, a scrape's line at debug only.
BOOST_AUTO_TEST_CASE(observe_requests_counts_and_logs_each_request)
{
    BOOST_TEST(!agentio::http::observe_requests(nullptr, nullptr)); // nothing to do: the router measures nothing
    auto const file = std::filesystem::temp_directory_path() /
        ("agentio-request-log-" + std::to_string(::getpid()) + ".log");
    std::filesystem::remove(file);
    agentio::metrics::registry registry({.process_metrics = false});
    agentio::http::request_metrics requests(registry);
    std::string scraped;
    {
        agentio::log::logger log({.level = agentio::log::level::info,
            .format = agentio::log::format::json,
            .file = file.string(),
            .max_file_bytes = 1024 * 1024,
            .max_files = 1,
            .queue_lines = 64,
            .program = "router-test"});
        agentio::http::router_options o;
        o.observe = agentio::http::observe_requests(&log, &requests);
        auto routes = test_routes(std::move(o));
        agentio::http::add_metrics_route(routes, registry);
        {
            routed_server s(std::move(routes));
            BOOST_TEST(test_http::get(s.ep, "/items/42").status == 200u);
            BOOST_TEST(test_http::get(s.ep, "/nope").status == 404u);
            BOOST_TEST(test_http::post(s.ep, "/items", "x").status == 200u);
            // Answered before they are written: counted by the time the client has read them.
            scraped = test_http::get(s.ep, "/metrics").body;
        }
        // A routine route of one's own is a debug line too.
        agentio::http::request_observation seen;
        seen.method = http::verb::get;
        seen.route = "/api/v1/health";
        seen.status = 200;
        agentio::http::log_request(log, seen, {.routine_routes = {"/api/v1/health"}});
        log.flush();
    }
    BOOST_TEST(scraped.find("agentio_http_requests_total{method=\"GET\",route=\"/items/{id}\",status=\"200\"} 1\n") !=
            std::string::npos,
        scraped);
    BOOST_TEST(scraped.find("agentio_http_requests_total{method=\"GET\",route=\"unmatched\",status=\"404\"} 1\n") !=
        std::string::npos);
    BOOST_TEST(scraped.find("agentio_http_requests_total{method=\"POST\",route=\"/items\",status=\"200\"} 1\n") !=
        std::string::npos);

    std::vector<boost::json::object> lines;
    {
        std::ifstream in(file);
        for(std::string line; std::getline(in, line);)
            lines.push_back(boost::json::parse(line).as_object());
    }
    std::filesystem::remove(file);
    BOOST_TEST_REQUIRE(lines.size() == 3u); // not the scrape's, nor the health check's
    auto route_of = [](boost::json::object const& line) {
        auto const& route = line.at("route").as_string();
        return std::string_view(route.data(), route.size());
    };
    std::sort(lines.begin(), lines.end(),
        [&](boost::json::object const& a, boost::json::object const& b) { return route_of(a) < route_of(b); });
    auto const& post = lines[0];
    auto const& item = lines[1];
    auto const& unmatched = lines[2];
    BOOST_TEST(item.at("level").as_string() == "info");
    BOOST_TEST(item.at("program").as_string() == "router-test");
    BOOST_TEST(item.at("event").as_string() == "http.request");
    BOOST_TEST(item.at("method").as_string() == "GET");
    BOOST_TEST(item.at("route").as_string() == "/items/{id}");
    BOOST_TEST(item.at("status").to_number<int>() == 200);
    BOOST_TEST(!item.at("streamed").as_bool());
    BOOST_TEST(item.at("duration_ms").to_number<double>() >= 0.0);
    BOOST_TEST(post.at("method").as_string() == "POST");
    BOOST_TEST(post.at("route").as_string() == "/items");
    BOOST_TEST(unmatched.at("route").as_string() == "unmatched");
    BOOST_TEST(unmatched.at("status").to_number<int>() == 404);
}

BOOST_AUTO_TEST_CASE(a_get_route_serves_head_with_the_header_only)
{
    routed_server s(test_routes());
    auto const out = test_http::raw(s.ep, "HEAD /items/7 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    BOOST_TEST(out.starts_with("HTTP/1.1 200"), out);
    BOOST_TEST(out.find("Content-Length: 6\r\n") != std::string::npos, out);
    BOOST_TEST(out.ends_with("\r\n\r\n"), out);
}

BOOST_AUTO_TEST_CASE(the_application_gives_the_texts_and_a_fallback)
{
    auto routes = test_routes({.not_found = "Ruta no encontrada: {path}",
        .method_not_allowed = "Método no permitido; usa {allow}",
        .error_body = [](agentio::http::response& res, std::string_view detail) {
            res.set(http::field::content_type, "application/json");
            res.body() = "{\"detail\":\"" + std::string(detail) + "\"}";
        }});
    {
        routed_server s(test_routes({.not_found = "Ruta no encontrada: {path}"}));
        BOOST_TEST(test_http::get(s.ep, "/x").body.find("Ruta no encontrada: /x") != std::string::npos);
    }
    routes.fallback([](request&& req,
                        agentio::http::route_params const& p) -> asio::awaitable<http::message_generator> {
        co_return text_answer(req, "page " + std::string(req.target()) + " " + std::to_string(p.size()));
    });
    routed_server s(std::move(routes));
    BOOST_TEST(test_http::get(s.ep, "/some/page").body == "page /some/page 0");
    auto const wrong = test_http::post(s.ep, "/items/7", "");
    BOOST_TEST(wrong.status == 405u);
    BOOST_TEST(wrong.body == R"({"detail":"Método no permitido; usa GET, HEAD, DELETE"})");
}

BOOST_AUTO_TEST_CASE(literals_match_the_path_percent_decoded_and_its_braces_are_text)
{
    routed_server s(test_routes());
    BOOST_TEST(test_http::get(s.ep, "/it%65ms/7").body == "item 7");
    BOOST_TEST(test_http::get(s.ep, "/items/{id}").body == "item {id}");
    BOOST_TEST(test_http::get(s.ep, "/files/a%2Fb/{c...}").body == "file a/b/{c...}");
}

BOOST_AUTO_TEST_CASE(options_decide_head_overlapping_patterns_and_a_trailing_slash)
{
    auto const head = "HEAD /items/7 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
    {
        routed_server s(overlapping_routes({}));
        BOOST_TEST(test_http::get(s.ep, "/items/search").body == "item search"); // the route taking path and method
        BOOST_TEST(test_http::get(s.ep, "/items/7/").status == 404u);
        BOOST_TEST(test_http::raw(s.ep, head).starts_with("HTTP/1.1 200"));
    }
    routed_server s(
        overlapping_routes({.head_from_get = false, .first_pattern_decides = true, .ignore_trailing_slash = true}));
    auto const search = test_http::get(s.ep, "/items/search");
    BOOST_TEST(search.status == 405u);
    BOOST_TEST(search.headers[http::field::allow] == "POST");
    BOOST_TEST(test_http::post(s.ep, "/items/search", "").body == "search");
    BOOST_TEST(test_http::get(s.ep, "/items/7/").body == "item 7");
    BOOST_TEST(test_http::get(s.ep, "/items/7//").body == "item 7");
    BOOST_TEST(test_http::get(s.ep, "/items/").status == 404u); // still no id
    auto const wrong = test_http::raw(s.ep, head);
    BOOST_TEST(wrong.starts_with("HTTP/1.1 405"), wrong);
    BOOST_TEST(wrong.find("Allow: GET\r\n") != std::string::npos, wrong);
    auto const put = test_http::request(s.ep, http::verb::put, "/items/7");
    BOOST_TEST(put.headers[http::field::allow] == "GET");
}

BOOST_AUTO_TEST_SUITE_END()
