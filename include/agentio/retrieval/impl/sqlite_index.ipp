//
// agentio/retrieval/impl/sqlite_index.ipp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_RETRIEVAL_IMPL_SQLITE_INDEX_IPP
#define AGENTIO_RETRIEVAL_IMPL_SQLITE_INDEX_IPP

#include <agentio/retrieval/sqlite_index.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <bit>
#include <cstring>
#include <functional>
#include <unordered_map>

namespace agentio::retrieval {

namespace detail {

static_assert(std::endian::native == std::endian::little, "vectors are stored as little-endian float32");

inline constexpr char const* sqlite_index_schema = R"sql(
CREATE TABLE IF NOT EXISTS rag_meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
CREATE TABLE IF NOT EXISTS rag_chunks(
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    collection TEXT NOT NULL,
    law TEXT NOT NULL,
    article_number TEXT NOT NULL,
    paragraph TEXT NOT NULL,
    title TEXT NOT NULL,
    chapter TEXT NOT NULL,
    section TEXT NOT NULL,
    text TEXT NOT NULL,
    refs TEXT NOT NULL,
    ordinal INTEGER NOT NULL,
    hash TEXT NOT NULL) STRICT;
CREATE INDEX IF NOT EXISTS rag_chunks_by_article ON rag_chunks(law, article_number, ordinal);
CREATE INDEX IF NOT EXISTS rag_chunks_by_law ON rag_chunks(collection, law);
CREATE VIRTUAL TABLE IF NOT EXISTS rag_fts USING fts5(title, body, tokenize = 'unicode61 remove_diacritics 2');
CREATE TABLE IF NOT EXISTS rag_vectors(
    chunk_id INTEGER NOT NULL,
    model TEXT NOT NULL,
    vec BLOB NOT NULL,
    PRIMARY KEY(model, chunk_id)) STRICT, WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS rag_models(name TEXT PRIMARY KEY, data BLOB NOT NULL) STRICT;
)sql";

inline constexpr char const* chunk_columns =
    "id, key, collection, law, article_number, paragraph, title, chapter, section, text, refs, ordinal";

inline error storage_failure(sqlite::connection const& c, system::error_code ec)
{
    return {ec, c.last_error_message()};
}

inline error storage_failure(sqlite::connection const& c)
{
    return {make_error_code(errc::storage_failed), c.last_error_message()};
}

// Binds the arguments in order (from 1): integers, strings, blobs.
inline system::result<void> bind_all(sqlite::statement&, int)
{
    return {};
}

template<class First, class... Rest>
system::result<void> bind_all(sqlite::statement& s, int i, First const& first, Rest const&... rest)
{
    system::result<void> r;
    if constexpr(std::is_integral_v<First>)
        r = s.bind(i, static_cast<std::int64_t>(first));
    else if constexpr(std::is_same_v<First, std::span<std::byte const>>)
        r = s.bind_blob(i, first);
    else
        r = s.bind(i, std::string_view(first));
    if(!r)
        return r;
    return bind_all(s, i + 1, rest...);
}

template<class... Args>
result<sqlite::statement> prepare(sqlite::connection& c, std::string_view sql, Args const&... args)
{
    auto s = c.cached(sql);
    if(!s)
        return storage_failure(c, s.error());
    if(auto b = bind_all(*s, 1, args...); !b)
        return storage_failure(c, b.error());
    return std::move(*s);
}

// Runs a statement that returns no rows.
template<class... Args>
result<void> run(sqlite::connection& c, std::string_view sql, Args const&... args)
{
    auto s = prepare(c, sql, args...);
    if(!s)
        return s.error();
    if(auto r = s->step(); !r)
        return storage_failure(c, r.error());
    return {};
}

inline std::string content_hash(chunk const& c)
{
    // FNV-1a over every field with a separator no text contains: a changed
    // field, refs or position makes the row be rewritten.
    std::uint64_t h = 0xcbf29ce484222325ull;
    auto const mix = [&h](std::string_view s) {
        for(unsigned char ch : s)
            h = (h ^ ch) * 0x100000001b3ull;
        h = (h ^ 0x1f) * 0x100000001b3ull;
    };
    for(auto const* f :
        {&c.collection, &c.law, &c.article_number, &c.paragraph, &c.title, &c.chapter, &c.section, &c.text})
        mix(*f);
    for(auto const& r : c.refs)
        mix(r);
    mix(std::to_string(c.ordinal));
    char buf[17];
    static constexpr char digits[] = "0123456789abcdef";
    for(int i = 15; i >= 0; --i, h >>= 4)
        buf[i] = digits[h & 0xf];
    return std::string(buf, 16);
}

inline std::string refs_json(std::vector<std::string> const& refs)
{
    boost::json::array a;
    for(auto const& r : refs)
        a.emplace_back(r);
    return boost::json::serialize(a);
}

inline result<chunk> read_chunk(sqlite::statement const& s)
{
    chunk c;
    c.id = s.column_int64(0);
    c.key = s.column_text(1);
    c.collection = s.column_text(2);
    c.law = s.column_text(3);
    c.article_number = s.column_text(4);
    c.paragraph = s.column_text(5);
    c.title = s.column_text(6);
    c.chapter = s.column_text(7);
    c.section = s.column_text(8);
    c.text = s.column_text(9);
    system::error_code ec;
    auto const refs = boost::json::parse(s.column_text(10), ec);
    if(ec || !refs.is_array())
        return error{make_error_code(errc::corrupt_data), "chunk " + c.key + ": refs is not a JSON array"};
    for(auto const& r : refs.get_array())
        if(r.is_string())
            c.refs.emplace_back(r.get_string());
    c.ordinal = static_cast<std::int32_t>(s.column_int64(11));
    return c;
}

template<class... Args>
result<std::vector<chunk>> read_chunks(sqlite::connection& c, std::string_view sql, Args const&... args)
{
    auto s = prepare(c, sql, args...);
    if(!s)
        return s.error();
    std::vector<chunk> out;
    for(;;)
    {
        auto row = s->step();
        if(!row)
            return storage_failure(c, row.error());
        if(!*row)
            return out;
        auto one = read_chunk(*s);
        if(!one)
            return one.error();
        out.push_back(std::move(*one));
    }
}

// A transaction that rolls back unless committed.
class write_transaction
{
public:
    explicit write_transaction(sqlite::connection& c) noexcept : conn_(c) {}
    write_transaction(write_transaction const&) = delete;
    write_transaction& operator=(write_transaction const&) = delete;
    ~write_transaction()
    {
        if(open_)
            (void)conn_.execute("ROLLBACK");
    }
    result<void> begin()
    {
        if(auto r = conn_.execute("BEGIN IMMEDIATE"); !r)
            return storage_failure(conn_, r.error());
        open_ = true;
        return {};
    }
    result<void> commit()
    {
        if(auto r = conn_.execute("COMMIT"); !r)
            return storage_failure(conn_, r.error());
        open_ = false;
        return {};
    }

private:
    sqlite::connection& conn_;
    bool open_ = false;
};

inline result<void> check_schema(sqlite::connection& c)
{
    auto s = prepare(c, "SELECT value FROM rag_meta WHERE key = 'schema_version'");
    if(!s)
        return s.error();
    auto row = s->step();
    if(!row)
        return storage_failure(c, row.error());
    if(!*row)
        return error{make_error_code(errc::corrupt_data), "the index has no schema version"};
    if(std::stoi(std::string(s->column_text(0))) > sqlite_index_writer::schema_version)
        return error{make_error_code(errc::schema_too_new),
            "the index's schema version " + std::string(s->column_text(0)) + " is newer than this program's"};
    return {};
}

// Runs `work()` on `worker` and completes on the awaiting coroutine's
// executor. The work is a std::function: a coroutine frame may not hold a
// closure of a function of an .ipp (GCC's -Wsubobject-linkage).
template<class Result>
asio::awaitable<Result> on_worker(asio::thread_pool& worker, std::function<Result()> work)
{
    // Named before the co_await: no closure temporary inside it (GCC 12).
    auto job = [work = std::move(work)]() -> asio::awaitable<Result> { co_return work(); };
    auto out = co_await asio::co_spawn(worker, std::move(job), asio::use_awaitable);
    co_return out;
}

} // namespace detail

// ---------------------------------------------------------------------------
// sqlite_index_writer

AGENTIO_DECL result<sqlite_index_writer> sqlite_index_writer::open(std::filesystem::path const& path, analyzer text)
{
    auto conn = sqlite::connection::open(path, sqlite::open_mode::read_write_create);
    if(!conn)
        return error{conn.error(), "cannot open " + path.string() + ": " + conn.error().message()};
    if(auto r = conn->execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;"); !r)
        return detail::storage_failure(*conn, r.error());
    if(auto r = conn->execute(detail::sqlite_index_schema); !r)
        return detail::storage_failure(*conn, r.error());
    if(auto r = detail::run(*conn, "INSERT OR IGNORE INTO rag_meta(key, value) VALUES('schema_version', ?)",
           std::to_string(schema_version));
        !r)
        return r.error();
    if(auto r = detail::check_schema(*conn); !r)
        return r.error();
    return sqlite_index_writer(std::move(*conn), std::move(text));
}

AGENTIO_DECL result<ingest_report> sqlite_index_writer::replace(std::string_view collection, std::string_view law,
    std::span<chunk> chunks)
{
    struct stored
    {
        std::int64_t id;
        std::string hash;
        bool kept = false;
    };
    detail::write_transaction tx(conn_);
    if(auto r = tx.begin(); !r)
        return r.error();
    std::unordered_map<std::string, stored> existing;
    {
        auto s = detail::prepare(conn_, "SELECT id, key, hash FROM rag_chunks WHERE collection = ? AND law = ?",
            collection, law);
        if(!s)
            return s.error();
        for(;;)
        {
            auto row = s->step();
            if(!row)
                return detail::storage_failure(conn_, row.error());
            if(!*row)
                break;
            existing.emplace(std::string(s->column_text(1)),
                stored{s->column_int64(0), std::string(s->column_text(2))});
        }
    }
    ingest_report report;
    std::unordered_map<std::string_view, bool> seen;
    for(auto& c : chunks)
    {
        if(!seen.emplace(c.key, true).second)
            return error{make_error_code(errc::corrupt_data), "two chunks have the key " + c.key};
        c.collection = std::string(collection);
        c.law = std::string(law);
        auto const hash = detail::content_hash(c);
        auto const body = text_.indexed_text(c.text);
        auto const title = text_.indexed_text(c.title);
        auto const refs = detail::refs_json(c.refs);
        auto it = existing.find(c.key);
        if(it != existing.end())
        {
            it->second.kept = true;
            c.id = it->second.id;
            if(it->second.hash == hash)
            {
                ++report.unchanged;
                continue;
            }
            auto r = detail::run(conn_,
                "UPDATE rag_chunks SET article_number = ?, paragraph = ?, title = ?, chapter = ?, section = ?, "
                "text = ?, refs = ?, ordinal = ?, hash = ? WHERE id = ?",
                c.article_number, c.paragraph, c.title, c.chapter, c.section, c.text, refs, c.ordinal, hash, c.id);
            if(r)
                r = detail::run(conn_, "DELETE FROM rag_fts WHERE rowid = ?", c.id);
            if(r)
                r = detail::run(conn_, "DELETE FROM rag_vectors WHERE chunk_id = ?", c.id);
            if(!r)
                return r.error();
            ++report.changed;
        }
        else
        {
            auto r = detail::run(conn_,
                "INSERT INTO rag_chunks(key, collection, law, article_number, paragraph, title, chapter, section, "
                "text, refs, ordinal, hash) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                c.key, c.collection, c.law, c.article_number, c.paragraph, c.title, c.chapter, c.section, c.text, refs,
                c.ordinal, hash);
            if(!r)
                return r.error();
            c.id = sqlite3_last_insert_rowid(conn_.native_handle());
            ++report.added;
        }
        if(auto r = detail::run(conn_, "INSERT INTO rag_fts(rowid, title, body) VALUES(?, ?, ?)", c.id, title, body);
            !r)
            return r.error();
    }
    for(auto const& [key, s] : existing)
    {
        if(s.kept)
            continue;
        auto r = detail::run(conn_, "DELETE FROM rag_chunks WHERE id = ?", s.id);
        if(r)
            r = detail::run(conn_, "DELETE FROM rag_fts WHERE rowid = ?", s.id);
        if(r)
            r = detail::run(conn_, "DELETE FROM rag_vectors WHERE chunk_id = ?", s.id);
        if(!r)
            return r.error();
        ++report.removed;
    }
    if(auto r = tx.commit(); !r)
        return r.error();
    return report;
}

AGENTIO_DECL result<std::size_t> sqlite_index_writer::remove(std::string_view collection, std::string_view law)
{
    auto removed = replace(collection, law, {});
    if(!removed)
        return removed.error();
    return removed->removed;
}

AGENTIO_DECL result<std::vector<chunk>> sqlite_index_writer::all_chunks()
{
    return detail::read_chunks(conn_, std::string("SELECT ") + detail::chunk_columns + " FROM rag_chunks ORDER BY id");
}

AGENTIO_DECL result<std::vector<std::int64_t>> sqlite_index_writer::missing_vectors(std::string_view model_id)
{
    auto s = detail::prepare(conn_,
        "SELECT id FROM rag_chunks c WHERE NOT EXISTS "
        "(SELECT 1 FROM rag_vectors v WHERE v.model = ? AND v.chunk_id = c.id) ORDER BY id",
        model_id);
    if(!s)
        return s.error();
    std::vector<std::int64_t> out;
    for(;;)
    {
        auto row = s->step();
        if(!row)
            return detail::storage_failure(conn_, row.error());
        if(!*row)
            return out;
        out.push_back(s->column_int64(0));
    }
}

AGENTIO_DECL result<void> sqlite_index_writer::store_vectors(std::string_view model_id,
    std::span<std::int64_t const> ids, std::span<float const> values, std::size_t dimensions, bool replace_all)
{
    if(dimensions == 0 || values.size() != ids.size() * dimensions)
        return error{make_error_code(errc::model_mismatch),
            "vectors: " + std::to_string(values.size()) + " floats for " + std::to_string(ids.size()) + " ids of " +
                std::to_string(dimensions) + " dimensions"};
    detail::write_transaction tx(conn_);
    if(auto r = tx.begin(); !r)
        return r.error();
    if(replace_all)
        if(auto r = detail::run(conn_, "DELETE FROM rag_vectors WHERE model = ?", model_id); !r)
            return r.error();
    for(std::size_t i = 0; i < ids.size(); ++i)
    {
        auto const row = std::as_bytes(values.subspan(i * dimensions, dimensions));
        if(auto r = detail::run(conn_, "INSERT OR REPLACE INTO rag_vectors(chunk_id, model, vec) VALUES(?, ?, ?)",
               ids[i], model_id, row);
            !r)
            return r.error();
    }
    return tx.commit();
}

AGENTIO_DECL result<std::map<std::string, std::size_t, std::less<>>> sqlite_index_writer::vector_models()
{
    auto s = detail::prepare(conn_, "SELECT model, count(*) FROM rag_vectors GROUP BY model ORDER BY model");
    if(!s)
        return s.error();
    std::map<std::string, std::size_t, std::less<>> out;
    for(;;)
    {
        auto row = s->step();
        if(!row)
            return detail::storage_failure(conn_, row.error());
        if(!*row)
            return out;
        out.emplace(std::string(s->column_text(0)), static_cast<std::size_t>(s->column_int64(1)));
    }
}

AGENTIO_DECL result<std::size_t> sqlite_index_writer::drop_vectors(std::string_view model_id)
{
    if(auto r = detail::run(conn_, "DELETE FROM rag_vectors WHERE model = ?", model_id); !r)
        return r.error();
    return static_cast<std::size_t>(sqlite3_changes(conn_.native_handle()));
}

AGENTIO_DECL result<void> sqlite_index_writer::store_model(std::string_view name, std::span<std::byte const> bytes)
{
    return detail::run(conn_, "INSERT OR REPLACE INTO rag_models(name, data) VALUES(?, ?)", name, bytes);
}

AGENTIO_DECL result<void> sqlite_index_writer::store_analysis(analysis_profile const& profile)
{
    auto const json = boost::json::serialize(profile.to_json());
    return store_model(analysis_model_name, std::as_bytes(std::span(json)));
}

AGENTIO_DECL result<std::optional<std::string>> sqlite_index_writer::load_model(std::string_view name)
{
    auto s = detail::prepare(conn_, "SELECT data FROM rag_models WHERE name = ?", name);
    if(!s)
        return s.error();
    auto row = s->step();
    if(!row)
        return detail::storage_failure(conn_, row.error());
    if(!*row)
        return std::optional<std::string>();
    auto const b = s->column_blob(0);
    return std::optional<std::string>(std::string(reinterpret_cast<char const*>(b.data()), b.size()));
}

// ---------------------------------------------------------------------------
// sqlite_index_async_writer

// Each override copies its strings into the work when called (the interface's
// promise) and leaves the coroutine to detail::on_worker.

AGENTIO_DECL result<std::unique_ptr<sqlite_index_async_writer>>
sqlite_index_async_writer::open(std::filesystem::path const& path, analyzer text)
{
    auto writer = sqlite_index_writer::open(path, std::move(text));
    if(!writer)
        return writer.error();
    return std::make_unique<sqlite_index_async_writer>(std::move(*writer));
}

AGENTIO_DECL sqlite_index_async_writer::sqlite_index_async_writer(sqlite_index_writer writer)
    : writer_(std::move(writer))
{
}

AGENTIO_DECL sqlite_index_async_writer::~sqlite_index_async_writer()
{
    worker_.join();
}

AGENTIO_DECL asio::awaitable<result<ingest_report>> sqlite_index_async_writer::replace(std::string_view collection,
    std::string_view law, std::span<chunk> chunks)
{
    std::function<result<ingest_report>()> work = [this, collection = std::string(collection), law = std::string(law),
                                                      chunks] { return writer_.replace(collection, law, chunks); };
    return detail::on_worker(worker_, std::move(work));
}

AGENTIO_DECL asio::awaitable<result<std::size_t>> sqlite_index_async_writer::remove(std::string_view collection,
    std::string_view law)
{
    std::function<result<std::size_t>()> work = [this, collection = std::string(collection), law = std::string(law)] {
        return writer_.remove(collection, law);
    };
    return detail::on_worker(worker_, std::move(work));
}

AGENTIO_DECL asio::awaitable<result<std::vector<chunk>>> sqlite_index_async_writer::all_chunks()
{
    std::function<result<std::vector<chunk>>()> work = [this] { return writer_.all_chunks(); };
    return detail::on_worker(worker_, std::move(work));
}

AGENTIO_DECL asio::awaitable<result<std::vector<std::int64_t>>>
sqlite_index_async_writer::missing_vectors(std::string_view model_id)
{
    std::function<result<std::vector<std::int64_t>>()> work = [this, model_id = std::string(model_id)] {
        return writer_.missing_vectors(model_id);
    };
    return detail::on_worker(worker_, std::move(work));
}

AGENTIO_DECL asio::awaitable<result<std::map<std::string, std::size_t, std::less<>>>>
sqlite_index_async_writer::vector_models()
{
    std::function<result<std::map<std::string, std::size_t, std::less<>>>()> work = [this] {
        return writer_.vector_models();
    };
    return detail::on_worker(worker_, std::move(work));
}

AGENTIO_DECL asio::awaitable<result<void>> sqlite_index_async_writer::store_vectors(std::string_view model_id,
    std::span<std::int64_t const> ids, std::span<float const> values, std::size_t dimensions, bool replace_all)
{
    std::function<result<void>()> work = [this, model_id = std::string(model_id), ids, values, dimensions,
                                             replace_all] {
        return writer_.store_vectors(model_id, ids, values, dimensions, replace_all);
    };
    return detail::on_worker(worker_, std::move(work));
}

AGENTIO_DECL asio::awaitable<result<std::size_t>> sqlite_index_async_writer::drop_vectors(std::string_view model_id)
{
    std::function<result<std::size_t>()> work = [this, model_id = std::string(model_id)] {
        return writer_.drop_vectors(model_id);
    };
    return detail::on_worker(worker_, std::move(work));
}

AGENTIO_DECL asio::awaitable<result<void>> sqlite_index_async_writer::store_model(std::string_view name,
    std::span<std::byte const> bytes)
{
    std::function<result<void>()> work = [this, name = std::string(name), bytes] {
        return writer_.store_model(name, bytes);
    };
    return detail::on_worker(worker_, std::move(work));
}

AGENTIO_DECL asio::awaitable<result<std::optional<std::string>>>
sqlite_index_async_writer::load_model(std::string_view name)
{
    std::function<result<std::optional<std::string>>()> work = [this, name = std::string(name)] {
        return writer_.load_model(name);
    };
    return detail::on_worker(worker_, std::move(work));
}

AGENTIO_DECL asio::awaitable<result<void>> sqlite_index_async_writer::store_analysis(analysis_profile const& profile)
{
    std::function<result<void>()> work = [this, profile] { return writer_.store_analysis(profile); };
    return detail::on_worker(worker_, std::move(work));
}

// ---------------------------------------------------------------------------
// sqlite_index

AGENTIO_DECL result<std::unique_ptr<sqlite_index>> sqlite_index::open(std::filesystem::path const& path,
    std::size_t connections)
{
    std::vector<sqlite::connection> readers;
    for(std::size_t i = 0; i < std::max<std::size_t>(connections, 1); ++i)
    {
        // Its own queries only, and FTS5 needs what the read-only authorizer refuses.
        auto c = sqlite::connection::open(path, sqlite::open_mode::read_only_trusted);
        if(!c)
            return error{c.error(), "cannot open " + path.string() + ": " + c.error().message()};
        if(i == 0)
            if(auto r = detail::check_schema(*c); !r)
                return r.error();
        readers.push_back(std::move(*c));
    }
    return std::make_unique<sqlite_index>(std::move(readers));
}

AGENTIO_DECL asio::awaitable<result<std::vector<ranked>>> sqlite_index::sparse(std::vector<std::string> terms,
    std::vector<std::string> collections, std::size_t limit)
{
    auto work = [terms = std::move(terms), collections = std::move(collections),
                    limit](sqlite::connection& c) -> result<std::vector<ranked>> {
        std::vector<ranked> out;
        auto const match = fts5_any_of(terms);
        if(match.empty() || limit == 0)
            return out;
        boost::json::array wanted;
        for(auto const& w : collections)
            wanted.emplace_back(w);
        // Title (the article's heading) weighs twice the body: an article named
        // for the words asked is the likeliest answer. Without a collection to
        // keep, no join: each match would cost a lookup of its chunk row.
        auto const most = static_cast<std::int64_t>(std::min<std::size_t>(limit, INT64_MAX));
        auto s = wanted.empty()
            ? detail::prepare(c,
                  "SELECT rowid, bm25(rag_fts, 2.0, 1.0) AS score FROM rag_fts WHERE rag_fts MATCH ?1 "
                  "ORDER BY score, rowid LIMIT ?2",
                  match, most)
            : detail::prepare(c,
                  "SELECT f.rowid, bm25(rag_fts, 2.0, 1.0) AS score FROM rag_fts f JOIN rag_chunks c ON c.id = f.rowid "
                  "WHERE rag_fts MATCH ?1 AND c.collection IN (SELECT value FROM json_each(?2)) "
                  "ORDER BY score, f.rowid LIMIT ?3",
                  match, boost::json::serialize(wanted), most);
        if(!s)
            return s.error();
        for(;;)
        {
            auto row = s->step();
            if(!row)
                return detail::storage_failure(c, row.error());
            if(!*row)
                return out;
            // bm25() is lower for better matches: negated, higher is better as elsewhere.
            out.push_back({s->column_int64(0), -s->column_double(1)});
        }
    };
    return readers_.async_run(std::move(work), asio::use_awaitable);
}

AGENTIO_DECL asio::awaitable<result<std::vector<chunk>>> sqlite_index::chunks(std::vector<std::int64_t> ids)
{
    auto work = [ids = std::move(ids)](sqlite::connection& c) -> result<std::vector<chunk>> {
        boost::json::array wanted;
        for(auto id : ids)
            wanted.emplace_back(id);
        auto rows = detail::read_chunks(c,
            std::string("SELECT ") + detail::chunk_columns +
                " FROM rag_chunks WHERE id IN (SELECT value FROM json_each(?))",
            boost::json::serialize(wanted));
        if(!rows)
            return rows.error();
        // In the order asked.
        std::unordered_map<std::int64_t, std::size_t> at;
        for(std::size_t i = 0; i < rows->size(); ++i)
            at.emplace((*rows)[i].id, i);
        std::vector<chunk> out;
        out.reserve(rows->size());
        for(auto id : ids)
            if(auto it = at.find(id); it != at.end() && !(*rows)[it->second].key.empty())
            {
                out.push_back(std::move((*rows)[it->second]));
                (*rows)[it->second].key.clear(); // an id asked twice is returned once
            }
        return out;
    };
    return readers_.async_run(std::move(work), asio::use_awaitable);
}

AGENTIO_DECL asio::awaitable<result<std::vector<chunk>>> sqlite_index::article(std::string law,
    std::string article_number, std::string paragraph)
{
    auto work = [law = std::move(law), number = std::move(article_number),
                    paragraph = std::move(paragraph)](sqlite::connection& c) -> result<std::vector<chunk>> {
        return detail::read_chunks(c,
            std::string("SELECT ") + detail::chunk_columns +
                " FROM rag_chunks WHERE law = ?1 AND article_number = ?2 AND (?3 = '' OR paragraph = ?3) "
                "ORDER BY ordinal, id",
            law, number, paragraph);
    };
    return readers_.async_run(std::move(work), asio::use_awaitable);
}

AGENTIO_DECL asio::awaitable<result<std::map<std::string, std::size_t, std::less<>>>> sqlite_index::laws()
{
    auto work = [](sqlite::connection& c) -> result<std::map<std::string, std::size_t, std::less<>>> {
        auto s = detail::prepare(c, "SELECT law, count(*) FROM rag_chunks GROUP BY law");
        if(!s)
            return s.error();
        std::map<std::string, std::size_t, std::less<>> out;
        for(;;)
        {
            auto row = s->step();
            if(!row)
                return detail::storage_failure(c, row.error());
            if(!*row)
                return out;
            out.emplace(std::string(s->column_text(0)), static_cast<std::size_t>(s->column_int64(1)));
        }
    };
    return readers_.async_run(std::move(work), asio::use_awaitable);
}

AGENTIO_DECL asio::awaitable<result<index_stats>> sqlite_index::stats()
{
    auto work = [](sqlite::connection& c) -> result<index_stats> {
        auto s = detail::prepare(c, "SELECT collection, count(*) FROM rag_chunks GROUP BY collection");
        if(!s)
            return s.error();
        index_stats out;
        for(;;)
        {
            auto row = s->step();
            if(!row)
                return detail::storage_failure(c, row.error());
            if(!*row)
                return out;
            auto const n = static_cast<std::size_t>(s->column_int64(1));
            out.per_collection.emplace(std::string(s->column_text(0)), n);
            out.chunks += n;
        }
    };
    return readers_.async_run(std::move(work), asio::use_awaitable);
}

AGENTIO_DECL asio::awaitable<result<dense_corpus>> sqlite_index::load_vectors(std::string model_id)
{
    auto work = [model_id = std::move(model_id)](sqlite::connection& c) -> result<dense_corpus> {
        dense_corpus out;
        out.model_id = model_id;
        auto s = detail::prepare(c,
            "SELECT v.chunk_id, c.collection, v.vec FROM rag_vectors v JOIN rag_chunks c ON c.id = v.chunk_id "
            "WHERE v.model = ? ORDER BY v.chunk_id",
            model_id);
        if(!s)
            return s.error();
        std::unique_ptr<vector_store> store;
        std::vector<float> row;
        std::unordered_map<std::string, std::uint32_t> collection_index;
        for(;;)
        {
            auto step = s->step();
            if(!step)
                return detail::storage_failure(c, step.error());
            if(!*step)
                break;
            auto const bytes = s->column_blob(2);
            if(bytes.empty() || bytes.size() % sizeof(float) != 0 ||
                (store && bytes.size() / sizeof(float) != store->dimensions()))
                return error{make_error_code(errc::corrupt_data),
                    "vector of chunk " + std::to_string(s->column_int64(0)) + " has " + std::to_string(bytes.size()) +
                        " bytes"};
            if(!store)
                store = std::make_unique<vector_store>(bytes.size() / sizeof(float));
            // The blob is not aligned for float: copied, not cast.
            row.resize(bytes.size() / sizeof(float));
            std::memcpy(row.data(), bytes.data(), bytes.size());
            auto const id = s->column_int64(0);
            store->add(id, row);
            auto const collection = std::string(s->column_text(1));
            auto [it, fresh] = collection_index.try_emplace(collection,
                static_cast<std::uint32_t>(out.collections.size()));
            if(fresh)
                out.collections.push_back(collection);
            out.collection_of.emplace(id, it->second);
        }
        if(store)
            out.vectors = std::move(store);
        return out;
    };
    return readers_.async_run(std::move(work), asio::use_awaitable);
}

AGENTIO_DECL asio::awaitable<result<std::optional<std::string>>> sqlite_index::load_model(std::string name)
{
    auto work = [name = std::move(name)](sqlite::connection& c) -> result<std::optional<std::string>> {
        auto s = detail::prepare(c, "SELECT data FROM rag_models WHERE name = ?", name);
        if(!s)
            return s.error();
        auto row = s->step();
        if(!row)
            return detail::storage_failure(c, row.error());
        if(!*row)
            return std::optional<std::string>();
        auto const b = s->column_blob(0);
        return std::optional<std::string>(std::string(reinterpret_cast<char const*>(b.data()), b.size()));
    };
    return readers_.async_run(std::move(work), asio::use_awaitable);
}

} // namespace agentio::retrieval

#endif
