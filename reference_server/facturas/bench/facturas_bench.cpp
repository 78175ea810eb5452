// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// What the invoice pipeline costs per question, besides SQLite and MCP: one
// facturas::invoice_agent answers N questions one after another, with
// agentio-sqlite-mcp over stdio on the Chinook database and the fake LLM
// answering at once (no delay between pieces, on a thread of its own as a
// real provider is another machine). After each question, the same work is
// done again piece by piece, so the pieces are measured under the same
// conditions as the whole:
//   - the same sqlite_run_select call (the SQL as the agent prepared it,
//     same max_rows) through an MCP client of its own to a second
//     agentio-sqlite-mcp, negotiated the same way;
//   - the two model calls (SQL, answer) with the same prompts, through the
//     same provider, read to the end;
//   - the thread store's work of one turn (load the history, find and create
//     the thread, append the four messages).
// Each question gets a new session (no history: the first question of a
// conversation). Markdown on stdout; bench/facturas_bench.sh runs it.
//
//   facturas_bench --db CHINOOK.db [--questions N] [--warmup N] [--sqlite-mcp PATH] [--server-log PATH]
#include "agent.hpp"
#include "prompts.hpp"
#include "sql_text.hpp"
#include "../tests/questions.hpp"

#include <agentio/llm/anthropic.hpp>
#include <agentio/threads/sqlite_store.hpp>
#include <agentio/testing/fake_llm.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_future.hpp>
#include <boost/json.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <numeric>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace asio = boost::asio;
namespace json = boost::json;
namespace fs = std::filesystem;
namespace llm = agentio::llm;
namespace mcp = agentio::mcp;
using clock_type = std::chrono::steady_clock;

namespace {

// The Spanish questions of the tests and the SQL the "model" writes for each.
using facturas::samples::question_count;
using facturas::samples::questions;
constexpr char answer_text[] = "Según las facturas, este es el resultado que pediste.";

struct options
{
    fs::path db;
    std::string sqlite_mcp = AGENTIO_SQLITE_MCP;
    std::size_t questions = 500;
    std::size_t warmup = 20;
    std::string server_log = "/dev/null";
};

agentio::testing::scenario make_scenario()
{
    agentio::testing::scenario sc;
    sc.name = "facturas-bench";
    sc.token_interval = std::chrono::milliseconds(0);
    std::vector<agentio::testing::scripted_response> alternatives;
    auto add = [&](std::string when, agentio::testing::scripted_text text) {
        agentio::testing::scripted_response r;
        r.when_user_message_contains = std::move(when);
        r.text = std::move(text);
        alternatives.push_back(std::move(r));
    };
    add("Resultados de la consulta", answer_text); // the answer step: its message also quotes the question
    for(auto const& q : questions)
        add(q.question, q.sql);
    sc.turns.push_back(std::move(alternatives));
    return sc;
}

double ms(clock_type::duration d)
{
    return std::chrono::duration<double, std::milli>(d).count();
}

struct summary
{
    double mean = 0, p50 = 0, p99 = 0;
};

summary summarize(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    summary s;
    s.mean = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
    s.p50 = v[v.size() / 2];
    s.p99 = v[std::min(v.size() - 1, v.size() * 99 / 100)];
    return s;
}

// The model call as invoice_agent::complete makes it: open, read to the end, finish.
asio::awaitable<std::string> complete(llm::any_provider& provider, std::string const& model, std::string const& system,
    std::vector<llm::message> const& messages)
{
    llm::request request;
    request.model = model;
    request.system = system;
    request.messages = messages;
    request.max_tokens = 2048;
    request.temperature = 0.0;
    auto answered = co_await llm::complete(provider, request);
    if(!answered)
        throw std::runtime_error("the fake LLM did not answer: " + answered.error().message);
    co_return answered->assistant.text();
}

struct samples
{
    std::vector<double> ask, mcp_call, llm_sql, llm_answer, llm_both, store;
    std::string protocol;
};

asio::awaitable<void> measure(options const& opt, facturas::invoice_agent& agent, facturas::settings const& s,
    llm::any_provider& provider, agentio::threads::thread_store& store, samples& out)
{
    auto const ex = co_await asio::this_coro::executor;
    // The direct client: the agent's command line and options, its own child process.
    mcp::process_options p = mcp::process_options::from_command_line(opt.sqlite_mcp + " --db '" + opt.db.string() +
        "'");
    p.stderr_log = opt.server_log;
    mcp::client_options co;
    co.name = "facturas-bench";
    co.request_timeout = s.mcp_timeout;
    mcp::client direct(mcp::make_stdio_transport(ex, std::move(p)), std::move(co));
    mcp::server_description const server = co_await direct.connect();
    out.protocol = server.protocol_version;

    json::object const schema_object = co_await agent.schema();
    std::string const sql_system = facturas::sql_system_prompt(facturas::describe_schema(schema_object),
        s.sql_max_rows);
    std::string const answer_system = facturas::answer_system_prompt();
    std::string const model = s.effective_model();
    mcp::call_options call;
    call.timeout = s.mcp_timeout;
    facturas::ask_observer const no_observer; // named: no temporary inside co_await (GCC 12)

    for(std::size_t i = 0; i < opt.warmup + opt.questions; ++i)
    {
        bool const counted = i >= opt.warmup;
        auto const& q = questions[i % question_count];
        std::string const question = q.question;

        // 1. The whole pipeline.
        std::string const session = "bench-" + std::to_string(i);
        auto t0 = clock_type::now();
        facturas::ask_result const r = co_await agent.ask(session, question, no_observer);
        auto const ask_time = clock_type::now() - t0;
        if(!r.error_code.empty())
            throw std::runtime_error("question " + std::to_string(i) + " failed: " + r.error_code + ": " +
                r.error_message);
        if(r.answer != answer_text)
            throw std::runtime_error("question " + std::to_string(i) + " got another answer: " + r.answer);

        // 2. The same query, straight through an MCP client.
        auto prepared = facturas::prepare_query(q.sql, s.sql_max_rows);
        if(!prepared)
            throw std::runtime_error("prepare_query: " + prepared.error());
        json::value const arguments = json::object{{"sql", *prepared}, {"max_rows", s.sql_max_rows}};
        t0 = clock_type::now();
        agentio::tool_result const rows = co_await direct.call_tool("sqlite_run_select", arguments, call);
        auto const mcp_time = clock_type::now() - t0;
        if(rows.is_error || !rows.structured || !rows.structured->is_object())
            throw std::runtime_error("direct sqlite_run_select failed: " + rows.joined_text());
        if(rows.structured->get_object().at("rows") != json::value(r.rows))
            throw std::runtime_error("the direct call's rows differ from the agent's");

        // 3. The two model calls alone, with the prompts the agent sends.
        std::vector<llm::message> const sql_messages{llm::message::user(question)};
        auto const l0 = clock_type::now();
        std::string const sql_text = co_await complete(provider, model, sql_system, sql_messages);
        auto const l1 = clock_type::now();
        std::vector<llm::message> const answer_messages{llm::message::user(facturas::answer_message(question,
            facturas::strip_code_fences(sql_text), rows.structured->get_object()))};
        std::string const answer = co_await complete(provider, model, answer_system, answer_messages);
        auto const l2 = clock_type::now();
        if(answer != answer_text)
            throw std::runtime_error("the answer step got another text: " + answer);

        // 4. The thread store's work of one turn (history, then save).
        std::string const thread = "facturas-store-" + std::to_string(i);
        std::vector<llm::message> turn{llm::message::user(question)};
        {
            llm::message use{llm::role::assistant, {}};
            use.content.emplace_back(llm::tool_use_block{"sql_1", "sqlite_run_select", json::object{{"sql", r.sql}},
                {}});
            llm::message outcome{llm::role::user, {}};
            llm::tool_result_block result_block{"sql_1", {}, false};
            result_block.content.emplace_back(llm::text_block{std::to_string(r.row_count) + " filas"});
            outcome.content.emplace_back(std::move(result_block));
            turn.push_back(std::move(use));
            turn.push_back(std::move(outcome));
            turn.push_back(llm::message::assistant(r.answer));
        }
        t0 = clock_type::now();
        auto const items = co_await store.load_items(thread);
        (void)items;
        auto const found = co_await store.find_thread(thread, "");
        if(found && !found->has_value())
        {
            agentio::threads::thread_info info;
            info.id = thread;
            info.agent = "facturas";
            info.title = question;
            auto const created = co_await store.create_thread(info);
            (void)created;
        }
        auto const saved = co_await store.append_messages(thread, turn);
        auto const store_time = clock_type::now() - t0;
        if(!saved)
            throw std::runtime_error("the store did not save: " + saved.error().message);

        if(!counted)
            continue;
        out.ask.push_back(ms(ask_time));
        out.mcp_call.push_back(ms(mcp_time));
        out.llm_sql.push_back(ms(l1 - l0));
        out.llm_answer.push_back(ms(l2 - l1));
        out.llm_both.push_back(ms(l2 - l0));
        out.store.push_back(ms(store_time));
    }
    co_await direct.close();
}

} // namespace

int main(int argc, char** argv)
{
    options opt;
    for(int i = 1; i + 1 < argc; i += 2)
    {
        std::string_view const flag = argv[i];
        std::string const value = argv[i + 1];
        if(flag == "--db")
            opt.db = value;
        else if(flag == "--questions")
            opt.questions = std::stoul(value);
        else if(flag == "--warmup")
            opt.warmup = std::stoul(value);
        else if(flag == "--sqlite-mcp")
            opt.sqlite_mcp = value;
        else if(flag == "--server-log")
            opt.server_log = value;
        else
        {
            std::fprintf(stderr, "facturas_bench: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    if(opt.db.empty() || !fs::exists(opt.db) || opt.questions == 0)
    {
        std::fprintf(stderr,
            "usage: facturas_bench --db CHINOOK.db [--questions N] [--warmup N] [--sqlite-mcp PATH] "
            "[--server-log PATH]\n");
        return 2;
    }
    // The MCP servers log a line per call on their stderr, which the agent's
    // child inherits: to the log, as the direct client's; our own messages
    // keep the real stderr.
    FILE* const err = ::fdopen(::dup(STDERR_FILENO), "w");
    int const log_fd = ::open(opt.server_log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if(!err || log_fd < 0 || ::dup2(log_fd, STDERR_FILENO) < 0)
    {
        std::perror("facturas_bench: server log");
        return 1;
    }
    ::close(log_fd);

    fs::path const dir = fs::temp_directory_path() / ("agentio_facturas_bench_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);

    // The fake LLM on a thread of its own.
    asio::io_context fake_ioc(1);
    agentio::testing::fake_llm_options fo;
    fo.token_interval = std::chrono::milliseconds(0);
    fo.max_recorded_requests = 0;
    agentio::testing::fake_llm fake(fake_ioc.get_executor(), fo);
    fake.add_scenario(make_scenario());
    fake.start().value();
    auto fake_work = asio::make_work_guard(fake_ioc);
    std::thread fake_thread([&] { fake_ioc.run(); });

    // The agent, its HTTP client and the direct MCP client on another.
    asio::io_context ioc(1);
    agentio::http::client http(ioc.get_executor());
    llm::provider_options po;
    po.api_key = "bench";
    po.base_url = fake.anthropic_base_url();
    llm::any_provider provider(llm::anthropic_provider(http, std::move(po)));
    auto store = agentio::sqlite::thread_store::open(dir / "threads.db").value();
    facturas::settings s;
    s.model.anthropic_api_key = "bench";
    s.model.model = "facturas-bench";
    s.sql_max_rows = 200;
    s.mcp_timeout = std::chrono::seconds(20);
    facturas::mcp_endpoint endpoint;
    endpoint.command = opt.sqlite_mcp + " --db '" + opt.db.string() + "'";
    facturas::invoice_agent agent(s, endpoint, provider, *store);

    samples out;
    std::string failure;
    auto work = asio::make_work_guard(ioc);
    std::thread runner([&] { ioc.run(); });
    try
    {
        asio::co_spawn(ioc, measure(opt, agent, s, provider, *store, out), asio::use_future).get();
    }
    catch(std::exception const& e)
    {
        failure = e.what();
    }
    asio::co_spawn(ioc, agent.close(), asio::use_future).get();
    work.reset();
    runner.join();
    fake.stop();
    fake_work.reset();
    fake_ioc.stop();
    fake_thread.join();
    store.reset();
    fs::remove_all(dir);
    if(!failure.empty())
    {
        std::fprintf(err, "facturas_bench: %s\n", failure.c_str());
        return 1;
    }

    auto const ask = summarize(out.ask);
    auto const mcp_call = summarize(out.mcp_call);
    auto const llm_sql = summarize(out.llm_sql);
    auto const llm_answer = summarize(out.llm_answer);
    auto const llm_both = summarize(out.llm_both);
    auto const st = summarize(out.store);
    std::vector<double> besides_mcp, besides_all;
    for(std::size_t i = 0; i < out.ask.size(); ++i)
    {
        besides_mcp.push_back(out.ask[i] - out.mcp_call[i]);
        besides_all.push_back(out.ask[i] - out.mcp_call[i] - out.llm_both[i] - out.store[i]);
    }
    auto const b1 = summarize(besides_mcp);
    auto const b2 = summarize(besides_all);
    auto row = [](char const* what, summary const& x) {
        std::printf("| %s | %.3f | %.3f | %.3f |\n", what, x.mean, x.p50, x.p99);
    };
    std::printf("| per question (%zu questions, one after another) | mean ms | p50 ms | p99 ms |\n", opt.questions);
    std::printf("|---|---:|---:|---:|\n");
    row("`invoice_agent::ask`, the whole pipeline", ask);
    row("the same `sqlite_run_select`, MCP client → agentio-sqlite-mcp (stdio)", mcp_call);
    row("**pipeline besides SQLite/MCP** (ask − MCP call, per question)", b1);
    row("the SQL step's model call alone (fake LLM, zero delay)", llm_sql);
    row("the answer step's model call alone", llm_answer);
    row("both model calls", llm_both);
    row("the thread store's work of one turn (history read, thread created, 4 messages appended)", st);
    row("what is left: ask − MCP call − model calls − store", b2);
    std::printf("\nagentio-sqlite-mcp over stdio, MCP %s; %zu distinct questions in turn, %zu warm-up questions; "
                "sql_max_rows %u\n",
        out.protocol.c_str(), question_count, opt.warmup, s.sql_max_rows);
    return 0;
}
