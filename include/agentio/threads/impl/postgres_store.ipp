//
// agentio/threads/impl/postgres_store.ipp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_THREADS_IMPL_POSTGRES_STORE_IPP
#define AGENTIO_THREADS_IMPL_POSTGRES_STORE_IPP

#include <agentio/config.hpp>
#include <agentio/json_text.hpp>
#include <agentio/llm/message_json.hpp>
#include <agentio/threads/detail/rows.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/parse.hpp>

#include <charconv>

namespace agentio::postgres {

namespace detail {

namespace threads = agentio::threads;

// Each entry moves the schema from its index to the next version.
inline constexpr char const* thread_store_migrations[] = {
    R"sql(
CREATE FUNCTION agentio_now_ms() RETURNS bigint LANGUAGE sql VOLATILE
    AS $$ SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint $$;
CREATE TABLE agentio_threads(
    id text PRIMARY KEY,
    owner text NOT NULL,
    agent text NOT NULL,
    title text NOT NULL,
    metadata text NOT NULL,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL,
    next_seq bigint NOT NULL DEFAULT 1);
CREATE INDEX agentio_threads_by_owner ON agentio_threads(owner, updated_at DESC);
CREATE TABLE agentio_thread_items(
    thread_id text NOT NULL REFERENCES agentio_threads(id) ON DELETE CASCADE,
    seq bigint NOT NULL,
    run_id text NOT NULL,
    message text NOT NULL,
    created_at bigint NOT NULL,
    PRIMARY KEY(thread_id, seq));
CREATE TABLE agentio_runs(
    id text PRIMARY KEY,
    n bigserial,
    thread_id text NOT NULL REFERENCES agentio_threads(id) ON DELETE CASCADE,
    owner text NOT NULL,
    status text NOT NULL,
    rounds integer NOT NULL DEFAULT 0,
    last_event_id bigint NOT NULL DEFAULT 0,
    lease_holder text NOT NULL DEFAULT '',
    lease_expires_at bigint NOT NULL DEFAULT 0,
    state text NOT NULL DEFAULT 'null',
    cancel_requested boolean NOT NULL DEFAULT false,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL);
CREATE INDEX agentio_runs_by_thread ON agentio_runs(thread_id, n DESC);
CREATE INDEX agentio_runs_by_lease ON agentio_runs(status, lease_expires_at);
CREATE UNIQUE INDEX agentio_runs_one_active ON agentio_runs(thread_id) WHERE status IN ('running', 'waiting');
CREATE TABLE agentio_run_events(
    run_id text NOT NULL REFERENCES agentio_runs(id) ON DELETE CASCADE,
    id bigint NOT NULL,
    type text NOT NULL,
    data text NOT NULL,
    PRIMARY KEY(run_id, id));
)sql",
    // 2: when a reader in another process last followed the run.
    R"sql(
ALTER TABLE agentio_runs ADD COLUMN readers_seen_at bigint NOT NULL DEFAULT 0;
)sql",
    // 3: a request's turn, which no run manager takes over.
    R"sql(
ALTER TABLE agentio_runs ADD COLUMN kind text NOT NULL DEFAULT 'durable';
)sql",
    // 4: summaries that stand for a thread's first messages (compaction). Each
    // is the thread's next generation: of two processes compacting the same
    // thread at once, one writes.
    R"sql(
CREATE TABLE agentio_thread_summaries(
    thread_id text NOT NULL REFERENCES agentio_threads(id) ON DELETE CASCADE,
    through_seq bigint NOT NULL,
    generation bigint NOT NULL,
    text text NOT NULL,
    created_at bigint NOT NULL,
    PRIMARY KEY(thread_id, through_seq),
    UNIQUE(thread_id, generation));
)sql",
    // 5: runs waiting in their thread's line keep their messages aside until they start.
    R"sql(
ALTER TABLE agentio_runs ADD COLUMN queued_messages text NOT NULL DEFAULT '[]';
CREATE INDEX agentio_runs_queued ON agentio_runs(n) WHERE status = 'queued';
)sql",
    // 6: the calls journal: each tool call of a durable run, started and finished.
    R"sql(
CREATE TABLE agentio_run_calls(
    run_id text NOT NULL REFERENCES agentio_runs(id) ON DELETE CASCADE,
    call_id text NOT NULL,
    n bigserial,
    round integer NOT NULL,
    tool text NOT NULL,
    input text NOT NULL,
    attempts integer NOT NULL,
    result text,
    started_at bigint NOT NULL,
    finished_at bigint,
    PRIMARY KEY(run_id, call_id));
)sql",
    // 7: the records of uploaded files (their bytes are kept elsewhere).
    R"sql(
CREATE TABLE agentio_files(
    id text PRIMARY KEY,
    owner text NOT NULL,
    filename text NOT NULL,
    purpose text NOT NULL,
    media_type text NOT NULL,
    bytes bigint NOT NULL,
    metadata text NOT NULL,
    created_at bigint NOT NULL);
CREATE INDEX agentio_files_by_owner ON agentio_files(owner, created_at, id);
)sql",
    // 8: an owner's runs, the most recently changed first (list_runs).
    R"sql(
CREATE INDEX agentio_runs_by_owner ON agentio_runs(owner, updated_at DESC, id);
)sql"};

inline constexpr char const* file_columns = "id, owner, filename, purpose, media_type, bytes, metadata, created_at";

// The database enforces one running run per thread (a partial unique index).
inline bool is_thread_busy(postgres::error const& e)
{
    return e.sqlstate == "23505" && e.message.find("agentio_runs_one_active") != std::string::npos;
}

// The channel of committed events; the payload is "RUN_ID LAST_ID".
inline constexpr char const* events_channel = "agentio_run_events";

// Statements that update several runs lock their rows first, in id order:
// two such statements (this process's lease renewal and journal batch,
// another's) then never wait for each other in a cycle.
#define AGENTIO_PG_LOCK_RUNS_IN_ORDER(IDS) "SELECT id FROM agentio_runs WHERE id IN (" IDS ") ORDER BY id FOR UPDATE"

inline constexpr char const* run_columns = "id, thread_id, owner, status, rounds, last_event_id, lease_holder, "
                                           "lease_expires_at, state, created_at, updated_at";
inline constexpr char const* thread_columns = "id, owner, agent, title, metadata, created_at, updated_at";

AGENTIO_DECL threads::error failure(error const& e)
{
    return {e.code, e.message};
}

AGENTIO_DECL threads::error failure(threads::errc e, std::string message = {})
{
    return {threads::make_error_code(e), std::move(message)};
}

AGENTIO_DECL std::string messages_array(std::span<llm::message const> messages)
{
    std::vector<std::string> texts;
    texts.reserve(messages.size());
    for(auto const& m : messages)
        texts.push_back(agentio::to_json_text(llm::to_json(m)));
    return postgres::array_literal(texts);
}

// A run's events as the arrays of one statement: ids, types, data.
struct journal_arrays
{
    std::string ids;
    std::string types;
    std::string datas;

    explicit journal_arrays(std::span<threads::event_record const> events)
    {
        ids = postgres::array_literal(events, &threads::event_record::id);
        types = postgres::array_literal(events, &threads::event_record::type);
        datas = postgres::array_literal(events, &threads::event_record::data);
    }
};

// Row `i` of a result, as the shared decoders read it.
struct row_view
{
    rows const& r;
    std::size_t i;
    std::string_view text(int column) const noexcept { return r.text(i, column); }
    std::int64_t int64(int column) const { return r.int64(i, column); }
};

// Rows (seq, run_id, message, created_at) as thread items.
AGENTIO_DECL threads::result<std::vector<threads::item>> read_items(rows const& r, std::string_view thread_id)
{
    std::vector<threads::item> out;
    out.reserve(r.size());
    for(std::size_t i = 0; i < r.size(); ++i)
    {
        auto item = threads::detail::decode_item(row_view{r, i}, thread_id);
        if(!item)
            return item.error();
        out.push_back(std::move(*item));
    }
    return out;
}

AGENTIO_DECL threads::result<threads::thread_info> read_thread(rows const& r, std::size_t i)
{
    return threads::detail::decode_thread(row_view{r, i});
}

AGENTIO_DECL threads::result<threads::run_info> read_run(rows const& r, std::size_t i)
{
    return threads::detail::decode_run(row_view{r, i});
}

AGENTIO_DECL std::string select_runs(char const* where)
{
    return std::string("SELECT ") + run_columns + " FROM agentio_runs WHERE " + where;
}

AGENTIO_DECL std::string update_runs_returning(char const* set_and_where)
{
    return std::string("UPDATE agentio_runs SET ") + set_and_where + " RETURNING " + run_columns;
}

// "RUN_ID LAST_ID" → the hub.
AGENTIO_DECL void publish_notification(threads::event_hub& hub, std::string_view payload)
{
    auto const space = payload.rfind(' ');
    if(space == std::string_view::npos)
        return;
    std::int64_t last = 0;
    auto const digits = payload.substr(space + 1);
    auto const [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), last);
    if(ec != std::errc() || ptr != digits.data() + digits.size())
        return;
    hub.publish(payload.substr(0, space), last);
}

} // namespace detail

AGENTIO_DECL thread_store::thread_store(asio::any_io_executor ex, std::string conninfo,
    thread_store_options const& options)
    : pool_(ex, conninfo, options.pool)
    , lease_pool_(ex, std::move(conninfo), options.lease_pool)
    , listen_executor_(asio::make_strand(ex))
    , listener_(std::make_shared<listener_state>())
{
    listener_->hub = &hub_;
}

AGENTIO_DECL thread_store::~thread_store()
{
    {
        std::lock_guard lock(listener_->mutex);
        listener_->hub = nullptr;
    }
    auto state = listener_;
    asio::post(listen_executor_, [state] { state->stop.emit(asio::cancellation_type::terminal); });
    pool_.close();
    lease_pool_.close();
}

AGENTIO_DECL asio::awaitable<threads::result<std::unique_ptr<thread_store>>>
thread_store::open(asio::any_io_executor ex, std::string conninfo, thread_store_options options)
{
    std::unique_ptr<thread_store> store(new thread_store(ex, conninfo, options));
    auto lease = co_await store->pool_.acquire();
    if(!lease)
        co_return detail::failure(lease.error());
    auto& conn = **lease;
    // One migrator at a time: the others wait on the lock, then find the schema current.
    if(auto r = co_await conn.execute("BEGIN; SELECT pg_advisory_xact_lock(7308411592)"); !r)
        co_return detail::failure(r.error());
    if(auto r = co_await conn.execute("CREATE TABLE IF NOT EXISTS agentio_schema_version(version integer NOT NULL)");
        !r)
        co_return detail::failure(r.error());
    auto version_rows = co_await conn.query("SELECT version FROM agentio_schema_version");
    if(!version_rows)
        co_return detail::failure(version_rows.error());
    int version = 0;
    if(version_rows->size() == 0)
    {
        if(auto r = co_await conn.execute("INSERT INTO agentio_schema_version(version) VALUES(0)"); !r)
            co_return detail::failure(r.error());
    }
    else
        version = static_cast<int>(version_rows->int64(0, 0));
    constexpr int known = static_cast<int>(std::size(detail::thread_store_migrations));
    if(version > known)
    {
        (void)co_await conn.execute("ROLLBACK");
        co_return detail::failure(threads::errc::schema_too_new,
            "schema version " + std::to_string(version) + ", this program knows up to " + std::to_string(known));
    }
    for(; version < known; ++version)
        if(auto r = co_await conn.execute(detail::thread_store_migrations[version]); !r)
            co_return detail::failure(r.error());
    auto const update = "UPDATE agentio_schema_version SET version = " + std::to_string(version) + "; COMMIT";
    if(auto r = co_await conn.execute(update); !r)
        co_return detail::failure(r.error());
    asio::co_spawn(store->listen_executor_,
        listen(store->listen_executor_, store->pool_.conninfo(), store->listener_, options.reconnect_delay),
        asio::bind_cancellation_slot(store->listener_->stop.slot(), asio::detached));
    co_return std::move(store);
}

// LISTENs on its own connection and wakes the hub's readers for every commit
// of events, this process's and the others'. A lost connection is reopened;
// readers look at the journal on their own meanwhile (their poll interval).
AGENTIO_DECL asio::awaitable<void> thread_store::listen(asio::any_io_executor ex, std::string conninfo,
    std::shared_ptr<listener_state> state, std::chrono::milliseconds reconnect_delay)
{
    asio::steady_timer pause(ex);
    for(;;)
    {
        connection conn(ex);
        auto opened = co_await conn.connect(conninfo);
        if(opened)
        {
            auto const listen_sql = std::string("LISTEN ") + detail::events_channel;
            auto listening = co_await conn.execute(listen_sql);
            while(listening)
            {
                auto n = co_await conn.receive_notification();
                if(!n)
                {
                    if(n.error().code == asio::error::operation_aborted)
                        co_return; // the store is gone
                    break;
                }
                std::lock_guard lock(state->mutex);
                if(!state->hub)
                    co_return;
                detail::publish_notification(*state->hub, n->payload);
            }
        }
        {
            std::lock_guard lock(state->mutex);
            if(!state->hub)
                co_return;
        }
        pause.expires_after(reconnect_delay);
        auto [ec] = co_await pause.async_wait(asio::as_tuple(asio::use_awaitable));
        if(ec)
            co_return;
    }
}

// ---------------------------------------------------------------------------
// Threads

AGENTIO_DECL asio::awaitable<threads::result<void>> thread_store::create_thread(threads::thread_info const& thread)
{
    auto const metadata = agentio::to_json_text(thread.metadata);
    std::int64_t const created = thread.created_at.time_since_epoch().count();
    std::int64_t const updated = thread.updated_at.time_since_epoch().count();
    auto r =
        co_await pool_.query("INSERT INTO agentio_threads(id, owner, agent, title, metadata, created_at, updated_at) "
                             "VALUES($1, $2, $3, $4, $5, COALESCE(NULLIF($6, 0), agentio_now_ms()), "
                             "COALESCE(NULLIF($7, 0), NULLIF($6, 0), agentio_now_ms()))",
            params(thread.id, thread.owner, thread.agent, thread.title, metadata, created, updated));
    if(!r)
        co_return detail::failure(r.error());
    co_return threads::result<void>{};
}

AGENTIO_DECL asio::awaitable<threads::result<std::optional<threads::thread_info>>>
thread_store::find_thread(std::string_view id, std::string_view owner)
{
    auto const sql = std::string("SELECT ") + detail::thread_columns +
        " FROM agentio_threads WHERE id = $1 AND owner = $2";
    auto r = co_await pool_.query(sql, params(id, owner));
    if(!r)
        co_return detail::failure(r.error());
    if(r->size() == 0)
        co_return std::optional<threads::thread_info>{};
    auto t = detail::read_thread(*r, 0);
    if(!t)
        co_return t.error();
    co_return std::optional<threads::thread_info>{std::move(*t)};
}

AGENTIO_DECL asio::awaitable<threads::result<std::vector<threads::thread_info>>>
thread_store::list_threads(std::string_view owner, std::size_t limit)
{
    auto const sql = std::string("SELECT ") + detail::thread_columns +
        " FROM agentio_threads WHERE owner = $1 ORDER BY updated_at DESC, id LIMIT $2";
    auto const capped = static_cast<std::int64_t>(std::min<std::size_t>(limit, INT64_MAX));
    auto r = co_await pool_.query(sql, params(owner, capped));
    if(!r)
        co_return detail::failure(r.error());
    std::vector<threads::thread_info> out;
    for(std::size_t i = 0; i < r->size(); ++i)
    {
        auto t = detail::read_thread(*r, i);
        if(!t)
            co_return t.error();
        out.push_back(std::move(*t));
    }
    co_return out;
}

AGENTIO_DECL asio::awaitable<threads::result<std::vector<threads::thread_info>>>
thread_store::list_threads(std::string_view owner, threads::thread_listing const& which)
{
    // A page after a thread continues from its place in the order: updated_at DESC, then id.
    auto const sql = std::string("SELECT ") + detail::thread_columns +
        " FROM agentio_threads t WHERE owner = $1 AND ($2 = '' OR EXISTS (SELECT 1 FROM agentio_threads a "
        "WHERE a.id = $2 AND a.owner = $1 AND (t.updated_at < a.updated_at OR "
        "(t.updated_at = a.updated_at AND t.id > a.id)))) ORDER BY updated_at DESC, id LIMIT $3";
    auto const capped = static_cast<std::int64_t>(std::min<std::size_t>(which.limit, INT64_MAX - 1) + 1);
    auto r = co_await pool_.query(sql, params(owner, which.after, capped));
    if(!r)
        co_return detail::failure(r.error());
    std::vector<threads::thread_info> out;
    for(std::size_t i = 0; i < r->size(); ++i)
    {
        auto t = detail::read_thread(*r, i);
        if(!t)
            co_return t.error();
        out.push_back(std::move(*t));
    }
    co_return out;
}

AGENTIO_DECL asio::awaitable<threads::result<bool>> thread_store::delete_thread(std::string_view id,
    std::string_view owner)
{
    auto r = co_await pool_.query("DELETE FROM agentio_threads WHERE id = $1 AND owner = $2", params(id, owner));
    if(!r)
        co_return detail::failure(r.error());
    co_return r->affected() > 0;
}

AGENTIO_DECL asio::awaitable<threads::result<std::int64_t>> thread_store::append_messages(std::string_view thread_id,
    std::span<llm::message const> messages)
{
    auto const items = detail::messages_array(messages);
    auto const count = static_cast<std::int64_t>(messages.size());
    // One statement: the sequence moves and the messages land together.
    auto r = co_await pool_.query(
        "WITH t AS (UPDATE agentio_threads SET next_seq = next_seq + $2, updated_at = agentio_now_ms() "
        "WHERE id = $1 RETURNING next_seq - $2 AS first, next_seq - 1 AS last), "
        "i AS (INSERT INTO agentio_thread_items(thread_id, seq, run_id, message, created_at) "
        "SELECT $1, t.first + m.ord - 1, '', m.msg, agentio_now_ms() FROM t, "
        "unnest($3::text[]) WITH ORDINALITY AS m(msg, ord)) "
        "SELECT last FROM t",
        params(thread_id, count, items));
    if(!r)
        co_return detail::failure(r.error());
    if(r->size() == 0)
        co_return detail::failure(threads::errc::not_found, "thread " + std::string(thread_id));
    co_return r->int64(0, 0);
}

AGENTIO_DECL asio::awaitable<threads::result<std::vector<threads::item>>>
thread_store::load_items(std::string_view thread_id)
{
    auto r = co_await pool_.query(
        "SELECT seq, run_id, message, created_at FROM agentio_thread_items WHERE thread_id = $1 ORDER BY seq",
        params(thread_id));
    if(!r)
        co_return detail::failure(r.error());
    co_return detail::read_items(*r, thread_id);
}

AGENTIO_DECL asio::awaitable<threads::result<std::size_t>>
thread_store::apply_retention(threads::retention const& policy)
{
    std::size_t removed = 0;
    if(policy.max_age)
    {
        std::int64_t const age = policy.max_age->count();
        auto r = co_await pool_.query("DELETE FROM agentio_threads WHERE updated_at < agentio_now_ms() - $1",
            params(age));
        if(!r)
            co_return detail::failure(r.error());
        removed += r->affected();
    }
    if(policy.max_threads_per_owner)
    {
        auto const keep = static_cast<std::int64_t>(*policy.max_threads_per_owner);
        auto r = co_await pool_.query(
            "DELETE FROM agentio_threads WHERE id IN (SELECT id FROM (SELECT id, row_number() OVER "
            "(PARTITION BY owner ORDER BY updated_at DESC, id) AS n FROM agentio_threads) AS ranked WHERE n > $1)",
            params(keep));
        if(!r)
            co_return detail::failure(r.error());
        removed += r->affected();
    }
    co_return removed;
}

// ---------------------------------------------------------------------------
// Files

namespace detail {

AGENTIO_DECL threads::result<std::vector<threads::file_record>> read_files(rows const& r)
{
    std::vector<threads::file_record> out;
    for(std::size_t i = 0; i < r.size(); ++i)
    {
        auto f = threads::detail::decode_file(row_view{r, i});
        if(!f)
            return f.error();
        out.push_back(std::move(*f));
    }
    return out;
}

} // namespace detail

AGENTIO_DECL asio::awaitable<threads::result<void>> thread_store::save_file(threads::file_record const& file)
{
    auto const metadata = agentio::to_json_text(file.metadata);
    std::int64_t const created = file.created_at.time_since_epoch().count();
    auto const bytes = static_cast<std::int64_t>(file.bytes);
    auto r = co_await pool_.query(
        "INSERT INTO agentio_files(id, owner, filename, purpose, media_type, bytes, metadata, created_at) "
        "VALUES($1, $2, $3, $4, $5, $6, $7, COALESCE(NULLIF($8, 0), agentio_now_ms()))",
        params(file.id, file.owner, file.filename, file.purpose, file.media_type, bytes, metadata, created));
    if(!r)
        co_return detail::failure(r.error());
    co_return threads::result<void>{};
}

AGENTIO_DECL asio::awaitable<threads::result<std::optional<threads::file_record>>>
thread_store::find_file(std::string_view id, std::string_view owner)
{
    auto const sql = std::string("SELECT ") + detail::file_columns + " FROM agentio_files WHERE id = $1 AND owner = $2";
    auto r = co_await pool_.query(sql, params(id, owner));
    if(!r)
        co_return detail::failure(r.error());
    auto found = detail::read_files(*r);
    if(!found)
        co_return found.error();
    if(found->empty())
        co_return std::optional<threads::file_record>{};
    co_return std::optional<threads::file_record>{std::move(found->front())};
}

AGENTIO_DECL asio::awaitable<threads::result<std::vector<threads::file_record>>>
thread_store::list_files(std::string_view owner, threads::file_listing const& which)
{
    // A page after a file continues from its place in the order: (created_at, id).
    std::string sql = std::string("SELECT ") + detail::file_columns +
        " FROM agentio_files WHERE owner = $1 AND ($2 = '' OR purpose = $2) AND ($3 = '' OR ";
    sql += which.newest_first
        ? "(created_at, id) < (SELECT created_at, id FROM agentio_files WHERE id = $3 AND owner = $1)) "
          "ORDER BY created_at DESC, id DESC"
        : "(created_at, id) > (SELECT created_at, id FROM agentio_files WHERE id = $3 AND owner = $1)) "
          "ORDER BY created_at, id";
    sql += " LIMIT $4";
    auto const limit = static_cast<std::int64_t>(std::min<std::size_t>(which.limit, INT64_MAX - 1) + 1);
    auto r = co_await pool_.query(sql, params(owner, which.purpose, which.after, limit));
    if(!r)
        co_return detail::failure(r.error());
    co_return detail::read_files(*r);
}

AGENTIO_DECL asio::awaitable<threads::result<bool>> thread_store::update_file_metadata(std::string_view id,
    std::string_view owner, boost::json::object const& metadata)
{
    auto const text = agentio::to_json_text(metadata);
    auto r = co_await pool_.query("UPDATE agentio_files SET metadata = $1 WHERE id = $2 AND owner = $3",
        params(text, id, owner));
    if(!r)
        co_return detail::failure(r.error());
    co_return r->affected() > 0;
}

AGENTIO_DECL asio::awaitable<threads::result<bool>> thread_store::delete_file(std::string_view id,
    std::string_view owner)
{
    auto r = co_await pool_.query("DELETE FROM agentio_files WHERE id = $1 AND owner = $2", params(id, owner));
    if(!r)
        co_return detail::failure(r.error());
    co_return r->affected() > 0;
}

// ---------------------------------------------------------------------------
// Summaries

AGENTIO_DECL asio::awaitable<threads::result<std::optional<threads::thread_summary>>>
thread_store::latest_summary(std::string_view thread_id)
{
    auto r = co_await pool_.query("SELECT through_seq, text, created_at FROM agentio_thread_summaries "
                                  "WHERE thread_id = $1 ORDER BY through_seq DESC LIMIT 1",
        params(thread_id));
    if(!r)
        co_return detail::failure(r.error());
    if(r->size() == 0)
        co_return std::optional<threads::thread_summary>();
    co_return std::optional<threads::thread_summary>(threads::detail::decode_summary(detail::row_view{*r, 0}));
}

AGENTIO_DECL asio::awaitable<threads::result<threads::thread_summary>>
thread_store::save_summary(std::string_view thread_id, std::int64_t through_seq, std::string_view text)
{
    // Only a summary that stands for more than the latest one joins the thread,
    // as its next generation: a second process racing to write the same one
    // meets the unique generation and writes nothing.
    auto inserted = co_await pool_.query(
        "INSERT INTO agentio_thread_summaries(thread_id, through_seq, generation, text, created_at) "
        "SELECT $1, $2, COALESCE((SELECT max(generation) FROM agentio_thread_summaries WHERE thread_id = $1), 0) + 1, "
        "$3, agentio_now_ms() "
        "WHERE EXISTS (SELECT 1 FROM agentio_thread_items WHERE thread_id = $1 AND seq = $2) "
        "AND NOT EXISTS (SELECT 1 FROM agentio_thread_summaries WHERE thread_id = $1 AND through_seq >= $2) "
        "ON CONFLICT DO NOTHING",
        params(thread_id, through_seq, text));
    if(!inserted)
        co_return detail::failure(inserted.error());
    auto latest = co_await latest_summary(thread_id);
    if(!latest)
        co_return latest.error();
    bool missing = !*latest;
    if(!missing && inserted->affected() == 0 && (*latest)->through_seq < through_seq)
    {
        // Refused: for want of the message, or because another process wrote this generation first.
        auto item = co_await pool_.query("SELECT 1 FROM agentio_thread_items WHERE thread_id = $1 AND seq = $2",
            params(thread_id, through_seq));
        if(!item)
            co_return detail::failure(item.error());
        missing = item->size() == 0;
    }
    if(missing)
        co_return detail::failure(threads::errc::not_found,
            "thread " + std::string(thread_id) + " has no message " + std::to_string(through_seq));
    co_return std::move(**latest);
}

// ---------------------------------------------------------------------------
// Runs

namespace detail {

// One statement starts a run: the thread when new (its sequence already past
// the new messages, since the thread's UPDATE below cannot see a row inserted
// by the same statement), the run, the messages, and the whole thread back.
inline constexpr char const* start_run_sql =
    "WITH th AS (INSERT INTO agentio_threads(id, owner, agent, title, metadata, created_at, updated_at, "
    "next_seq) SELECT $2, $3, $8, $9, $10, agentio_now_ms(), agentio_now_ms(), $6 + 1 WHERE $11 "
    "RETURNING 1::bigint AS first), "
    "r AS (INSERT INTO agentio_runs(id, thread_id, owner, status, lease_holder, lease_expires_at, "
    "created_at, updated_at, kind) VALUES($1, $2, $3, 'running', $4, agentio_now_ms() + $5, "
    "agentio_now_ms(), agentio_now_ms(), $12) RETURNING thread_id), "
    "t AS (UPDATE agentio_threads SET next_seq = next_seq + $6, updated_at = agentio_now_ms() "
    "WHERE id = (SELECT thread_id FROM r) RETURNING next_seq - $6 AS first), "
    "f AS (SELECT first FROM t UNION ALL SELECT first FROM th), "
    "i AS (INSERT INTO agentio_thread_items(thread_id, seq, run_id, message, created_at) "
    "SELECT $2, f.first + m.ord - 1, $1, m.msg, agentio_now_ms() FROM f, "
    "unnest($7::text[]) WITH ORDINALITY AS m(msg, ord) RETURNING seq, run_id, message, created_at) "
    "SELECT seq, run_id, message, created_at FROM agentio_thread_items WHERE thread_id = $2 "
    "UNION ALL SELECT seq, run_id, message, created_at FROM i ORDER BY 1";

// Everything that changes who is next on a thread (starting a run, joining
// its line, starting the head of its line) holds this lock for the
// transaction: the line's order is the order in which they got it. An
// advisory lock, not the thread's row, so that a checkpoint (which locks its
// run, then the thread) never waits in a cycle with one of these.
inline constexpr char const* lock_thread_line =
    "SELECT pg_advisory_xact_lock(hashtextextended('agentio.line:' || $1, 0))";

// Turns whose process died (their lease expired, running or waiting in line) end as failed.
inline constexpr char const* end_dead_turns =
    "UPDATE agentio_runs SET status = 'failed', lease_holder = '', lease_expires_at = 0, "
    "updated_at = agentio_now_ms() WHERE thread_id = $1 AND kind = 'turn' AND status IN ('running', 'queued') "
    "AND lease_expires_at < agentio_now_ms()";

// Whether run r has nobody ahead: no live run (durable, or a turn whose lease
// is renewed) running or waiting on its thread, nor queued before it.
#define AGENTIO_PG_NOBODY_AHEAD                                                                                        \
    "NOT EXISTS (SELECT 1 FROM agentio_runs AS a WHERE a.thread_id = r.thread_id AND a.id <> r.id AND "                \
    "(a.kind = 'durable' OR a.lease_expires_at >= agentio_now_ms()) AND "                                              \
    "(a.status IN ('running', 'waiting') OR (a.status = 'queued' AND a.n < r.n)))"

// What the statement that starts a run returned, as its admission.
AGENTIO_DECL threads::result<threads::admission> started_run(result<rows> const& r, std::string const& thread_id)
{
    if(!r)
    {
        if(is_thread_busy(r.error()))
            return failure(threads::errc::thread_busy, "thread " + thread_id);
        if(r.error().sqlstate == "23503")
            return failure(threads::errc::not_found, "thread " + thread_id);
        return failure(r.error());
    }
    auto read = read_items(*r, thread_id);
    if(!read)
        return read.error();
    threads::admission out;
    out.items = std::move(*read);
    return out;
}

// A transaction on one connection; rolled back unless committed (a
// connection returned inside a transaction is closed by the pool anyway).
struct line_transaction
{
    pool::lease conn;
    bool open = false;

    asio::awaitable<threads::result<void>> begin(std::string_view thread_id)
    {
        if(auto r = co_await conn->execute("BEGIN"); !r)
            co_return failure(r.error());
        open = true;
        if(auto r = co_await conn->query(lock_thread_line, params(thread_id)); !r)
            co_return failure(r.error());
        if(auto r = co_await conn->query(end_dead_turns, params(thread_id)); !r)
            co_return failure(r.error());
        co_return threads::result<void>{};
    }

    asio::awaitable<threads::result<void>> finish(bool commit)
    {
        open = false;
        if(auto r = co_await conn->execute(commit ? "COMMIT" : "ROLLBACK"); !r)
            co_return failure(r.error());
        co_return threads::result<void>{};
    }
};

} // namespace detail

AGENTIO_DECL asio::awaitable<threads::result<std::vector<threads::item>>>
thread_store::start_run(threads::new_run const& run)
{
    auto copy = run;
    copy.when_busy = threads::busy_policy::reject;
    auto admitted = co_await admit_run(copy);
    if(!admitted)
        co_return admitted.error();
    co_return std::move(admitted->items);
}

AGENTIO_DECL asio::awaitable<threads::result<threads::admission>> thread_store::admit_run(threads::new_run const& run)
{
    auto const items = detail::messages_array(run.messages);
    auto const count = static_cast<std::int64_t>(run.messages.size());
    std::int64_t const lease = run.lease.count();
    bool const create = run.new_thread.has_value();
    threads::thread_info const none{};
    auto const& thread = create ? *run.new_thread : none;
    auto const metadata = agentio::to_json_text(thread.metadata);
    auto const kind = threads::to_string(run.kind);
    auto const start_args = params(run.id, run.thread_id, run.owner, run.holder, lease, count, items, thread.agent,
        thread.title, metadata, create, kind);
    if(create) // nobody can be in the line of a thread that does not exist yet
        co_return detail::started_run(co_await pool_.query(detail::start_run_sql, start_args), run.thread_id);

    auto conn = co_await pool_.acquire();
    if(!conn)
        co_return detail::failure(conn.error());
    detail::line_transaction tx{std::move(*conn)};
    if(auto r = co_await tx.begin(run.thread_id); !r)
        co_return r.error();
    auto const thread_arg = params(run.thread_id);
    auto busy = co_await tx.conn->query(
        "SELECT (SELECT id FROM agentio_runs WHERE thread_id = $1 AND status IN ('running', 'waiting') LIMIT 1), "
        "(SELECT status FROM agentio_runs WHERE thread_id = $1 AND status IN ('running', 'waiting') LIMIT 1), "
        "(SELECT count(*) FROM agentio_runs WHERE thread_id = $1 AND status = 'queued')",
        thread_arg);
    if(!busy)
        co_return detail::failure(busy.error());
    bool const active = !busy->is_null(0, 0);
    std::string const active_id(active ? busy->text(0, 0) : std::string_view());
    bool const active_running = active && busy->text(0, 1) == "running";
    std::int64_t const queued = busy->int64(0, 2);
    if(!active && queued == 0)
    {
        auto result = detail::started_run(co_await tx.conn->query(detail::start_run_sql, start_args), run.thread_id);
        if(!result)
            co_return result;
        if(auto r = co_await tx.finish(true); !r)
            co_return r.error();
        co_return result;
    }
    if(run.when_busy == threads::busy_policy::reject)
    {
        (void)co_await tx.finish(false);
        co_return detail::failure(threads::errc::thread_busy, "thread " + run.thread_id);
    }
    bool const turn = run.kind == threads::run_kind::turn;
    std::string const holder = turn ? run.holder : std::string();
    std::int64_t const queued_lease = turn ? lease : std::int64_t(-1);
    auto const queued_messages = threads::detail::encode_messages(run.messages);
    auto inserted = co_await tx.conn->query(
        "INSERT INTO agentio_runs(id, thread_id, owner, status, lease_holder, lease_expires_at, created_at, "
        "updated_at, kind, queued_messages) SELECT $1, $2, $3, 'queued', $4, "
        "CASE WHEN $5::bigint < 0 THEN 0 ELSE agentio_now_ms() + $5::bigint END, agentio_now_ms(), "
        "agentio_now_ms(), $6, $7 FROM agentio_threads WHERE id = $2",
        params(run.id, run.thread_id, run.owner, holder, queued_lease, kind, queued_messages));
    if(!inserted)
        co_return detail::failure(inserted.error());
    if(inserted->affected() == 0)
        co_return detail::failure(threads::errc::not_found, "thread " + run.thread_id);
    threads::admission out;
    out.status = threads::run_status::queued;
    out.ahead = static_cast<std::size_t>(queued) + (active ? 1 : 0);
    if(run.when_busy == threads::busy_policy::interrupt && active_running)
    {
        if(auto r = co_await tx.conn->query("UPDATE agentio_runs SET cancel_requested = true WHERE id = $1",
               params(active_id));
            !r)
            co_return detail::failure(r.error());
        out.interrupted_run = active_id;
    }
    if(auto r = co_await tx.finish(true); !r)
        co_return r.error();
    co_return out;
}

AGENTIO_DECL asio::awaitable<threads::result<std::optional<threads::claimed_run>>>
thread_store::claim_queued_run(std::string_view run_id, std::string_view holder, std::chrono::milliseconds lease)
{
    using claimed = std::optional<threads::claimed_run>;
    std::string id(run_id);
    std::string thread_id;
    if(id.empty())
    {
        // A candidate, looked at again under its thread's lock: another
        // process may start it first.
        auto r = co_await pool_.query("SELECT r.id, r.thread_id FROM agentio_runs AS r WHERE r.status = 'queued' AND "
                                      "r.kind = 'durable' AND " AGENTIO_PG_NOBODY_AHEAD " ORDER BY r.n LIMIT 1");
        if(!r)
            co_return detail::failure(r.error());
        if(r->size() == 0)
            co_return claimed{};
        id = r->text(0, 0);
        thread_id = r->text(0, 1);
    }
    else
    {
        auto r = co_await pool_.query("SELECT thread_id FROM agentio_runs WHERE id = $1 AND status = 'queued'",
            params(id));
        if(!r)
            co_return detail::failure(r.error());
        if(r->size() == 0)
            co_return detail::failure(threads::errc::not_found, "run " + id + " is not queued");
        thread_id = r->text(0, 0);
    }
    auto conn = co_await pool_.acquire();
    if(!conn)
        co_return detail::failure(conn.error());
    detail::line_transaction tx{std::move(*conn)};
    if(auto r = co_await tx.begin(thread_id); !r)
        co_return r.error();
    auto head = co_await tx.conn->query("SELECT " AGENTIO_PG_NOBODY_AHEAD ", r.queued_messages FROM agentio_runs AS r "
                                        "WHERE r.id = $1 AND r.status = 'queued'",
        params(id));
    if(!head)
        co_return detail::failure(head.error());
    bool const still_queued = head->size() > 0;
    if(!still_queued || !head->boolean(0, 0))
    {
        // The dead turns ended stay ended, this one possibly among them.
        if(auto r = co_await tx.finish(true); !r)
            co_return r.error();
        if(!still_queued && !run_id.empty())
            co_return detail::failure(threads::errc::not_found, "run " + id + " is not queued");
        co_return claimed{};
    }
    auto messages = threads::detail::decode_messages(head->text(0, 1), id);
    if(!messages)
        co_return messages.error();
    auto const items = detail::messages_array(*messages);
    auto const count = static_cast<std::int64_t>(messages->size());
    std::int64_t const ms = lease.count();
    auto updated = co_await tx.conn->query(
        "WITH t AS (UPDATE agentio_threads SET next_seq = next_seq + $4, updated_at = agentio_now_ms() "
        "WHERE id = $5 RETURNING next_seq - $4 AS first), "
        "i AS (INSERT INTO agentio_thread_items(thread_id, seq, run_id, message, created_at) "
        "SELECT $5, t.first + m.ord - 1, $1, m.msg, agentio_now_ms() FROM t, "
        "unnest($6::text[]) WITH ORDINALITY AS m(msg, ord)) "
        "UPDATE agentio_runs SET status = 'running', lease_holder = $2, lease_expires_at = agentio_now_ms() + $3, "
        "queued_messages = '[]', updated_at = agentio_now_ms() WHERE id = $1 RETURNING " +
            std::string(detail::run_columns),
        params(id, holder, ms, count, thread_id, items));
    if(!updated)
        co_return detail::failure(updated.error());
    if(updated->size() == 0)
        co_return detail::failure(threads::errc::not_found, "run " + id);
    auto run = detail::read_run(*updated, 0);
    if(!run)
        co_return run.error();
    auto thread_rows = co_await tx.conn->query(
        "SELECT seq, run_id, message, created_at FROM agentio_thread_items WHERE thread_id = $1 ORDER BY seq",
        params(thread_id));
    if(!thread_rows)
        co_return detail::failure(thread_rows.error());
    auto read = detail::read_items(*thread_rows, thread_id);
    if(!read)
        co_return read.error();
    if(auto r = co_await tx.finish(true); !r)
        co_return r.error();
    co_return claimed{threads::claimed_run{std::move(*run), std::move(*read)}};
}

AGENTIO_DECL asio::awaitable<threads::result<std::optional<threads::run_info>>>
thread_store::one_run(std::string_view sql, std::span<param const> args)
{
    auto r = co_await pool_.query(sql, args);
    if(!r)
        co_return detail::failure(r.error());
    if(r->size() == 0)
        co_return std::optional<threads::run_info>{};
    auto run = detail::read_run(*r, 0);
    if(!run)
        co_return run.error();
    co_return std::optional<threads::run_info>{std::move(*run)};
}

AGENTIO_DECL asio::awaitable<threads::result<std::optional<threads::run_info>>>
thread_store::find_run(std::string_view id, std::string_view owner)
{
    auto const sql = detail::select_runs("id = $1 AND owner = $2");
    auto const args = params(id, owner);
    co_return co_await one_run(sql, args);
}

AGENTIO_DECL asio::awaitable<threads::result<std::optional<threads::run_info>>>
thread_store::latest_run(std::string_view thread_id, std::string_view owner)
{
    auto const sql = detail::select_runs("thread_id = $1 AND owner = $2 ORDER BY n DESC LIMIT 1");
    auto const args = params(thread_id, owner);
    co_return co_await one_run(sql, args);
}

AGENTIO_DECL asio::awaitable<threads::result<std::vector<threads::run_info>>>
thread_store::list_runs(std::string_view owner, threads::run_listing const& which)
{
    // A page after a run continues from its place in the order: updated_at DESC, then id.
    auto const sql = std::string("SELECT ") + detail::run_columns +
        " FROM agentio_runs t WHERE owner = $1 AND ($2 = '' OR thread_id = $2) AND ($3 = 0 OR kind = 'turn') AND "
        "($4 = '' OR EXISTS (SELECT 1 FROM agentio_runs a WHERE a.id = $4 AND a.owner = $1 AND "
        "(t.updated_at < a.updated_at OR (t.updated_at = a.updated_at AND t.id > a.id)))) "
        "ORDER BY updated_at DESC, id LIMIT $5";
    auto const capped = static_cast<std::int64_t>(std::min<std::size_t>(which.limit, INT64_MAX - 1) + 1);
    auto const turns = static_cast<std::int64_t>(which.turns_only ? 1 : 0);
    auto r = co_await pool_.query(sql, params(owner, which.thread_id, turns, which.after, capped));
    if(!r)
        co_return detail::failure(r.error());
    std::vector<threads::run_info> out;
    for(std::size_t i = 0; i < r->size(); ++i)
    {
        auto run = detail::read_run(*r, i);
        if(!run)
            co_return run.error();
        out.push_back(std::move(*run));
    }
    co_return out;
}

// The clauses that journal a run's events in the statement that updates
// its row (PostgreSQL updates a row once per statement): $J1 ids, $J2
// types, $J3 data; the run's UPDATE is named r and returns last_event_id.
#define AGENTIO_PG_JOURNAL_SET(J1)                                                                                     \
    "last_event_id = COALESCE((" J1 "::bigint[])[cardinality(" J1 "::bigint[])], last_event_id)"
#define AGENTIO_PG_JOURNAL_FENCE(J1) " AND last_event_id = COALESCE((" J1 "::bigint[])[1] - 1, last_event_id)"
#define AGENTIO_PG_JOURNAL_CTES(J1, J2, J3)                                                                            \
    "e AS (INSERT INTO agentio_run_events(run_id, id, type, data) SELECT $1, ev.id, ev.type, ev.data FROM r, "         \
    "unnest(" J1 "::bigint[], " J2 "::text[], " J3 "::text[]) AS ev(id, type, data)), "                                \
    "n AS (SELECT pg_notify('agentio_run_events', $1 || ' ' || r.last_event_id) FROM r "                               \
    "WHERE cardinality(" J1 "::bigint[]) > 0) "

AGENTIO_DECL asio::awaitable<threads::result<void>> thread_store::checkpoint(std::string_view run_id,
    std::string_view holder, std::span<threads::event_record const> events, std::span<llm::message const> messages,
    unsigned rounds, json::value const& state)
{
    auto const items = detail::messages_array(messages);
    auto const count = static_cast<std::int64_t>(messages.size());
    auto const state_text = agentio::to_json_text(state);
    std::int64_t const done_rounds = rounds;
    detail::journal_arrays const journal(events);
    auto r = co_await pool_.query(
        "WITH r AS (UPDATE agentio_runs SET rounds = $3, state = $4, updated_at = agentio_now_ms(), " AGENTIO_PG_JOURNAL_SET("$7") " WHERE id = $1 AND lease_holder = $2 AND status = 'running'" AGENTIO_PG_JOURNAL_FENCE(
            "$7") " RETURNING thread_id, last_event_id), "
                  "t AS (UPDATE agentio_threads SET next_seq = next_seq + $5, updated_at = agentio_now_ms() "
                  "WHERE id = (SELECT thread_id FROM r) RETURNING id, next_seq - $5 AS first), "
                  "i AS (INSERT INTO agentio_thread_items(thread_id, seq, run_id, message, created_at) "
                  "SELECT t.id, t.first + m.ord - 1, $1, m.msg, agentio_now_ms() FROM t, "
                  "unnest($6::text[]) WITH ORDINALITY AS m(msg, ord)), " AGENTIO_PG_JOURNAL_CTES("$7", "$8",
                      "$9") "SELECT count(*), (SELECT count(*) FROM n) FROM r",
        params(run_id, holder, done_rounds, state_text, count, items, journal.ids, journal.types, journal.datas));
    if(!r)
        co_return detail::failure(r.error());
    if(r->int64(0, 0) == 0)
        co_return detail::failure(threads::errc::lease_lost, "run " + std::string(run_id));
    if(!events.empty())
        hub_.publish(run_id, events.back().id);
    co_return threads::result<void>{};
}

AGENTIO_DECL asio::awaitable<threads::result<std::vector<std::string>>>
thread_store::append_events(std::string_view holder, std::span<threads::run_events const> batch)
{
    std::vector<std::string> runs;
    std::vector<std::int64_t> firsts, lasts, ids;
    std::vector<std::string_view> event_runs, types, datas;
    for(auto const& run : batch)
    {
        if(run.events.empty())
            continue;
        runs.push_back(run.run_id);
        firsts.push_back(run.events.front().id);
        lasts.push_back(run.events.back().id);
        for(auto const& e : run.events)
        {
            event_runs.push_back(run.run_id);
            ids.push_back(e.id);
            types.push_back(e.type);
            datas.push_back(e.data);
        }
    }
    if(runs.empty())
        co_return std::vector<std::string>{};
    auto const runs_array = postgres::array_literal(runs);
    auto const firsts_array = postgres::array_literal(firsts);
    auto const lasts_array = postgres::array_literal(lasts);
    auto const event_runs_array = postgres::array_literal(event_runs);
    auto const ids_array = postgres::array_literal(ids);
    auto const types_array = postgres::array_literal(types);
    auto const datas_array = postgres::array_literal(datas);
    // One statement for every run of the batch: each run's journal moves on
    // only when this process holds it and the ids continue it exactly; the
    // NOTIFY is delivered at commit, to every listening replica.
    auto r = co_await pool_.query(
        "WITH b AS (SELECT * FROM unnest($2::text[], $3::bigint[], $4::bigint[]) AS b(run_id, first_id, last_id)), "
        "l AS MATERIALIZED (" AGENTIO_PG_LOCK_RUNS_IN_ORDER(
            "SELECT run_id FROM b") "), "
                                    "u AS (UPDATE agentio_runs AS r SET last_event_id = b.last_id, updated_at = agentio_now_ms() FROM b, l "
                                    "WHERE r.id = b.run_id AND r.id = l.id AND r.lease_holder = $1 AND r.status = 'running' "
                                    "AND r.last_event_id = b.first_id - 1 RETURNING r.id, b.last_id), "
                                    "e AS (INSERT INTO agentio_run_events(run_id, id, type, data) SELECT ev.run_id, ev.id, ev.type, ev.data "
                                    "FROM unnest($5::text[], $6::bigint[], $7::text[], $8::text[]) AS ev(run_id, id, type, data) "
                                    "WHERE ev.run_id IN (SELECT id FROM u)), "
                                    "n AS (SELECT pg_notify('agentio_run_events', u.id || ' ' || u.last_id) FROM u) "
                                    "SELECT u.id, u.last_id, (SELECT count(*) FROM n) FROM u",
        params(holder, runs_array, firsts_array, lasts_array, event_runs_array, ids_array, types_array, datas_array));
    if(!r)
        co_return detail::failure(r.error());
    std::vector<std::string> refused;
    for(auto const& id : runs)
    {
        bool accepted = false;
        for(std::size_t i = 0; i < r->size() && !accepted; ++i)
            accepted = r->text(i, 0) == id;
        if(!accepted)
            refused.push_back(id);
    }
    for(std::size_t i = 0; i < r->size(); ++i)
        hub_.publish(r->text(i, 0), r->int64(i, 1));
    co_return refused;
}

AGENTIO_DECL asio::awaitable<threads::result<std::vector<threads::event_record>>>
thread_store::events_after(std::string_view run_id, std::int64_t after, std::size_t limit)
{
    auto const capped = static_cast<std::int64_t>(std::min<std::size_t>(limit, INT64_MAX));
    auto r = co_await pool_.query(
        "SELECT id, type, data FROM agentio_run_events WHERE run_id = $1 AND id > $2 ORDER BY id LIMIT $3",
        params(run_id, after, capped));
    if(!r)
        co_return detail::failure(r.error());
    std::vector<threads::event_record> out;
    out.reserve(r->size());
    for(std::size_t i = 0; i < r->size(); ++i)
        out.push_back({r->int64(i, 0), std::string(r->text(i, 1)), std::string(r->text(i, 2))});
    co_return out;
}

AGENTIO_DECL asio::awaitable<threads::result<void>> thread_store::finish_run(std::string_view run_id,
    std::string_view holder, std::span<threads::event_record const> events, threads::run_status status,
    json::value const& state)
{
    auto const state_text = agentio::to_json_text(state);
    auto const status_text = threads::to_string(status);
    detail::journal_arrays const journal(events);
    auto r = co_await pool_.query(
        "WITH r AS (UPDATE agentio_runs SET status = $3, state = $4, lease_holder = '', lease_expires_at = 0, "
        "updated_at = agentio_now_ms(), " AGENTIO_PG_JOURNAL_SET("$5") " WHERE id = $1 AND lease_holder = $2 AND status = 'running'" AGENTIO_PG_JOURNAL_FENCE(
            "$5") " RETURNING last_event_id), " AGENTIO_PG_JOURNAL_CTES("$5", "$6",
            "$7") "SELECT count(*), (SELECT count(*) FROM n) FROM r",
        params(run_id, holder, status_text, state_text, journal.ids, journal.types, journal.datas));
    if(!r)
        co_return detail::failure(r.error());
    if(r->int64(0, 0) == 0)
        co_return detail::failure(threads::errc::lease_lost, "run " + std::string(run_id));
    if(!events.empty())
        hub_.publish(run_id, events.back().id);
    co_return threads::result<void>{};
}

#undef AGENTIO_PG_JOURNAL_SET
#undef AGENTIO_PG_JOURNAL_FENCE
#undef AGENTIO_PG_JOURNAL_CTES

AGENTIO_DECL asio::awaitable<threads::result<void>> thread_store::suspend_run(std::string_view run_id,
    std::string_view holder, std::span<threads::event_record const> events, json::value const& state)
{
    co_return co_await finish_run(run_id, holder, events, threads::run_status::waiting, state);
}

AGENTIO_DECL asio::awaitable<threads::result<bool>> thread_store::update_waiting_state(std::string_view run_id,
    std::string_view owner, json::value const& expected, json::value const& state)
{
    auto const before = agentio::to_json_text(expected);
    auto const after = agentio::to_json_text(state);
    auto r = co_await pool_.query("UPDATE agentio_runs SET state = $3, updated_at = agentio_now_ms() "
                                  "WHERE id = $1 AND owner = $2 AND status = 'waiting' AND state = $4",
        params(run_id, owner, after, before));
    if(!r)
        co_return detail::failure(r.error());
    co_return r->affected() > 0;
}

AGENTIO_DECL asio::awaitable<threads::result<std::optional<threads::run_info>>> thread_store::claim_waiting_run(
    std::string_view run_id, std::string_view owner, std::string_view holder, std::chrono::milliseconds lease)
{
    auto const sql = detail::update_runs_returning(
        "status = 'running', lease_holder = $3, lease_expires_at = agentio_now_ms() + $4, "
        "updated_at = agentio_now_ms() WHERE id = $1 AND owner = $2 AND status = 'waiting'");
    std::int64_t const ms = lease.count();
    auto const args = params(run_id, owner, holder, ms);
    co_return co_await one_run(sql, args);
}

AGENTIO_DECL asio::awaitable<threads::result<std::vector<threads::held_lease>>> thread_store::renew_leases(
    std::string_view holder, std::span<std::string const> run_ids, std::chrono::milliseconds lease)
{
    if(run_ids.empty())
        co_return std::vector<threads::held_lease>{};
    auto const ids = postgres::array_literal(run_ids);
    std::int64_t const ms = lease.count();
    auto r = co_await lease_pool_.query(
        "WITH l AS MATERIALIZED (" AGENTIO_PG_LOCK_RUNS_IN_ORDER(
            "SELECT unnest($1::text[])") ") "
                                         "UPDATE agentio_runs AS r SET lease_expires_at = agentio_now_ms() + $3 FROM l "
                                         "WHERE r.id = l.id AND r.lease_holder = $2 AND r.status IN ('running', 'queued') "
                                         "RETURNING r.id, r.cancel_requested, CASE WHEN r.readers_seen_at > 0 "
                                         "THEN greatest(agentio_now_ms() - r.readers_seen_at, 0) ELSE -1 END",
        params(ids, holder, ms));
    if(!r)
        co_return detail::failure(r.error());
    std::vector<threads::held_lease> held;
    for(std::size_t i = 0; i < r->size(); ++i)
    {
        threads::held_lease h{std::string(r->text(i, 0)), r->boolean(i, 1)};
        if(auto const age = r->int64(i, 2); age >= 0)
            h.remote_reader_age = std::chrono::milliseconds(age);
        held.push_back(std::move(h));
    }
    co_return held;
}

AGENTIO_DECL asio::awaitable<threads::result<void>> thread_store::note_readers(std::span<std::string const> run_ids)
{
    if(run_ids.empty())
        co_return threads::result<void>{};
    auto const ids = postgres::array_literal(run_ids);
    auto r = co_await lease_pool_.query(
        "WITH l AS MATERIALIZED (" AGENTIO_PG_LOCK_RUNS_IN_ORDER(
            "SELECT unnest($1::text[])") ") "
                                         "UPDATE agentio_runs AS r SET readers_seen_at = agentio_now_ms() FROM l WHERE r.id = l.id "
                                         "AND r.status = 'running'",
        params(ids));
    if(!r)
        co_return detail::failure(r.error());
    co_return threads::result<void>{};
}

AGENTIO_DECL asio::awaitable<threads::result<bool>> thread_store::request_cancel(std::string_view run_id,
    std::string_view owner)
{
    // Nobody runs a queued run yet: it ends here.
    auto r = co_await pool_.query("UPDATE agentio_runs SET cancel_requested = (status <> 'queued'), "
                                  "status = CASE WHEN status = 'queued' THEN 'cancelled' ELSE status END, "
                                  "lease_holder = CASE WHEN status = 'queued' THEN '' ELSE lease_holder END, "
                                  "lease_expires_at = CASE WHEN status = 'queued' THEN 0 ELSE lease_expires_at END, "
                                  "queued_messages = '[]' "
                                  "WHERE id = $1 AND owner = $2 AND status IN ('running', 'waiting', 'queued')",
        params(run_id, owner));
    if(!r)
        co_return detail::failure(r.error());
    co_return r->affected() > 0;
}

AGENTIO_DECL asio::awaitable<threads::result<std::optional<threads::run_info>>>
thread_store::claim_expired_run(std::string_view holder, std::chrono::milliseconds lease)
{
    // SKIP LOCKED: replicas looking at once each get a different run, or none.
    auto const sql = detail::update_runs_returning(
        "lease_holder = $1, lease_expires_at = agentio_now_ms() + $2, updated_at = agentio_now_ms() "
        "WHERE id = (SELECT id FROM agentio_runs WHERE status = 'running' AND kind = 'durable' AND "
        "lease_expires_at < agentio_now_ms() "
        "ORDER BY lease_expires_at LIMIT 1 FOR UPDATE SKIP LOCKED)");
    std::int64_t const ms = lease.count();
    auto const args = params(holder, ms);
    co_return co_await one_run(sql, args);
}

AGENTIO_DECL asio::awaitable<threads::result<void>> thread_store::call_started(std::string_view run_id,
    std::string_view holder, threads::call_record const& call)
{
    // Fenced in the statement: nothing is written unless `holder` runs the run.
    auto const input = agentio::to_json_text(call.input);
    std::int64_t const round = call.round;
    auto r =
        co_await pool_.query("INSERT INTO agentio_run_calls(run_id, call_id, round, tool, input, attempts, started_at) "
                             "SELECT $1, $2, $3, $4, $5, 1, agentio_now_ms() FROM agentio_runs "
                             "WHERE id = $1 AND lease_holder = $6 AND status = 'running' "
                             "ON CONFLICT (run_id, call_id) DO UPDATE SET attempts = agentio_run_calls.attempts + 1, "
                             "started_at = agentio_now_ms()",
            params(run_id, call.call_id, round, call.tool, input, holder));
    if(!r)
        co_return detail::failure(r.error());
    if(r->affected() == 0)
        co_return detail::failure(threads::errc::lease_lost, "run " + std::string(run_id));
    co_return threads::result<void>{};
}

AGENTIO_DECL asio::awaitable<threads::result<void>> thread_store::call_finished(std::string_view run_id,
    std::string_view holder, std::string_view call_id, json::value const& result)
{
    auto const text = agentio::to_json_text(result);
    auto r = co_await pool_.query(
        "UPDATE agentio_run_calls SET result = $3, finished_at = agentio_now_ms() WHERE run_id = $1 AND "
        "call_id = $2 AND EXISTS (SELECT 1 FROM agentio_runs WHERE id = $1 AND lease_holder = $4 AND "
        "status = 'running')",
        params(run_id, call_id, text, holder));
    if(!r)
        co_return detail::failure(r.error());
    if(r->affected() == 0)
        co_return detail::failure(threads::errc::lease_lost,
            "run " + std::string(run_id) + ", call " + std::string(call_id));
    co_return threads::result<void>{};
}

AGENTIO_DECL asio::awaitable<threads::result<std::vector<threads::call_record>>>
thread_store::run_calls(std::string_view run_id)
{
    auto r = co_await pool_.query(
        "SELECT call_id, tool, input, round, attempts, (result IS NOT NULL)::int, coalesce(result, 'null') "
        "FROM agentio_run_calls WHERE run_id = $1 ORDER BY n",
        params(run_id));
    if(!r)
        co_return detail::failure(r.error());
    std::vector<threads::call_record> out;
    for(std::size_t i = 0; i < r->size(); ++i)
    {
        auto call = threads::detail::decode_call(detail::row_view{*r, i}, run_id);
        if(!call)
            co_return call.error();
        out.push_back(std::move(*call));
    }
    co_return out;
}

} // namespace agentio::postgres

#undef AGENTIO_PG_LOCK_RUNS_IN_ORDER
#undef AGENTIO_PG_NOBODY_AHEAD

#endif
