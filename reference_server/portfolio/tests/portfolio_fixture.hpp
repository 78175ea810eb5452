// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// One generated database and one running agentio-portfolio server (in-process,
// 127.0.0.1, ephemeral port) shared by the REST tests of this executable.
#pragma once

#include "app/server.hpp"
#include "portfolio/db_generator.hpp"

#include <agentio/sqlite.hpp>

#include <boost/test/unit_test.hpp>

#include <atomic>
#include <filesystem>
#include <memory>
#include <thread>

namespace portfolio_test {

struct shared_server
{
    std::filesystem::path dir;
    std::filesystem::path db_path;
    std::unique_ptr<portfolio::portfolio_server> server;
    std::thread runner;

    static shared_server& get()
    {
        static shared_server instance;
        return instance;
    }

    boost::asio::ip::tcp::endpoint endpoint() const { return server->endpoint(); }

    /// A read-only connection to the same file, for checking answers against SQL.
    agentio::sqlite::connection direct() const
    {
        return agentio::sqlite::connection::open(db_path, agentio::sqlite::open_mode::read_only).value();
    }

    /// An AGENT_STORE of its own for a test server (a fresh SQLite file in the test's folder).
    std::string store_for(std::string const& name)
    {
        static std::atomic<int> n{0};
        return "sqlite:" + (dir / ("threads-" + name + "-" + std::to_string(++n) + ".db")).string();
    }

private:
    shared_server()
    {
        dir = std::filesystem::temp_directory_path() / ("agentio_portfolio_test_" + std::to_string(::getpid()));
        std::filesystem::create_directories(dir);
        db_path = dir / "portfolio.db";
        portfolio::generate_database(db_path); // the default size, as users get it
        portfolio::server_options opt;
        opt.db_path = db_path;
        opt.port = 0;
        opt.threads = 2;
        opt.db_threads = 2;
        opt.charts.output_dir = (dir / "charts").string();
        opt.chat.store = store_for("shared");
        server = std::make_unique<portfolio::portfolio_server>(opt);
        runner = std::thread([this] { server->run(); });
    }
    ~shared_server()
    {
        server->stop();
        runner.join();
        server.reset();
        std::filesystem::remove_all(dir);
    }
};

inline std::int64_t sql_count(agentio::sqlite::connection& db, std::string const& sql)
{
    auto s = db.prepare(sql).value();
    BOOST_REQUIRE(s.step().value());
    return s.column_int64(0);
}

} // namespace portfolio_test
