//
// agentio/retrieval/impl/postgres_index.ipp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_RETRIEVAL_IMPL_POSTGRES_INDEX_IPP
#define AGENTIO_RETRIEVAL_IMPL_POSTGRES_INDEX_IPP

#include <agentio/detail/utf8.hpp>
#include <agentio/retrieval/postgres_index.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <unordered_map>
#include <unordered_set>

namespace agentio::retrieval {

namespace detail::pg {

static_assert(std::endian::native == std::endian::little, "vectors are stored as little-endian float32");

// The advisory lock writers take to create or migrate the schema (the thread
// store's is 7308411592).
inline constexpr std::int64_t schema_lock = 7308411601;

// Each entry moves the schema from its index to the next version. The tsvector
// is written with the row (not generated): with an empty language it holds the
// C++ analyzer's terms, which the database cannot compute. `tokens` (the
// chunk's length for BM25) follows from it; rag_corpus keeps the totals BM25
// divides by, so a search never counts the whole table.
inline constexpr char const* migrations[] = {R"sql(
CREATE OR REPLACE FUNCTION rag_tokens(tsvector) RETURNS integer LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$ SELECT coalesce(sum(array_length(positions, 1)), 0)::integer FROM unnest($1) $$;
CREATE TABLE rag_chunks(
    id bigserial PRIMARY KEY,
    key text NOT NULL UNIQUE,
    collection text NOT NULL,
    law text NOT NULL,
    article_number text NOT NULL,
    paragraph text NOT NULL,
    title text NOT NULL,
    chapter text NOT NULL,
    section text NOT NULL,
    text text NOT NULL,
    refs text NOT NULL,
    ordinal integer NOT NULL,
    tsv tsvector NOT NULL,
    tokens integer GENERATED ALWAYS AS (rag_tokens(tsv)) STORED);
CREATE INDEX rag_chunks_by_article ON rag_chunks(law, article_number, ordinal);
CREATE INDEX rag_chunks_by_law ON rag_chunks(collection, law);
CREATE INDEX rag_chunks_tsv ON rag_chunks USING gin(tsv);
CREATE TABLE rag_corpus(
    one boolean PRIMARY KEY DEFAULT true CHECK(one),
    chunks bigint NOT NULL,
    tokens bigint NOT NULL);
INSERT INTO rag_corpus(chunks, tokens) VALUES(0, 0);
CREATE TABLE rag_vectors(
    model text NOT NULL,
    chunk_id bigint NOT NULL REFERENCES rag_chunks(id) ON DELETE CASCADE,
    vec bytea NOT NULL,
    PRIMARY KEY(model, chunk_id));
CREATE INDEX rag_vectors_by_chunk ON rag_vectors(chunk_id);
CREATE TABLE rag_models(name text PRIMARY KEY, data bytea NOT NULL);
)sql"};

inline constexpr char const* chunk_columns =
    "id, key, collection, law, article_number, paragraph, title, chapter, section, text, refs, ordinal";

// The title's lexemes weighted A, the text's B (BM25 counts a word of the
// heading twice, as the SQLite index does).
#define AGENTIO_RETRIEVAL_PG_TSVECTOR(CONFIG, TITLE, BODY)                                                             \
    "setweight(to_tsvector(" CONFIG ", " TITLE "), 'A') || setweight(to_tsvector(" CONFIG ", " BODY "), 'B')"

inline error failure(postgres::error const& e)
{
    if(e.sqlstate.empty())
        return {e.code, e.message};
    return {e.code, e.message + " (SQLSTATE " + e.sqlstate + ")"};
}

inline error corrupt(std::string message)
{
    return {make_error_code(errc::corrupt_data), std::move(message)};
}

inline void append_hex(std::string& out, std::span<std::byte const> bytes)
{
    static constexpr char digits[] = "0123456789abcdef";
    out.reserve(out.size() + bytes.size() * 2);
    for(auto b : bytes)
    {
        auto const v = std::to_integer<unsigned>(b);
        out += digits[v >> 4];
        out += digits[v & 0xf];
    }
}

inline int hex_value(char c) noexcept
{
    if(c >= '0' && c <= '9')
        return c - '0';
    if(c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if(c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

// Hex (what `encode(bytea, 'hex')` returns, whatever bytea_output says) as bytes.
inline bool bytes_from_hex(std::string_view text, std::string& out)
{
    if(text.size() % 2 != 0)
        return false;
    out.resize(text.size() / 2);
    for(std::size_t i = 0; i < out.size(); ++i)
    {
        int const hi = hex_value(text[2 * i]), lo = hex_value(text[2 * i + 1]);
        if(hi < 0 || lo < 0)
            return false;
        out[i] = static_cast<char>(hi * 16 + lo);
    }
    return true;
}

inline std::string refs_json(std::vector<std::string> const& refs)
{
    boost::json::array a;
    for(auto const& r : refs)
        a.emplace_back(r);
    return boost::json::serialize(a);
}

inline result<chunk> read_chunk(postgres::rows const& r, std::size_t i)
{
    chunk c;
    c.id = r.int64(i, 0);
    c.key = r.text(i, 1);
    c.collection = r.text(i, 2);
    c.law = r.text(i, 3);
    c.article_number = r.text(i, 4);
    c.paragraph = r.text(i, 5);
    c.title = r.text(i, 6);
    c.chapter = r.text(i, 7);
    c.section = r.text(i, 8);
    c.text = r.text(i, 9);
    system::error_code ec;
    auto const refs = boost::json::parse(r.text(i, 10), ec);
    if(ec || !refs.is_array())
        return corrupt("chunk " + c.key + ": refs is not a JSON array");
    for(auto const& ref : refs.get_array())
        if(ref.is_string())
            c.refs.emplace_back(ref.get_string());
    c.ordinal = static_cast<std::int32_t>(r.int64(i, 11));
    return c;
}

inline result<std::vector<chunk>> read_chunks(postgres::result<postgres::rows> const& r)
{
    if(!r)
        return failure(r.error());
    std::vector<chunk> out;
    out.reserve(r->size());
    for(std::size_t i = 0; i < r->size(); ++i)
    {
        auto one = read_chunk(*r, i);
        if(!one)
            return one.error();
        out.push_back(std::move(*one));
    }
    return out;
}

inline result<std::optional<std::string>> read_model(postgres::result<postgres::rows> const& r)
{
    if(!r)
        return failure(r.error());
    if(r->size() == 0)
        return std::optional<std::string>();
    std::string bytes;
    if(!bytes_from_hex(r->text(0, 0), bytes))
        return corrupt("a stored model is not hex");
    return std::optional<std::string>(std::move(bytes));
}

// A chunk of this law already stored, and whether the new chunks keep it.
struct stored_chunk
{
    std::int64_t id = 0;
    bool kept = false;
};

} // namespace detail::pg

namespace detail::pg {

// Words of ASCII letters and digits and whole non-ASCII code points, sorted,
// each once; anything else (operators, quotes, invalid UTF-8) only separates them.
inline std::vector<std::string> query_words(std::span<std::string const> terms)
{
    std::vector<std::string> words;
    for(auto const& t : terms)
    {
        std::string word;
        for(std::size_t i = 0; i < t.size();)
        {
            auto const c = static_cast<unsigned char>(t[i]);
            std::size_t n = 0;
            if((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
                n = 1;
            else if(c >= 0x80)
                n = agentio::detail::utf8_sequence_length(t, i);
            if(n == 0)
            {
                if(!word.empty())
                    words.push_back(std::move(word));
                word.clear();
                ++i;
                continue;
            }
            word.append(t, i, n);
            i += n;
        }
        if(!word.empty())
            words.push_back(std::move(word));
    }
    std::sort(words.begin(), words.end());
    words.erase(std::unique(words.begin(), words.end()), words.end());
    return words;
}

// A word as a tsquery operand: quoted (inside quotes only ' and \ are
// special, and no word has either).
inline std::string quoted(std::string const& word)
{
    return '\'' + word + '\'';
}

} // namespace detail::pg

AGENTIO_DECL std::string tsquery_any_of(std::span<std::string const> terms)
{
    std::string out;
    for(auto const& w : detail::pg::query_words(terms))
    {
        if(!out.empty())
            out += " | ";
        out += detail::pg::quoted(w);
    }
    return out;
}

// ---------------------------------------------------------------------------
// postgres_index_writer

AGENTIO_DECL postgres_index_writer::postgres_index_writer(postgres_index_writer const&) = default;
AGENTIO_DECL postgres_index_writer::postgres_index_writer(postgres_index_writer&&) noexcept = default;
AGENTIO_DECL postgres_index_writer& postgres_index_writer::operator=(postgres_index_writer const&) = default;
AGENTIO_DECL postgres_index_writer& postgres_index_writer::operator=(postgres_index_writer&&) noexcept = default;
AGENTIO_DECL postgres_index_writer::~postgres_index_writer() = default;

AGENTIO_DECL asio::awaitable<result<postgres_index_writer>> postgres_index_writer::open(postgres::pool& db,
    analyzer text, postgres_index_options options)
{
    return do_open(db, std::move(text), std::move(options.language));
}

AGENTIO_DECL asio::awaitable<result<postgres_index_writer>>
postgres_index_writer::open(std::shared_ptr<postgres::pool> db, analyzer text, postgres_index_options options)
{
    return do_open_shared(std::move(db), std::move(text), std::move(options.language));
}

AGENTIO_DECL asio::awaitable<result<ingest_report>> postgres_index_writer::replace(std::string_view collection,
    std::string_view law, std::span<chunk> chunks)
{
    return do_replace(std::string(collection), std::string(law), chunks);
}

AGENTIO_DECL asio::awaitable<result<std::size_t>> postgres_index_writer::remove(std::string_view collection,
    std::string_view law)
{
    return do_remove(std::string(collection), std::string(law));
}

AGENTIO_DECL asio::awaitable<result<std::size_t>> postgres_index_writer::drop_vectors(std::string_view model_id)
{
    return do_drop_vectors(std::string(model_id));
}

AGENTIO_DECL asio::awaitable<result<std::vector<std::int64_t>>>
postgres_index_writer::missing_vectors(std::string_view model_id)
{
    return do_missing_vectors(std::string(model_id));
}

AGENTIO_DECL asio::awaitable<result<void>> postgres_index_writer::store_vectors(std::string_view model_id,
    std::span<std::int64_t const> ids, std::span<float const> values, std::size_t dimensions, bool replace_all)
{
    return do_store_vectors(std::string(model_id), ids, values, dimensions, replace_all);
}

AGENTIO_DECL asio::awaitable<result<void>> postgres_index_writer::store_model(std::string_view name,
    std::span<std::byte const> bytes)
{
    return do_store_model(std::string(name), bytes);
}

AGENTIO_DECL asio::awaitable<result<std::optional<std::string>>>
postgres_index_writer::load_model(std::string_view name)
{
    return do_load_model(std::string(name));
}

AGENTIO_DECL asio::awaitable<result<void>> postgres_index_writer::store_analysis(analysis_profile const& profile)
{
    return do_store_text(std::string(analysis_model_name), boost::json::serialize(profile.to_json()));
}

AGENTIO_DECL asio::awaitable<result<postgres_index_writer>> postgres_index_writer::do_open(postgres::pool& db,
    analyzer text, std::string language)
{
    std::string config = "simple";
    if(!language.empty())
    {
        // It becomes part of identifiers in DDL: letters and underscores only.
        bool const plain = std::all_of(language.begin(), language.end(),
            [](char c) { return (c >= 'a' && c <= 'z') || c == '_'; });
        if(!plain)
            co_return error{make_error_code(errc::model_mismatch),
                "text search language '" + language + "': lower-case letters and _ only"};
        config = "agentio_" + language;
    }
    auto lease = co_await db.acquire();
    if(!lease)
        co_return detail::pg::failure(lease.error());
    auto& conn = **lease;
    // One migrator at a time: the others wait on the lock, then find the schema
    // current. An error below returns the connection inside the transaction,
    // and the pool closes it: the server rolls everything back.
    auto const begin = "BEGIN; SELECT pg_advisory_xact_lock(" + std::to_string(detail::pg::schema_lock) +
        "); CREATE TABLE IF NOT EXISTS rag_meta(key text PRIMARY KEY, value text NOT NULL)";
    if(auto r = co_await conn.execute(begin); !r)
        co_return detail::pg::failure(r.error());
    auto meta = co_await conn.query("SELECT (SELECT value FROM rag_meta WHERE key = 'schema_version'), "
                                    "(SELECT value FROM rag_meta WHERE key = 'text_search')");
    if(!meta)
        co_return detail::pg::failure(meta.error());
    int version = 0;
    if(!meta->is_null(0, 0))
        version = static_cast<int>(meta->int64(0, 0));
    constexpr int known = static_cast<int>(std::size(detail::pg::migrations));
    static_assert(known == schema_version);
    if(version > known)
    {
        auto rolled_back = co_await conn.execute("ROLLBACK");
        (void)rolled_back;
        co_return error{make_error_code(errc::schema_too_new),
            "the index's schema version " + std::to_string(version) + " is newer than this program's (" +
                std::to_string(known) + ")"};
    }
    for(; version < known; ++version)
        if(auto r = co_await conn.execute(detail::pg::migrations[version]); !r)
            co_return detail::pg::failure(r.error());
    auto const version_text = std::to_string(version);
    auto stored_version = co_await conn.query(
        "INSERT INTO rag_meta(key, value) VALUES('schema_version', $1) ON CONFLICT(key) DO UPDATE SET value = $1",
        postgres::params(version_text));
    if(!stored_version)
        co_return detail::pg::failure(stored_version.error());

    if(meta->is_null(0, 1))
    {
        if(!language.empty())
        {
            // A configuration left by an earlier index of this database is
            // reused: duplicate_object, or unique_violation when PostgreSQL
            // meets the existing row in its catalog index first.
            auto const create = "CREATE EXTENSION IF NOT EXISTS unaccent; DO $$ BEGIN CREATE TEXT SEARCH "
                                "CONFIGURATION " +
                config + " (COPY = pg_catalog." + language + "); ALTER TEXT SEARCH CONFIGURATION " + config +
                " ALTER MAPPING FOR hword, hword_part, word WITH unaccent, " + language +
                "_stem; EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$";
            if(auto r = co_await conn.execute(create); !r)
                co_return detail::pg::failure(r.error());
        }
        auto stored_config = co_await conn.query("INSERT INTO rag_meta(key, value) VALUES('text_search', $1)",
            postgres::params(config));
        if(!stored_config)
            co_return detail::pg::failure(stored_config.error());
    }
    else if(meta->text(0, 1) != config)
    {
        std::string const existing(meta->text(0, 1));
        auto rolled_back = co_await conn.execute("ROLLBACK");
        (void)rolled_back;
        co_return error{make_error_code(errc::model_mismatch),
            "the index's text search is " + existing + ", this writer's " + config};
    }
    if(auto r = co_await conn.execute("COMMIT"); !r)
        co_return detail::pg::failure(r.error());
    co_return postgres_index_writer(db, std::move(text), std::move(config));
}

AGENTIO_DECL asio::awaitable<result<postgres_index_writer>>
postgres_index_writer::do_open_shared(std::shared_ptr<postgres::pool> db, analyzer text, std::string language)
{
    auto opened = co_await do_open(*db, std::move(text), std::move(language));
    if(opened)
        opened->owned_ = std::move(db);
    co_return opened;
}

AGENTIO_DECL asio::awaitable<result<std::size_t>> postgres_index_writer::do_remove(std::string collection,
    std::string law)
{
    // The frame keeps the strings while do_replace runs; no chunk to outlive it.
    auto removed = co_await do_replace(std::move(collection), std::move(law), {});
    if(!removed)
        co_return removed.error();
    co_return removed->removed;
}

AGENTIO_DECL asio::awaitable<result<ingest_report>> postgres_index_writer::do_replace(std::string collection,
    std::string law, std::span<chunk> chunks)
{
    {
        std::unordered_set<std::string_view> seen;
        for(auto const& c : chunks)
            if(!seen.insert(c.key).second)
                co_return error{make_error_code(errc::corrupt_data), "two chunks have the key " + c.key};
    }
    auto lease = co_await db_->acquire();
    if(!lease)
        co_return detail::pg::failure(lease.error());
    auto& conn = **lease;
    // On an error the connection goes back inside the transaction and is
    // closed: nothing of this call stays.
    if(auto r = co_await conn.execute("BEGIN"); !r)
        co_return detail::pg::failure(r.error());
    std::unordered_map<std::string, detail::pg::stored_chunk> existing;
    {
        auto rows = co_await conn.query(
            "SELECT id, key FROM rag_chunks WHERE collection = $1 AND law = $2 ORDER BY id FOR UPDATE",
            postgres::params(collection, law));
        if(!rows)
            co_return detail::pg::failure(rows.error());
        for(std::size_t i = 0; i < rows->size(); ++i)
            existing.emplace(std::string(rows->text(i, 1)), detail::pg::stored_chunk{rows->int64(i, 0)});
    }
    bool const analysed_here = config_ == "simple";
    ingest_report report;
    for(auto& c : chunks)
    {
        c.collection = collection;
        c.law = law;
        auto const refs = detail::pg::refs_json(c.refs);
        // NULL: the database analyses the title and text themselves.
        std::optional<std::string> title_terms, body_terms;
        if(analysed_here)
        {
            title_terms = text_.indexed_text(c.title);
            body_terms = text_.indexed_text(c.text);
        }
        std::int64_t const ordinal = c.ordinal;
        auto it = existing.find(c.key);
        if(it != existing.end())
        {
            it->second.kept = true;
            c.id = it->second.id;
            // Rewritten (and its vectors dropped) only when something differs.
            auto updated = co_await conn.query(
                "WITH u AS (UPDATE rag_chunks SET article_number = $2::text, paragraph = $3::text, title = $4::text, "
                "chapter = $5::text, section = $6::text, text = $7::text, refs = $8::text, ordinal = $9::integer, "
                "tsv = " AGENTIO_RETRIEVAL_PG_TSVECTOR("$10::regconfig", "COALESCE($11::text, $4::text)",
                    "COALESCE($12::text, $7::text)") " WHERE id = $1 AND (article_number, paragraph, title, chapter, "
                                                     "section, text, refs, ordinal) IS DISTINCT FROM ($2::text, "
                                                     "$3::text, $4::text, $5::text, $6::text, $7::text, $8::text, "
                                                     "$9::integer) RETURNING id), "
                                                     "d AS (DELETE FROM rag_vectors WHERE chunk_id IN (SELECT id FROM u)) SELECT count(*) FROM u",
                postgres::params(c.id, c.article_number, c.paragraph, c.title, c.chapter, c.section, c.text, refs,
                    ordinal, config_, title_terms, body_terms));
            if(!updated)
                co_return detail::pg::failure(updated.error());
            if(updated->int64(0, 0) == 0)
                ++report.unchanged;
            else
                ++report.changed;
            continue;
        }
        auto inserted = co_await conn.query(
            "INSERT INTO rag_chunks(key, collection, law, article_number, paragraph, title, chapter, section, text, "
            "refs, ordinal, tsv) VALUES($1, $2, $3, $4, $5, $6::text, $7, $8, $9::text, $10, $11::integer, "
            " " AGENTIO_RETRIEVAL_PG_TSVECTOR("$12::regconfig", "COALESCE($13::text, $6::text)",
                "COALESCE($14::text, $9::text)") ") RETURNING id",
            postgres::params(c.key, c.collection, c.law, c.article_number, c.paragraph, c.title, c.chapter, c.section,
                c.text, refs, ordinal, config_, title_terms, body_terms));
        if(!inserted)
            co_return detail::pg::failure(inserted.error());
        c.id = inserted->int64(0, 0);
        ++report.added;
    }
    std::vector<std::int64_t> gone;
    for(auto const& [key, s] : existing)
        if(!s.kept)
            gone.push_back(s.id);
    if(!gone.empty())
    {
        // Their vectors go with them (ON DELETE CASCADE).
        auto const ids = postgres::array_literal(gone);
        auto removed = co_await conn.query("DELETE FROM rag_chunks WHERE id = ANY($1::bigint[])",
            postgres::params(ids));
        if(!removed)
            co_return detail::pg::failure(removed.error());
        report.removed = gone.size();
    }
    if(report.added + report.changed + report.removed > 0)
    {
        // The totals BM25 reads, counted again: writers of other laws take
        // turns on the row, and the count (a statement of its own, so a
        // snapshot taken after the lock) sees what they committed.
        auto counted = co_await conn.execute("SELECT one FROM rag_corpus FOR UPDATE; UPDATE rag_corpus SET (chunks, "
                                             "tokens) = (SELECT count(*), coalesce(sum(tokens), 0) FROM rag_chunks)");
        if(!counted)
            co_return detail::pg::failure(counted.error());
    }
    if(auto r = co_await conn.execute("COMMIT"); !r)
        co_return detail::pg::failure(r.error());
    co_return report;
}

AGENTIO_DECL asio::awaitable<result<std::vector<chunk>>> postgres_index_writer::all_chunks()
{
    auto const sql = std::string("SELECT ") + detail::pg::chunk_columns + " FROM rag_chunks ORDER BY id";
    auto rows = co_await db_->query(sql);
    auto out = detail::pg::read_chunks(rows);
    co_return out;
}

AGENTIO_DECL asio::awaitable<result<std::vector<std::int64_t>>>
postgres_index_writer::do_missing_vectors(std::string model_id)
{
    auto rows =
        co_await db_->query("SELECT id FROM rag_chunks c WHERE NOT EXISTS "
                            "(SELECT 1 FROM rag_vectors v WHERE v.model = $1 AND v.chunk_id = c.id) ORDER BY id",
            postgres::params(model_id));
    if(!rows)
        co_return detail::pg::failure(rows.error());
    std::vector<std::int64_t> out;
    out.reserve(rows->size());
    for(std::size_t i = 0; i < rows->size(); ++i)
        out.push_back(rows->int64(i, 0));
    co_return out;
}

AGENTIO_DECL asio::awaitable<result<std::map<std::string, std::size_t, std::less<>>>>
postgres_index_writer::vector_models()
{
    auto rows = co_await db_->query("SELECT model, count(*) FROM rag_vectors GROUP BY model ORDER BY model");
    if(!rows)
        co_return detail::pg::failure(rows.error());
    std::map<std::string, std::size_t, std::less<>> out;
    for(std::size_t i = 0; i < rows->size(); ++i)
        out.emplace(std::string(rows->text(i, 0)), static_cast<std::size_t>(rows->int64(i, 1)));
    co_return out;
}

AGENTIO_DECL asio::awaitable<result<std::size_t>> postgres_index_writer::do_drop_vectors(std::string model_id)
{
    auto rows = co_await db_->query("WITH d AS (DELETE FROM rag_vectors WHERE model = $1 RETURNING 1) "
                                    "SELECT count(*) FROM d",
        postgres::params(model_id));
    if(!rows)
        co_return detail::pg::failure(rows.error());
    co_return static_cast<std::size_t>(rows->int64(0, 0));
}

AGENTIO_DECL asio::awaitable<result<void>> postgres_index_writer::do_store_vectors(std::string model_id,
    std::span<std::int64_t const> ids, std::span<float const> values, std::size_t dimensions, bool replace_all)
{
    if(dimensions == 0 || values.size() != ids.size() * dimensions)
        co_return error{make_error_code(errc::model_mismatch),
            "vectors: " + std::to_string(values.size()) + " floats for " + std::to_string(ids.size()) + " ids of " +
                std::to_string(dimensions) + " dimensions"};
    // An id given twice: its last row, as INSERT OR REPLACE would (one
    // statement may not update a row twice).
    std::vector<std::size_t> rows;
    {
        std::unordered_set<std::int64_t> seen;
        for(std::size_t i = ids.size(); i-- > 0;)
            if(seen.insert(ids[i]).second)
                rows.push_back(i);
        std::reverse(rows.begin(), rows.end());
    }
    auto lease = co_await db_->acquire();
    if(!lease)
        co_return detail::pg::failure(lease.error());
    auto& conn = **lease;
    if(auto r = co_await conn.execute("BEGIN"); !r)
        co_return detail::pg::failure(r.error());
    if(replace_all)
    {
        auto dropped = co_await conn.query("DELETE FROM rag_vectors WHERE model = $1", postgres::params(model_id));
        if(!dropped)
            co_return detail::pg::failure(dropped.error());
    }
    // Batches of about 4 MB of hex: few round trips, no huge message.
    std::size_t const per_batch = std::max<std::size_t>(1, (std::size_t(4) << 20) / (dimensions * sizeof(float) * 2));
    for(std::size_t first = 0; first < rows.size(); first += per_batch)
    {
        auto const last = std::min(rows.size(), first + per_batch);
        std::vector<std::int64_t> batch_ids;
        std::string hex = "{";
        for(std::size_t k = first; k < last; ++k)
        {
            batch_ids.push_back(ids[rows[k]]);
            if(k != first)
                hex += ',';
            detail::pg::append_hex(hex, std::as_bytes(values.subspan(rows[k] * dimensions, dimensions)));
        }
        hex += '}';
        auto const id_list = postgres::array_literal(batch_ids);
        auto stored =
            co_await conn.query("INSERT INTO rag_vectors(model, chunk_id, vec) SELECT $1, t.id, decode(t.hex, 'hex') "
                                "FROM unnest($2::bigint[], $3::text[]) AS t(id, hex) "
                                "ON CONFLICT(model, chunk_id) DO UPDATE SET vec = EXCLUDED.vec",
                postgres::params(model_id, id_list, hex));
        if(!stored)
            co_return detail::pg::failure(stored.error());
    }
    if(auto r = co_await conn.execute("COMMIT"); !r)
        co_return detail::pg::failure(r.error());
    co_return result<void>();
}

AGENTIO_DECL asio::awaitable<result<void>> postgres_index_writer::do_store_model(std::string name,
    std::span<std::byte const> bytes)
{
    std::string hex;
    detail::pg::append_hex(hex, bytes);
    auto r = co_await db_->query("INSERT INTO rag_models(name, data) VALUES($1, decode($2, 'hex')) "
                                 "ON CONFLICT(name) DO UPDATE SET data = EXCLUDED.data",
        postgres::params(name, hex));
    if(!r)
        co_return detail::pg::failure(r.error());
    co_return result<void>();
}

// The text lives in this frame while do_store_model reads it.
AGENTIO_DECL asio::awaitable<result<void>> postgres_index_writer::do_store_text(std::string name, std::string text)
{
    auto bytes = std::as_bytes(std::span(text));
    auto r = co_await do_store_model(std::move(name), bytes);
    co_return r;
}

AGENTIO_DECL asio::awaitable<result<std::optional<std::string>>> postgres_index_writer::do_load_model(std::string name)
{
    auto rows = co_await db_->query("SELECT encode(data, 'hex') FROM rag_models WHERE name = $1",
        postgres::params(name));
    auto out = detail::pg::read_model(rows);
    co_return out;
}

// ---------------------------------------------------------------------------
// postgres_index

AGENTIO_DECL asio::awaitable<result<std::unique_ptr<postgres_index>>> postgres_index::open(postgres::pool& db)
{
    auto meta = co_await db.query("SELECT (SELECT value FROM rag_meta WHERE key = 'schema_version'), "
                                  "(SELECT value FROM rag_meta WHERE key = 'text_search')");
    if(!meta && meta.error().sqlstate == "42P01") // undefined_table
        co_return detail::pg::corrupt("the database holds no index (no table rag_meta)");
    if(!meta)
        co_return detail::pg::failure(meta.error());
    if(meta->is_null(0, 0) || meta->is_null(0, 1))
        co_return detail::pg::corrupt("the index has no schema version or text search");
    auto const version = meta->int64(0, 0);
    if(version > postgres_index_writer::schema_version)
        co_return error{make_error_code(errc::schema_too_new),
            "the index's schema version " + std::to_string(version) + " is newer than this program's"};
    co_return std::make_unique<postgres_index>(db);
}

AGENTIO_DECL asio::awaitable<result<std::unique_ptr<postgres_index>>>
postgres_index::open(std::shared_ptr<postgres::pool> db)
{
    auto opened = co_await open(*db);
    if(opened)
        (*opened)->owned_ = std::move(db);
    co_return opened;
}

AGENTIO_DECL asio::awaitable<result<std::vector<ranked>>> postgres_index::sparse(std::vector<std::string> terms,
    std::vector<std::string> collections, std::size_t limit)
{
    return do_sparse(std::move(terms), std::move(collections), limit);
}

AGENTIO_DECL asio::awaitable<result<std::vector<chunk>>> postgres_index::chunks(std::vector<std::int64_t> ids)
{
    return do_chunks(std::move(ids));
}

AGENTIO_DECL asio::awaitable<result<std::vector<chunk>>> postgres_index::article(std::string law,
    std::string article_number, std::string paragraph)
{
    return do_article(std::move(law), std::move(article_number), std::move(paragraph));
}

AGENTIO_DECL asio::awaitable<result<dense_corpus>> postgres_index::load_vectors(std::string model_id)
{
    return do_load_vectors(std::move(model_id));
}

AGENTIO_DECL asio::awaitable<result<std::optional<std::string>>> postgres_index::load_model(std::string name)
{
    return do_load_model(std::move(name));
}

AGENTIO_DECL asio::awaitable<result<std::vector<ranked>>> postgres_index::do_sparse(std::vector<std::string> terms,
    std::vector<std::string> collections, std::size_t limit)
{
    std::vector<ranked> out;
    auto const words = detail::pg::query_words(terms);
    if(words.empty() || limit == 0)
        co_return out;
    std::vector<std::string> operands;
    std::string any;
    for(auto const& w : words)
    {
        operands.push_back(detail::pg::quoted(w));
        if(!any.empty())
            any += " | ";
        any += operands.back();
    }
    auto const each = postgres::array_literal(operands);
    auto const wanted = postgres::array_literal(collections);
    auto const count = static_cast<std::int64_t>(std::min<std::size_t>(limit, INT64_MAX));
    // BM25 (k1 = 1.2, b = 0.75) over PostgreSQL's full-text search: the GIN
    // index finds the chunks with any word; each word's document frequency is
    // counted among them (all collections, as the SQLite index does), its
    // frequency in a chunk is ts_rank_cd of that word alone (the sum of its
    // occurrences' weights: 1 in the title, 0.5 in the text, doubled here),
    // and the chunk's length is its token count. The query's words go through
    // the configuration the chunks were written with (agentio_<language>
    // stems them again; simple keeps them); a stop word matches nothing.
    // ts_rank and ts_rank_cd over the whole query know no document
    // frequency: measured on the labour-law questions they rank clearly worse.
    auto rows = co_await db_->query(
        "WITH cfg AS (SELECT value::regconfig AS c FROM rag_meta WHERE key = 'text_search'), "
        "corpus AS (SELECT chunks::float8 AS n, greatest(tokens::float8 / greatest(chunks, 1), 1) AS avgdl "
        "FROM rag_corpus), "
        "words AS (SELECT DISTINCT to_tsquery(cfg.c, w) AS q FROM cfg, unnest($1::text[]) AS w), "
        "hits AS MATERIALIZED (SELECT c.id, c.collection, c.tsv, c.tokens FROM rag_chunks c, cfg "
        "WHERE c.tsv @@ to_tsquery(cfg.c, $2)), "
        "df AS (SELECT w.q, count(*)::float8 AS n FROM words w JOIN hits h ON h.tsv @@ w.q "
        "WHERE numnode(w.q) > 0 GROUP BY w.q) "
        "SELECT h.id, sum(ln(1 + (corpus.n - df.n + 0.5) / (df.n + 0.5)) * f.tf * 2.2 / "
        "(f.tf + 1.2 * (0.25 + 0.75 * h.tokens / corpus.avgdl))) AS score "
        "FROM hits h CROSS JOIN corpus JOIN df ON h.tsv @@ df.q "
        "CROSS JOIN LATERAL (SELECT 2 * ts_rank_cd('{0.1, 0.2, 0.5, 1.0}', h.tsv, df.q) AS tf) f "
        "WHERE cardinality($3::text[]) = 0 OR h.collection = ANY($3::text[]) "
        "GROUP BY h.id ORDER BY score DESC, h.id LIMIT $4",
        postgres::params(each, any, wanted, count));
    if(!rows)
        co_return detail::pg::failure(rows.error());
    out.reserve(rows->size());
    for(std::size_t i = 0; i < rows->size(); ++i)
    {
        auto const text = rows->text(i, 1);
        double score = 0;
        auto const parsed = std::from_chars(text.data(), text.data() + text.size(), score);
        if(parsed.ec != std::errc())
            co_return detail::pg::corrupt("a score of '" + std::string(text) + "'");
        out.push_back({rows->int64(i, 0), score});
    }
    co_return out;
}

AGENTIO_DECL asio::awaitable<result<std::vector<chunk>>> postgres_index::do_chunks(std::vector<std::int64_t> ids)
{
    auto const wanted = postgres::array_literal(ids);
    auto const sql = std::string("SELECT ") + detail::pg::chunk_columns +
        " FROM rag_chunks WHERE id = ANY($1::bigint[])";
    auto rows = co_await db_->query(sql, postgres::params(wanted));
    auto found = detail::pg::read_chunks(rows);
    if(!found)
        co_return found.error();
    // In the order asked; an id asked twice is returned once.
    std::unordered_map<std::int64_t, std::size_t> at;
    for(std::size_t i = 0; i < found->size(); ++i)
        at.emplace((*found)[i].id, i);
    std::vector<chunk> out;
    out.reserve(found->size());
    for(auto id : ids)
        if(auto it = at.find(id); it != at.end())
        {
            out.push_back(std::move((*found)[it->second]));
            at.erase(it);
        }
    co_return out;
}

AGENTIO_DECL asio::awaitable<result<std::vector<chunk>>> postgres_index::do_article(std::string law,
    std::string article_number, std::string paragraph)
{
    auto const sql = std::string("SELECT ") + detail::pg::chunk_columns +
        " FROM rag_chunks WHERE law = $1 AND article_number = $2 AND ($3 = '' OR paragraph = $3) "
        "ORDER BY ordinal, id";
    auto rows = co_await db_->query(sql, postgres::params(law, article_number, paragraph));
    auto out = detail::pg::read_chunks(rows);
    co_return out;
}

AGENTIO_DECL asio::awaitable<result<std::map<std::string, std::size_t, std::less<>>>> postgres_index::laws()
{
    auto rows = co_await db_->query("SELECT law, count(*) FROM rag_chunks GROUP BY law");
    if(!rows)
        co_return detail::pg::failure(rows.error());
    std::map<std::string, std::size_t, std::less<>> out;
    for(std::size_t i = 0; i < rows->size(); ++i)
        out.emplace(std::string(rows->text(i, 0)), static_cast<std::size_t>(rows->int64(i, 1)));
    co_return out;
}

AGENTIO_DECL asio::awaitable<result<index_stats>> postgres_index::stats()
{
    auto rows = co_await db_->query("SELECT collection, count(*) FROM rag_chunks GROUP BY collection");
    if(!rows)
        co_return detail::pg::failure(rows.error());
    index_stats out;
    for(std::size_t i = 0; i < rows->size(); ++i)
    {
        auto const n = static_cast<std::size_t>(rows->int64(i, 1));
        out.per_collection.emplace(std::string(rows->text(i, 0)), n);
        out.chunks += n;
    }
    co_return out;
}

AGENTIO_DECL asio::awaitable<result<dense_corpus>> postgres_index::do_load_vectors(std::string model_id)
{
    auto rows = co_await db_->query("SELECT v.chunk_id, c.collection, encode(v.vec, 'hex') FROM rag_vectors v "
                                    "JOIN rag_chunks c ON c.id = v.chunk_id WHERE v.model = $1 ORDER BY v.chunk_id",
        postgres::params(model_id));
    if(!rows)
        co_return detail::pg::failure(rows.error());
    dense_corpus out;
    out.model_id = model_id;
    std::unique_ptr<vector_store> store;
    std::string bytes;
    std::vector<float> row;
    std::unordered_map<std::string, std::uint32_t> collection_index;
    for(std::size_t i = 0; i < rows->size(); ++i)
    {
        auto const id = rows->int64(i, 0);
        if(!detail::pg::bytes_from_hex(rows->text(i, 2), bytes) || bytes.empty() || bytes.size() % sizeof(float) != 0 ||
            (store && bytes.size() / sizeof(float) != store->dimensions()))
            co_return detail::pg::corrupt("vector of chunk " + std::to_string(id) + " has " +
                std::to_string(bytes.size()) + " bytes");
        if(!store)
        {
            store = std::make_unique<vector_store>(bytes.size() / sizeof(float));
            store->reserve(rows->size());
        }
        row.resize(bytes.size() / sizeof(float));
        std::memcpy(row.data(), bytes.data(), bytes.size());
        store->add(id, row);
        std::string collection(rows->text(i, 1));
        auto [it, fresh] = collection_index.try_emplace(collection, static_cast<std::uint32_t>(out.collections.size()));
        if(fresh)
            out.collections.push_back(std::move(collection));
        out.collection_of.emplace(id, it->second);
    }
    if(store)
        out.vectors = std::move(store);
    co_return out;
}

AGENTIO_DECL asio::awaitable<result<std::optional<std::string>>> postgres_index::do_load_model(std::string name)
{
    auto rows = co_await db_->query("SELECT encode(data, 'hex') FROM rag_models WHERE name = $1",
        postgres::params(name));
    auto out = detail::pg::read_model(rows);
    co_return out;
}

#undef AGENTIO_RETRIEVAL_PG_TSVECTOR

} // namespace agentio::retrieval

#endif
