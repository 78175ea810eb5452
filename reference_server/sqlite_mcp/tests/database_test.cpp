// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The read-only database behind agentio-sqlite-mcp: its schema, its selects,
// and every way of writing, escaping or exhausting it that a client may try,
// each refused with its code while the file stays byte-identical.

#define BOOST_TEST_MODULE agentio sqlite mcp tests
#include "database.hpp"

#include <agentio/sqlite.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>

namespace asio = boost::asio;
namespace json = boost::json;
namespace fs = std::filesystem;
using namespace std::string_view_literals;

namespace {

// A small invoice database: customers, their invoices, the invoices' lines.
constexpr char const* invoice_schema = R"sql(
CREATE TABLE customers(id INTEGER PRIMARY KEY, name TEXT NOT NULL, country TEXT NOT NULL);
CREATE TABLE invoices(id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES customers(id),
    issued TEXT NOT NULL, total REAL NOT NULL);
CREATE TABLE invoice_lines(invoice_id INTEGER NOT NULL REFERENCES invoices(id), line INTEGER NOT NULL,
    item TEXT, amount REAL NOT NULL, PRIMARY KEY(invoice_id, line));
INSERT INTO customers VALUES(1, 'Ana', 'España'), (2, 'Luís', 'Portugal'), (3, 'Chloé', 'Francia');
INSERT INTO invoices VALUES(1, 1, '2025-01-10', 30.5), (2, 1, '2025-02-11', 12.0), (3, 2, '2025-02-12', 7.25);
INSERT INTO invoice_lines VALUES(1, 1, 'disco', 20.5), (1, 2, 'libro', 10.0), (2, 1, 'libro', 12.0),
    (3, 1, 'cable', 7.25);
)sql";

std::string file_bytes(fs::path const& p)
{
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

struct fixture
{
    fs::path dir = fs::temp_directory_path() / ("agentio_sqlite_mcp_" + std::to_string(::getpid()));
    fs::path path = dir / "facturas.db";
    std::unique_ptr<sqlite_mcp::database> db;
    std::string before;

    explicit fixture(sqlite_mcp::limits l = {})
    {
        fs::remove_all(dir);
        fs::create_directories(dir);
        {
            auto c = agentio::sqlite::connection::open(path, agentio::sqlite::open_mode::read_write_create).value();
            BOOST_TEST_REQUIRE(c.execute(invoice_schema).has_value());
        }
        before = file_bytes(path);
        l.timeout = std::chrono::milliseconds(300);
        auto opened = sqlite_mcp::database::open(path, l);
        BOOST_TEST_REQUIRE(opened.has_value());
        db = std::move(*opened);
    }
    fixture(fixture const&) = delete;
    fixture& operator=(fixture const&) = delete;
    ~fixture()
    {
        db.reset();
        fs::remove_all(dir);
    }

    template<class T>
    T run(asio::awaitable<T> a)
    {
        asio::io_context ioc;
        std::optional<T> out;
        asio::co_spawn(ioc, std::move(a), [&](std::exception_ptr e, T v) {
            if(e)
                std::rethrow_exception(e);
            out = std::move(v);
        });
        ioc.run();
        BOOST_TEST_REQUIRE(out.has_value());
        return std::move(*out);
    }

    sqlite_mcp::outcome<sqlite_mcp::select_result> select(std::string sql, json::array params = {},
        std::int64_t max_rows = 500)
    {
        return run(db->select(std::move(sql), std::move(params), max_rows));
    }
};

} // namespace

BOOST_AUTO_TEST_SUITE(database)

BOOST_AUTO_TEST_CASE(schema_has_columns_keys_and_counts)
{
    fixture f;
    auto tables = f.run(f.db->schema(std::nullopt)).value();
    BOOST_REQUIRE(tables.size() == 3u);
    BOOST_TEST(tables[0].at("name").as_string() == "customers"sv);
    BOOST_TEST(tables[0].at("row_count").as_int64() == 3);
    auto const& lines = tables[1].as_object();
    BOOST_TEST(lines.at("name").as_string() == "invoice_lines"sv);
    BOOST_TEST((lines.at("primary_key") == json::array{"invoice_id", "line"}));
    BOOST_TEST(lines.at("foreign_keys").at(0).at("references_table").as_string() == "invoices"sv);
    BOOST_TEST(lines.at("columns").at(3).at("type").as_string() == "REAL"sv);
    BOOST_TEST(lines.at("columns").at(3).at("not_null").as_bool());

    auto one = f.run(f.db->schema("INVOICES")).value(); // names as SQLite compares them
    BOOST_REQUIRE(one.size() == 1u);
    BOOST_TEST(one[0].at("row_count").as_int64() == 3);
    auto unknown = f.run(f.db->schema("facturas"));
    BOOST_REQUIRE(!unknown);
    BOOST_TEST(unknown.error().code == "query_validation_failed");
    BOOST_TEST(unknown.error().message == "La tabla 'facturas' no existe");

    BOOST_TEST(f.run(f.db->table_names()).value().size() == 3u);
    auto columns = f.run(f.db->describe("customers")).value();
    BOOST_REQUIRE(columns.size() == 3u);
    BOOST_TEST(columns[1].at("name").as_string() == "name"sv);
    BOOST_TEST(columns[0].at("pk").as_int64() == 1);
}

BOOST_AUTO_TEST_CASE(a_select_returns_rows_with_bound_params)
{
    fixture f;
    auto r = f.select("SELECT c.country, round(sum(i.total), 2) AS total FROM invoices i JOIN customers c ON c.id = "
                      "i.customer_id WHERE i.issued >= ? GROUP BY c.country ORDER BY total DESC",
        {"2025-01-01"});
    BOOST_REQUIRE(r.has_value());
    BOOST_TEST((r->columns == std::vector<std::string>{"country", "total"}));
    BOOST_REQUIRE(r->rows.size() == 2u);
    BOOST_TEST(r->rows[0].at(0).as_string() == "España"sv);
    BOOST_TEST(r->rows[0].at(1).as_double() == 42.5);
    BOOST_TEST(!r->truncated);

    auto capped = f.select("WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n LIMIT 50) SELECT x FROM n",
        {}, 10);
    BOOST_REQUIRE(capped.has_value());
    BOOST_TEST(capped->rows.size() == 10u);
    BOOST_TEST(capped->truncated);

    auto typed = f.select("SELECT ?, ?, ?, ?", {nullptr, true, 3, "tres"});
    BOOST_REQUIRE(typed.has_value());
    BOOST_TEST(typed->rows[0].at(0).is_null());
    BOOST_TEST(typed->rows[0].at(1).as_int64() == 1);
    BOOST_TEST(typed->rows[0].at(3).as_string() == "tres"sv);
    auto missing = f.select("SELECT * FROM invoices WHERE id = ?");
    BOOST_REQUIRE(!missing);
    BOOST_TEST(missing.error().message == "La consulta espera 1 parámetros y se recibieron 0");
    auto bad_param = f.select("SELECT ?", {json::array{1, 2}});
    BOOST_REQUIRE(!bad_param);
    BOOST_TEST(bad_param.error().code == "query_validation_failed");

    auto wrong = f.select("SELECT nombre FROM customers");
    BOOST_REQUIRE(!wrong);
    BOOST_TEST(wrong.error().code == "sql_error");
    BOOST_TEST(wrong.error().message == "SQLite rechazó la consulta: no such column: nombre");
}

// Every attack is refused by what SQLite says the statement does, never by
// its words; the server goes on answering and the file does not change.
BOOST_AUTO_TEST_CASE(writes_and_escapes_are_refused)
{
    fixture f;
    struct attack
    {
        char const* sql;
        char const* code;
    };
    attack const attacks[] = {
        {"DELETE FROM invoices", "query_validation_failed"},
        {"UPDATE invoices SET total = 0", "query_validation_failed"},
        {"INSERT INTO customers VALUES(9, 'x', 'y')", "query_validation_failed"},
        {"WITH doomed AS (SELECT id FROM invoices) DELETE FROM invoices WHERE id IN (SELECT id FROM doomed)",
            "query_validation_failed"},
        {"ATTACH DATABASE '/tmp/agentio_other.db' AS other", "query_validation_failed"},
        {"PRAGMA writable_schema = 1", "query_validation_failed"},
        {"PRAGMA journal_mode = DELETE", "query_validation_failed"},
        {"SELECT load_extension('/lib/x86_64-linux-gnu/libc.so.6')", "query_validation_failed"},
        {"SELECT 1; DELETE FROM invoices", "query_validation_failed"},
        {"SELECT 1 /* ; */; DROP TABLE invoices", "query_validation_failed"},
        {"SELECT 1 -- \n; DROP TABLE invoices", "query_validation_failed"},
        {"CREATE TEMP TABLE t(x)", "query_validation_failed"},
        {"DROP TABLE invoices", "query_validation_failed"},
        {"VACUUM INTO '/tmp/agentio_copy.db'", "query_validation_failed"},
        {"BEGIN IMMEDIATE", "query_validation_failed"},
        {"EXPLAIN SELECT * FROM invoices", "query_validation_failed"},
        {"REINDEX", "query_validation_failed"},
        {"ANALYZE", "query_validation_failed"},
        {"", "query_validation_failed"},
        {"   -- nada\n", "query_validation_failed"},
    };
    for(auto const& a : attacks)
    {
        auto r = f.select(a.sql);
        BOOST_TEST_CONTEXT(a.sql)
        {
            BOOST_REQUIRE(!r);
            BOOST_TEST(r.error().code == a.code, r.error().message);
        }
    }
    BOOST_TEST(!fs::exists("/tmp/agentio_copy.db"));
    // A trailing comment or spaces are not a second statement.
    BOOST_TEST(f.select("SELECT count(*) FROM invoices; -- fin\n  ").has_value());
    BOOST_TEST(f.select("SELECT count(*) FROM invoices").value().rows[0].at(0).as_int64() == 3);
    BOOST_TEST(file_bytes(f.path) == f.before);
}

BOOST_AUTO_TEST_CASE(runaway_queries_are_stopped)
{
    fixture f;
    auto forever = f.select("WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n");
    BOOST_REQUIRE(!forever);
    BOOST_TEST(forever.error().code == "query_timeout");
    BOOST_TEST(forever.error().message == "La consulta superó el tiempo máximo de 300 ms");

    auto product = f.select("WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n LIMIT 100000) "
                            "SELECT count(*) FROM n a, n b");
    BOOST_REQUIRE(!product);
    BOOST_TEST(product.error().code == "query_timeout");

    auto huge_value = f.select("SELECT randomblob(1000000000)");
    BOOST_REQUIRE(!huge_value);
    BOOST_TEST(huge_value.error().code == "result_too_large");

    auto huge_query = f.select("SELECT '" + std::string(10 << 20, 'x') + "'");
    BOOST_REQUIRE(!huge_query);
    BOOST_TEST(huge_query.error().code == "query_validation_failed");

    // Still serving, and nothing changed.
    BOOST_TEST(f.select("SELECT name FROM customers ORDER BY id").value().rows.size() == 3u);
    BOOST_TEST(file_bytes(f.path) == f.before);
}

BOOST_AUTO_TEST_CASE(a_result_past_the_byte_cap_is_refused)
{
    sqlite_mcp::limits l;
    l.max_result_bytes = 4096;
    fixture f(l);
    auto big = f.select("WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n LIMIT 1000) "
                        "SELECT x, printf('%.100c', 'a') FROM n");
    BOOST_REQUIRE(!big);
    BOOST_TEST(big.error().code == "result_too_large");
    BOOST_TEST(f.select("SELECT 1").has_value());
}

BOOST_AUTO_TEST_CASE(what_is_not_a_database_is_refused_at_open)
{
    auto const dir = fs::temp_directory_path() / ("agentio_sqlite_mcp_open_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    BOOST_TEST(sqlite_mcp::database::open(dir / "nope.db").error() ==
        "no existe el fichero " + (dir / "nope.db").string());
    std::ofstream(dir / "text.db") << "esto no es una base de datos, aunque lo parezca por el nombre del fichero";
    auto r = sqlite_mcp::database::open(dir / "text.db");
    BOOST_REQUIRE(!r);
    BOOST_TEST(r.error().find("no se puede abrir") == 0u);
    fs::remove_all(dir);
}

BOOST_AUTO_TEST_SUITE_END()
