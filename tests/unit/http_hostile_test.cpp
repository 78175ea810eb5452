// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// agentio::http::server against clients that mean harm: requests built to
// crash it (oversized trailers and chunk headers), to smuggle a second request
// past a proxy (ambiguous framing), to hold its slots (floods from one
// address, trickled headers) or its memory (answers never read), and the ways
// it must end: draining on shutdown, run threads that survive a throw.
#include <agentio/text.hpp>
#include <agentio/http/server.hpp>
#include <agentio/sse/writer.hpp>

#include "test_http.hpp"

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <future>
#include <stdexcept>
#include <thread>

namespace asio = boost::asio;
namespace http = boost::beast::http;
using agentio::http::request;
using tcp = asio::ip::tcp;

namespace {

constexpr std::size_t big_answer_bytes = 16 * 1024 * 1024;

// /big answers 16 MiB; /events streams five events 60 ms apart; /forever
// streams until the client leaves; anything else echoes.
struct hostile_handler
{
    std::shared_ptr<std::atomic<int>> calls = std::make_shared<std::atomic<int>>(0);
    std::shared_ptr<std::atomic<int>> streams_cancelled = std::make_shared<std::atomic<int>>(0);

    asio::awaitable<std::optional<http::message_generator>> operator()(request&& req, boost::beast::tcp_stream& stream)
    {
        ++*calls;
        if(req.target() == "/events" || req.target() == "/forever")
        {
            agentio::sse::writer w(stream, {.heartbeat = {}});
            if(!(co_await w.start(req.version())))
            {
                asio::steady_timer pause(stream.get_executor());
                for(int i = 0; req.target() == "/forever" || i < 5; ++i)
                {
                    pause.expires_after(std::chrono::milliseconds(60));
                    auto [ec] = co_await pause.async_wait(asio::bind_cancellation_slot(w.disconnect_slot(),
                        asio::as_tuple(asio::use_awaitable)));
                    if(ec)
                    {
                        ++*streams_cancelled;
                        break;
                    }
                    if(co_await w.send("n", std::to_string(i)))
                        break;
                }
            }
            co_await w.finish();
            co_return std::nullopt;
        }
        agentio::http::response res{http::status::ok, req.version()};
        if(req.target() == "/big")
            res.body().assign(big_answer_bytes, 'x');
        else
            res.body() = std::string(req.method_string()) + " " + std::string(req.target()) + " " + req.body();
        res.keep_alive(req.keep_alive());
        res.prepare_payload();
        co_return http::message_generator(std::move(res));
    }
};

struct running_server
{
    asio::io_context ioc{2};
    agentio::http::server<hostile_handler> server;
    tcp::endpoint ep;
    std::vector<std::thread> threads;

    explicit running_server(agentio::http::server_options opt = {})
        : server(ioc.get_executor(), hostile_handler{}, std::move(opt))
    {
        ep = server.listen({asio::ip::make_address("127.0.0.1"), 0}).value();
        server.start();
        for(int i = 0; i < 2; ++i)
            threads.emplace_back([this] { ioc.run(); }); // a throw escaping run() would end the test program
    }
    ~running_server()
    {
        server.stop();
        ioc.stop();
        for(auto& t : threads)
            t.join();
    }
    int calls() { return *server.handler().calls; }
};

// A socket to `to` from the loopback address `from` (all of 127/8 is local on Linux).
tcp::socket connect_from(asio::io_context& ioc, char const* from, tcp::endpoint to, int receive_buffer = 0)
{
    tcp::socket s(ioc);
    s.open(tcp::v4());
    if(receive_buffer != 0)
        s.set_option(asio::socket_base::receive_buffer_size(receive_buffer));
    s.bind({asio::ip::make_address(from), 0});
    s.connect(to);
    return s;
}

std::string status_line(std::string const& out)
{
    return out.substr(0, out.find("\r\n"));
}

std::size_t count(std::string const& text, std::string_view what)
{
    std::size_t n = 0;
    for(auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

} // namespace

BOOST_AUTO_TEST_SUITE(http_hostile)

BOOST_AUTO_TEST_CASE(a_trailer_over_the_limit_is_431_and_the_server_lives_on)
{
    // A field over 64 KiB made Beast throw from inside the read, out of io_context::run.
    running_server s;
    std::string const out = test_http::raw(s.ep,
        "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX: " + std::string(70000, 'a') +
            "\r\n\r\n");
    BOOST_TEST(status_line(out) == "HTTP/1.1 431 Request Header Fields Too Large");
    BOOST_TEST(out.find("trailer") != std::string::npos);
    BOOST_TEST(test_http::get(s.ep, "/after").status == 200u);
}

BOOST_AUTO_TEST_CASE(a_chunk_extension_over_the_limit_is_refused)
{
    running_server s;
    std::string const out = test_http::raw(s.ep,
        "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5;e=" + std::string(70000, 'a') +
            "\r\nhello\r\n0\r\n\r\n");
    BOOST_TEST(status_line(out) == "HTTP/1.1 431 Request Header Fields Too Large");
    BOOST_TEST(s.calls() == 0);
    BOOST_TEST(test_http::get(s.ep, "/after").status == 200u);
}

BOOST_AUTO_TEST_CASE(well_framed_chunked_and_content_length_requests_pass)
{
    running_server s;
    std::string const out = test_http::raw(s.ep,
        "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\nX-T: 1\r\n\r\n"
        "POST /b HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: Chunked\r\n\r\n3;ext=1\r\nabc\r\n0\r\n\r\n"
        "POST /c HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi"
        "GET /d HTTP/1.0\r\n\r\n");
    BOOST_TEST(out.find("POST /a hello") != std::string::npos, out);
    BOOST_TEST(out.find("POST /b abc") != std::string::npos, out);
    BOOST_TEST(out.find("POST /c hi") != std::string::npos, out);
    BOOST_TEST(out.find("GET /d ") != std::string::npos, out); // HTTP/1.0 needs no Host
}

BOOST_AUTO_TEST_CASE(ambiguous_framing_is_refused_and_nothing_after_it_is_read)
{
    struct shape
    {
        char const* head;
        char const* status;
    };
    shape const shapes[] = {
        {"POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: xchunked\r\n", "400"},
        {"POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, chunked\r\n", "400"},
        {"POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n", "400"},
        {"POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n", "501"},
        {"POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked;ext=1\r\n", "400"},
        {"POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: ,\r\n", "400"},
        {"POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n", "400"},
        {"POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n", "400"},
        {"POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n", "400"},
        {"POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 5\r\n", "400"},
        {"POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 5, 5\r\n", "400"},
        {"POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: +5\r\n", "400"},
        {"POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 0x5\r\n", "400"},
        {"POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n", "400"},
        {"POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding : chunked\r\n", "400"},
        {"POST /a HTTP/1.0\r\nHost: x\r\nTransfer-Encoding: chunked\r\n", "400"},
        {"GET /a HTTP/1.1\r\n", "400"},
        {"GET /a HTTP/1.1\r\nHost: x\r\nHost: y\r\n", "400"},
    };
    running_server s;
    for(auto const& sh : shapes)
    {
        // What a front proxy might have taken for the body, hiding a request.
        std::string const out = test_http::raw(s.ep,
            std::string(sh.head) + "\r\n5\r\nhello\r\n0\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n");
        BOOST_TEST_CONTEXT(sh.head)
        {
            BOOST_TEST(out.starts_with(std::string("HTTP/1.1 ") + sh.status), out);
            BOOST_TEST(count(out, "HTTP/1.1 ") == 1u, out);
            BOOST_TEST(out.find("Connection: close") != std::string::npos, out);
            BOOST_TEST(out.find("smuggled") == std::string::npos, out);
        }
    }
    BOOST_TEST(s.calls() == 0);

    // An obsolete line folding is unfolded into a space (RFC 9112 §5.2 allows
    // that or a 400): the folded Transfer-Encoding is part of X's value, the
    // request has no body, and what follows is read as a request — a
    // malformed one, answered 400 with the connection closed.
    std::string const out = test_http::raw(s.ep,
        "POST /a HTTP/1.1\r\nHost: x\r\nX: y\r\n Transfer-Encoding: chunked\r\n\r\n"
        "5\r\nhello\r\n0\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n");
    BOOST_TEST(out.starts_with("HTTP/1.1 200 OK"), out);
    BOOST_TEST(count(out, "HTTP/1.1 400 Bad Request") == 1u, out);
    BOOST_TEST(out.find("smuggled") == std::string::npos, out);
}

BOOST_AUTO_TEST_CASE(one_address_cannot_take_every_slot)
{
    agentio::http::server_options opt;
    opt.max_connections_per_address = 8;
    running_server s(opt);
    asio::io_context ioc;
    std::vector<tcp::socket> hog;
    for(int i = 0; i < 8; ++i)
        hog.push_back(connect_from(ioc, "127.0.0.2", s.ep));
    for(int i = 0; i < 200 && s.server.connection_count() < 8; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    BOOST_TEST(s.server.connection_count() == 8u);

    // The ninth from the same address is turned away; everyone else is served.
    auto ninth = connect_from(ioc, "127.0.0.2", s.ep);
    asio::write(ninth, asio::buffer(std::string("GET /x HTTP/1.1\r\nHost: x\r\n\r\n")));
    std::string out;
    boost::system::error_code ec;
    asio::read(ninth, asio::dynamic_buffer(out), ec);
    BOOST_TEST(status_line(out) == "HTTP/1.1 503 Service Unavailable");
    BOOST_TEST(out.find("too many connections from this address") != std::string::npos);

    auto const before = std::chrono::steady_clock::now();
    BOOST_TEST(test_http::get(s.ep, "/other").status == 200u);
    BOOST_TEST((std::chrono::steady_clock::now() - before < std::chrono::seconds(1)));

    hog.clear();
    for(int i = 0; i < 200 && s.server.connection_count() != 0; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    auto again = connect_from(ioc, "127.0.0.2", s.ep);
    asio::write(again, asio::buffer(std::string("GET /x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")));
    out.clear();
    asio::read(again, asio::dynamic_buffer(out), ec);
    BOOST_TEST(status_line(out) == "HTTP/1.1 200 OK");
}

BOOST_AUTO_TEST_CASE(a_trickled_head_is_cut_at_the_header_timeout)
{
    agentio::http::server_options opt;
    opt.header_timeout = std::chrono::milliseconds(300);
    running_server s(opt);
    asio::io_context ioc;
    tcp::socket sock(ioc);
    sock.connect(s.ep);
    std::string const head = "GET /a HTTP/1.1\r\nHost: x\r\nX-Slow: " + std::string(40, 'a') + "\r\n\r\n";
    auto const started = std::chrono::steady_clock::now();
    boost::system::error_code ec;
    // One byte every 50 ms: each read makes progress, the head never completes in time.
    for(char c : head)
    {
        asio::write(sock, asio::buffer(&c, 1), ec);
        if(ec)
            break;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    BOOST_TEST(ec.failed()); // cut off before the 3 s the head would take
    BOOST_TEST((std::chrono::steady_clock::now() - started < std::chrono::milliseconds(2000)));
    BOOST_TEST(s.calls() == 0);
}

BOOST_AUTO_TEST_CASE(clients_that_do_not_read_cannot_pile_up_answers)
{
    agentio::http::server_options opt;
    opt.max_pending_output_bytes_per_address = big_answer_bytes + 4096;
    running_server s(opt);
    asio::io_context ioc;
    // Six connections ask for 16 MiB and read nothing (a tiny receive window,
    // so the kernel cannot take the answer off the server's hands).
    std::vector<tcp::socket> readers;
    for(int i = 0; i < 6; ++i)
    {
        readers.push_back(connect_from(ioc, "127.0.0.2", s.ep, 4096));
        asio::write(readers.back(), asio::buffer(std::string("GET /big HTTP/1.1\r\nHost: x\r\n\r\n")));
    }
    for(int i = 0; i < 400 && s.calls() < 6; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    int ok = 0, busy = 0;
    for(auto& r : readers)
    {
        std::string head(40, '\0');
        boost::system::error_code ec;
        asio::read(r, asio::buffer(head), ec);
        if(head.starts_with("HTTP/1.1 200"))
            ++ok;
        else if(head.starts_with("HTTP/1.1 503"))
            ++busy;
    }
    BOOST_TEST(ok == 1); // one answer at a time for that address
    BOOST_TEST(busy == 5);

    // Another client is served whole meanwhile.
    boost::beast::tcp_stream other(ioc);
    other.connect(s.ep);
    http::request<http::empty_body> get{http::verb::get, "/big", 11};
    get.set(http::field::host, "x");
    http::write(other, get);
    boost::beast::flat_buffer buffer;
    http::response_parser<http::string_body> answer;
    answer.body_limit(boost::none);
    http::read(other, buffer, answer);
    BOOST_TEST(answer.get().result_int() == 200u);
    BOOST_TEST(answer.get().body().size() == big_answer_bytes);
}

BOOST_AUTO_TEST_CASE(a_half_closed_client_still_gets_its_stream)
{
    running_server s;
    std::string const out = test_http::raw(s.ep, "GET /events HTTP/1.1\r\nHost: x\r\n\r\n", true);
    BOOST_TEST(status_line(out) == "HTTP/1.1 200 OK");
    for(int i = 0; i < 5; ++i)
        BOOST_TEST(out.find("data: " + std::to_string(i) + "\n") != std::string::npos, out);
    BOOST_TEST(out.ends_with("0\r\n\r\n")); // the stream's last chunk: it ended, it was not cut
    BOOST_TEST(*s.server.handler().streams_cancelled == 0);
}

BOOST_AUTO_TEST_CASE(shutdown_lets_answers_in_flight_finish_and_closes_idle_connections)
{
    running_server s;
    asio::io_context ioc;
    tcp::socket idle(ioc);
    idle.connect(s.ep);
    asio::write(idle, asio::buffer(std::string("GET /x HTTP/1.1\r\nHost: x\r\n\r\n")));
    std::string first(38, '\0');
    asio::read(idle, asio::buffer(first)); // answered; now idle in keep-alive

    auto stream = std::async(std::launch::async,
        [&] { return test_http::raw(s.ep, "GET /events HTTP/1.1\r\nHost: x\r\n\r\n", false); });
    // Until the stream's handler runs: admitted but with its head unread, it would count as idle.
    for(int i = 0; i < 1000 && s.calls() < 2; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    std::promise<void> done;
    s.server.shutdown(std::chrono::seconds(5), [&] { done.set_value(); });

    std::string rest;
    boost::system::error_code ec;
    auto const t0 = std::chrono::steady_clock::now();
    asio::read(idle, asio::dynamic_buffer(rest), ec); // closed at once
    // Well before the 5 s grace (a loaded machine under a sanitizer took over 250 ms to get there).
    BOOST_TEST((std::chrono::steady_clock::now() - t0 < std::chrono::seconds(2)));
    auto const events = stream.get(); // the stream in flight finished
    BOOST_TEST(events.find("data: 4\n") != std::string::npos, events);
    BOOST_TEST((done.get_future().wait_for(std::chrono::seconds(2)) == std::future_status::ready));
    BOOST_TEST(s.server.connection_count() == 0u);
    boost::system::error_code cec;
    tcp::socket late(ioc);
    late.connect(s.ep, cec);
    BOOST_TEST(cec.failed()); // no longer accepting
}

BOOST_AUTO_TEST_CASE(shutdown_cuts_what_outlasts_the_grace)
{
    running_server s;
    auto stream = std::async(std::launch::async,
        [&] { return test_http::raw(s.ep, "GET /forever HTTP/1.1\r\nHost: x\r\n\r\n", false); });
    // Until the stream runs: an admitted connection whose head is not read yet is idle, closed at once.
    for(int i = 0; i < 400 && *s.server.handler().calls < 1; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    std::promise<void> done;
    auto const t0 = std::chrono::steady_clock::now();
    s.server.shutdown(std::chrono::milliseconds(300), [&] { done.set_value(); });
    BOOST_TEST((done.get_future().wait_for(std::chrono::seconds(3)) == std::future_status::ready));
    BOOST_TEST((std::chrono::steady_clock::now() - t0 >= std::chrono::milliseconds(300)));
    stream.get();
    BOOST_TEST(*s.server.handler().streams_cancelled == 1); // the handler saw its client go
    BOOST_TEST(s.server.connection_count() == 0u);
}

BOOST_AUTO_TEST_CASE(run_threads_survive_a_throw)
{
    asio::io_context ioc;
    std::atomic<int> errors{0};
    std::atomic<bool> after{false};
    asio::post(ioc, [] { throw std::length_error("field value too large"); });
    asio::post(ioc, [&] {
        // Runs whichever thread took the throw: the threads went back to run().
        asio::post(ioc, [&] { after = true; });
    });
    agentio::http::run_threads(ioc, 2, [&](std::exception_ptr) { ++errors; });
    BOOST_TEST(errors == 1);
    BOOST_TEST(after.load());
}

BOOST_AUTO_TEST_CASE(client_text_cannot_forge_log_lines)
{
    using agentio::log_text;
    BOOST_TEST(log_text("a\n2026-01-01 - ERROR - x") == "a\\n2026-01-01 - ERROR - x");
    BOOST_TEST(log_text("\r\t\x01\x7f") == "\\r\\t\\x01\\x7f");
    BOOST_TEST(log_text("línea\xc2\x85otra\xe2\x80\xa8y") == "línea\\u0085otra\\u2028y");
    BOOST_TEST(log_text("ñ €") == "ñ €");
}

BOOST_AUTO_TEST_SUITE_END()
