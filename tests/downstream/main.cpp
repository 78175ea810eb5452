// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Uses the installed headers for real: a SQLite row written as JSON, served by
// agentio::http::server on an ephemeral loopback port and read back.
#include <agentio/http/server.hpp>
#include <agentio/sqlite.hpp>

#include <boost/asio.hpp>
#include <boost/beast/http.hpp>

#include <cstdio>
#include <filesystem>
#include <string>

namespace asio = boost::asio;
namespace http = boost::beast::http;

int main()
{
    auto const path = std::filesystem::temp_directory_path() / "agentio_downstream.db";
    std::filesystem::remove(path);
    std::string row;
    {
        auto db = agentio::sqlite::connection::open(path, agentio::sqlite::open_mode::read_write_create).value();
        db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT); INSERT INTO t VALUES(1, 'José')").value();
        auto stmt = db.prepare("SELECT * FROM t").value();
        if(!stmt.step().value())
            return 1;
        stmt.append_row_json(row);
    }
    std::filesystem::remove(path);

    auto handler = [row](agentio::http::request&&) -> asio::awaitable<http::message_generator> {
        agentio::http::response res{http::status::ok, 11};
        res.body() = row;
        res.prepare_payload();
        co_return res;
    };
    asio::io_context ioc;
    agentio::http::server<decltype(handler)> server(ioc.get_executor(), handler);
    auto const ep = server.listen({asio::ip::make_address("127.0.0.1"), 0}).value();
    server.start();

    std::string got;
    asio::co_spawn(ioc, [&]() -> asio::awaitable<void> {
        asio::ip::tcp::socket s(ioc);
        co_await s.async_connect(ep, asio::use_awaitable);
        http::request<http::empty_body> req{http::verb::get, "/", 11};
        req.set(http::field::host, "127.0.0.1");
        co_await http::async_write(s, req, asio::use_awaitable);
        boost::beast::flat_buffer buf;
        http::response<http::string_body> res;
        co_await http::async_read(s, buf, res, asio::use_awaitable);
        got = res.body();
        server.stop();
        ioc.stop();
    }, asio::detached);
    ioc.run();

    std::printf("downstream: %s\n", got.c_str());
    return got == R"({"id":1,"name":"José"})" ? 0 : 1;
}
