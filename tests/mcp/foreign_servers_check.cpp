// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// agentio::mcp::client against servers it was not written with: the MCP
// project's reference server `@modelcontextprotocol/server-everything` (the
// TypeScript SDK's McpServer) and `agentio-portfolio mcp`, over whichever
// transport the command line names, with automatic negotiation. Each check is
// what an application would do with the client: list, call, read the content
// blocks, follow progress, answer an elicitation, hear the server's log, and
// let a model (the fake LLM) call a bridged tool. scripts/mcp_clients.sh runs it.
//
//   agentio_mcp_foreign_check --server everything|portfolio [--log FILE]
//                             (--url URL | --sse URL | --stdio CMD ARGS...)
//     --url    Streamable HTTP endpoint        --sse    2024-11-05 HTTP+SSE event stream
//     --stdio  the server as a child process (the rest of the line)
//     --log    where a stdio server's stderr goes (default: this program's stderr)
// One line per check on stdout; a failure's reason also on stderr; the exit
// status is 1 when any check failed.
#include <agentio/agent/orchestrator.hpp>
#include <agentio/llm/anthropic.hpp>
#include <agentio/mcp/client.hpp>
#include <agentio/testing/fake_llm.hpp>
#include <agentio/tool.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace asio = boost::asio;
namespace json = boost::json;
namespace mcp = agentio::mcp;
namespace agent = agentio::agent;
namespace llm = agentio::llm;
using namespace std::chrono_literals;

namespace {

struct arguments
{
    std::string server;
    std::string transport; // stdio, http, sse
    std::string url;
    std::vector<std::string> command;
    std::string log;
};

// The verdicts, printed as they come.
struct checks
{
    std::string label; // e.g. "everything/stdio"
    int failures = 0;

    void pass(std::string_view what)
    {
        std::printf("ok   %s: %.*s\n", label.c_str(), static_cast<int>(what.size()), what.data());
    }
    void fail(std::string_view what, std::string_view why)
    {
        ++failures;
        std::printf("FAIL %s: %.*s\n", label.c_str(), static_cast<int>(what.size()), what.data());
        std::fflush(stdout);
        std::fprintf(stderr, "agentio_mcp_foreign_check: %s: %.*s: %.*s\n", label.c_str(),
            static_cast<int>(what.size()), what.data(), static_cast<int>(why.size()), why.data());
    }
    bool expect(bool ok, std::string_view what, std::string_view why)
    {
        if(ok)
            pass(what);
        else
            fail(what, why);
        return ok;
    }
};

// What the steps share.
struct context
{
    mcp::client c;
    checks& ck;
    // The model of the agent step. It outlives the io_context's run: a server
    // destroyed while the io_context still runs leaves handlers behind that
    // close its acceptor's descriptor number, by then someone else's socket.
    agentio::testing::fake_llm& fake;
    std::vector<mcp::tool_info> tools = {};
    int logs_heard = 0;
    std::string first_log = {};
    json::object elicitation_params = {};
};

std::string describe(mcp::client_error const& e)
{
    // what() names the code already.
    std::string s = e.what();
    if(e.rpc_code() != 0)
        s += " (JSON-RPC " + std::to_string(e.rpc_code()) + ")";
    return s;
}

std::string shorten(std::string s, std::size_t n = 160)
{
    std::replace(s.begin(), s.end(), '\n', ' ');
    if(s.size() > n)
        s = s.substr(0, n) + "...";
    return s;
}

// The result as the model would see it, for a failure's message.
std::string show(agentio::tool_result const& r)
{
    std::string s = r.is_error ? "isError, " : "";
    s += std::to_string(r.content.size()) + " block(s): ";
    for(auto const& block : r.content)
    {
        if(auto const* t = std::get_if<agentio::text_content>(&block))
            s += "text '" + shorten(t->text, 100) + "' ";
        else if(auto const* i = std::get_if<agentio::image_content>(&block))
            s += "image " + i->mime_type + " ";
        else if(std::holds_alternative<agentio::audio_content>(block))
            s += "audio ";
        else if(auto const* res = std::get_if<agentio::resource_content>(&block))
            s += "resource " + res->uri + " ";
    }
    if(r.structured)
        s += "structured " + shorten(json::serialize(*r.structured), 100);
    return s;
}

json::value parse_or_null(std::string const& text)
{
    boost::system::error_code ec;
    auto v = json::parse(text, ec);
    return ec ? json::value(nullptr) : v;
}

mcp::tool_info const* find_tool(context const& cx, std::initializer_list<std::string_view> names)
{
    for(auto name : names)
        for(auto const& t : cx.tools)
            if(t.name == name)
                return &t;
    return nullptr;
}

// A tool the checks need, by its current name or an older one; missing is a failure.
mcp::tool_info const* require_tool(context& cx, std::initializer_list<std::string_view> names)
{
    auto const* t = find_tool(cx, names);
    if(!t)
        cx.ck.fail(*names.begin(), "not in tools/list");
    return t;
}

using step_fn = asio::awaitable<void> (*)(context&);

// A step that throws is a failed check; the next steps still run.
asio::awaitable<void> run_step(context& cx, std::string_view name, step_fn fn)
{
    std::string failure;
    try
    {
        co_await fn(cx);
    }
    catch(mcp::client_error const& e)
    {
        failure = describe(e);
    }
    catch(std::exception const& e)
    {
        failure = e.what();
    }
    if(!failure.empty())
        cx.ck.fail(name, "threw " + failure);
}

// An unknown tool. The spec makes it a JSON-RPC error (-32602); the
// TypeScript SDK's McpServer answers with an isError result instead (its
// "Tool x not found" is an McpError caught by its own tools/call handler), so
// for that server both are accepted and the line says which came.
asio::awaitable<void> unknown_tool(context& cx, bool error_result_allowed)
{
    json::object const none;
    std::string const as_rpc_error = "unknown tool: client_error server_error, JSON-RPC -32602";
    try
    {
        auto r = co_await cx.c.call_tool("no_such_tool_anywhere", none);
        bool const names_it = r.joined_text().find("no_such_tool_anywhere") != std::string::npos;
        if(error_result_allowed)
            cx.ck.expect(r.is_error && names_it,
                "unknown tool: an isError result naming it (the SDK's McpServer sends no JSON-RPC error)",
                "neither a JSON-RPC error nor an isError result naming the tool: " + show(r));
        else
            cx.ck.fail(as_rpc_error, "a result came instead: " + show(r));
        co_return;
    }
    catch(mcp::client_error const& e)
    {
        cx.ck.expect(e.code() == mcp::client_errc::server_error && e.rpc_code() == -32602, as_rpc_error, describe(e));
    }
}

// --- server-everything ------------------------------------------------------------------

asio::awaitable<void> everything_echo(context& cx)
{
    std::string const message = "agentio says hola, 世界";
    json::object const args{{"message", message}};
    auto r = co_await cx.c.call_tool("echo", args);
    cx.ck.expect(!r.is_error && r.joined_text() == "Echo: " + message, "echo: 'Echo: " + message + "'", show(r));
}

asio::awaitable<void> everything_sum(context& cx)
{
    auto const* tool = require_tool(cx, {"get-sum", "add"});
    if(!tool)
        co_return;
    std::string const name = tool->name;
    json::object const args{{"a", 19}, {"b", 23.5}};
    auto r = co_await cx.c.call_tool(name, args);
    std::string const text = r.joined_text();
    cx.ck.expect(!r.is_error && text.find("is 42.5") != std::string::npos, name + "(19, 23.5): '" + text + "'",
        show(r));

    // Arguments its schema refuses: the server's validation error is a result, not an exception.
    json::object const wrong{{"a", "nineteen"}, {"b", 23}};
    auto refused = co_await cx.c.call_tool(name, wrong);
    cx.ck.expect(refused.is_error && !refused.joined_text().empty(),
        name + " with a string for a number: isError '" + shorten(refused.joined_text(), 60) + "'", show(refused));
}

asio::awaitable<void> everything_long_running(context& cx)
{
    auto const* tool = require_tool(cx, {"trigger-long-running-operation", "longRunningOperation"});
    if(!tool)
        co_return;
    std::string const name = tool->name;
    int reports = 0;
    double last = 0;
    double total = 0;
    mcp::call_options with_progress;
    with_progress.on_progress = [&](mcp::progress const& p) {
        ++reports;
        last = p.value;
        total = p.total.value_or(0);
    };
    // Four steps of 0.5 s under a 1.5 s timeout: only the progress keeps the call alive.
    with_progress.timeout = 1500ms;
    json::object const args{{"duration", 2}, {"steps", 4}};
    auto const started = std::chrono::steady_clock::now();
    auto r = co_await cx.c.call_tool(name, args, with_progress);
    auto const took = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
    cx.ck.expect(!r.is_error && r.joined_text().find("completed") != std::string::npos,
        name + " (2 s, 4 steps) completed in " + std::to_string(took.count()) + " ms under a 1500 ms timeout", show(r));
    cx.ck.expect(reports == 4 && last == 4 && total == 4,
        "progress: " + std::to_string(reports) + " notifications, the last 4/4",
        std::to_string(reports) + " notifications, last " + std::to_string(last) + "/" + std::to_string(total));
}

asio::awaitable<void> everything_structured(context& cx)
{
    auto const* tool = require_tool(cx, {"get-structured-content", "structuredContent"});
    if(!tool)
        co_return;
    std::string const name = tool->name;
    cx.ck.expect(tool->output_schema.has_value() && tool->output_schema->contains("properties"),
        name + ": outputSchema listed", json::serialize(tool->raw));
    json::object const args{{"location", "Chicago"}};
    auto r = co_await cx.c.call_tool(name, args);
    auto const* weather = r.structured ? r.structured->if_object() : nullptr;
    auto const* temperature = weather ? weather->if_contains("temperature") : nullptr;
    bool const text_block = r.content.size() == 1 && std::holds_alternative<agentio::text_content>(r.content[0]);
    cx.ck.expect(!r.is_error && temperature && temperature->is_number() && temperature->to_number<double>() == 36 &&
            text_block && parse_or_null(r.joined_text()) == *r.structured,
        name + "(Chicago): structuredContent temperature 36, and the same JSON as a text block", show(r));
}

asio::awaitable<void> everything_image(context& cx)
{
    auto const* tool = require_tool(cx, {"get-tiny-image", "getTinyImage"});
    if(!tool)
        co_return;
    std::string const name = tool->name;
    json::object const none;
    auto r = co_await cx.c.call_tool(name, none);
    auto const* image = r.content.size() == 3 ? std::get_if<agentio::image_content>(&r.content[1]) : nullptr;
    // "iVBORw0KGgo" is the PNG signature in base64.
    cx.ck.expect(!r.is_error && image && image->mime_type == "image/png" &&
            image->base64_data.starts_with("iVBORw0KGgo") &&
            std::holds_alternative<agentio::text_content>(r.content[0]) &&
            std::holds_alternative<agentio::text_content>(r.content[2]),
        name + ": text, image/png (" + std::to_string(image ? image->base64_data.size() : 0) + " base64 chars), text",
        show(r));
}

asio::awaitable<void> everything_annotated(context& cx)
{
    if(!require_tool(cx, {"get-annotated-message"}))
        co_return;
    json::object const args{{"messageType", "error"}, {"includeImage", true}};
    auto r = co_await cx.c.call_tool("get-annotated-message", args);
    auto const* text = r.content.size() == 2 ? std::get_if<agentio::text_content>(&r.content[0]) : nullptr;
    bool const image = r.content.size() == 2 && std::holds_alternative<agentio::image_content>(r.content[1]);
    // An "error" message annotated for the audience is content, not a failed call.
    cx.ck.expect(!r.is_error && text && text->text == "Error: Operation failed" && image,
        "get-annotated-message(error, image): annotated text and image blocks, not isError", show(r));
}

asio::awaitable<void> everything_resources(context& cx)
{
    if(require_tool(cx, {"get-resource-reference"}))
    {
        json::object const args{{"resourceType", "Text"}, {"resourceId", 2}};
        auto r = co_await cx.c.call_tool("get-resource-reference", args);
        agentio::resource_content const* res = nullptr;
        for(auto const& block : r.content)
            if(auto const* x = std::get_if<agentio::resource_content>(&block))
                res = x;
        cx.ck.expect(!r.is_error && res && res->uri.find("2") != std::string::npos && res->text && !res->text->empty(),
            "get-resource-reference(Text, 2): an embedded resource " + (res ? res->uri : std::string()) + " with text",
            show(r));
    }
    if(require_tool(cx, {"get-resource-links"}))
    {
        json::object const args{{"count", 2}};
        auto r = co_await cx.c.call_tool("get-resource-links", args);
        std::size_t links = 0;
        for(auto const& block : r.content)
            if(auto const* t = std::get_if<agentio::text_content>(&block); t && t->text.starts_with("resource_link "))
                ++links;
        cx.ck.expect(!r.is_error && links == 2,
            "get-resource-links(2): two resource_link blocks, as text for the model", show(r));
    }
}

asio::awaitable<void> everything_logging(context& cx)
{
    if(!require_tool(cx, {"toggle-simulated-logging"}))
        co_return;
    json::object const none;
    auto r = co_await cx.c.call_tool("toggle-simulated-logging", none);
    // The server logs once at once, then every 5 s: wait for one.
    asio::steady_timer t(co_await asio::this_coro::executor);
    for(int i = 0; i < 70 && cx.logs_heard == 0; ++i)
    {
        t.expires_after(100ms);
        co_await t.async_wait(asio::use_awaitable);
    }
    cx.ck.expect(!r.is_error && cx.logs_heard > 0,
        "toggle-simulated-logging: notifications/message heard: " + cx.first_log,
        "no log message within 7 s; the call: " + show(r));
    auto off = co_await cx.c.call_tool("toggle-simulated-logging", none);
    cx.ck.expect(!off.is_error && off.joined_text().starts_with("Stopped"), "toggle-simulated-logging: stopped",
        show(off));
}

asio::awaitable<void> everything_elicitation(context& cx)
{
    // Registered by the server only for a client that declares elicitation, after `initialize`.
    json::object const none;
    auto r = co_await cx.c.call_tool("trigger-elicitation-request", none);
    auto const* schema = cx.elicitation_params.if_contains("requestedSchema");
    auto const* fields = schema && schema->is_object() ? schema->get_object().if_contains("properties") : nullptr;
    bool const asked_name = fields && fields->is_object() && fields->get_object().contains("name");
    cx.ck.expect(!r.is_error && asked_name && r.joined_text().find("- Name: Ada Lovelace") != std::string::npos,
        "trigger-elicitation-request: elicitation/create answered, the server read the form", show(r));
}

asio::awaitable<void> everything_unknown_tool(context& cx)
{
    co_await unknown_tool(cx, true);
}

asio::awaitable<void> everything_ping(context& cx)
{
    co_await cx.c.ping();
    cx.ck.pass("ping");
}

// A model (the fake LLM, scripted) calls the bridged echo tool and answers with its result.
asio::awaitable<void> everything_agent(context& cx)
{
    auto const ex = co_await asio::this_coro::executor;
    agentio::dynamic_tools tools;
    mcp::bridge_options bridge;
    bridge.prefix = "everything_";
    auto const added = co_await mcp::add_tools(cx.c, tools, bridge);
    bool const has_echo = tools.contains("everything_echo");
    if(!cx.ck.expect(has_echo,
           "add_tools: " + std::to_string(added.size()) + " of " + std::to_string(cx.tools.size()) +
               " tools bridged, everything_echo among them",
           "everything_echo was not bridged"))
        co_return;

    std::string const message = "agentio meets server-everything";
    auto const script = json::parse(R"({"name": "everything-echo", "turns": [
        {"tool_calls": [{"name": "everything_echo", "input": {"message": "agentio meets server-everything"}}]},
        {"text": "The server answered: {{last_tool_result}}"}]})");
    cx.fake.add_scenario(agentio::testing::parse_scenario(script));
    cx.fake.start().value();

    agentio::http::client http(ex);
    llm::anthropic_provider provider(http, {.api_key = "any", .base_url = cx.fake.anthropic_base_url()});
    agent::orchestrator model_loop(provider, std::move(tools), {.model = "everything-echo"});
    std::vector<llm::message> conversation{llm::message::user("Echo something through the MCP server.")};
    std::string answer;
    std::string calls;
    bool call_failed = false;
    auto sink = [&](agent::event const& e) {
        if(auto const* d = std::get_if<agent::text_delta>(&e))
            answer += d->text;
        else if(auto const* call = std::get_if<agent::tool_call>(&e))
        {
            calls += call->tool + "(" + call->input_summary + ") -> " + call->result_summary + "; ";
            call_failed = call_failed || call->is_error;
        }
    };
    auto const result = co_await model_loop.run(conversation, sink);
    cx.ck.expect(result.status == agent::run_result::outcome::completed && !call_failed && result.tools.size() == 1 &&
            answer.find("Echo: " + message) != std::string::npos,
        "agent: the model called everything_echo and answered '" + answer + "'",
        std::string(to_string(result.status)) + " " + result.error_message + "; calls: " + calls + "answer: '" +
            answer + "'");
}

asio::awaitable<void> check_everything(context& cx)
{
    auto const* echo = find_tool(cx, {"echo"});
    cx.ck.expect(echo && echo->input_schema.contains("properties"), "echo is listed with its input schema",
        "no echo tool");
    co_await run_step(cx, "echo", everything_echo);
    co_await run_step(cx, "sum", everything_sum);
    co_await run_step(cx, "long-running operation", everything_long_running);
    co_await run_step(cx, "structured content", everything_structured);
    co_await run_step(cx, "image", everything_image);
    co_await run_step(cx, "annotated message", everything_annotated);
    co_await run_step(cx, "resources", everything_resources);
    co_await run_step(cx, "logging", everything_logging);
    co_await run_step(cx, "elicitation", everything_elicitation);
    co_await run_step(cx, "unknown tool", everything_unknown_tool);
    co_await run_step(cx, "ping", everything_ping);
    co_await run_step(cx, "agent", everything_agent);
}

// --- agentio-portfolio mcp --------------------------------------------------------------

asio::awaitable<void> portfolio_list(context& cx)
{
    std::vector<std::string> names;
    for(auto const& t : cx.tools)
        names.push_back(t.name);
    std::vector<std::string> const expected{"buscar_iniciativas", "buscar_en_tabla", "obtener_iniciativa",
        "obtener_documentos", "contar_iniciativas", "totalizar_importes", "listar_tablas", "describir_tabla",
        "obtener_valores_campo", "generar_grafico"};
    cx.ck.expect(names == expected, "the ten tools in order", std::to_string(names.size()) + " tools");
    auto const* buscar = find_tool(cx, {"buscar_iniciativas"});
    auto const* read_only = buscar ? buscar->annotations.if_contains("readOnlyHint") : nullptr;
    cx.ck.expect(read_only && read_only->is_bool() && read_only->get_bool(), "buscar_iniciativas is readOnlyHint",
        buscar ? json::serialize(buscar->annotations) : "not listed");
    co_return;
}

asio::awaitable<void> portfolio_tables(context& cx)
{
    json::object const none;
    auto r = co_await cx.c.call_tool("listar_tablas", none);
    auto const tables = parse_or_null(r.joined_text());
    auto const* list = tables.if_array();
    bool rows = list && !list->empty();
    if(rows)
        for(auto const& t : *list)
        {
            auto const* n = t.is_object() ? t.get_object().if_contains("num_registros") : nullptr;
            rows = rows && n && n->is_number();
        }
    auto const* first = rows ? list->front().get_object().if_contains("num_registros") : nullptr;
    bool const filled = first && first->to_number<double>() > 0;
    cx.ck.expect(!r.is_error && list && list->size() == 26 && rows && filled,
        "listar_tablas: 26 tables with their row counts, the first not empty", show(r));
}

asio::awaitable<void> portfolio_search(context& cx)
{
    json::object const filter{{"field", "estado_de_la_iniciativa"}, {"operator", "eq"}, {"value", "En Ejecución"}};
    json::object args{{"limite", 3}};
    args["filtros"] = json::array{filter};
    auto r = co_await cx.c.call_tool("buscar_iniciativas", args);
    auto const page = parse_or_null(r.joined_text());
    auto const* o = page.if_object();
    auto const* total = o ? o->if_contains("total") : nullptr;
    auto const* rows = o ? o->if_contains("datos") : nullptr;
    bool const three = rows && rows->is_array() && rows->get_array().size() == 3;
    bool const counted = total && total->is_number() && total->to_number<double>() >= 3;
    // structuredContent from 2025-06-18 on: the same object as the text.
    std::string const& version = cx.c.server().protocol_version;
    bool const wants_structured = version != "2024-11-05" && version != "2025-03-26";
    bool const structured_ok = !wants_structured || (r.structured && *r.structured == page);
    cx.ck.expect(!r.is_error && three && counted && structured_ok,
        "buscar_iniciativas(En Ejecución, limite 3): 3 of " + (total ? json::serialize(*total) : std::string("?")) +
            (wants_structured ? ", structuredContent the same" : ""),
        show(r));
}

asio::awaitable<void> portfolio_tool_error(context& cx)
{
    json::object const args{{"tabla", "usuarios"}};
    auto r = co_await cx.c.call_tool("buscar_en_tabla", args);
    cx.ck.expect(r.is_error &&
            r.joined_text() == "Tabla 'usuarios' no disponible. Usa listar_tablas para ver las tablas disponibles.",
        "buscar_en_tabla(usuarios): the tool's isError message", show(r));
}

asio::awaitable<void> portfolio_unknown_tool(context& cx)
{
    co_await unknown_tool(cx, false);
}

asio::awaitable<void> check_portfolio(context& cx)
{
    cx.ck.expect(cx.c.server().name == "portfolio-digital", "serverInfo.name portfolio-digital", cx.c.server().name);
    co_await run_step(cx, "tools", portfolio_list);
    co_await run_step(cx, "listar_tablas", portfolio_tables);
    co_await run_step(cx, "buscar_iniciativas", portfolio_search);
    co_await run_step(cx, "tool error", portfolio_tool_error);
    co_await run_step(cx, "unknown tool", portfolio_unknown_tool);
}

// --- the program ------------------------------------------------------------------------

std::shared_ptr<mcp::client_transport> make_transport(asio::any_io_executor ex, arguments const& a)
{
    if(a.transport == "http")
    {
        mcp::http_transport_options o;
        o.url = a.url;
        return mcp::make_http_transport(ex, std::move(o));
    }
    if(a.transport == "sse")
    {
        mcp::legacy_sse_transport_options o;
        o.url = a.url;
        return mcp::make_legacy_sse_transport(ex, std::move(o));
    }
    mcp::process_options p;
    p.program = a.command.front();
    p.arguments.assign(a.command.begin() + 1, a.command.end());
    p.stderr_log = a.log;
    return mcp::make_stdio_transport(ex, std::move(p));
}

asio::awaitable<void> run(arguments a, checks& ck, agentio::testing::fake_llm& fake)
{
    auto const ex = co_await asio::this_coro::executor;
    context* shared = nullptr; // the callbacks reach the context through it once it exists
    mcp::client_options options;
    options.name = "agentio-foreign-check";
    options.request_timeout = 30s;
    options.on_log = [&shared](std::string_view level, std::string_view, json::value const& data) {
        if(!shared)
            return;
        if(shared->logs_heard++ == 0)
            shared->first_log = std::string(level) + " " +
                (data.is_string() ? std::string(data.get_string()) : json::serialize(data));
    };
    options.on_elicitation = [&shared](json::object const& params) -> asio::awaitable<json::object> {
        if(shared)
            shared->elicitation_params = params;
        json::object content{{"name", "Ada Lovelace"}, {"check", true}, {"integer", 7}};
        json::object answer{{"action", "accept"}};
        answer["content"] = std::move(content);
        co_return answer;
    };
    context cx{mcp::client(make_transport(ex, a), std::move(options)), ck, fake};
    shared = &cx;

    auto const server = co_await cx.c.connect();
    ck.expect(!server.name.empty() && !server.protocol_version.empty(),
        "connected: protocol " + server.protocol_version + ", server " + server.name + " " + server.version,
        "no server name or version");

    cx.tools = co_await cx.c.list_tools();
    std::string names;
    for(auto const& t : cx.tools)
        names += (names.empty() ? "" : ", ") + t.name;
    ck.expect(!cx.tools.empty(), "tools/list: " + std::to_string(cx.tools.size()) + " tools: " + names, "no tools");

    if(a.server == "everything")
        co_await check_everything(cx);
    else
        co_await check_portfolio(cx);

    co_await cx.c.close();
    shared = nullptr;
    ck.pass("closed");
}

int usage(char const* program)
{
    std::fprintf(stderr,
        "usage: %s --server everything|portfolio [--log FILE] (--url URL | --sse URL | --stdio CMD ARGS...)\n",
        program);
    return 2;
}

} // namespace

int main(int argc, char** argv)
{
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    arguments a;
    for(int i = 1; i < argc; ++i)
    {
        std::string_view const arg = argv[i];
        bool const has_value = i + 1 < argc;
        if(arg == "--stdio" && has_value)
        {
            a.transport = "stdio";
            a.command.assign(argv + i + 1, argv + argc);
            break;
        }
        if(!has_value)
            return usage(argv[0]);
        if(arg == "--server")
            a.server = argv[++i];
        else if(arg == "--url" || arg == "--sse")
        {
            a.transport = arg == "--url" ? "http" : "sse";
            a.url = argv[++i];
        }
        else if(arg == "--log")
            a.log = argv[++i];
        else
            return usage(argv[0]);
    }
    if((a.server != "everything" && a.server != "portfolio") || a.transport.empty())
        return usage(argv[0]);

    checks ck{a.server + "/" + a.transport};
    asio::io_context ioc;
    agentio::testing::fake_llm fake(ioc.get_executor());
    bool finished = false;
    asio::co_spawn(ioc, run(a, ck, fake), [&](std::exception_ptr e) {
        finished = true;
        if(e)
        {
            try
            {
                std::rethrow_exception(e);
            }
            catch(mcp::client_error const& failure)
            {
                ck.fail("the session", describe(failure));
            }
            catch(std::exception const& failure)
            {
                ck.fail("the session", failure.what());
            }
        }
        ioc.stop();
    });
    ioc.run_for(3min);
    if(!finished)
        ck.fail("the session", "did not finish within 3 minutes");
    std::printf("%s: %s\n", ck.label.c_str(),
        ck.failures ? (std::to_string(ck.failures) + " check(s) failed").c_str() : "all checks passed");
    return ck.failures ? 1 : 0;
}
