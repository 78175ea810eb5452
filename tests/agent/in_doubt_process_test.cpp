// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Tool effects exactly once, or a person decides, with a real SIGKILL: this
// executable, started with --child, runs a durable run whose tool appends a
// line to a file (its side effect); the test kills it before, during or after
// that effect, and takes the run over in its own process on the same SQLite
// file. A call that may have acted is not run again until a person approves.

#define BOOST_TEST_NO_MAIN
#include <agentio/agent/orchestrator.hpp>
#include <agentio/detail/child_process.hpp>
#include <agentio/http/client.hpp>
#include <agentio/json_text.hpp>
#include <agentio/llm/anthropic.hpp>
#include <agentio/testing/fake_llm.hpp>
#include <agentio/threads/run_manager.hpp>
#include <agentio/threads/sqlite_store.hpp>
#include <agentio/tool.hpp>

#include "run_on.hpp"
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/describe.hpp>
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include <signal.h>
#include <unistd.h>

namespace asio = boost::asio;
namespace json = boost::json;
namespace llm = agentio::llm;
namespace agent = agentio::agent;
namespace threads = agentio::threads;
using namespace std::chrono_literals;

namespace {

// Where the child's tool stands when it is killed: it hangs there.
std::string hang_where; // "before" (the effect), "during" (after the effect, before returning), "after": never

struct registrar_pago
{
    static constexpr std::string_view name = "registrar_pago";
    static constexpr std::string_view description = "Registra un pago (no se puede repetir sin pagar dos veces)";
    struct args
    {
        double importe = 0;
        static constexpr agentio::field_info fields[] = {{.name = "importe", .description = "Euros"}};
    };
    std::string ledger;

    asio::awaitable<agentio::tool_result> operator()(args a, agentio::tool_context& ctx) const
    {
        asio::steady_timer hang(co_await asio::this_coro::executor, std::chrono::minutes(10));
        if(hang_where == "before")
            co_await hang.async_wait(asio::use_awaitable);
        {
            std::ofstream out(ledger, std::ios::app);
            out << a.importe << ' ' << ctx.idempotency_key << '\n';
        }
        if(hang_where == "during")
            co_await hang.async_wait(asio::use_awaitable);
        co_return agentio::tool_result::text("pago registrado");
    }
};
BOOST_DESCRIBE_STRUCT(registrar_pago::args, (), (importe))

using pay_tools = agentio::toolset<registrar_pago>;
using pay_agent = agent::orchestrator<llm::anthropic_provider, pay_tools>;
using pay_runs = threads::run_manager<pay_agent>;

std::optional<threads::event_record> to_record(threads::run_event const& e, threads::run_context const&)
{
    auto record = [](std::string type, json::value data) {
        return threads::event_record{0, std::move(type), agentio::to_json_text(data)};
    };
    if(auto const* a = std::get_if<threads::approval_pending>(&e))
        return record("approval_required", {{"tool_call_id", a->tool_call_id}, {"in_doubt", a->in_doubt}});
    if(std::holds_alternative<threads::run_cancelled>(e))
        return record("done", {{"status", "cancelled"}});
    if(std::holds_alternative<threads::round_restart>(e))
        return record("round_restart", json::object{});
    auto const& ev = std::get<agent::event>(e);
    if(std::holds_alternative<agent::tool_call>(ev))
        return record("tool_call", json::object{});
    if(std::holds_alternative<agent::done>(ev))
        return record("done", {{"status", "completed"}});
    if(auto const* err = std::get_if<agent::error>(&ev))
        return record("error", {{"message", err->message}});
    return std::nullopt;
}

bool is_final(threads::event_record const& e)
{
    return e.type == "done" || e.type == "error";
}

pay_agent make_agent(llm::anthropic_provider& provider, std::string ledger)
{
    return pay_agent{provider, pay_tools{{}, registrar_pago{std::move(ledger)}}, agent::options{.model = "pago"}};
}

// --child DB LEDGER BASE_URL WHERE: starts the run, prints its id, runs until killed.
int run_child(char** argv)
{
    hang_where = argv[5];
    asio::io_context ioc;
    agentio::http::client client(ioc.get_executor());
    llm::provider_options po;
    po.api_key = "k";
    po.base_url = argv[4];
    llm::anthropic_provider provider(client, po);
    auto agent = make_agent(provider, argv[3]);
    auto store = agentio::sqlite::thread_store::open(argv[2]).value();
    pay_runs runs(ioc.get_executor(), *store, agent, &to_record, &is_final,
        {.holder = "child", .lease = 1000ms, .renew_every = 200ms, .takeover_every = 0ms});
    runs.start();
    asio::co_spawn(
        ioc,
        [&]() -> asio::awaitable<void> {
            threads::thread_info info{.id = "pagos",
                .owner = "",
                .agent = "pago",
                .title = "t",
                .created_at = {},
                .updated_at = {},
                .metadata = {}};
            std::vector<llm::message> question{llm::message::user("Paga 12 euros.")};
            auto started = (co_await runs.start_run(std::move(info), std::move(question))).value();
            std::printf("%s\n", started.run_id.c_str());
            std::fflush(stdout);
        },
        asio::detached);
    ioc.run();
    return 0;
}

std::size_t lines_of(std::filesystem::path const& file)
{
    std::ifstream in(file);
    std::size_t n = 0;
    for(std::string line; std::getline(in, line);)
        ++n;
    return n;
}

// The test's side: the fake model, the child, the kill, the takeover.
struct crash_bench
{
    std::filesystem::path dir = std::filesystem::temp_directory_path() /
        ("agentio_in_doubt_" + std::to_string(::getpid()) + "_" + std::to_string(counter()++));
    asio::io_context model_ioc;
    std::optional<agentio::testing::fake_llm> fake;
    std::thread model_thread;

    static int& counter()
    {
        static int n = 0;
        return n;
    }

    crash_bench()
    {
        std::filesystem::remove_all(dir);
        std::filesystem::create_directories(dir);
        agentio::testing::fake_llm_options o;
        o.token_interval = 30ms; // the answer after the call streams for a while: room for the "after" kill
        fake.emplace(model_ioc.get_executor(), o);
        agentio::testing::scenario sc;
        sc.name = "pago";
        agentio::testing::scripted_response call;
        call.text = "Registro el pago.";
        agentio::testing::scripted_tool_call c;
        c.name = "registrar_pago";
        c.input = json::object{{"importe", 12}};
        call.tool_calls.push_back(c);
        agentio::testing::scripted_response answer;
        answer.text = "He registrado el pago de 12 euros; el justificante queda en el historial de la cuenta.";
        sc.turns.push_back({call});
        sc.turns.push_back({answer});
        fake->add_scenario(sc);
        BOOST_TEST_REQUIRE(fake->start().has_value());
        model_thread = std::thread([this] { model_ioc.run(); });
    }

    ~crash_bench()
    {
        asio::post(model_ioc, [this] { model_ioc.stop(); });
        model_thread.join();
        fake.reset();
        std::filesystem::remove_all(dir);
    }

    std::filesystem::path db() const { return dir / "runs.db"; }
    std::filesystem::path ledger() const { return dir / "ledger.txt"; }
};

// Runs the child until `killed_when` holds, then SIGKILLs it; returns the run's id.
template<class Condition>
std::string run_child_and_kill(crash_bench& b, std::string const& where, Condition killed_when)
{
    agentio::detail::child_process child;
    auto const self = std::filesystem::read_symlink("/proc/self/exe");
    agentio::detail::child_spec spec;
    spec.program = self;
    spec.arguments = {"--child", b.db().string(), b.ledger().string(), b.fake->anthropic_base_url(), where};
    auto const ends = child.start(spec);
    ::close(ends.to_child);
    std::string run_id;
    char c = 0;
    while(::read(ends.from_child, &c, 1) == 1 && c != '\n')
        run_id.push_back(c);
    ::close(ends.from_child);
    BOOST_TEST_REQUIRE(!run_id.empty());
    auto const until = std::chrono::steady_clock::now() + 20s;
    while(!killed_when(run_id) && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(5ms);
    BOOST_TEST_REQUIRE(killed_when(run_id));
    child.signal(SIGKILL);
    child.kill_and_reap();
    return run_id;
}

template<class T>
T on(asio::io_context& ioc, asio::awaitable<T> work)
{
    return agentio_test::run_on(ioc, std::move(work));
}

// Takes the run over in this process; returns the events it sent until the run waits or ends.
struct takeover
{
    asio::io_context ioc;
    agentio::http::client client{ioc.get_executor()};
    std::optional<llm::anthropic_provider> provider;
    std::optional<pay_agent> agent;
    std::unique_ptr<threads::thread_store> store;
    std::optional<pay_runs> runs;

    explicit takeover(crash_bench& b)
    {
        llm::provider_options po;
        po.api_key = "k";
        po.base_url = b.fake->anthropic_base_url();
        provider.emplace(client, po);
        agent.emplace(make_agent(*provider, b.ledger().string()));
        store = agentio::sqlite::thread_store::open(b.db()).value();
        runs.emplace(ioc.get_executor(), *store, *agent, &to_record, &is_final,
            threads::run_manager_options{.holder = "parent",
                .lease = 1000ms,
                .renew_every = 200ms,
                .takeover_every = 50ms});
        runs->start();
    }

    ~takeover() { runs->stop(); }

    std::vector<threads::event_record> read(std::string const& run_id, std::int64_t after = 0)
    {
        std::vector<threads::event_record> events;
        on(ioc, [&]() -> asio::awaitable<bool> {
            (void)co_await runs->stream(run_id, "", after,
                [&](threads::event_record const& e) -> asio::awaitable<bool> {
                    events.push_back(e);
                    co_return true;
                });
            co_return true;
        }());
        return events;
    }

    std::vector<threads::call_record> calls(std::string const& run_id)
    {
        return on(ioc, store->run_calls(run_id)).value();
    }
};

std::vector<threads::call_record> journaled(crash_bench& b, std::string const& run_id)
{
    asio::io_context ioc;
    auto store = agentio::sqlite::thread_store::open(b.db()).value();
    return on(ioc, store->run_calls(run_id)).value();
}

// Killed with the call started: it waits for a person; approved, it runs once more.
void killed_with_the_call_started(std::string const& where, std::size_t lines_at_kill)
{
    hang_where = "after"; // this process's tool, when approved, runs through
    crash_bench b;
    auto const run_id = run_child_and_kill(b, where, [&](std::string const& id) {
        auto const calls = journaled(b, id);
        return !calls.empty() && lines_of(b.ledger()) == lines_at_kill;
    });
    BOOST_TEST(lines_of(b.ledger()) == lines_at_kill);
    takeover t(b);
    auto const began = std::chrono::steady_clock::now();
    auto const paused = t.read(run_id);
    BOOST_TEST_MESSAGE("killed "
        << where << " the effect: paused "
        << std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - began).count()
        << " ms after the takeover began (lease 1 s)");
    BOOST_REQUIRE(!paused.empty());
    BOOST_TEST(paused.back().type == "approval_required");
    auto const asked = json::parse(paused.back().data);
    BOOST_TEST(asked.at("in_doubt").as_bool());
    BOOST_TEST(lines_of(b.ledger()) == lines_at_kill); // not run again by itself
    agent::approval_decision const yes{std::string(asked.at("tool_call_id").as_string()), true, {}};
    BOOST_TEST((on(t.ioc, t.runs->decide(run_id, "", yes)).value() == threads::decision_outcome::resumed));
    auto const rest = t.read(run_id, paused.back().id);
    BOOST_REQUIRE(!rest.empty());
    BOOST_TEST(json::parse(rest.back().data).at("status").as_string() == "completed");
    BOOST_TEST(lines_of(b.ledger()) == lines_at_kill + 1);
    auto const calls = t.calls(run_id);
    BOOST_REQUIRE(calls.size() == 1u);
    BOOST_TEST(calls[0].attempts == 2u);
    // Every line the tool wrote carries the call's one idempotency key.
    std::ifstream in(b.ledger());
    for(std::string line; std::getline(in, line);)
        BOOST_TEST(line == "12 pagos/" + calls[0].call_id);
}

} // namespace

BOOST_AUTO_TEST_SUITE(run_calls_after_sigkill)

BOOST_AUTO_TEST_CASE(killed_before_the_effect)
{
    killed_with_the_call_started("before", 0); // it had not acted: a person's yes makes it act once
}

BOOST_AUTO_TEST_CASE(killed_after_the_effect_before_the_result)
{
    killed_with_the_call_started("during", 1); // it had acted: the person decides whether twice
}

BOOST_AUTO_TEST_CASE(killed_after_the_result)
{
    hang_where = "after";
    crash_bench b;
    // Killed once the call's result is recorded (the answer then streams for a while).
    auto const run_id = run_child_and_kill(b, "after", [&](std::string const& id) {
        auto const calls = journaled(b, id);
        return !calls.empty() && calls[0].finished;
    });
    takeover t(b);
    auto const events = t.read(run_id);
    BOOST_REQUIRE(!events.empty());
    BOOST_TEST(json::parse(events.back().data).at("status").as_string() == "completed");
    for(auto const& e : events)
        BOOST_TEST(e.type != "approval_required");
    BOOST_TEST(lines_of(b.ledger()) == 1u); // acted once
    auto const calls = t.calls(run_id);
    BOOST_REQUIRE(calls.size() == 1u);
    BOOST_TEST(calls[0].attempts == 1u);
}

BOOST_AUTO_TEST_SUITE_END()

int main(int argc, char** argv)
{
    if(argc == 6 && std::string_view(argv[1]) == "--child")
        return run_child(argv);
    return boost::unit_test::unit_test_main(
        [] {
            boost::unit_test::framework::master_test_suite().p_name.value = "agentio in-doubt tests";
            return true;
        },
        argc, argv);
}
