// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Test that header file is self-contained.
#include <agentio/sqlite.hpp>

#include <agentio/json_text.hpp>

#include <boost/asio/bind_executor.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <filesystem>
#include <stdexcept>
#include <thread>

namespace asio = boost::asio;
namespace sql = agentio::sqlite;

namespace {

// A database file in the temporary directory, removed at the end of the test.
struct temp_db
{
    std::filesystem::path path;

    explicit temp_db(std::string const& name)
        : path(std::filesystem::temp_directory_path() /
              ("agentio_test_" + name + "_" + std::to_string(::getpid()) + ".db"))
    {
        std::filesystem::remove(path);
        auto db = sql::connection::open(path, sql::open_mode::read_write_create).value();
        db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, amount REAL, blob BLOB);"
                   "INSERT INTO t VALUES(1, 'Ana \"la\" de Peñíscola', 1234.5, NULL);"
                   "INSERT INTO t VALUES(2, 'línea1\nlínea2\t\x01', 0.1, x'00ff');"
                   "INSERT INTO t VALUES(3, NULL, -2e21, NULL);")
            .value();
    }
    ~temp_db() { std::filesystem::remove(path); }
};

std::string all_rows(sql::connection& db, char const* sql)
{
    auto s = db.prepare(sql).value();
    std::string out;
    while(s.step().value())
    {
        s.append_row_json(out);
        out.push_back('\n');
    }
    return out;
}

} // namespace

BOOST_AUTO_TEST_SUITE(json_text)

BOOST_AUTO_TEST_CASE(strings_are_escaped_and_utf8_kept)
{
    std::string out;
    agentio::append_json_string(out, "a\"b\\c\n\r\t\b\f\x01\x1f ñ€");
    BOOST_TEST(out == R"("a\"b\\c\n\r\t\b\f\u0001\u001f ñ€")");
}

BOOST_AUTO_TEST_CASE(numbers_use_the_shortest_round_trip_form)
{
    std::string out;
    agentio::append_json_number(out, 1234.5);
    out += ' ';
    agentio::append_json_number(out, 0.1);
    out += ' ';
    agentio::append_json_number(out, 100.0);
    out += ' ';
    agentio::append_json_number(out, std::int64_t{-9007199254740993});
    out += ' ';
    agentio::append_json_number(out, std::numeric_limits<double>::infinity());
    BOOST_TEST(out == "1234.5 0.1 100 -9007199254740993 null");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(sqlite)

BOOST_AUTO_TEST_CASE(rows_become_json_objects_in_column_order)
{
    temp_db file("rows");
    auto db = sql::connection::open(file.path, sql::open_mode::read_only).value();
    BOOST_TEST(all_rows(db, "SELECT * FROM t ORDER BY id") ==
        "{\"id\":1,\"name\":\"Ana \\\"la\\\" de Peñíscola\",\"amount\":1234.5,\"blob\":null}\n"
        "{\"id\":2,\"name\":\"línea1\\nlínea2\\t\\u0001\",\"amount\":0.1,\"blob\":null}\n"
        "{\"id\":3,\"name\":null,\"amount\":-2e+21,\"blob\":null}\n");
}

BOOST_AUTO_TEST_CASE(bound_parameters_are_values_never_sql)
{
    temp_db file("bind");
    auto db = sql::connection::open(file.path, sql::open_mode::read_only).value();
    auto s = db.prepare("SELECT count(*) FROM t WHERE name = ?").value();
    BOOST_TEST(s.bind(1, std::string_view("x' OR '1'='1")).has_value());
    BOOST_TEST(s.step().value());
    BOOST_TEST(s.column_int64(0) == 0);
}

BOOST_AUTO_TEST_CASE(read_only_refuses_every_kind_of_write)
{
    temp_db file("ro");
    auto db = sql::connection::open(file.path, sql::open_mode::read_only).value();
    for(char const* sql :
        {"INSERT INTO t(name) VALUES('x')", "UPDATE t SET name = 'x'", "DELETE FROM t", "DROP TABLE t",
            "CREATE TABLE u(x)", "ATTACH DATABASE ':memory:' AS other", "PRAGMA query_only = OFF", "VACUUM"})
    {
        BOOST_TEST_CONTEXT(sql)
        {
            // Either refused when prepared (authorizer) or when run (read-only file).
            auto s = db.prepare(sql);
            bool const refused = !s || !s->step();
            BOOST_TEST(refused);
        }
    }
    BOOST_TEST(all_rows(db, "SELECT count(*) AS n FROM t") == "{\"n\":3}\n");
    // Schema introspection is a read and stays allowed.
    BOOST_TEST(all_rows(db, "PRAGMA table_info(t)").find("\"name\":\"amount\"") != std::string::npos);
    // query_only is still on.
    BOOST_TEST(all_rows(db, "PRAGMA query_only") == "{\"query_only\":1}\n");
}

BOOST_AUTO_TEST_CASE(read_only_open_of_a_missing_or_bogus_file_fails_at_open)
{
    auto missing = sql::connection::open("/nonexistent/dir/x.db", sql::open_mode::read_only);
    BOOST_TEST(missing.has_error());
    auto const bogus = std::filesystem::temp_directory_path() / "agentio_test_bogus.db";
    {
        std::FILE* f = std::fopen(bogus.c_str(), "w");
        std::fputs("this is not a database, just text long enough to have a header............", f);
        std::fclose(f);
    }
    auto r = sql::connection::open(bogus, sql::open_mode::read_only);
    BOOST_TEST(r.has_error());
    if(r.has_error())
        BOOST_TEST(r.error().message().find("not a database") != std::string::npos);
    std::filesystem::remove(bogus);
}

BOOST_AUTO_TEST_CASE(cached_statements_are_reused_and_reset)
{
    temp_db file("cache");
    auto db = sql::connection::open(file.path, sql::open_mode::read_only).value();
    sqlite3_stmt* first = nullptr;
    for(int round = 0; round < 3; ++round)
    {
        auto s = db.cached("SELECT name FROM t WHERE id = ?").value();
        if(round == 0)
            first = s.native_handle();
        BOOST_TEST(s.native_handle() == first);
        // Bindings were cleared by the previous lease: unbound is NULL, no row.
        BOOST_TEST(!s.step().value());
        s.reset();
        BOOST_TEST(s.bind(1, std::int64_t{1}).has_value());
        BOOST_TEST(s.step().value());
        BOOST_TEST(s.column_text(0).starts_with("Ana"));
    }
}

BOOST_AUTO_TEST_CASE(a_read_transaction_holds_one_snapshot)
{
    temp_db file("snapshot");
    auto reader = sql::connection::open(file.path, sql::open_mode::read_only).value();
    auto writer = sql::connection::open(file.path, sql::open_mode::read_write_create).value();
    {
        sql::read_transaction snapshot(reader);
        BOOST_TEST(snapshot.active());
        BOOST_TEST(all_rows(reader, "SELECT count(*) AS n FROM t") == "{\"n\":3}\n");
        // The reader's snapshot holds: a writer cannot commit under it (rollback journal).
        auto w = writer.execute("INSERT INTO t(name) VALUES('x')");
        BOOST_TEST(w.has_error());
        BOOST_TEST(all_rows(reader, "SELECT count(*) AS n FROM t") == "{\"n\":3}\n");
    }
    BOOST_TEST(writer.execute("INSERT INTO t(name) VALUES('x')").has_value());
    BOOST_TEST(all_rows(reader, "SELECT count(*) AS n FROM t") == "{\"n\":4}\n");
}

BOOST_AUTO_TEST_CASE(errors_carry_sqlite_messages)
{
    temp_db file("err");
    auto db = sql::connection::open(file.path, sql::open_mode::read_only).value();
    auto s = db.prepare("SELECT nope FROM t");
    BOOST_TEST(s.has_error());
    BOOST_TEST(db.last_error_message() == "no such column: nope");
    BOOST_TEST(std::string(s.error().category().name()) == "agentio.sqlite");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(query_pool)

BOOST_AUTO_TEST_CASE(work_runs_on_workers_and_completes_on_the_callers_strand)
{
    temp_db file("pool");
    std::vector<sql::connection> conns;
    for(int i = 0; i < 2; ++i)
        conns.push_back(sql::connection::open(file.path, sql::open_mode::read_only).value());
    sql::query_pool pool(std::move(conns));
    BOOST_TEST(pool.size() == 2u);

    asio::io_context ioc;
    auto strand = asio::make_strand(ioc);
    std::atomic<int> done{0};
    std::thread::id const main_thread = std::this_thread::get_id();
    for(int i = 0; i < 20; ++i)
    {
        asio::co_spawn(
            strand,
            [&]() -> asio::awaitable<void> {
                auto [count, worker] = co_await pool.async_run(
                    [](sql::connection& c) {
                        auto s = c.cached("SELECT count(*) FROM t").value();
                        (void)s.step().value();
                        return std::pair{s.column_int64(0), std::this_thread::get_id()};
                    },
                    asio::use_awaitable);
                BOOST_TEST(count == 3);
                BOOST_TEST(worker != main_thread);
                BOOST_TEST(strand.running_in_this_thread());
                ++done;
            },
            asio::detached);
    }
    ioc.run();
    BOOST_TEST(done == 20);
}

BOOST_AUTO_TEST_CASE(an_exception_in_the_work_reaches_the_coroutine)
{
    temp_db file("pool_ex");
    std::vector<sql::connection> conns;
    conns.push_back(sql::connection::open(file.path, sql::open_mode::read_only).value());
    sql::query_pool pool(std::move(conns));
    asio::io_context ioc;
    std::string caught;
    asio::co_spawn(
        ioc,
        [&]() -> asio::awaitable<void> {
            try
            {
                co_await pool.async_run([](sql::connection&) -> int { throw std::logic_error("boom"); },
                    asio::use_awaitable);
            }
            catch(std::logic_error const& e)
            {
                caught = e.what();
            }
        },
        asio::detached);
    ioc.run();
    BOOST_TEST(caught == "boom");
}

BOOST_AUTO_TEST_CASE(works_with_a_plain_callback_too)
{
    temp_db file("pool_cb");
    std::vector<sql::connection> conns;
    conns.push_back(sql::connection::open(file.path, sql::open_mode::read_only).value());
    sql::query_pool pool(std::move(conns));
    asio::io_context ioc;
    int got = 0;
    pool.async_run([](sql::connection&) { return 42; }, asio::bind_executor(ioc, [&](std::exception_ptr ep, int v) {
        BOOST_TEST(!ep);
        got = v;
    }));
    ioc.run(); // returns once the callback ran: the pending work kept it alive
    BOOST_TEST(got == 42);
}

BOOST_AUTO_TEST_SUITE_END()
