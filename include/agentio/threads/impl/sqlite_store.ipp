//
// agentio/threads/impl/sqlite_store.ipp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_THREADS_IMPL_SQLITE_STORE_IPP
#define AGENTIO_THREADS_IMPL_SQLITE_STORE_IPP

#include <agentio/config.hpp>
#include <agentio/json_text.hpp>
#include <agentio/llm/message_json.hpp>
#include <agentio/threads/detail/rows.hpp>

#include <boost/asio/use_awaitable.hpp>
#include <boost/json/parse.hpp>

namespace agentio::sqlite {

namespace detail {

namespace threads = agentio::threads;

// Each entry moves the schema from its index to the next version.
inline constexpr char const* thread_store_migrations[] = {
    R"sql(
CREATE TABLE agentio_threads(
    id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    agent TEXT NOT NULL,
    title TEXT NOT NULL,
    metadata TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    next_seq INTEGER NOT NULL DEFAULT 1);
CREATE INDEX agentio_threads_by_owner ON agentio_threads(owner, updated_at DESC);
CREATE TABLE agentio_thread_items(
    thread_id TEXT NOT NULL REFERENCES agentio_threads(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    run_id TEXT NOT NULL,
    message TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY(thread_id, seq)) WITHOUT ROWID;
CREATE TABLE agentio_runs(
    id TEXT PRIMARY KEY,
    thread_id TEXT NOT NULL REFERENCES agentio_threads(id) ON DELETE CASCADE,
    owner TEXT NOT NULL,
    status TEXT NOT NULL,
    rounds INTEGER NOT NULL DEFAULT 0,
    last_event_id INTEGER NOT NULL DEFAULT 0,
    lease_holder TEXT NOT NULL DEFAULT '',
    lease_expires_at INTEGER NOT NULL DEFAULT 0,
    state TEXT NOT NULL DEFAULT 'null',
    cancel_requested INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL);
CREATE INDEX agentio_runs_by_thread ON agentio_runs(thread_id);
CREATE INDEX agentio_runs_by_lease ON agentio_runs(status, lease_expires_at);
CREATE TABLE agentio_run_events(
    run_id TEXT NOT NULL REFERENCES agentio_runs(id) ON DELETE CASCADE,
    id INTEGER NOT NULL,
    type TEXT NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY(run_id, id)) WITHOUT ROWID;
)sql",
    // 2: when a reader in another process last followed the run.
    R"sql(
ALTER TABLE agentio_runs ADD COLUMN readers_seen_at INTEGER NOT NULL DEFAULT 0;
)sql",
    // 3: a request's turn, which no run manager takes over.
    R"sql(
ALTER TABLE agentio_runs ADD COLUMN kind TEXT NOT NULL DEFAULT 'durable';
)sql",
    // 4: summaries that stand for a thread's first messages (compaction).
    R"sql(
CREATE TABLE agentio_thread_summaries(
    thread_id TEXT NOT NULL REFERENCES agentio_threads(id) ON DELETE CASCADE,
    through_seq INTEGER NOT NULL,
    generation INTEGER NOT NULL,
    text TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY(thread_id, through_seq),
    UNIQUE(thread_id, generation)) WITHOUT ROWID;
)sql",
    // 5: runs waiting in their thread's line keep their messages aside until they start.
    R"sql(
ALTER TABLE agentio_runs ADD COLUMN queued_messages TEXT NOT NULL DEFAULT '[]';
)sql",
    // 6: the calls journal: each tool call of a durable run, started and finished.
    R"sql(
CREATE TABLE agentio_run_calls(
    run_id TEXT NOT NULL REFERENCES agentio_runs(id) ON DELETE CASCADE,
    call_id TEXT NOT NULL,
    n INTEGER NOT NULL,
    round INTEGER NOT NULL,
    tool TEXT NOT NULL,
    input TEXT NOT NULL,
    attempts INTEGER NOT NULL,
    result TEXT,
    started_at INTEGER NOT NULL,
    finished_at INTEGER,
    PRIMARY KEY(run_id, call_id)) WITHOUT ROWID;
)sql",
    // 7: the records of uploaded files (their bytes are kept elsewhere).
    R"sql(
CREATE TABLE agentio_files(
    id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    filename TEXT NOT NULL,
    purpose TEXT NOT NULL,
    media_type TEXT NOT NULL,
    bytes INTEGER NOT NULL,
    metadata TEXT NOT NULL,
    created_at INTEGER NOT NULL);
CREATE INDEX agentio_files_by_owner ON agentio_files(owner, created_at, id);
)sql",
    // 8: an owner's runs, the most recently changed first (list_runs).
    R"sql(
CREATE INDEX agentio_runs_by_owner ON agentio_runs(owner, updated_at DESC, id);
)sql"};

inline constexpr char const* file_columns = "id, owner, filename, purpose, media_type, bytes, metadata, created_at";

inline constexpr char const* run_columns = "id, thread_id, owner, status, rounds, last_event_id, lease_holder, "
                                           "lease_expires_at, state, created_at, updated_at";
inline constexpr char const* thread_columns = "id, owner, agent, title, metadata, created_at, updated_at";

AGENTIO_DECL threads::error failure(connection const& c, system::error_code ec)
{
    return {ec, c.last_error_message()};
}

AGENTIO_DECL threads::error failure(threads::errc e, std::string message = {})
{
    return {threads::make_error_code(e), std::move(message)};
}

AGENTIO_DECL std::int64_t millis(threads::timestamp t) noexcept
{
    return t.time_since_epoch().count();
}

// Binds `args` to parameters 1, 2, ...
inline system::result<void> bind_one(statement& s, int i, std::string_view v)
{
    return s.bind(i, v);
}
inline system::result<void> bind_one(statement& s, int i, std::string const& v)
{
    return s.bind(i, std::string_view(v));
}
inline system::result<void> bind_one(statement& s, int i, char const* v)
{
    return s.bind(i, std::string_view(v));
}
inline system::result<void> bind_one(statement& s, int i, std::int64_t v)
{
    return s.bind(i, v);
}

template<class... Args>
system::result<statement> prepare(connection& c, std::string_view sql, Args const&... args)
{
    auto s = c.cached(sql);
    if(!s)
        return s;
    int i = 0;
    system::result<void> bound;
    ((bound ? (bound = bind_one(*s, ++i, args), 0) : 0), ...);
    if(!bound)
        return bound.error();
    return s;
}

// Runs a statement that returns no rows; the number of rows it changed.
template<class... Args>
threads::result<int> run(connection& c, std::string_view sql, Args const&... args)
{
    auto s = prepare(c, sql, args...);
    if(!s)
        return failure(c, s.error());
    if(auto r = s->step(); !r)
        return failure(c, r.error());
    return sqlite3_changes(c.native_handle());
}

// A write transaction: BEGIN IMMEDIATE takes the write lock at once, so a
// busy file fails here (after busy_timeout) rather than midway.
class write_transaction
{
public:
    explicit write_transaction(connection& c) : conn_(c), begun_(c.execute("BEGIN IMMEDIATE")) {}
    write_transaction(write_transaction const&) = delete;
    write_transaction& operator=(write_transaction const&) = delete;
    ~write_transaction()
    {
        if(begun_ && !committed_)
            (void)conn_.execute("ROLLBACK");
    }
    threads::result<void> begun() const
    {
        if(!begun_)
            return failure(conn_, begun_.error());
        return {};
    }
    threads::result<void> commit()
    {
        if(auto r = conn_.execute("COMMIT"); !r)
            return failure(conn_, r.error());
        committed_ = true;
        return {};
    }

private:
    connection& conn_;
    system::result<void> begun_;
    bool committed_ = false;
};

// A row of a statement, as the shared decoders read it.
struct row_view
{
    statement const& s;
    std::string_view text(int column) const noexcept { return s.column_text(column); }
    std::int64_t int64(int column) const noexcept { return s.column_int64(column); }
};

AGENTIO_DECL threads::result<threads::thread_info> read_thread(connection&, statement const& s)
{
    return threads::detail::decode_thread(row_view{s});
}

AGENTIO_DECL threads::result<threads::run_info> read_run(statement const& s)
{
    return threads::detail::decode_run(row_view{s});
}

// Reads the rows of a statement returning runs.
AGENTIO_DECL threads::result<std::optional<threads::run_info>> one_run(connection& c, statement& s)
{
    auto row = s.step();
    if(!row)
        return failure(c, row.error());
    if(!*row)
        return std::optional<threads::run_info>{};
    auto r = read_run(s);
    if(!r)
        return r.error();
    // RETURNING statements must run to completion to apply.
    while(true)
    {
        auto more = s.step();
        if(!more)
            return failure(c, more.error());
        if(!*more)
            break;
    }
    return std::optional<threads::run_info>{std::move(*r)};
}

// Appends messages to a thread inside the caller's transaction.
AGENTIO_DECL threads::result<std::int64_t> append_items(connection& c, std::string_view thread_id,
    std::string_view run_id, std::span<llm::message const> messages, std::int64_t now_ms)
{
    auto const n = static_cast<std::int64_t>(messages.size());
    auto s = prepare(c,
        "UPDATE agentio_threads SET next_seq = next_seq + ?, updated_at = ? WHERE id = ? "
        "RETURNING next_seq",
        n, now_ms, thread_id);
    if(!s)
        return failure(c, s.error());
    auto row = s->step();
    if(!row)
        return failure(c, row.error());
    if(!*row)
        return failure(threads::errc::not_found, "thread " + std::string(thread_id));
    std::int64_t const next = s->column_int64(0);
    (void)s->step();
    std::int64_t seq = next - n;
    for(auto const& m : messages)
    {
        auto const text = agentio::to_json_text(llm::to_json(m));
        auto r = run(c,
            "INSERT INTO agentio_thread_items(thread_id, seq, run_id, message, created_at) VALUES(?, ?, ?, ?, ?)",
            thread_id, seq, run_id, text, now_ms);
        if(!r)
            return r.error();
        ++seq;
    }
    return next - 1;
}

// Inserts a thread inside the caller's transaction.
AGENTIO_DECL threads::result<void> insert_thread(connection& c, threads::thread_info const& thread, std::int64_t now_ms)
{
    auto const created = thread.created_at.time_since_epoch().count() ? millis(thread.created_at) : now_ms;
    auto const updated = thread.updated_at.time_since_epoch().count() ? millis(thread.updated_at) : created;
    auto const metadata = agentio::to_json_text(thread.metadata);
    auto r = run(c,
        "INSERT INTO agentio_threads(id, owner, agent, title, metadata, created_at, updated_at) "
        "VALUES(?, ?, ?, ?, ?, ?, ?)",
        thread.id, thread.owner, thread.agent, thread.title, metadata, created, updated);
    if(!r)
        return r.error();
    return {};
}

// A thread's messages in order.
AGENTIO_DECL threads::result<std::vector<threads::item>> read_items(connection& c, std::string_view thread_id)
{
    auto s = prepare(c,
        "SELECT seq, run_id, message, created_at FROM agentio_thread_items WHERE thread_id = ? ORDER BY seq",
        thread_id);
    if(!s)
        return failure(c, s.error());
    std::vector<threads::item> out;
    for(;;)
    {
        auto row = s->step();
        if(!row)
            return failure(c, row.error());
        if(!*row)
            break;
        auto item = threads::detail::decode_item(row_view{*s}, thread_id);
        if(!item)
            return item.error();
        out.push_back(std::move(*item));
    }
    return out;
}

// Appends a run's events to its journal inside the caller's transaction:
// false (nothing written) unless `holder` runs it and the ids continue the
// journal exactly, with no gap and no repeat.
AGENTIO_DECL threads::result<bool> append_journal(connection& c, std::string_view run_id, std::string_view holder,
    std::span<threads::event_record const> events, std::int64_t now_ms)
{
    if(events.empty())
        return true;
    auto changed = run(c,
        "UPDATE agentio_runs SET last_event_id = ?, updated_at = ? "
        "WHERE id = ? AND lease_holder = ? AND status = 'running' AND last_event_id = ?",
        events.back().id, now_ms, run_id, holder, events.front().id - 1);
    if(!changed)
        return changed.error();
    if(*changed == 0)
        return false;
    for(auto const& e : events)
        if(auto r = run(c, "INSERT INTO agentio_run_events(run_id, id, type, data) VALUES(?, ?, ?, ?)", run_id, e.id,
               e.type, e.data);
            !r)
            return r.error();
    return true;
}

// Sets a running run's final or waiting status and releases its lease.
AGENTIO_DECL threads::result<void> release_run(connection& c, std::string_view run_id, std::string_view holder,
    threads::run_status status, json::value const& state)
{
    auto const state_text = agentio::to_json_text(state);
    auto changed = run(c,
        "UPDATE agentio_runs SET status = ?, state = ?, lease_holder = '', lease_expires_at = 0, updated_at = ? "
        "WHERE id = ? AND lease_holder = ? AND status = 'running'",
        threads::to_string(status), state_text, millis(threads::now()), run_id, holder);
    if(!changed)
        return changed.error();
    if(*changed == 0)
        return failure(threads::errc::lease_lost, "run " + std::string(run_id));
    return {};
}

AGENTIO_DECL threads::result<int> migrate(connection& c)
{
    if(auto r = c.execute("CREATE TABLE IF NOT EXISTS agentio_schema_version(version INTEGER NOT NULL)"); !r)
        return failure(c, r.error());
    write_transaction tx(c);
    if(auto r = tx.begun(); !r)
        return r.error();
    int version = 0;
    {
        auto s = c.prepare("SELECT version FROM agentio_schema_version");
        if(!s)
            return failure(c, s.error());
        auto row = s->step();
        if(!row)
            return failure(c, row.error());
        if(*row)
            version = static_cast<int>(s->column_int64(0));
        else if(auto ins = c.execute("INSERT INTO agentio_schema_version(version) VALUES(0)"); !ins)
            return failure(c, ins.error());
    }
    constexpr int known = static_cast<int>(std::size(thread_store_migrations));
    if(version > known)
        return failure(threads::errc::schema_too_new,
            "schema version " + std::to_string(version) + ", this program knows up to " + std::to_string(known));
    for(; version < known; ++version)
        if(auto r = c.execute(thread_store_migrations[version]); !r)
            return failure(c, r.error());
    auto const update = "UPDATE agentio_schema_version SET version = " + std::to_string(version);
    if(auto r = c.execute(update.c_str()); !r)
        return failure(c, r.error());
    if(auto r = tx.commit(); !r)
        return r.error();
    return version;
}

AGENTIO_DECL threads::result<connection> open_connection(std::filesystem::path const& path,
    std::chrono::milliseconds busy_timeout)
{
    auto c = connection::open(path, open_mode::read_write_create);
    if(!c)
        return threads::error{c.error(), "cannot open " + path.string()};
    sqlite3_busy_timeout(c->native_handle(), static_cast<int>(busy_timeout.count()));
    // WAL: readers never wait on the writer; NORMAL: a commit is durable
    // across a process crash (an OS crash may lose the last ones).
    if(auto r = c->execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON"); !r)
        return failure(*c, r.error());
    return std::move(*c);
}

} // namespace detail

AGENTIO_DECL threads::result<std::unique_ptr<thread_store>> thread_store::open(std::filesystem::path const& path,
    thread_store_options const& options)
{
    std::error_code fs_ec;
    if(path.has_parent_path())
        std::filesystem::create_directories(path.parent_path(), fs_ec);
    std::vector<connection> writer;
    {
        auto c = detail::open_connection(path, options.busy_timeout);
        if(!c)
            return c.error();
        if(auto m = detail::migrate(*c); !m)
            return m.error();
        writer.push_back(std::move(*c));
    }
    std::vector<connection> readers;
    for(std::size_t i = 0; i < std::max<std::size_t>(options.readers, 1); ++i)
    {
        auto c = detail::open_connection(path, options.busy_timeout);
        if(!c)
            return c.error();
        readers.push_back(std::move(*c));
    }
    return std::unique_ptr<thread_store>(new thread_store(std::move(writer), std::move(readers)));
}

AGENTIO_DECL thread_store::thread_store(std::vector<connection> writer, std::vector<connection> readers)
    : writer_(std::move(writer))
    , readers_(std::move(readers))
{
}

// ---------------------------------------------------------------------------
// Threads

AGENTIO_DECL asio::awaitable<threads::result<void>> thread_store::create_thread(threads::thread_info const& thread)
{
    return writer_.async_run(
        [&thread](connection& c) { return detail::insert_thread(c, thread, detail::millis(threads::now())); },
        asio::use_awaitable);
}

AGENTIO_DECL asio::awaitable<threads::result<std::optional<threads::thread_info>>>
thread_store::find_thread(std::string_view id, std::string_view owner)
{
    return readers_.async_run(
        [id, owner](connection& c) -> threads::result<std::optional<threads::thread_info>> {
            auto s = detail::prepare(c,
                std::string("SELECT ") + detail::thread_columns + " FROM agentio_threads WHERE id = ? AND owner = ?",
                id, owner);
            if(!s)
                return detail::failure(c, s.error());
            auto row = s->step();
            if(!row)
                return detail::failure(c, row.error());
            if(!*row)
                return std::optional<threads::thread_info>{};
            auto t = detail::read_thread(c, *s);
            if(!t)
                return t.error();
            return std::optional<threads::thread_info>{std::move(*t)};
        },
        asio::use_awaitable);
}

AGENTIO_DECL asio::awaitable<threads::result<std::vector<threads::thread_info>>>
thread_store::list_threads(std::string_view owner, std::size_t limit)
{
    return readers_.async_run(
        [owner, limit](connection& c) -> threads::result<std::vector<threads::thread_info>> {
            auto s = detail::prepare(c,
                std::string("SELECT ") + detail::thread_columns +
                    " FROM agentio_threads WHERE owner = ? ORDER BY updated_at DESC, id LIMIT ?",
                owner, static_cast<std::int64_t>(std::min<std::size_t>(limit, INT64_MAX)));
            if(!s)
                return detail::failure(c, s.error());
            std::vector<threads::thread_info> out;
            for(;;)
            {
                auto row = s->step();
                if(!row)
                    return detail::failure(c, row.error());
                if(!*row)
                    break;
                auto t = detail::read_thread(c, *s);
                if(!t)
                    return t.error();
                out.push_back(std::move(*t));
            }
            return out;
        },
        asio::use_awaitable);
}

AGENTIO_DECL asio::awaitable<threads::result<std::vector<threads::thread_info>>>
thread_store::list_threads(std::string_view owner, threads::thread_listing const& which)
{
    return readers_.async_run(
        [owner, &which](connection& c) -> threads::result<std::vector<threads::thread_info>> {
            // A page after a thread continues from its place in the order: updated_at DESC, then id.
            auto s = detail::prepare(c,
                std::string("SELECT ") + detail::thread_columns +
                    " FROM agentio_threads WHERE owner = ?1 AND (?2 = '' OR EXISTS (SELECT 1 FROM agentio_threads a "
                    "WHERE a.id = ?2 AND a.owner = ?1 AND (agentio_threads.updated_at < a.updated_at OR "
                    "(agentio_threads.updated_at = a.updated_at AND agentio_threads.id > a.id)))) "
                    "ORDER BY updated_at DESC, id LIMIT ?3",
                owner, which.after, static_cast<std::int64_t>(std::min<std::size_t>(which.limit, INT64_MAX - 1) + 1));
            if(!s)
                return detail::failure(c, s.error());
            std::vector<threads::thread_info> out;
            for(;;)
            {
                auto row = s->step();
                if(!row)
                    return detail::failure(c, row.error());
                if(!*row)
                    break;
                auto t = detail::read_thread(c, *s);
                if(!t)
                    return t.error();
                out.push_back(std::move(*t));
            }
            return out;
        },
        asio::use_awaitable);
}

AGENTIO_DECL asio::awaitable<threads::result<bool>> thread_store::delete_thread(std::string_view id,
    std::string_view owner)
{
    return writer_.async_run(
        [id, owner](connection& c) -> threads::result<bool> {
            auto r = detail::run(c, "DELETE FROM agentio_threads WHERE id = ? AND owner = ?", id, owner);
            if(!r)
                return r.error();
            return *r > 0;
        },
        asio::use_awaitable);
}

AGENTIO_DECL asio::awaitable<threads::result<std::int64_t>> thread_store::append_messages(std::string_view thread_id,
    std::span<llm::message const> messages)
{
    return writer_.async_run(
        [thread_id, messages](connection& c) -> threads::result<std::int64_t> {
            detail::write_transaction tx(c);
            if(auto b = tx.begun(); !b)
                return b.error();
            auto last = detail::append_items(c, thread_id, "", messages, detail::millis(threads::now()));
            if(!last)
                return last;
            if(auto r = tx.commit(); !r)
                return r.error();
            return last;
        },
        asio::use_awaitable);
}

AGENTIO_DECL asio::awaitable<threads::result<std::vector<threads::item>>>
thread_store::load_items(std::string_view thread_id)
{
    return readers_.async_run([thread_id](connection& c) { return detail::read_items(c, thread_id); },
        asio::use_awaitable);
}

AGENTIO_DECL asio::awaitable<threads::result<std::size_t>>
thread_store::apply_retention(threads::retention const& policy)
{
    return writer_.async_run(
        [&policy](connection& c) -> threads::result<std::size_t> {
            std::size_t removed = 0;
            if(policy.max_age)
            {
                auto const cutoff = detail::millis(threads::now()) - policy.max_age->count();
                auto r = detail::run(c, "DELETE FROM agentio_threads WHERE updated_at < ?", cutoff);
                if(!r)
                    return r.error();
                removed += static_cast<std::size_t>(*r);
            }
            if(policy.max_threads_per_owner)
            {
                auto r = detail::run(c,
                    "DELETE FROM agentio_threads WHERE id IN (SELECT id FROM (SELECT id, row_number() OVER "
                    "(PARTITION BY owner ORDER BY updated_at DESC, id) AS n FROM agentio_threads) WHERE n > ?)",
                    static_cast<std::int64_t>(*policy.max_threads_per_owner));
                if(!r)
                    return r.error();
                removed += static_cast<std::size_t>(*r);
            }
            return removed;
        },
        asio::use_awaitable);
}

// ---------------------------------------------------------------------------
// Files

namespace detail {

AGENTIO_DECL threads::result<std::vector<threads::file_record>> read_files(connection& c, statement& s)
{
    std::vector<threads::file_record> out;
    for(;;)
    {
        auto row = s.step();
        if(!row)
            return failure(c, row.error());
        if(!*row)
            break;
        auto f = threads::detail::decode_file(row_view{s});
        if(!f)
            return f.error();
        out.push_back(std::move(*f));
    }
    return out;
}

} // namespace detail

AGENTIO_DECL asio::awaitable<threads::result<void>> thread_store::save_file(threads::file_record const& file)
{
    return writer_.async_run(
        [&file](connection& c) -> threads::result<void> {
            auto const created = file.created_at.time_since_epoch().count() ? detail::millis(file.created_at)
                                                                            : detail::millis(threads::now());
            auto r = detail::run(c,
                "INSERT INTO agentio_files(id, owner, filename, purpose, media_type, bytes, metadata, created_at) "
                "VALUES(?, ?, ?, ?, ?, ?, ?, ?)",
                file.id, file.owner, file.filename, file.purpose, file.media_type,
                static_cast<std::int64_t>(file.bytes), agentio::to_json_text(file.metadata), created);
            if(!r)
                return r.error();
            return {};
        },
        asio::use_awaitable);
}

AGENTIO_DECL asio::awaitable<threads::result<std::optional<threads::file_record>>>
thread_store::find_file(std::string_view id, std::string_view owner)
{
    return readers_.async_run(
        [id, owner](connection& c) -> threads::result<std::optional<threads::file_record>> {
            auto s = detail::prepare(c,
                std::string("SELECT ") + detail::file_columns + " FROM agentio_files WHERE id = ? AND owner = ?", id,
                owner);
            if(!s)
                return detail::failure(c, s.error());
            auto found = detail::read_files(c, *s);
            if(!found)
                return found.error();
            if(found->empty())
                return std::optional<threads::file_record>();
            return std::optional<threads::file_record>(std::move(found->front()));
        },
        asio::use_awaitable);
}

AGENTIO_DECL asio::awaitable<threads::result<std::vector<threads::file_record>>>
thread_store::list_files(std::string_view owner, threads::file_listing const& which)
{
    return readers_.async_run(
        [owner, &which](connection& c) -> threads::result<std::vector<threads::file_record>> {
            // A page after a file continues from its place in the order: (created_at, id).
            std::string sql = std::string("SELECT ") + detail::file_columns +
                " FROM agentio_files WHERE owner = ?1 AND (?2 = '' OR purpose = ?2) AND (?3 = '' OR ";
            sql += which.newest_first
                ? "(created_at, id) < (SELECT created_at, id FROM agentio_files WHERE id = ?3 AND owner = ?1)) "
                  "ORDER BY created_at DESC, id DESC"
                : "(created_at, id) > (SELECT created_at, id FROM agentio_files WHERE id = ?3 AND owner = ?1)) "
                  "ORDER BY created_at, id";
            sql += " LIMIT ?4";
            auto s = detail::prepare(c, sql, owner, which.purpose, which.after,
                static_cast<std::int64_t>(std::min<std::size_t>(which.limit, INT64_MAX - 1) + 1));
            if(!s)
                return detail::failure(c, s.error());
            return detail::read_files(c, *s);
        },
        asio::use_awaitable);
}

AGENTIO_DECL asio::awaitable<threads::result<bool>> thread_store::update_file_metadata(std::string_view id,
    std::string_view owner, boost::json::object const& metadata)
{
    return writer_.async_run(
        [id, owner, &metadata](connection& c) -> threads::result<bool> {
            auto r = detail::run(c, "UPDATE agentio_files SET metadata = ? WHERE id = ? AND owner = ?",
                agentio::to_json_text(metadata), id, owner);
            if(!r)
                return r.error();
            return *r > 0;
        },
        asio::use_awaitable);
}

AGENTIO_DECL asio::awaitable<threads::result<bool>> thread_store::delete_file(std::string_view id,
    std::string_view owner)
{
    return writer_.async_run(
        [id, owner](connection& c) -> threads::result<bool> {
            auto r = detail::run(c, "DELETE FROM agentio_files WHERE id = ? AND owner = ?", id, owner);
            if(!r)
                return r.error();
            return *r > 0;
        },
        asio::use_awaitable);
}

// ---------------------------------------------------------------------------
// Summaries

namespace detail {

AGENTIO_DECL threads::result<std::optional<threads::thread_summary>> read_latest_summary(connection& c,
    std::string_view thread_id)
{
    auto s = prepare(c,
        "SELECT through_seq, text, created_at FROM agentio_thread_summaries WHERE thread_id = ? "
        "ORDER BY through_seq DESC LIMIT 1",
        thread_id);
    if(!s)
        return failure(c, s.error());
    auto row = s->step();
    if(!row)
        return failure(c, row.error());
    if(!*row)
        return std::optional<threads::thread_summary>();
    return std::optional<threads::thread_summary>(threads::detail::decode_summary(row_view{*s}));
}

} // namespace detail

AGENTIO_DECL asio::awaitable<threads::result<std::optional<threads::thread_summary>>>
thread_store::latest_summary(std::string_view thread_id)
{
    return readers_.async_run([thread_id](connection& c) { return detail::read_latest_summary(c, thread_id); },
        asio::use_awaitable);
}

AGENTIO_DECL asio::awaitable<threads::result<threads::thread_summary>>
thread_store::save_summary(std::string_view thread_id, std::int64_t through_seq, std::string_view text)
{
    return writer_.async_run(
        [thread_id, through_seq, text](connection& c) -> threads::result<threads::thread_summary> {
            detail::write_transaction tx(c);
            if(auto b = tx.begun(); !b)
                return b.error();
            // Only a summary that stands for more than the latest one joins the thread.
            auto inserted = detail::run(c,
                "INSERT INTO agentio_thread_summaries(thread_id, through_seq, generation, text, created_at) "
                "SELECT ?, ?, COALESCE((SELECT max(generation) FROM agentio_thread_summaries WHERE thread_id = ?1), "
                "0) + 1, ?, ? WHERE EXISTS (SELECT 1 FROM agentio_thread_items WHERE thread_id = ? AND seq = ?) "
                "AND NOT EXISTS (SELECT 1 FROM agentio_thread_summaries WHERE thread_id = ? AND through_seq >= ?)",
                thread_id, through_seq, text, detail::millis(threads::now()), thread_id, through_seq, thread_id,
                through_seq);
            if(!inserted)
                return inserted.error();
            auto latest = detail::read_latest_summary(c, thread_id);
            if(!latest)
                return latest.error();
            if(!*latest || (*inserted == 0 && (*latest)->through_seq < through_seq))
                return detail::failure(threads::errc::not_found,
                    "thread " + std::string(thread_id) + " has no message " + std::to_string(through_seq));
            if(auto r = tx.commit(); !r)
                return r.error();
            return std::move(**latest);
        },
        asio::use_awaitable);
}

// ---------------------------------------------------------------------------
// Runs

namespace detail {

// Turns whose process died (their lease expired, running or waiting in
// line) hold the thread no longer: they end as failed.
AGENTIO_DECL threads::result<void> end_dead_turns(connection& c, std::string_view thread_id, std::int64_t now)
{
    auto r = run(c,
        "UPDATE agentio_runs SET status = 'failed', lease_holder = '', lease_expires_at = 0, updated_at = ? "
        "WHERE thread_id = ? AND kind = 'turn' AND status IN ('running', 'queued') AND lease_expires_at < ?",
        now, thread_id, now);
    if(!r)
        return r.error();
    return {};
}

// The thread's run running or waiting, if any: its id and whether it runs.
struct active_run
{
    std::string id;
    bool running = false;
};

AGENTIO_DECL threads::result<std::optional<active_run>> find_active(connection& c, std::string_view thread_id)
{
    auto s = prepare(c,
        "SELECT id, status FROM agentio_runs WHERE thread_id = ? AND status IN ('running', 'waiting') LIMIT 1",
        thread_id);
    if(!s)
        return failure(c, s.error());
    auto row = s->step();
    if(!row)
        return failure(c, row.error());
    if(!*row)
        return std::optional<active_run>{};
    active_run a{std::string(s->column_text(0)), s->column_text(1) == "running"};
    (void)s->step();
    return std::optional<active_run>{std::move(a)};
}

// How many runs wait in the thread's line (dead turns already ended).
AGENTIO_DECL threads::result<std::int64_t> count_queued(connection& c, std::string_view thread_id)
{
    auto s = prepare(c, "SELECT count(*) FROM agentio_runs WHERE thread_id = ? AND status = 'queued'", thread_id);
    if(!s)
        return failure(c, s.error());
    auto row = s->step();
    if(!row)
        return failure(c, row.error());
    return s->column_int64(0);
}

// Starts a run, or queues it, or refuses it (`run.when_busy`), in one transaction.
AGENTIO_DECL threads::result<threads::admission> admit(connection& c, threads::new_run const& run)
{
    write_transaction tx(c);
    if(auto b = tx.begun(); !b)
        return b.error();
    auto const now = millis(threads::now());
    threads::admission out;
    if(run.new_thread)
    {
        auto thread = *run.new_thread;
        thread.id = run.thread_id;
        thread.owner = run.owner;
        if(auto r = insert_thread(c, thread, now); !r)
            return r.error();
    }
    else
    {
        if(auto r = end_dead_turns(c, run.thread_id, now); !r)
            return r.error();
        auto active = find_active(c, run.thread_id);
        if(!active)
            return active.error();
        auto queued = count_queued(c, run.thread_id);
        if(!queued)
            return queued.error();
        if(*active || *queued > 0)
        {
            if(run.when_busy == threads::busy_policy::reject)
                return failure(threads::errc::thread_busy, "thread " + run.thread_id);
            bool const turn = run.kind == threads::run_kind::turn;
            auto r = detail::run(c,
                "INSERT INTO agentio_runs(id, thread_id, owner, status, lease_holder, lease_expires_at, created_at, "
                "updated_at, kind, queued_messages) VALUES(?, ?, ?, 'queued', ?, ?, ?, ?, ?, ?)",
                run.id, run.thread_id, run.owner, turn ? run.holder : std::string(),
                turn ? now + run.lease.count() : std::int64_t(0), now, now, threads::to_string(run.kind),
                threads::detail::encode_messages(run.messages));
            if(!r)
                return r.error();
            if(run.when_busy == threads::busy_policy::interrupt && *active)
            {
                if(auto asked = detail::run(c, "UPDATE agentio_runs SET cancel_requested = 1 WHERE id = ?",
                       (*active)->id);
                    !asked)
                    return asked.error();
                out.interrupted_run = (*active)->id;
            }
            if(auto committed = tx.commit(); !committed)
                return committed.error();
            out.status = threads::run_status::queued;
            out.ahead = static_cast<std::size_t>(*queued) + (*active ? 1 : 0);
            return out;
        }
    }
    if(auto last = append_items(c, run.thread_id, run.id, run.messages, now); !last)
        return last.error();
    auto r = detail::run(c,
        "INSERT INTO agentio_runs(id, thread_id, owner, status, lease_holder, lease_expires_at, created_at, "
        "updated_at, kind) VALUES(?, ?, ?, 'running', ?, ?, ?, ?, ?)",
        run.id, run.thread_id, run.owner, run.holder, now + run.lease.count(), now, now, threads::to_string(run.kind));
    if(!r)
        return r.error();
    auto items = read_items(c, run.thread_id);
    if(!items)
        return items.error();
    if(auto committed = tx.commit(); !committed)
        return committed.error();
    out.items = std::move(*items);
    return out;
}

// The queued run whose turn has come: `run_id`, or the longest-waiting durable
// one on any thread. A run's turn has come when its thread has no live run
// running or waiting and no live run queued before it.
AGENTIO_DECL threads::result<std::optional<threads::claimed_run>> claim_queued(connection& c, std::string_view run_id,
    std::string_view holder, std::chrono::milliseconds lease)
{
    // Live: a durable run, or a turn whose process still renews its lease.
    static constexpr char const* nobody_ahead =
        "NOT EXISTS (SELECT 1 FROM agentio_runs AS a WHERE a.thread_id = r.thread_id AND a.id <> r.id AND "
        "(a.kind = 'durable' OR a.lease_expires_at >= ?1) AND "
        "(a.status IN ('running', 'waiting') OR (a.status = 'queued' AND a.rowid < r.rowid)))";
    // Asked after every run and takeover look (any run), and every 100 ms by
    // a turn waiting in line (this one): nearly always the answer is "nobody
    // can start yet", which a read gives without taking the write lock.
    {
        auto const now = millis(threads::now());
        auto look = run_id.empty()
            ? prepare(c,
                  std::string("SELECT 1 FROM agentio_runs AS r WHERE r.status = 'queued' AND r.kind = 'durable' AND ") +
                      nobody_ahead + " LIMIT 1",
                  now)
            : prepare(c,
                  std::string("SELECT ") + nobody_ahead +
                      " FROM agentio_runs AS r WHERE r.id = ?2 AND r.status = 'queued'",
                  now, run_id);
        if(!look)
            return failure(c, look.error());
        auto row = look->step();
        if(!row)
            return failure(c, row.error());
        bool const nothing_to_claim = run_id.empty() ? !*row : *row && look->column_int64(0) == 0;
        if(nothing_to_claim)
            return std::optional<threads::claimed_run>{};
    }
    write_transaction tx(c);
    if(auto b = tx.begun(); !b)
        return b.error();
    auto const now = millis(threads::now());
    std::string id(run_id);
    std::string thread_id;
    if(!id.empty())
    {
        auto s = prepare(c, "SELECT thread_id FROM agentio_runs WHERE id = ? AND status = 'queued'", id);
        if(!s)
            return failure(c, s.error());
        auto row = s->step();
        if(!row)
            return failure(c, row.error());
        if(!*row)
            return failure(threads::errc::not_found, "run " + id + " is not queued");
        thread_id = s->column_text(0);
        (void)s->step();
        if(auto r = end_dead_turns(c, thread_id, now); !r)
            return r.error();
        auto head = prepare(c,
            std::string("SELECT ") + nobody_ahead + " FROM agentio_runs AS r WHERE r.id = ?2 AND r.status = 'queued'",
            now, id);
        if(!head)
            return failure(c, head.error());
        auto h = head->step();
        if(!h)
            return failure(c, h.error());
        bool const still_queued = *h;
        bool const first = still_queued && head->column_int64(0) != 0;
        (void)head->step();
        if(!first)
        {
            // The dead turns ended stay ended, this one possibly among them.
            if(auto committed = tx.commit(); !committed)
                return committed.error();
            if(!still_queued)
                return failure(threads::errc::not_found, "run " + id + " is not queued");
            return std::optional<threads::claimed_run>{};
        }
    }
    else
    {
        auto s = prepare(c,
            std::string("SELECT r.id, r.thread_id FROM agentio_runs AS r WHERE r.status = 'queued' AND "
                        "r.kind = 'durable' AND ") +
                nobody_ahead + " ORDER BY r.rowid LIMIT 1",
            now);
        if(!s)
            return failure(c, s.error());
        auto row = s->step();
        if(!row)
            return failure(c, row.error());
        if(!*row)
            return std::optional<threads::claimed_run>{};
        id = s->column_text(0);
        thread_id = s->column_text(1);
        (void)s->step();
        // What blocked nobody (dead turns) is ended, so that it never holds the thread again.
        if(auto r = end_dead_turns(c, thread_id, now); !r)
            return r.error();
    }
    auto q = prepare(c, "SELECT queued_messages FROM agentio_runs WHERE id = ?", id);
    if(!q)
        return failure(c, q.error());
    if(auto row = q->step(); !row || !*row)
        return row ? failure(threads::errc::not_found, "run " + id) : failure(c, row.error());
    auto messages = threads::detail::decode_messages(q->column_text(0), id);
    (void)q->step();
    if(!messages)
        return messages.error();
    if(auto last = append_items(c, thread_id, id, *messages, now); !last)
        return last.error();
    auto s = prepare(c,
        std::string("UPDATE agentio_runs SET status = 'running', lease_holder = ?, lease_expires_at = ?, "
                    "queued_messages = '[]', updated_at = ? WHERE id = ? RETURNING ") +
            run_columns,
        holder, now + lease.count(), now, id);
    if(!s)
        return failure(c, s.error());
    auto claimed = one_run(c, *s);
    if(!claimed)
        return claimed.error();
    if(!*claimed)
        return failure(threads::errc::not_found, "run " + id);
    auto items = read_items(c, thread_id);
    if(!items)
        return items.error();
    if(auto committed = tx.commit(); !committed)
        return committed.error();
    return std::optional<threads::claimed_run>{threads::claimed_run{std::move(**claimed), std::move(*items)}};
}

} // namespace detail

AGENTIO_DECL asio::awaitable<threads::result<std::vector<threads::item>>>
thread_store::start_run(threads::new_run const& run)
{
    return writer_.async_run(
        [&run](connection& c) -> threads::result<std::vector<threads::item>> {
            auto copy = run;
            copy.when_busy = threads::busy_policy::reject;
            auto admitted = detail::admit(c, copy);
            if(!admitted)
                return admitted.error();
            return std::move(admitted->items);
        },
        asio::use_awaitable);
}

AGENTIO_DECL asio::awaitable<threads::result<threads::admission>> thread_store::admit_run(threads::new_run const& run)
{
    return writer_.async_run([&run](connection& c) { return detail::admit(c, run); }, asio::use_awaitable);
}

AGENTIO_DECL asio::awaitable<threads::result<std::optional<threads::claimed_run>>>
thread_store::claim_queued_run(std::string_view run_id, std::string_view holder, std::chrono::milliseconds lease)
{
    return writer_.async_run([run_id, holder,
                                 lease](connection& c) { return detail::claim_queued(c, run_id, holder, lease); },
        asio::use_awaitable);
}

AGENTIO_DECL asio::awaitable<threads::result<std::optional<threads::run_info>>>
thread_store::find_run(std::string_view id, std::string_view owner)
{
    return readers_.async_run(
        [id, owner](connection& c) -> threads::result<std::optional<threads::run_info>> {
            auto s = detail::prepare(c,
                std::string("SELECT ") + detail::run_columns + " FROM agentio_runs WHERE id = ? AND owner = ?", id,
                owner);
            if(!s)
                return detail::failure(c, s.error());
            return detail::one_run(c, *s);
        },
        asio::use_awaitable);
}

AGENTIO_DECL asio::awaitable<threads::result<std::optional<threads::run_info>>>
thread_store::latest_run(std::string_view thread_id, std::string_view owner)
{
    return readers_.async_run(
        [thread_id, owner](connection& c) -> threads::result<std::optional<threads::run_info>> {
            auto s = detail::prepare(c,
                std::string("SELECT ") + detail::run_columns +
                    " FROM agentio_runs WHERE thread_id = ? AND owner = ? ORDER BY created_at DESC, rowid DESC LIMIT 1",
                thread_id, owner);
            if(!s)
                return detail::failure(c, s.error());
            return detail::one_run(c, *s);
        },
        asio::use_awaitable);
}

AGENTIO_DECL asio::awaitable<threads::result<std::vector<threads::run_info>>>
thread_store::list_runs(std::string_view owner, threads::run_listing const& which)
{
    return readers_.async_run(
        [owner, &which](connection& c) -> threads::result<std::vector<threads::run_info>> {
            // A page after a run continues from its place in the order: updated_at DESC, then id.
            auto s = detail::prepare(c,
                std::string("SELECT ") + detail::run_columns +
                    " FROM agentio_runs WHERE owner = ?1 AND (?2 = '' OR thread_id = ?2) AND "
                    "(?3 = 0 OR kind = 'turn') AND (?4 = '' OR EXISTS (SELECT 1 FROM agentio_runs a "
                    "WHERE a.id = ?4 AND a.owner = ?1 AND (agentio_runs.updated_at < a.updated_at OR "
                    "(agentio_runs.updated_at = a.updated_at AND agentio_runs.id > a.id)))) "
                    "ORDER BY updated_at DESC, id LIMIT ?5",
                owner, which.thread_id, static_cast<std::int64_t>(which.turns_only ? 1 : 0), which.after,
                static_cast<std::int64_t>(std::min<std::size_t>(which.limit, INT64_MAX - 1) + 1));
            if(!s)
                return detail::failure(c, s.error());
            std::vector<threads::run_info> out;
            for(;;)
            {
                auto row = s->step();
                if(!row)
                    return detail::failure(c, row.error());
                if(!*row)
                    break;
                auto r = detail::read_run(*s);
                if(!r)
                    return r.error();
                out.push_back(std::move(*r));
            }
            return out;
        },
        asio::use_awaitable);
}

AGENTIO_DECL asio::awaitable<threads::result<void>> thread_store::checkpoint(std::string_view run_id,
    std::string_view holder, std::span<threads::event_record const> events, std::span<llm::message const> messages,
    unsigned rounds, json::value const& state)
{
    return writer_.async_run(
        [this, run_id, holder, events, messages, rounds, &state](connection& c) -> threads::result<void> {
            detail::write_transaction tx(c);
            if(auto b = tx.begun(); !b)
                return b.error();
            auto const now = detail::millis(threads::now());
            auto journaled = detail::append_journal(c, run_id, holder, events, now);
            if(!journaled)
                return journaled.error();
            if(!*journaled)
                return detail::failure(threads::errc::lease_lost, "run " + std::string(run_id));
            auto const state_text = agentio::to_json_text(state);
            auto s = detail::prepare(c,
                "UPDATE agentio_runs SET rounds = ?, state = ?, updated_at = ? "
                "WHERE id = ? AND lease_holder = ? AND status = 'running' RETURNING thread_id",
                static_cast<std::int64_t>(rounds), state_text, now, run_id, holder);
            if(!s)
                return detail::failure(c, s.error());
            auto row = s->step();
            if(!row)
                return detail::failure(c, row.error());
            if(!*row)
                return detail::failure(threads::errc::lease_lost, "run " + std::string(run_id));
            std::string const thread_id(s->column_text(0));
            (void)s->step();
            if(auto last = detail::append_items(c, thread_id, run_id, messages, now); !last)
                return last.error();
            if(auto committed = tx.commit(); !committed)
                return committed;
            if(!events.empty())
                hub_.publish(run_id, events.back().id);
            return {};
        },
        asio::use_awaitable);
}

AGENTIO_DECL asio::awaitable<threads::result<std::vector<std::string>>>
thread_store::append_events(std::string_view holder, std::span<threads::run_events const> batch)
{
    return writer_.async_run(
        [this, holder, batch](connection& c) -> threads::result<std::vector<std::string>> {
            detail::write_transaction tx(c);
            if(auto b = tx.begun(); !b)
                return b.error();
            std::vector<std::string> lost;
            std::vector<std::pair<std::string_view, std::int64_t>> committed;
            auto const now = detail::millis(threads::now());
            for(auto const& run : batch)
            {
                if(run.events.empty())
                    continue;
                auto journaled = detail::append_journal(c, run.run_id, holder, run.events, now);
                if(!journaled)
                    return journaled.error();
                if(*journaled)
                    committed.emplace_back(run.run_id, run.events.back().id);
                else
                    lost.push_back(run.run_id);
            }
            if(auto r = tx.commit(); !r)
                return r.error();
            for(auto const& [run, last] : committed)
                hub_.publish(run, last);
            return lost;
        },
        asio::use_awaitable);
}

AGENTIO_DECL asio::awaitable<threads::result<std::vector<threads::event_record>>>
thread_store::events_after(std::string_view run_id, std::int64_t after, std::size_t limit)
{
    return readers_.async_run(
        [run_id, after, limit](connection& c) -> threads::result<std::vector<threads::event_record>> {
            auto s = detail::prepare(c,
                "SELECT id, type, data FROM agentio_run_events WHERE run_id = ? AND id > ? ORDER BY id LIMIT ?", run_id,
                after, static_cast<std::int64_t>(std::min<std::size_t>(limit, INT64_MAX)));
            if(!s)
                return detail::failure(c, s.error());
            std::vector<threads::event_record> out;
            for(;;)
            {
                auto row = s->step();
                if(!row)
                    return detail::failure(c, row.error());
                if(!*row)
                    break;
                out.push_back({s->column_int64(0), std::string(s->column_text(1)), std::string(s->column_text(2))});
            }
            return out;
        },
        asio::use_awaitable);
}

AGENTIO_DECL threads::result<void> thread_store::release(connection& c, std::string_view run_id,
    std::string_view holder, std::span<threads::event_record const> events, threads::run_status status,
    json::value const& state)
{
    detail::write_transaction tx(c);
    if(auto b = tx.begun(); !b)
        return b.error();
    auto journaled = detail::append_journal(c, run_id, holder, events, detail::millis(threads::now()));
    if(!journaled)
        return journaled.error();
    if(!*journaled)
        return detail::failure(threads::errc::lease_lost, "run " + std::string(run_id));
    if(auto r = detail::release_run(c, run_id, holder, status, state); !r)
        return r;
    if(auto committed = tx.commit(); !committed)
        return committed;
    if(!events.empty())
        hub_.publish(run_id, events.back().id);
    return {};
}

AGENTIO_DECL asio::awaitable<threads::result<void>> thread_store::finish_run(std::string_view run_id,
    std::string_view holder, std::span<threads::event_record const> events, threads::run_status status,
    json::value const& state)
{
    return writer_.async_run([this, run_id, holder, events, status,
                                 &state](connection& c) { return release(c, run_id, holder, events, status, state); },
        asio::use_awaitable);
}

AGENTIO_DECL asio::awaitable<threads::result<void>> thread_store::suspend_run(std::string_view run_id,
    std::string_view holder, std::span<threads::event_record const> events, json::value const& state)
{
    return writer_.async_run(
        [this, run_id, holder, events, &state](connection& c) {
            return release(c, run_id, holder, events, threads::run_status::waiting, state);
        },
        asio::use_awaitable);
}

AGENTIO_DECL asio::awaitable<threads::result<bool>> thread_store::update_waiting_state(std::string_view run_id,
    std::string_view owner, json::value const& expected, json::value const& state)
{
    return writer_.async_run(
        [run_id, owner, &expected, &state](connection& c) -> threads::result<bool> {
            auto const before = agentio::to_json_text(expected);
            auto const after = agentio::to_json_text(state);
            auto r = detail::run(c,
                "UPDATE agentio_runs SET state = ?, updated_at = ? WHERE id = ? AND owner = ? AND status = 'waiting' "
                "AND state = ?",
                after, detail::millis(threads::now()), run_id, owner, before);
            if(!r)
                return r.error();
            return *r > 0;
        },
        asio::use_awaitable);
}

AGENTIO_DECL asio::awaitable<threads::result<std::optional<threads::run_info>>> thread_store::claim_waiting_run(
    std::string_view run_id, std::string_view owner, std::string_view holder, std::chrono::milliseconds lease)
{
    return writer_.async_run(
        [run_id, owner, holder, lease](connection& c) -> threads::result<std::optional<threads::run_info>> {
            auto const now = detail::millis(threads::now());
            auto s = detail::prepare(c,
                std::string("UPDATE agentio_runs SET status = 'running', lease_holder = ?, lease_expires_at = ?, "
                            "updated_at = ? WHERE id = ? AND owner = ? AND status = 'waiting' RETURNING ") +
                    detail::run_columns,
                holder, now + lease.count(), now, run_id, owner);
            if(!s)
                return detail::failure(c, s.error());
            return detail::one_run(c, *s);
        },
        asio::use_awaitable);
}

AGENTIO_DECL asio::awaitable<threads::result<std::vector<threads::held_lease>>> thread_store::renew_leases(
    std::string_view holder, std::span<std::string const> run_ids, std::chrono::milliseconds lease)
{
    return writer_.async_run(
        [holder, run_ids, lease](connection& c) -> threads::result<std::vector<threads::held_lease>> {
            detail::write_transaction tx(c);
            if(auto b = tx.begun(); !b)
                return b.error();
            auto const now = detail::millis(threads::now());
            auto const expires = now + lease.count();
            std::vector<threads::held_lease> held;
            for(auto const& id : run_ids)
            {
                auto s = detail::prepare(c,
                    "UPDATE agentio_runs SET lease_expires_at = ? WHERE id = ? AND lease_holder = ? AND status IN "
                    "('running', 'queued') RETURNING cancel_requested, readers_seen_at",
                    expires, id, holder);
                if(!s)
                    return detail::failure(c, s.error());
                auto row = s->step();
                if(!row)
                    return detail::failure(c, row.error());
                if(*row)
                {
                    threads::held_lease h{id, s->column_int64(0) != 0};
                    if(auto const seen = s->column_int64(1); seen > 0)
                        h.remote_reader_age = std::chrono::milliseconds(std::max<std::int64_t>(now - seen, 0));
                    held.push_back(std::move(h));
                    (void)s->step();
                }
            }
            if(auto r = tx.commit(); !r)
                return r.error();
            return held;
        },
        asio::use_awaitable);
}

AGENTIO_DECL asio::awaitable<threads::result<void>> thread_store::note_readers(std::span<std::string const> run_ids)
{
    return writer_.async_run(
        [run_ids](connection& c) -> threads::result<void> {
            detail::write_transaction tx(c);
            if(auto b = tx.begun(); !b)
                return b.error();
            auto const now = detail::millis(threads::now());
            for(auto const& id : run_ids)
                if(auto r = detail::run(c,
                       "UPDATE agentio_runs SET readers_seen_at = ? WHERE id = ? AND status = 'running'", now, id);
                    !r)
                    return r.error();
            return tx.commit();
        },
        asio::use_awaitable);
}

AGENTIO_DECL asio::awaitable<threads::result<bool>> thread_store::request_cancel(std::string_view run_id,
    std::string_view owner)
{
    return writer_.async_run(
        [run_id, owner](connection& c) -> threads::result<bool> {
            // Nobody runs a queued run yet: it ends here.
            auto queued = detail::run(c,
                "UPDATE agentio_runs SET status = 'cancelled', lease_holder = '', lease_expires_at = 0, "
                "queued_messages = '[]', updated_at = ? WHERE id = ? AND owner = ? AND status = 'queued'",
                detail::millis(threads::now()), run_id, owner);
            if(!queued)
                return queued.error();
            if(*queued > 0)
                return true;
            auto r = detail::run(c,
                "UPDATE agentio_runs SET cancel_requested = 1 WHERE id = ? AND owner = ? AND status IN ('running', "
                "'waiting')",
                run_id, owner);
            if(!r)
                return r.error();
            return *r > 0;
        },
        asio::use_awaitable);
}

AGENTIO_DECL asio::awaitable<threads::result<std::optional<threads::run_info>>>
thread_store::claim_expired_run(std::string_view holder, std::chrono::milliseconds lease)
{
    return writer_.async_run(
        [holder, lease](connection& c) -> threads::result<std::optional<threads::run_info>> {
            auto const now = detail::millis(threads::now());
            auto s = detail::prepare(c,
                std::string("UPDATE agentio_runs SET lease_holder = ?, lease_expires_at = ?, updated_at = ? "
                            "WHERE id = (SELECT id FROM agentio_runs WHERE status = 'running' AND kind = 'durable' AND "
                            "lease_expires_at < ? "
                            "ORDER BY lease_expires_at LIMIT 1) RETURNING ") +
                    detail::run_columns,
                holder, now + lease.count(), now, now);
            if(!s)
                return detail::failure(c, s.error());
            return detail::one_run(c, *s);
        },
        asio::use_awaitable);
}

AGENTIO_DECL asio::awaitable<threads::result<void>> thread_store::call_started(std::string_view run_id,
    std::string_view holder, threads::call_record const& call)
{
    return writer_.async_run(
        [run_id, holder, &call](connection& c) -> threads::result<void> {
            detail::write_transaction tx(c);
            if(auto b = tx.begun(); !b)
                return b.error();
            auto held = detail::prepare(c,
                "SELECT 1 FROM agentio_runs WHERE id = ? AND lease_holder = ? AND status = 'running'", run_id, holder);
            if(!held)
                return detail::failure(c, held.error());
            auto row = held->step();
            if(!row)
                return detail::failure(c, row.error());
            if(!*row)
                return detail::failure(threads::errc::lease_lost, "run " + std::string(run_id));
            (void)held->step();
            auto const now = detail::millis(threads::now());
            auto r = detail::run(c,
                "INSERT INTO agentio_run_calls(run_id, call_id, n, round, tool, input, attempts, started_at) "
                "VALUES(?1, ?2, (SELECT count(*) FROM agentio_run_calls WHERE run_id = ?1), ?3, ?4, ?5, 1, ?6) "
                "ON CONFLICT(run_id, call_id) DO UPDATE SET attempts = attempts + 1, started_at = ?6",
                run_id, call.call_id, static_cast<std::int64_t>(call.round), call.tool,
                agentio::to_json_text(call.input), now);
            if(!r)
                return r.error();
            return tx.commit();
        },
        asio::use_awaitable);
}

AGENTIO_DECL asio::awaitable<threads::result<void>> thread_store::call_finished(std::string_view run_id,
    std::string_view holder, std::string_view call_id, json::value const& result)
{
    return writer_.async_run(
        [run_id, holder, call_id, &result](connection& c) -> threads::result<void> {
            auto r = detail::run(c,
                "UPDATE agentio_run_calls SET result = ?, finished_at = ? WHERE run_id = ? AND call_id = ? AND "
                "EXISTS (SELECT 1 FROM agentio_runs WHERE id = ? AND lease_holder = ? AND status = 'running')",
                agentio::to_json_text(result), detail::millis(threads::now()), run_id, call_id, run_id, holder);
            if(!r)
                return r.error();
            if(*r == 0)
                return detail::failure(threads::errc::lease_lost,
                    "run " + std::string(run_id) + ", call " + std::string(call_id));
            return {};
        },
        asio::use_awaitable);
}

AGENTIO_DECL asio::awaitable<threads::result<std::vector<threads::call_record>>>
thread_store::run_calls(std::string_view run_id)
{
    return readers_.async_run(
        [run_id](connection& c) -> threads::result<std::vector<threads::call_record>> {
            auto s = detail::prepare(c,
                "SELECT call_id, tool, input, round, attempts, result IS NOT NULL, coalesce(result, 'null') "
                "FROM agentio_run_calls WHERE run_id = ? ORDER BY n",
                run_id);
            if(!s)
                return detail::failure(c, s.error());
            std::vector<threads::call_record> out;
            for(;;)
            {
                auto row = s->step();
                if(!row)
                    return detail::failure(c, row.error());
                if(!*row)
                    break;
                auto call = threads::detail::decode_call(detail::row_view{*s}, run_id);
                if(!call)
                    return call.error();
                out.push_back(std::move(*call));
            }
            return out;
        },
        asio::use_awaitable);
}

} // namespace agentio::sqlite

#endif
