// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Durable runs: the real provider and HTTP client against the fake LLM on
// loopback, a real SQLite store in a temporary file. A run journaled and
// replayed, a second turn on the same thread, cancellation, a run abandoned
// by its readers, and a run taken over by another process after the first
// stops renewing its lease.
#include <agentio/threads/run_manager.hpp>

#include <agentio/json_text.hpp>
#include <agentio/llm/anthropic.hpp>
#include <agentio/threads/observed_store.hpp>
#include <agentio/threads/sqlite_store.hpp>
#include <agentio/testing/fake_llm.hpp>

#include "summaries.hpp"
#include "run_on.hpp"
#include "spans.hpp"
#include "spanish_messages.hpp"
#include "test_tools.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <set>
#include "test_paths.hpp"

namespace json = boost::json;
namespace llm = agentio::llm;
namespace agent = agentio::agent;
namespace threads = agentio::threads;
using namespace std::chrono_literals;
using namespace std::literals;

namespace {

using test_agent = agent::orchestrator<llm::anthropic_provider, test_tools>;
using manager = threads::run_manager<test_agent>;

// The chat protocol's events, as an application would journal them.
std::optional<threads::event_record> to_record(threads::run_event const& e, threads::run_context const& ctx)
{
    auto record = [](std::string type, json::value data) {
        return threads::event_record{0, std::move(type), agentio::to_json_text(data)};
    };
    if(auto const* r = std::get_if<threads::round_restart>(&e))
        return record("round_restart", {{"iteration", r->iteration}, {"discard_after", r->discard_after}});
    if(auto const* a = std::get_if<threads::approval_pending>(&e))
        return record("approval_required", {{"tool_call_id", a->tool_call_id}, {"tool", a->tool}, {"input", a->input}});
    if(auto const* c = std::get_if<threads::run_cancelled>(&e))
        return record("done", {{"status", "cancelled"}, {"reason", c->reason}, {"run_id", ctx.run_id}});
    auto const& ev = std::get<agent::event>(e);
    if(auto const* t = std::get_if<agent::text_delta>(&ev))
        return record("chunk", {{"content", t->text}});
    if(std::holds_alternative<agent::round_end>(ev))
        return record("clear_streaming", json::object{});
    if(auto const* c = std::get_if<agent::tool_call>(&ev))
        return record("tool_call", {{"tool", c->tool}, {"iteration", c->iteration}});
    if(std::holds_alternative<agent::done>(ev))
        return record("done", {{"status", "completed"}, {"thread_id", ctx.thread_id}, {"run_id", ctx.run_id}});
    if(auto const* err = std::get_if<agent::error>(&ev))
        return record("error", {{"message", err->message}});
    return std::nullopt; // round_complete: the checkpoint is the manager's
}

bool is_final(threads::event_record const& e)
{
    return e.type == "done" || e.type == "error";
}

struct temp_dir
{
    std::filesystem::path path = std::filesystem::temp_directory_path() /
        ("agentio_runs_" + std::to_string(::getpid()) + "_" + std::to_string(counter()++));
    static int& counter()
    {
        static int n = 0;
        return n;
    }
    temp_dir() { std::filesystem::remove_all(path); }
    ~temp_dir() { std::filesystem::remove_all(path); }
};

// A fake LLM, a provider, an agent and a SQLite store on one io_context.
struct runs_bench
{
    asio::io_context ioc;
    agentio::testing::fake_llm fake;
    agentio::http::client client{ioc.get_executor()};
    agent_test::shared_counters counters;
    std::unique_ptr<llm::anthropic_provider> provider;
    std::unique_ptr<test_agent> agent;
    temp_dir dir;
    std::unique_ptr<threads::thread_store> store;

    static agentio::testing::fake_llm_options fake_options(std::chrono::milliseconds token_interval)
    {
        agentio::testing::fake_llm_options o;
        o.token_interval = token_interval;
        return o;
    }

    explicit runs_bench(std::chrono::milliseconds token_interval = 0ms, std::string model = "portfolio-two-rounds")
        : fake(ioc.get_executor(), fake_options(token_interval))
    {
        fake.load_scenarios(AGENTIO_SCENARIOS);
        BOOST_TEST_REQUIRE(fake.start().has_value());
        llm::provider_options p;
        p.api_key = "test-key";
        p.base_url = fake.anthropic_base_url();
        provider = std::make_unique<llm::anthropic_provider>(client, p);
        agentio::toolset_options spanish_tools;
        spanish_tools.validation.texts = agentio_test::spanish_messages;
        agent = std::make_unique<test_agent>(*provider,
            test_tools{spanish_tools, agent_test::contar_iniciativas{&counters, 0ms},
                agent_test::sumar_presupuesto{&counters}},
            agent::options{.model = std::move(model)});
        store = agentio::sqlite::thread_store::open(dir.path / "agent.db").value();
    }

    std::unique_ptr<manager> make_manager(threads::run_manager_options o)
    {
        return std::make_unique<manager>(ioc.get_executor(), *store, *agent, &to_record, &is_final, std::move(o));
    }

    // Runs `f` to completion on the io_context.
    template<class T>
    T run(asio::awaitable<T> f)
    {
        return agentio_test::run_on(ioc, std::move(f));
    }

    // Lets the manager finish its runs (the final event is read before the run's end is stored).
    void settle(manager& m)
    {
        auto const until = std::chrono::steady_clock::now() + 10s;
        while(m.running() != 0 && std::chrono::steady_clock::now() < until)
            ioc.run_one_for(50ms);
        BOOST_TEST(m.running() == 0u);
    }

    std::string new_thread(std::string owner = "")
    {
        static int n = 0;
        std::string id = "thread-" + std::to_string(++n);
        // A named argument: GCC 12 destroys a braced temporary inside co_await twice.
        threads::thread_info const info{.id = id,
            .owner = owner,
            .agent = "test",
            .title = "t",
            .created_at = {},
            .updated_at = {},
            .metadata = {}};
        run([&]() -> asio::awaitable<bool> {
            (co_await store->create_thread(info)).value();
            co_return true;
        }());
        return id;
    }
};

struct read_result
{
    std::vector<threads::event_record> events;
    threads::stream_end end = threads::stream_end::finished;

    std::string types() const
    {
        std::string out;
        for(auto const& e : events)
        {
            if(e.type == "chunk" && !out.empty() && out.back() == 'c')
                continue;
            out += e.type == "chunk"            ? 'c'
                : e.type == "clear_streaming"   ? 'R'
                : e.type == "tool_call"         ? 'T'
                : e.type == "round_restart"     ? '!'
                : e.type == "approval_required" ? 'A'
                : e.type == "done"              ? 'D'
                                                : 'E';
        }
        return out;
    }
};

// Reads a run's stream; `stop_when` may end the reading early (the reader leaves).
asio::awaitable<read_result> read(manager& m, std::string run_id, std::int64_t after = 0,
    std::function<bool(threads::event_record const&)> stop_when = {})
{
    read_result out;
    out.end = co_await m.stream(run_id, "", after, [&](threads::event_record const& e) -> asio::awaitable<bool> {
        out.events.push_back(e);
        co_return !(stop_when && stop_when(e));
    });
    co_return out;
}

void check_ids(std::vector<threads::event_record> const& events, std::int64_t first = 1)
{
    for(std::size_t i = 0; i < events.size(); ++i)
        BOOST_TEST(events[i].id == first + static_cast<std::int64_t>(i));
}

asio::awaitable<void> sleep_for(std::chrono::milliseconds d)
{
    asio::steady_timer t(co_await asio::this_coro::executor, d);
    co_await t.async_wait(asio::use_awaitable);
}

} // namespace

BOOST_AUTO_TEST_SUITE(run_manager)

BOOST_AUTO_TEST_CASE(journals_a_run_and_replays_it)
{
    runs_bench b;
    auto m = b.make_manager({.holder = "a"});
    m->start();
    auto const thread = b.new_thread();
    auto const started =
        b.run(m->start_run(thread, "", {llm::message::user("¿Cuántas iniciativas hay en ejecución?")})).value();
    auto const live = b.run(read(*m, started.run_id));
    BOOST_TEST((live.end == threads::stream_end::finished));
    BOOST_TEST(live.types() == "cRTcD");
    check_ids(live.events);
    auto const done = json::parse(live.events.back().data);
    BOOST_TEST(done.at("thread_id").as_string() == thread);
    BOOST_TEST(done.at("run_id").as_string() == started.run_id);

    // Replayed from the journal: the same events, from any point.
    auto const replay = b.run(read(*m, started.run_id));
    BOOST_REQUIRE(replay.events.size() == live.events.size());
    for(std::size_t i = 0; i < live.events.size(); ++i)
    {
        BOOST_TEST(replay.events[i].id == live.events[i].id);
        BOOST_TEST(replay.events[i].data == live.events[i].data);
    }
    auto const tail = b.run(read(*m, started.run_id, 3));
    BOOST_REQUIRE(!tail.events.empty());
    BOOST_TEST(tail.events.front().id == 4);
    BOOST_TEST(tail.events.size() == live.events.size() - 3);

    // The thread holds the whole conversation, tool blocks included.
    b.settle(*m);
    auto const items = b.run(b.store->load_items(thread)).value();
    BOOST_REQUIRE(items.size() == 4u);
    BOOST_TEST(std::holds_alternative<llm::tool_use_block>(items[1].message.content.back()));
    BOOST_TEST(std::holds_alternative<llm::tool_result_block>(items[2].message.content.front()));
    BOOST_TEST(items[3].message.text().find("12 iniciativas") != std::string::npos);
    auto const run = b.run(b.store->find_run(started.run_id, "")).value();
    BOOST_TEST(run->status == threads::run_status::completed);
    BOOST_TEST(run->rounds == 2u);
    BOOST_TEST(run->last_event_id == live.events.back().id);
    BOOST_TEST(b.counters.calls == 1);
    BOOST_TEST(m->running() == 0u);
    // The tool got the call's idempotency key: the thread and the call id, the same in any process.
    BOOST_REQUIRE(b.counters.keys.size() == 1u);
    auto const& key = b.counters.keys.front();
    BOOST_TEST(key.starts_with(thread + "/"), key);
    BOOST_TEST(key.substr(thread.size() + 1) == std::get<llm::tool_use_block>(items[1].message.content.back()).id);
    // What a tool declares, its descriptor says.
    auto const descriptors = test_tools::descriptors();
    BOOST_TEST(!descriptors[0].idempotent);
    BOOST_TEST(descriptors[1].idempotent);

    // A second turn on the thread: the model gets the whole thread.
    auto const second = b.run(m->start_run(thread, "", {llm::message::user("¿Y planificadas?")})).value();
    auto const next = b.run(read(*m, second.run_id));
    BOOST_TEST(next.types().back() == 'D');
    auto const requests = b.fake.requests();
    BOOST_REQUIRE(requests.size() == 4u);
    BOOST_TEST(requests[2].body.at("messages").as_array().size() == 5u);
    BOOST_TEST(b.run(b.store->load_items(thread)).value().size() == 8u);
    m->stop();
}

// A run started with the request's context: its invoke_agent span is the
// request's child, and so are its writes when the store records spans.
BOOST_AUTO_TEST_CASE(a_run_started_with_a_context_joins_its_trace)
{
    runs_bench b;
    agentio::trace::tracer tracer(agentio_test::tracing_on());
    agentio::metrics::registry registry({.process_metrics = false});
    threads::observed_store observed(*b.store, registry, "threads", &tracer);
    agentio::toolset_options spanish_tools;
    spanish_tools.validation.texts = agentio_test::spanish_messages;
    agent::options o{.model = "portfolio-two-rounds"};
    o.telemetry.tracer = &tracer;
    o.telemetry.agent_name = "portfolio";
    test_agent traced(*b.provider,
        test_tools{spanish_tools, agent_test::contar_iniciativas{&b.counters, 0ms},
            agent_test::sumar_presupuesto{&b.counters}},
        std::move(o));
    manager m(b.ioc.get_executor(), observed, traced, &to_record, &is_final, {.holder = "a"});
    m.start();
    auto const thread = b.new_thread();
    std::string const request = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    auto const started = b.run(m.start_run(thread, "", {llm::message::user("¿Cuántas iniciativas hay en ejecución?")},
                                   threads::busy_policy::reject, request))
                             .value();
    auto const live = b.run(read(m, started.run_id));
    BOOST_TEST(live.types() == "cRTcD");
    b.settle(m);
    m.stop();

    auto const spans = agentio_test::finished_spans(tracer);
    auto const parent = agentio::trace::parse_traceparent(request).value();
    auto const* run = agentio_test::span_named(spans, "invoke_agent portfolio");
    BOOST_TEST_REQUIRE(run != nullptr);
    BOOST_TEST((run->parent_span_id == parent.span_id));
    BOOST_TEST((run->context.trace_id == parent.trace_id));
    for(std::string const name : {"admit_run threads", "checkpoint threads", "finish_run threads"})
    {
        auto const* write = agentio_test::span_named(spans, name);
        BOOST_TEST_REQUIRE(write != nullptr, name);
        BOOST_TEST((write->parent_span_id == parent.span_id), name);
    }
    BOOST_TEST(agentio_test::span_named(spans, "renew_leases threads") == nullptr);
    // The model's calls hang below the run, as ever.
    auto const* chat = agentio_test::span_named(spans, "chat portfolio-two-rounds");
    BOOST_TEST_REQUIRE(chat != nullptr);
    BOOST_TEST((chat->parent_span_id == run->context.span_id));
}

BOOST_AUTO_TEST_CASE(cancel_stops_a_run_at_once)
{
    runs_bench b(40ms);
    auto m = b.make_manager({.holder = "a"});
    m->start();
    auto const thread = b.new_thread();
    auto const started = b.run(m->start_run(thread, "", {llm::message::user("hola")})).value();
    auto const cancel_after_first_chunk = [&]() -> asio::awaitable<read_result> {
        bool asked = false;
        read_result out;
        out.end = co_await m->stream(started.run_id, "", 0,
            [&](threads::event_record const& e) -> asio::awaitable<bool> {
                out.events.push_back(e);
                if(!asked)
                {
                    asked = true;
                    BOOST_TEST((co_await m->cancel(started.run_id, "")).value());
                }
                co_return true;
            });
        co_return out;
    };
    auto const began = std::chrono::steady_clock::now();
    auto const out = b.run(cancel_after_first_chunk());
    BOOST_TEST((std::chrono::steady_clock::now() - began < 3s));
    BOOST_REQUIRE(!out.events.empty());
    auto const last = json::parse(out.events.back().data);
    BOOST_TEST(last.at("status").as_string() == "cancelled");
    check_ids(out.events);
    b.settle(*m);
    auto const run = b.run(b.store->find_run(started.run_id, "")).value();
    BOOST_TEST(run->status == threads::run_status::cancelled);
    // Nothing of the interrupted round joined the thread.
    BOOST_TEST(b.run(b.store->load_items(thread)).value().size() == 1u);
    BOOST_TEST(!b.run(m->cancel(started.run_id, "")).value()); // over
    m->stop();
}

BOOST_AUTO_TEST_CASE(a_second_message_waits_its_turn_or_interrupts)
{
    runs_bench b(20ms);
    auto m = b.make_manager({.holder = "a"});
    m->start();
    auto const thread = b.new_thread();
    auto const first = b.run(m->start_run(thread, "", {llm::message::user("primera")})).value();
    BOOST_TEST((first.status == threads::run_status::running));
    auto const second =
        b.run(m->start_run(thread, "", {llm::message::user("segunda")}, threads::busy_policy::enqueue)).value();
    BOOST_TEST((second.status == threads::run_status::queued));
    BOOST_TEST(second.ahead == 1u);
    auto const refused = b.run(m->start_run(thread, "", {llm::message::user("no")}));
    BOOST_REQUIRE(!refused);
    BOOST_TEST(refused.error().code == make_error_code(threads::errc::thread_busy));
    // The queued run's stream waits for it, and it starts when the first ends.
    auto const queued_read = b.run(read(*m, second.run_id));
    BOOST_TEST(queued_read.types() == "cRTcD");
    BOOST_TEST(b.run(read(*m, first.run_id)).types() == "cRTcD");
    b.settle(*m);
    auto items = b.run(b.store->load_items(thread)).value();
    BOOST_REQUIRE(items.size() == 8u);
    BOOST_TEST(items[0].run_id == first.run_id);
    BOOST_TEST(items[4].run_id == second.run_id);
    BOOST_TEST(items[4].message.text() == "segunda");

    // Interrupting: the running run stops at once, keeping what it finished, and the new message runs next.
    auto const third = b.run(m->start_run(thread, "", {llm::message::user("tercera")})).value();
    auto const interrupt_after_the_first_round = [&]() -> asio::awaitable<read_result> {
        std::optional<threads::run_manager<test_agent>::started> fourth;
        read_result out;
        out.end = co_await m->stream(third.run_id, "", 0, [&](threads::event_record const& e) -> asio::awaitable<bool> {
            out.events.push_back(e);
            if(!fourth && e.type == "tool_call")
            {
                // Named, not braced in the co_await: GCC 12 destroys such a temporary twice.
                std::vector<llm::message> question{llm::message::user("cuarta")};
                auto admitted = co_await m->start_run(thread, "", std::move(question), threads::busy_policy::interrupt);
                BOOST_REQUIRE(admitted);
                fourth = *admitted;
            }
            co_return true;
        });
        BOOST_REQUIRE(fourth);
        BOOST_TEST((fourth->status == threads::run_status::queued));
        auto const after = co_await read(*m, fourth->run_id);
        BOOST_TEST(after.types() == "cRTcD");
        co_return out;
    };
    auto const interrupted = b.run(interrupt_after_the_first_round());
    auto const last = json::parse(interrupted.events.back().data);
    BOOST_TEST(last.at("status").as_string() == "cancelled");
    BOOST_TEST(last.at("reason").as_string() == "interrupted");
    b.settle(*m);
    items = b.run(b.store->load_items(thread)).value();
    std::vector<std::string> questions;
    for(auto const& i : items)
        if(i.message.role == llm::role::user && !i.message.text().empty())
            questions.push_back(i.message.text());
    std::vector<std::string> const expected{"primera", "segunda", "tercera", "cuarta"};
    BOOST_TEST(questions == expected, boost::test_tools::per_element());
    BOOST_TEST(b.run(b.store->find_run(third.run_id, "")).value()->status == threads::run_status::cancelled);
    m->stop();
}

BOOST_AUTO_TEST_CASE(a_queued_run_cancelled_before_it_starts_ends_its_readers_streams)
{
    runs_bench b(20ms);
    auto m = b.make_manager({.holder = "a"});
    m->start();
    auto const thread = b.new_thread();
    auto const first = b.run(m->start_run(thread, "", {llm::message::user("primera")})).value();
    auto const second =
        b.run(m->start_run(thread, "", {llm::message::user("segunda")}, threads::busy_policy::enqueue)).value();
    BOOST_TEST((second.status == threads::run_status::queued));
    BOOST_TEST(b.run(m->cancel(second.run_id, "", "cancelled")).value());
    // It never ran, so it journaled nothing; its readers still get the end a cancelled run sends.
    auto const cancelled = b.run(read(*m, second.run_id));
    BOOST_TEST((cancelled.end == threads::stream_end::finished));
    BOOST_REQUIRE(cancelled.events.size() == 1u);
    BOOST_TEST(cancelled.events[0].type == "done");
    BOOST_TEST(json::parse(cancelled.events[0].data).at("status").as_string() == "cancelled");
    BOOST_TEST(cancelled.events[0].id == 1);
    // A reader that already had it (its Last-Event-ID) gets nothing more.
    BOOST_TEST(b.run(read(*m, second.run_id, 1)).events.empty());
    BOOST_TEST(b.run(read(*m, first.run_id)).types() == "cRTcD");
    b.settle(*m);
    m->stop();
}

BOOST_AUTO_TEST_CASE(a_queued_run_outlives_the_process_that_accepted_it)
{
    // The process that accepted the message stops with the run ahead of it
    // unfinished; another takes that run over, finishes it, then starts the
    // queued one: nobody had to ask again.
    runs_bench b(20ms);
    auto a = b.make_manager({.holder = "a", .lease = 400ms, .renew_every = 100ms, .takeover_every = 0ms});
    a->start();
    auto const thread = b.new_thread();
    auto const first = b.run(a->start_run(thread, "", {llm::message::user("primera")})).value();
    auto const second =
        b.run(a->start_run(thread, "", {llm::message::user("segunda")}, threads::busy_policy::enqueue)).value();
    BOOST_TEST((second.status == threads::run_status::queued));
    a->stop(); // as if it died: its leases stay until they expire
    b.settle(*a);
    auto other = b.make_manager({.holder = "b", .lease = 400ms, .renew_every = 100ms, .takeover_every = 50ms});
    other->start();
    auto const queued_read = b.run(read(*other, second.run_id));
    BOOST_TEST(queued_read.types() == "cRTcD");
    b.settle(*other);
    BOOST_TEST(b.run(b.store->find_run(first.run_id, "")).value()->status == threads::run_status::completed);
    auto const items = b.run(b.store->load_items(thread)).value();
    BOOST_REQUIRE(items.size() >= 5u);
    BOOST_TEST(items.back().run_id == second.run_id);
    other->stop();
}

BOOST_AUTO_TEST_CASE(a_run_nobody_reads_is_cancelled_after_the_grace)
{
    runs_bench b(40ms);
    auto m = b.make_manager({.holder = "a", .detach_grace = 300ms});
    m->start();
    auto const thread = b.new_thread();
    auto const started = b.run(m->start_run(thread, "", {llm::message::user("hola")})).value();
    // A reader that leaves after the first chunk.
    auto const first = b.run(read(*m, started.run_id, 0, [](auto const&) { return true; }));
    BOOST_TEST((first.end == threads::stream_end::reader_gone));
    b.run([]() -> asio::awaitable<bool> {
        co_await sleep_for(1500ms);
        co_return true;
    }());
    auto const run = b.run(b.store->find_run(started.run_id, "")).value();
    BOOST_TEST(run->status == threads::run_status::cancelled);
    auto const rest = b.run(read(*m, started.run_id, first.events.back().id));
    BOOST_REQUIRE(!rest.events.empty());
    BOOST_TEST(json::parse(rest.events.back().data).at("reason").as_string() == "detached");
    m->stop();
}

// The client reattached through another process (another replica behind
// the proxy): the holder counts that reader, and the run outlives its grace.
BOOST_AUTO_TEST_CASE(a_reader_in_another_process_keeps_the_run)
{
    runs_bench b(100ms);
    auto a = b.make_manager({.holder = "a", .renew_every = 100ms, .takeover_every = 0ms, .detach_grace = 300ms});
    auto other = b.make_manager({.holder = "b", .renew_every = 100ms, .takeover_every = 0ms});
    a->start();
    other->start();
    auto const thread = b.new_thread();
    auto const started = b.run(a->start_run(thread, "", {llm::message::user("hola")})).value();
    auto const first = b.run(read(*a, started.run_id, 0, [](auto const&) { return true; }));
    auto const left = std::chrono::steady_clock::now();
    auto const rest = b.run(read(*other, started.run_id, first.events.back().id));
    BOOST_TEST((rest.end == threads::stream_end::finished));
    BOOST_REQUIRE(!rest.events.empty());
    BOOST_TEST(rest.events.back().type == "done"sv);
    check_ids(rest.events, first.events.back().id + 1);
    // Long enough that the grace alone would have cancelled it.
    auto const read_for = std::chrono::steady_clock::now() - left;
    BOOST_TEST_MESSAGE("read elsewhere for " << std::chrono::duration_cast<std::chrono::milliseconds>(read_for).count()
                                             << " ms");
    BOOST_TEST((read_for > 600ms));
    b.settle(*a);
    BOOST_TEST(b.run(b.store->find_run(started.run_id, "")).value()->status == threads::run_status::completed);
    a->stop();
    other->stop();
}

// Process "a" stops (as if killed) in the middle of the second round; "b"
// takes the run over when the lease expires, asks the interrupted round again
// without re-running the tool of the first, and the reader gets every event
// id exactly once.
BOOST_AUTO_TEST_CASE(another_process_takes_over_from_the_checkpoint)
{
    runs_bench b(30ms);
    auto a = b.make_manager({.holder = "a", .lease = 400ms, .renew_every = 100ms, .takeover_every = 0ms});
    auto other = b.make_manager({.holder = "b", .lease = 400ms, .renew_every = 100ms, .takeover_every = 100ms});
    a->start();
    other->start();
    auto const thread = b.new_thread();
    auto const started =
        b.run(a->start_run(thread, "", {llm::message::user("¿Cuántas iniciativas hay en ejecución?")})).value();

    // The reader follows the run through "b" (as through a proxy); "a" dies
    // after the second round has streamed a few chunks.
    bool killed = false;
    int chunks_after_tool = 0;
    bool tool_seen = false;
    auto const out = b.run(read(*other, started.run_id, 0, [&](threads::event_record const& e) {
        if(e.type == "tool_call")
            tool_seen = true;
        else if(e.type == "chunk" && tool_seen && ++chunks_after_tool == 3 && !killed)
        {
            killed = true;
            a->stop();
        }
        return false;
    }));
    BOOST_TEST(killed);
    BOOST_TEST((out.end == threads::stream_end::finished));
    check_ids(out.events);
    std::set<std::int64_t> ids;
    for(auto const& e : out.events)
        BOOST_TEST(ids.insert(e.id).second);
    auto const types = out.types();
    BOOST_TEST(types.find('!') != std::string::npos);
    BOOST_TEST(types.back() == 'D');
    BOOST_TEST(b.counters.calls == 1); // the tool of round 1 ran once

    // What the restart retracts: the interrupted round's chunks, after the checkpoint.
    auto const restart = std::find_if(out.events.begin(), out.events.end(),
        [](auto const& e) { return e.type == "round_restart"; });
    auto const r = json::parse(restart->data);
    BOOST_TEST(r.at("iteration").as_int64() == 2);
    auto const discard_after = r.at("discard_after").as_int64();
    auto const tool = std::find_if(out.events.begin(), out.events.end(),
        [](auto const& e) { return e.type == "tool_call"; });
    BOOST_TEST(discard_after == tool->id); // the checkpoint came right after round 1's tool call
    std::string shown_after_restart;
    for(auto it = restart; it != out.events.end(); ++it)
        if(it->type == "chunk")
            shown_after_restart += json::parse(it->data).at("content").as_string();
    BOOST_TEST(shown_after_restart.find("12 iniciativas") != std::string::npos);

    b.settle(*other);
    auto const run = b.run(b.store->find_run(started.run_id, "")).value();
    BOOST_TEST(run->status == threads::run_status::completed);
    auto const items = b.run(b.store->load_items(thread)).value();
    BOOST_TEST(items.size() == 4u);
    other->stop();
}

// A durable run on a thread longer than the window summarizes its older turns; the store keeps the summary beside
// the messages, and the thread's next run reads it instead of them.
BOOST_AUTO_TEST_CASE(a_durable_run_keeps_its_summary_for_the_next)
{
    runs_bench b;
    agentio::testing::scenario sc;
    sc.name = "durable-window";
    sc.context_window = 4000;
    auto const summary = agentio_test::summary_response("RESUMEN: la conversación duradera.");
    agentio::testing::scripted_response answer;
    answer.text = "Respuesta: " + std::string(600, 'r');
    sc.turns.push_back({summary, answer});
    b.fake.add_scenario(sc);
    agentio::toolset_options spanish_tools;
    spanish_tools.validation.texts = agentio_test::spanish_messages;
    b.agent = std::make_unique<test_agent>(*b.provider,
        test_tools{spanish_tools, agent_test::contar_iniciativas{&b.counters, 0ms},
            agent_test::sumar_presupuesto{&b.counters}},
        agent::options{.model = "durable-window",
            .max_tokens = 500,
            .context = {.window = 4000, .summary_max_tokens = 300}});
    auto m = b.make_manager({.holder = "a"});
    m->start();
    auto const thread = b.new_thread();
    std::vector<llm::message> earlier;
    for(int i = 0; i < 30; ++i)
    {
        earlier.push_back(llm::message::user("Pregunta " + std::to_string(i) + " " + std::string(400, 'p')));
        earlier.push_back(llm::message::assistant("Respuesta " + std::string(400, 'r')));
    }
    b.run(b.store->append_messages(thread, earlier)).value();

    auto const summarizing = [&] { return agentio_test::summary_requests(b.fake.requests()); };
    auto const first = b.run(m->start_run(thread, "", {llm::message::user("¿Y ahora?")})).value();
    auto const read_first = b.run(read(*m, first.run_id));
    BOOST_TEST(read_first.events.back().type == "done", read_first.events.back().data);
    b.settle(*m);
    BOOST_TEST(summarizing() >= 1u);
    auto const kept = b.run(b.store->latest_summary(thread)).value();
    BOOST_TEST_REQUIRE(kept.has_value());
    BOOST_TEST(kept->text == "RESUMEN: la conversación duradera.");
    BOOST_TEST(kept->through_seq > 0);
    BOOST_TEST(kept->through_seq <= 60);
    BOOST_TEST(b.run(b.store->load_items(thread)).value().size() == 62u); // the messages stay

    // The next run sends the summary in place of the turns it stands for, and needs no other.
    auto const before = summarizing();
    auto const second = b.run(m->start_run(thread, "", {llm::message::user("¿Y después?")})).value();
    auto const read_second = b.run(read(*m, second.run_id));
    BOOST_TEST(read_second.events.back().type == "done", read_second.events.back().data);
    b.settle(*m);
    BOOST_TEST(summarizing() == before);
    auto const sent = agentio::to_json_text(b.fake.requests().back().body);
    BOOST_TEST(sent.find("RESUMEN: la conversación duradera.") != std::string::npos);
    BOOST_TEST(sent.find("¿Y después?") != std::string::npos);
    BOOST_TEST(sent.find("Pregunta 0 ") == std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()

// Tool effects exactly once, or a person decides: a process stops as if
// killed in the middle of a call, after the call acted and before its result
// was recorded; another takes the run over.
BOOST_AUTO_TEST_SUITE(run_calls_in_doubt)

// Starts a run on `a`, waits until its first call acted, and stops `a` as a SIGKILL would leave it.
std::string kill_during_the_first_call(runs_bench& b, manager& a, std::string const& thread)
{
    auto const started = b.run(a.start_run(thread, "", {llm::message::user("¿Cuánto suma?")})).value();
    auto const until = std::chrono::steady_clock::now() + 10s;
    while(b.counters.calls < 1 && std::chrono::steady_clock::now() < until)
        b.ioc.run_one_for(20ms);
    BOOST_TEST_REQUIRE(b.counters.calls == 1);
    a.stop(); // its lease stays, its call started and never finished
    b.settle(a);
    return started.run_id;
}

threads::run_manager_options taking_over(std::string holder)
{
    return {.holder = std::move(holder), .lease = 400ms, .renew_every = 100ms, .takeover_every = 50ms};
}

BOOST_AUTO_TEST_CASE(a_call_that_did_not_finish_waits_for_a_person)
{
    runs_bench b;
    b.counters.block_first = true;
    auto a = b.make_manager({.holder = "a", .lease = 400ms, .renew_every = 100ms, .takeover_every = 0ms});
    a->start();
    auto const thread = b.new_thread();
    auto const run_id = kill_during_the_first_call(b, *a, thread);
    auto calls = b.run(b.store->run_calls(run_id)).value();
    BOOST_REQUIRE(calls.size() == 1u);
    BOOST_TEST(calls[0].tool == "contar_iniciativas"sv);
    BOOST_TEST(!calls[0].finished);

    // The other process takes it over: the call is not run again, a person is asked.
    auto other = b.make_manager(taking_over("b"));
    other->start();
    auto const began = std::chrono::steady_clock::now();
    auto const paused = b.run(read(*other, run_id));
    auto const time_to_pause = std::chrono::steady_clock::now() - began;
    BOOST_TEST((paused.end == threads::stream_end::waiting));
    BOOST_REQUIRE(!paused.events.empty());
    auto const& asked = paused.events.back();
    BOOST_TEST(asked.type == "approval_required");
    BOOST_TEST(json::parse(asked.data).at("tool").as_string() == "contar_iniciativas");
    BOOST_TEST((time_to_pause < 5s));
    BOOST_TEST(b.counters.calls == 1); // not run again
    BOOST_TEST(b.run(b.store->find_run(run_id, "")).value()->status == threads::run_status::waiting);

    // Approved, it runs once more (its second attempt), and the run completes.
    agent::approval_decision const yes{calls[0].call_id, true, {}};
    BOOST_TEST((b.run(other->decide(run_id, "", yes)).value() == threads::decision_outcome::resumed));
    auto const rest = b.run(read(*other, run_id, paused.events.back().id));
    BOOST_TEST(rest.types().back() == 'D');
    b.settle(*other);
    BOOST_TEST(b.counters.calls == 2);
    calls = b.run(b.store->run_calls(run_id)).value();
    BOOST_REQUIRE(calls.size() == 1u);
    BOOST_TEST(calls[0].attempts == 2u);
    BOOST_TEST(calls[0].finished);
    // Both attempts carried the same idempotency key.
    BOOST_REQUIRE(b.counters.keys.size() == 2u);
    BOOST_TEST(b.counters.keys[0] == b.counters.keys[1]);
    BOOST_TEST(b.counters.keys[0] == thread + "/" + calls[0].call_id);
    other->stop();
}

BOOST_AUTO_TEST_CASE(a_call_in_doubt_rejected_is_not_run_again)
{
    runs_bench b;
    b.counters.block_first = true;
    auto a = b.make_manager({.holder = "a", .lease = 400ms, .renew_every = 100ms, .takeover_every = 0ms});
    a->start();
    auto const thread = b.new_thread();
    auto const run_id = kill_during_the_first_call(b, *a, thread);
    auto other = b.make_manager(taking_over("b"));
    other->start();
    auto const paused = b.run(read(*other, run_id));
    BOOST_TEST((paused.end == threads::stream_end::waiting));
    auto const calls = b.run(b.store->run_calls(run_id)).value();
    agent::approval_decision const no{calls.at(0).call_id, false, "Ya se contó."};
    BOOST_TEST((b.run(other->decide(run_id, "", no)).value() == threads::decision_outcome::resumed));
    auto const rest = b.run(read(*other, run_id, paused.events.back().id));
    BOOST_TEST(rest.types().back() == 'D');
    b.settle(*other);
    BOOST_TEST(b.counters.calls == 1);
    // The model read why: the call may or may not have acted, and was not run again.
    auto const sent = b.fake.requests().back().body.at("messages").as_array();
    auto const result_text = agentio::to_json_text(sent.back());
    BOOST_TEST(result_text.find("may or may not have taken effect") != std::string::npos, result_text);
    BOOST_TEST(result_text.find("Ya se contó.") != std::string::npos, result_text);
    other->stop();
}

BOOST_AUTO_TEST_CASE(finished_calls_stand_and_idempotent_ones_run_again)
{
    // The model calls two tools in one round. The process stops after the
    // first (contar_iniciativas) recorded its result and while the second
    // (sumar_presupuesto, idempotent) hangs after acting. The process that
    // takes over keeps the first's recorded result (it runs once) and runs
    // the second again with the same idempotency key, asking nobody.
    runs_bench b(0ms, "in-doubt-two");
    agentio::testing::scenario sc;
    sc.name = "in-doubt-two";
    agentio::testing::scripted_response call;
    call.text = "Cuento y sumo.";
    agentio::testing::scripted_tool_call count_call;
    count_call.name = "contar_iniciativas";
    count_call.input = json::object{{"campo_agrupacion", "estado_de_la_iniciativa"}};
    agentio::testing::scripted_tool_call sum_call;
    sum_call.name = "sumar_presupuesto";
    sum_call.input = json::object{{"campo_agrupacion", "estado"}, {"campo_importe", "presupuesto_aprobado"}};
    call.tool_calls = {count_call, sum_call};
    agentio::testing::scripted_response answer;
    answer.text = "Hecho.";
    sc.turns.push_back({call});
    sc.turns.push_back({answer});
    b.fake.add_scenario(sc);
    b.counters.block_first_sum = true;
    auto a = b.make_manager({.holder = "a", .lease = 400ms, .renew_every = 100ms, .takeover_every = 0ms});
    a->start();
    auto const thread = b.new_thread();
    auto const started = b.run(a->start_run(thread, "", {llm::message::user("¿Cuántas y cuánto?")})).value();
    auto journaled = [&] { return b.run(b.store->run_calls(started.run_id)).value(); };
    auto const until = std::chrono::steady_clock::now() + 10s;
    for(;;)
    {
        auto const calls = journaled();
        if(calls.size() == 2u && calls[0].finished && b.counters.sums == 1)
            break;
        BOOST_TEST_REQUIRE((std::chrono::steady_clock::now() < until));
        b.ioc.run_one_for(5ms);
    }
    a->stop();
    b.settle(*a);
    auto calls = journaled();
    BOOST_REQUIRE(calls.size() == 2u);
    BOOST_TEST(calls[0].tool == "contar_iniciativas"sv);
    BOOST_TEST(calls[0].finished);
    BOOST_TEST(calls[1].tool == "sumar_presupuesto"sv);
    BOOST_TEST(!calls[1].finished);

    auto other = b.make_manager(taking_over("b"));
    other->start();
    auto const resumed = b.run(read(*other, started.run_id));
    BOOST_TEST((resumed.end == threads::stream_end::finished));
    BOOST_TEST(resumed.types().find('A') == std::string::npos); // nobody was asked
    BOOST_TEST(resumed.types().back() == 'D');
    b.settle(*other);
    BOOST_TEST(b.counters.sums == 2);
    BOOST_TEST(b.counters.calls == 3); // contar once, sumar twice
    calls = journaled();
    BOOST_REQUIRE(calls.size() == 2u);
    BOOST_TEST(calls[0].attempts == 1u);
    BOOST_TEST(calls[1].attempts == 2u);
    BOOST_TEST(calls[1].finished);
    std::vector<std::string> sum_keys;
    for(auto const& k : b.counters.keys)
        if(k.ends_with("/" + calls[1].call_id))
            sum_keys.push_back(k);
    BOOST_REQUIRE(sum_keys.size() == 2u);
    BOOST_TEST(sum_keys[0] == sum_keys[1]);
    // The thread: the question, the model's turn once, both results, the answer.
    auto const items = b.run(b.store->load_items(thread)).value();
    BOOST_REQUIRE(items.size() == 4u);
    BOOST_TEST(items[2].message.content.size() == 2u);
    other->stop();
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(run_approvals)

namespace {

// The same agent, its tool call waiting for a person's decision.
std::unique_ptr<test_agent> approving_agent(runs_bench& b)
{
    agentio::toolset_options spanish_tools;
    spanish_tools.validation.texts = agentio_test::spanish_messages;
    agent::options o{.model = "portfolio-two-rounds"};
    o.texts = agentio_test::spanish_messages;
    o.requires_approval = [](std::string_view tool) { return tool == "contar_iniciativas"; };
    return std::make_unique<test_agent>(*b.provider,
        test_tools{spanish_tools, agent_test::contar_iniciativas{&b.counters, 0ms},
            agent_test::sumar_presupuesto{&b.counters}},
        o);
}

// A run of that agent, read until it stopped to wait for the decision.
struct waiting_run
{
    runs_bench b;
    std::unique_ptr<test_agent> ag = approving_agent(b);
    manager m{b.ioc.get_executor(), *b.store, *ag, &to_record, &is_final, {.holder = "a"}};
    std::string thread;
    std::string run_id;
    read_result first;
    std::string call_id; // the call waiting

    waiting_run()
    {
        m.start();
        thread = b.new_thread();
        run_id = b.run(m.start_run(thread, "", {llm::message::user("¿Cuántas iniciativas hay en ejecución?")}))
                     .value()
                     .run_id;
        first = b.run(read(m, run_id));
        BOOST_TEST_REQUIRE(!first.events.empty());
        call_id = json::parse(first.events.back().data).at("tool_call_id").as_string();
    }
    waiting_run(waiting_run const&) = delete;
    waiting_run& operator=(waiting_run const&) = delete;
    ~waiting_run() { m.stop(); }
};

} // namespace

// The run stops at the call, holding nothing; an approval days later (here:
// at once) resumes it from the stored turn and the tool runs then.
BOOST_FIXTURE_TEST_CASE(an_approved_call_runs_after_the_decision, waiting_run)
{
    BOOST_TEST((first.end == threads::stream_end::waiting));
    BOOST_TEST(first.events.back().type == "approval_required");
    BOOST_TEST(json::parse(first.events.back().data).at("tool").as_string() == "contar_iniciativas");
    b.settle(m);
    auto run = b.run(b.store->find_run(run_id, "")).value();
    BOOST_TEST(run->status == threads::run_status::waiting);
    BOOST_TEST(run->lease_holder.empty());
    BOOST_TEST(b.counters.calls == 0);                                   // nothing ran
    BOOST_TEST(b.run(b.store->load_items(thread)).value().size() == 2u); // the question, the model's call

    // Wrong call, then the decision.
    BOOST_TEST((b.run(m.decide(run_id, "", {"toolu_otro", true, ""})).value() ==
        threads::decision_outcome::unknown_call));
    BOOST_TEST((b.run(m.decide(run_id, "ana", {call_id, true, ""})).value() == threads::decision_outcome::not_found));
    BOOST_TEST((b.run(m.decide(run_id, "", {call_id, true, ""})).value() == threads::decision_outcome::resumed));
    auto const rest = b.run(read(m, run_id, first.events.back().id));
    BOOST_TEST((rest.end == threads::stream_end::finished));
    BOOST_TEST(rest.types() == "TcD");
    check_ids(rest.events, first.events.back().id + 1);
    b.settle(m);
    BOOST_TEST(b.counters.calls == 1);
    BOOST_TEST(b.run(b.store->load_items(thread)).value().size() == 4u);
    run = b.run(b.store->find_run(run_id, "")).value();
    BOOST_TEST(run->status == threads::run_status::completed);
    BOOST_TEST((b.run(m.decide(run_id, "", {call_id, true, ""})).value() == threads::decision_outcome::not_waiting));
}

// A rejection goes back to the model as an error result naming the reason;
// the tool never runs.
BOOST_FIXTURE_TEST_CASE(a_rejected_call_reaches_the_model_with_the_reason, waiting_run)
{
    BOOST_TEST((b.run(m.decide(run_id, "", {call_id, false, "no toques la cartera"})).value() ==
        threads::decision_outcome::resumed));
    auto const rest = b.run(read(m, run_id, first.events.back().id));
    BOOST_TEST(rest.types().back() == 'D');
    b.settle(m);
    BOOST_TEST(b.counters.calls == 0);
    auto const requests = b.fake.requests();
    BOOST_REQUIRE(requests.size() == 2u);
    auto const result = requests[1].body.at("messages").as_array().back().at("content").at(0);
    BOOST_TEST(result.at("is_error").as_bool());
    BOOST_TEST(result.at("content").at(0).at("text").as_string() ==
        "El usuario rechazó la llamada a 'contar_iniciativas': no toques la cartera");
}

// Cancelling a run that waits for a decision ends it (nobody holds it).
BOOST_FIXTURE_TEST_CASE(a_waiting_run_can_be_cancelled, waiting_run)
{
    b.settle(m);
    BOOST_TEST(b.run(m.cancel(run_id, "")).value());
    auto const rest = b.run(read(m, run_id, first.events.back().id));
    BOOST_REQUIRE(rest.events.size() == 1u);
    BOOST_TEST(json::parse(rest.events[0].data).at("status").as_string() == "cancelled");
    BOOST_TEST(b.run(b.store->find_run(run_id, "")).value()->status == threads::run_status::cancelled);
}

BOOST_AUTO_TEST_SUITE_END()
