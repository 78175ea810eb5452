// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Deterministic generator of the sample "Portfolio Digital" database.
//
// generate_database() opens the file, runs the generation passes and compacts
// the result. The generator itself lives in generator/:
//   random.hpp            the random source (xoshiro256** seeded by splitmix64, Irwin-Hall normals)
//   calendar.hpp          dates on std::chrono (sys_days, year_month_day), the fixed "today"
//   money.hpp             amounts in integer cents
//   text.{hpp,cpp}        Spanish number, euro and date formatting, slugs, cutting text
//   vocabulary.{hpp,cpp}  the Spanish vocabulary: states, units, frameworks, names, suppliers...
//   table_writer.{hpp,cpp} the typed row writer on agentio::sqlite (CREATE TABLE, INSERT)
//   schema.hpp            the 26 tables
//   model.hpp             people, initiatives and the context the passes share
//   passes.hpp            the passes, in order:
//     initiatives.cpp       A. people, ids, base attributes, dates, amounts; B. groups
//     child_tables.{hpp,cpp}, execution_tables.cpp, follow_up_tables.cpp, documents.cpp
//                           C. each initiative's child tables
//     summary_tables.cpp    D. calculated fields and the 1:1 tables; E. grupos_iniciativas
//     reference_tables.cpp  E. parametros, etiquetas_destacadas, indexes
//
// Determinism: every random decision comes from our own xoshiro256** generator
// (seeded through splitmix64, one independent stream per initiative and pass),
// normal variates use the Irwin-Hall sum of 12 uniforms (pure IEEE additions);
// the only libm call is std::exp for log-normal amounts, which are rounded to
// cents afterwards. "Today" is fixed at 2025-06-30. Fixed pragmas, fixed
// insertion order and a final VACUUM give a byte-identical file for the same
// (seed, initiatives).
#include "portfolio/db_generator.hpp"

#include "portfolio/generator/passes.hpp"
#include "portfolio/generator/text.hpp"

#include <sqlite3.h>

#include <cstddef>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>

namespace portfolio {
namespace {

struct TmpFileGuard
{
    std::filesystem::path path;
    bool keep = false;
    ~TmpFileGuard()
    {
        if(keep)
            return;
        std::error_code ec;
        std::filesystem::remove(path, ec);
        std::filesystem::remove(std::filesystem::path(path.string() + "-journal"), ec);
    }
};

} // namespace

generator_report generate_database(std::filesystem::path const& path, generator_options const& options)
{
    using namespace generator;
    namespace fs = std::filesystem;
    if(options.initiatives < 1 || options.initiatives > 100000)
        throw std::runtime_error(cat("invalid number of initiatives ", options.initiatives,
            " (valid range 1..100000)"));
    if(path.empty())
        throw std::runtime_error("empty database path");
    std::error_code ec;
    fs::path const parent = path.parent_path();
    if(!parent.empty() && !fs::is_directory(parent, ec))
        throw std::runtime_error("cannot create database '" + path.string() + "': directory '" + parent.string() +
            "' does not exist");
    if(fs::is_directory(path, ec))
        throw std::runtime_error("cannot create database '" + path.string() + "': it is a directory");
    fs::path const tmp(path.string() + ".tmp");
    fs::remove(tmp, ec);
    fs::remove(fs::path(tmp.string() + "-journal"), ec);
    TmpFileGuard guard{tmp};

    generator_report report;
    report.initiatives = options.initiatives;
    {
        auto opened = agentio::sqlite::connection::open(tmp, agentio::sqlite::open_mode::read_write_create);
        if(!opened)
            throw std::runtime_error("cannot create database file '" + tmp.string() + "': " + opened.error().message());
        agentio::sqlite::connection db = std::move(*opened);
        // agentio::sqlite opens writable files in SQLite's defensive mode, which silently ignores
        // journal_mode=OFF; this one-shot bulk load into a private file runs our own SQL only, and
        // writes no rollback journal (a failed run deletes the file).
        sqlite3_db_config(db.native_handle(), SQLITE_DBCONFIG_DEFENSIVE, 0, nullptr);
        execute(db, "PRAGMA page_size=4096");
        execute(db, "PRAGMA journal_mode=OFF");
        execute(db, "PRAGMA synchronous=OFF");
        execute(db, "PRAGMA cache_size=-65536");
        // VACUUM's temporary copy: RAM for small databases, a temp file for big ones (output bytes are identical)
        execute(db, options.initiatives <= 20000 ? "PRAGMA temp_store=MEMORY" : "PRAGMA temp_store=FILE");
        execute(db, "PRAGMA encoding='UTF-8'");
        execute(db, "PRAGMA user_version=1");
        {
            auto tables = std::make_unique<Tables>();
            Tables& t = *tables;
            for(Table* tb : t.all())
                execute(db, tb->create_sql());
            for(Table* tb : t.all())
                tb->prepare(db);
            execute(db, "BEGIN");

            auto ctx = std::make_unique<Ctx>();
            Ctx& c = *ctx;
            c.opt = options;
            c.people = make_people(options.seed);
            assign_ids(c);
            for(std::size_t i = 0; i < c.inis.size(); ++i)
            {
                Rng r = Rng::stream(options.seed, P_BASE, i);
                gen_base(c, c.inis[i], r);
            }
            form_groups(c);
            for(auto& x : c.inis)
                if(x.is_group)
                {
                    x.obj = 0;
                    x.ctx = 0;
                    x.verb = 0;
                    x.generic_ctx = true;
                }
            for(std::size_t i = 0; i < c.inis.size(); ++i)
                gen_children(c, t, i);
            for(auto& x : c.inis)
                if(x.is_group)
                    aggregate_group(c, x);
            for(std::size_t i = 0; i < c.inis.size(); ++i)
                insert_one_to_one(c, t, i);
            insert_grupos(c, t);
            insert_destacadas(t);
            insert_parametros(db, t);
            create_indexes(db, t);
            execute(db, "COMMIT");
            for(Table* tb : t.all())
                report.rows_per_table[tb->name()] = tb->rows();
        }                      // statements finalized here
        execute(db, "VACUUM"); // compact, contiguous tables; uses a temporary file, not RAM
    }                          // closes the connection
    fs::rename(tmp, path, ec);
    if(ec)
        throw std::runtime_error("cannot move '" + tmp.string() + "' to '" + path.string() + "': " + ec.message());
    guard.keep = true;
    return report;
}

} // namespace portfolio
