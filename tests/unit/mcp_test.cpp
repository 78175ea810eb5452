// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The MCP protocol core and the stdio transport, on a small compile-time
// toolset: messages in, messages out, no network. The stdio tests run the
// transport on a pair of real pipes.
#include "spans.hpp"

#include <agentio/mcp.hpp>
#include <agentio/tool.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/v6_only.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/use_future.hpp>
#include <boost/asio/write.hpp>
#include <boost/describe.hpp>
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <thread>
#include <unistd.h>

namespace asio = boost::asio;
namespace json = boost::json;
namespace mcp = agentio::mcp;

namespace mcp_test {

struct echo
{
    static constexpr std::string_view name = "echo";
    static constexpr std::string_view description = "Repite el texto";
    struct args
    {
        std::string text;
    };
    asio::awaitable<agentio::tool_result> operator()(args a, agentio::tool_context&) const
    {
        co_return agentio::tool_result::json(json::object{{"echo", a.text}});
    }
};
BOOST_DESCRIBE_STRUCT(echo::args, (), (text))

// Waits `ms`, reporting progress before and after.
struct slow
{
    static constexpr std::string_view name = "slow";
    static constexpr std::string_view description = "Espera";
    struct args
    {
        std::int64_t ms = 0;
    };
    asio::awaitable<agentio::tool_result> operator()(args a, agentio::tool_context& ctx) const
    {
        ctx.report_progress(0, 2, "empieza");
        asio::steady_timer t(co_await asio::this_coro::executor, std::chrono::milliseconds(a.ms));
        co_await t.async_wait(asio::use_awaitable);
        ctx.report_progress(2, 2, "");
        co_return agentio::tool_result::text("hecho");
    }
};
BOOST_DESCRIBE_STRUCT(slow::args, (), (ms))

// Logs, then asks the client to sample, and answers with what it said.
struct ask
{
    static constexpr std::string_view name = "ask";
    static constexpr std::string_view description = "Pregunta al cliente";
    struct args
    {
        std::string prompt;
    };
    asio::awaitable<agentio::tool_result> operator()(args a, agentio::tool_context& ctx) const
    {
        ctx.write_log("info", "preguntando");
        json::object params{{"messages",
                                json::array{json::object{{"role", "user"},
                                    {"content", json::object{{"type", "text"}, {"text", a.prompt}}}}}},
            {"maxTokens", 100}};
        auto reply = co_await agentio::mcp::client_of(ctx)->ask("sampling/createMessage", std::move(params));
        if(!reply.ok())
            co_return agentio::tool_result::error(agentio::to_json_text(reply.error));
        co_return agentio::tool_result::text("LLM response: " +
            std::string(reply.result.at("content").at("text").as_string()));
    }
};
BOOST_DESCRIBE_STRUCT(ask::args, (), (prompt))

// Needs a confirmation from the user (multi-round input), keeping state between rounds.
struct confirm
{
    static constexpr std::string_view name = "confirm";
    static constexpr std::string_view description = "Pide confirmación";
    struct args
    {
    };
    asio::awaitable<agentio::tool_result> operator()(args, agentio::tool_context& ctx) const
    {
        auto const& client = *agentio::mcp::client_of(ctx);
        auto const* answer = client.input_responses.if_contains("ok");
        if(!answer || client.request_state != "pending")
            co_return agentio::mcp::input_required(
                json::object{{"ok",
                    json::object{{"method", "elicitation/create"},
                        {"params",
                            json::object{{"message", "¿Seguro?"},
                                {"requestedSchema", json::object{{"type", "object"}}}}}}}},
                "pending");
        co_return agentio::tool_result::text("confirmado: " + std::string(answer->at("action").as_string()));
    }
};
BOOST_DESCRIBE_STRUCT(confirm::args, (), ())

// Answers with the trace context it was given: what it would send to a service it calls.
struct whose_trace
{
    static constexpr std::string_view name = "whose_trace";
    static constexpr std::string_view description = "Dice su traceparent";
    struct args
    {
    };
    asio::awaitable<agentio::tool_result> operator()(args, agentio::tool_context& ctx) const
    {
        co_return agentio::tool_result::text(std::string(ctx.traceparent));
    }
};
BOOST_DESCRIBE_STRUCT(whose_trace::args, (), ())

} // namespace mcp_test

template<>
struct agentio::field_traits<mcp_test::ask::args>
{
    static constexpr agentio::field_info fields[] = {{.name = "prompt", .description = "Pregunta"}};
};

template<>
struct agentio::field_traits<mcp_test::echo::args>
{
    static constexpr agentio::field_info fields[] = {
        {.name = "text", .description = "Texto", .min_length = 1, .annotation = agentio::mcp::param_header("Text")}};
};
template<>
struct agentio::field_traits<mcp_test::slow::args>
{
    static constexpr agentio::field_info fields[] = {{.name = "ms", .description = "Milisegundos", .minimum = 0}};
};

namespace {

using test_tools = agentio::toolset<mcp_test::echo, mcp_test::slow, mcp_test::ask, mcp_test::confirm>;

struct harness
{
    asio::io_context ioc;
    test_tools tools{agentio::toolset_options{}, mcp_test::echo{}, mcp_test::slow{}, mcp_test::ask{},
        mcp_test::confirm{}};
    mcp::server<test_tools> server;
    std::vector<json::object> sent; // notifications the session sent
    mcp::session session{[this](json::object m) { sent.push_back(std::move(m)); }};

    explicit harness(mcp::server_options o = {}) : server(tools, std::move(o)) {}

    std::optional<json::object> handle(std::string_view text)
    {
        auto f = asio::co_spawn(ioc, server.handle_text(session, text), asio::use_future);
        ioc.restart();
        ioc.run();
        return f.get();
    }
    json::value result(std::string_view text)
    {
        auto r = handle(text);
        BOOST_TEST_REQUIRE(r.has_value());
        BOOST_TEST_REQUIRE(r->contains("result"), json::serialize(*r));
        return r->at("result");
    }
    std::int64_t error_code(std::string_view text)
    {
        auto r = handle(text);
        BOOST_TEST_REQUIRE(r.has_value());
        BOOST_TEST_REQUIRE(r->contains("error"), json::serialize(*r));
        return r->at("error").at("code").as_int64();
    }
    void initialize(std::string_view version = "2025-11-25")
    {
        result(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":")" + std::string(version) +
            R"(","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})");
        BOOST_TEST(!handle(R"({"jsonrpc":"2.0","method":"notifications/initialized"})").has_value());
    }
};

// Trace context across MCP: a server of echo and whose_trace, with or without a tracer.
using trace_tools = agentio::toolset<mcp_test::echo, mcp_test::whose_trace>;

namespace trace = agentio::trace;

// A W3C traceparent, and the same trace seen from another span.
constexpr std::string_view caller_tp = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
constexpr std::string_view header_tp = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

using agentio_test::tracing_on;

struct trace_harness
{
    asio::io_context ioc;
    trace::tracer tracer{tracing_on()};
    trace_tools tools{agentio::toolset_options{}, mcp_test::echo{}, mcp_test::whose_trace{}};
    mcp::server<trace_tools> server;
    mcp::session session{[](json::object) {}};

    explicit trace_harness(bool traced) : server(tools, mcp::server_options{.tracer = traced ? &tracer : nullptr}) {}

    // One message, with the transport's traceparent (an HTTP header) when given.
    json::object handle(std::string_view text, std::string_view transport_traceparent = {})
    {
        auto f = asio::co_spawn(ioc, server.handle(session, json::parse(text), {}, transport_traceparent),
            asio::use_future);
        ioc.restart();
        ioc.run();
        auto r = f.get();
        BOOST_TEST_REQUIRE(r.has_value());
        return std::move(*r);
    }
    // The traceparent the tool whose_trace was given.
    std::string seen(std::string_view meta, std::string_view transport_traceparent = {})
    {
        auto const r = handle(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"whose_trace")" +
                (meta.empty() ? std::string() : R"(,"_meta":{"traceparent":")" + std::string(meta) + "\"}") + "}}",
            transport_traceparent);
        BOOST_TEST_REQUIRE(r.contains("result"), json::serialize(r));
        return std::string(r.at("result").at("content").at(0).at("text").as_string());
    }
    void initialize()
    {
        handle(
            R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}})");
    }
    std::vector<trace::span_data> spans()
    {
        std::vector<trace::span_data> out;
        tracer.take(out, 100);
        return out;
    }
};

// A span's string attribute ("" when it has none).
std::string attribute(trace::span_data const& span, std::string_view key)
{
    for(auto const& a : span.attributes)
        if(a.key == key)
            if(auto const* text = std::get_if<std::string>(&a.value))
                return *text;
    return {};
}

} // namespace

BOOST_AUTO_TEST_SUITE(mcp_jsonrpc)

BOOST_AUTO_TEST_CASE(messages_are_classified_by_the_rules)
{
    using mcp::jsonrpc::kind;
    std::string why;
    auto k = [&](char const* text) { return mcp::jsonrpc::classify(json::parse(text), why); };
    BOOST_TEST((k(R"({"jsonrpc":"2.0","id":1,"method":"ping"})") == kind::request));
    BOOST_TEST((k(R"({"jsonrpc":"2.0","id":"a","method":"ping","params":{}})") == kind::request));
    BOOST_TEST((k(R"({"jsonrpc":"2.0","method":"notifications/initialized"})") == kind::notification));
    BOOST_TEST((k(R"({"jsonrpc":"2.0","id":3,"result":{}})") == kind::response));
    BOOST_TEST((k(R"({"jsonrpc":"2.0","id":3,"error":{"code":1,"message":"x"}})") == kind::response));
    BOOST_TEST((k(R"({"jsonrpc":"1.0","id":1,"method":"ping"})") == kind::invalid));
    BOOST_TEST((k(R"({"jsonrpc":"2.0","id":null,"method":"ping"})") == kind::invalid));
    BOOST_TEST((k(R"({"jsonrpc":"2.0","id":1.5,"method":"ping"})") == kind::invalid));
    BOOST_TEST((k(R"({"jsonrpc":"2.0","id":1,"method":3})") == kind::invalid));
    BOOST_TEST((k(R"({"jsonrpc":"2.0","id":1,"method":"x","params":[1]})") == kind::invalid));
    BOOST_TEST((k(R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])") == kind::invalid));
    BOOST_TEST(why == "batches are not supported");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(mcp_server)

BOOST_AUTO_TEST_CASE(initialize_negotiates_the_version)
{
    harness h;
    auto const r = h.result(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18",
        "capabilities":{"sampling":{}},"clientInfo":{"name":"c","version":"2"}}})");
    BOOST_TEST(r.at("protocolVersion") == "2025-06-18");
    BOOST_TEST(r.at("capabilities").at("tools").is_object());
    BOOST_TEST(r.at("capabilities").at("logging").is_object());
    BOOST_TEST(r.at("serverInfo").at("name") == "agentio");
    BOOST_TEST(h.session.protocol_version() == "2025-06-18");
    BOOST_TEST(h.session.client_capabilities().contains("sampling"));
    BOOST_TEST(h.session.client_info().at("name") == "c");

    harness future;
    BOOST_TEST(
        future.result(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2099-01-01"}})")
            .at("protocolVersion") == "2025-11-25");
    BOOST_TEST(future.error_code(
                   R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}})") ==
        mcp::jsonrpc::invalid_request);
    harness no_version;
    BOOST_TEST(no_version.error_code(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{}})") ==
        mcp::jsonrpc::invalid_params);
}

BOOST_AUTO_TEST_CASE(the_json_rpc_errors)
{
    harness h;
    BOOST_TEST(h.error_code(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})") == mcp::jsonrpc::invalid_request);
    BOOST_TEST(h.result(R"({"jsonrpc":"2.0","id":1,"method":"ping"})") == json::object{});
    h.initialize();
    BOOST_TEST(h.error_code(R"({"jsonrpc":"2.0","id":1,"method":"nope/nope"})") == mcp::jsonrpc::method_not_found);
    BOOST_TEST(h.error_code(R"({"jsonrpc":"2.0","id":1,"method":"ping"}x)") == mcp::jsonrpc::parse_error);
    BOOST_TEST(h.handle(R"({"jsonrpc":"2.0","id":1,"method":"ping"}x)")->at("id").is_null());
    BOOST_TEST(h.error_code(R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])") == mcp::jsonrpc::invalid_request);
    BOOST_TEST(h.handle(R"({"jsonrpc":"2.0","id":7,"method":5})")->at("id") == 7);
    BOOST_TEST(!h.handle(R"({"jsonrpc":"2.0","method":"notifications/unknown"})").has_value());
    BOOST_TEST(!h.handle(R"({"jsonrpc":"2.0","id":9,"result":{}})").has_value());
}

BOOST_AUTO_TEST_CASE(tools_list_with_the_toolsets_schemas_and_pages)
{
    harness h({.tools_page_size = 1, .read_only_tools = true});
    h.initialize();
    auto const first = h.result(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})");
    BOOST_TEST_REQUIRE(first.at("tools").as_array().size() == 1u);
    auto const& tool = first.at("tools").at(0);
    BOOST_TEST(tool.at("name") == "echo");
    BOOST_TEST(tool.at("description") == "Repite el texto");
    BOOST_TEST(tool.at("inputSchema") == json::parse(agentio::schema_of<mcp_test::echo::args>));
    BOOST_TEST(tool.at("annotations").at("readOnlyHint") == true);
    std::string const cursor(first.at("nextCursor").as_string());
    auto const second = h.result(R"({"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":")" + cursor +
        "\"}}");
    BOOST_TEST(second.at("tools").at(0).at("name") == "slow");
    BOOST_TEST(second.at("nextCursor") == "2");
    auto const third = h.result(R"({"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":"2"}})");
    BOOST_TEST(third.at("tools").at(0).at("name") == "ask");
    BOOST_TEST(third.at("nextCursor") == "3");
    auto const last = h.result(R"({"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":"3"}})");
    BOOST_TEST(last.at("tools").at(0).at("name") == "confirm");
    BOOST_TEST(!last.as_object().contains("nextCursor"));
    BOOST_TEST(h.error_code(R"({"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"cursor":"zz"}})") ==
        mcp::jsonrpc::invalid_params);
}

BOOST_AUTO_TEST_CASE(tools_call_results_errors_and_structured_content)
{
    harness h;
    h.initialize();
    auto const ok = h.result(
        R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hola"}}})");
    BOOST_TEST(ok.at("isError") == false);
    BOOST_TEST(ok.at("content").at(0).at("type") == "text");
    BOOST_TEST(ok.at("content").at(0).at("text") == R"({"echo":"hola"})");
    BOOST_TEST(ok.at("structuredContent") == json::parse(R"({"echo":"hola"})"));

    // Invalid arguments are a tool error the model can read, with the field's pointer.
    auto const bad =
        h.result(R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":""}}})");
    BOOST_TEST(bad.at("isError") == true);
    BOOST_TEST(std::string(bad.at("content").at(0).at("text").as_string()).find("/text") != std::string::npos);
    auto const missing = h.result(R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo"}})");
    BOOST_TEST(missing.at("isError") == true);

    BOOST_TEST(h.error_code(R"({"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"nada"}})") ==
        mcp::jsonrpc::invalid_params);
    BOOST_TEST(h.error_code(R"({"jsonrpc":"2.0","id":5,"method":"tools/call","params":{}})") ==
        mcp::jsonrpc::invalid_params);
    BOOST_TEST(
        h.error_code(R"({"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"echo","arguments":[1]}})") ==
        mcp::jsonrpc::invalid_params);

    // Before 2025-06-18 there is no structuredContent; the text carries the JSON.
    harness old;
    old.initialize("2025-03-26");
    auto const r = old.result(
        R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"a"}}})");
    BOOST_TEST(!r.as_object().contains("structuredContent"));
}

BOOST_AUTO_TEST_CASE(progress_goes_out_with_the_clients_token_before_the_result)
{
    harness h;
    h.initialize();
    auto const r = h.result(
        R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","arguments":{"ms":1},"_meta":{"progressToken":1}}})");
    BOOST_TEST(r.at("content").at(0).at("text") == "hecho");
    BOOST_TEST_REQUIRE(h.sent.size() == 2u);
    BOOST_TEST(h.sent[0].at("method") == "notifications/progress");
    BOOST_TEST(h.sent[0].at("params") ==
        json::parse(R"({"progressToken":1,"progress":0E0,"total":2E0,"message":"empieza"})"));
    BOOST_TEST(h.sent[1].at("params").at("progress") == 2.0);
    BOOST_TEST(!h.sent[1].at("params").as_object().contains("message"));
    // Without a token, no progress.
    h.sent.clear();
    h.result(R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","arguments":{"ms":1}}})");
    BOOST_TEST(h.sent.empty());
}

BOOST_AUTO_TEST_CASE(logging_follows_the_clients_level)
{
    harness h;
    h.initialize();
    h.session.log(mcp::log_level::error, "antes");
    BOOST_TEST(h.sent.empty()); // nothing until the client sets a level
    BOOST_TEST(h.result(R"({"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{"level":"warning"}})") ==
        json::object{});
    h.session.log(mcp::log_level::info, "no");
    h.session.log(mcp::log_level::error, "sí", "agentio");
    BOOST_TEST_REQUIRE(h.sent.size() == 1u);
    BOOST_TEST(h.sent[0] ==
        json::parse(
            R"({"jsonrpc":"2.0","method":"notifications/message","params":{"level":"error","data":"sí","logger":"agentio"}})"));
    BOOST_TEST(h.error_code(R"({"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"loud"}})") ==
        mcp::jsonrpc::invalid_params);
}

BOOST_AUTO_TEST_CASE(a_cancelled_call_gets_no_answer)
{
    harness h;
    h.initialize();
    auto call = asio::co_spawn(h.ioc,
        h.server.handle_text(h.session,
            R"({"jsonrpc":"2.0","id":"c1","method":"tools/call","params":{"name":"slow","arguments":{"ms":60000}}})"),
        asio::use_future);
    auto cancel = asio::co_spawn(h.ioc,
        h.server.handle_text(h.session,
            R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"c1","reason":"ya no"}})"),
        asio::use_future);
    h.ioc.restart();
    auto const t0 = std::chrono::steady_clock::now();
    h.ioc.run();
    BOOST_TEST(!call.get().has_value());
    BOOST_TEST(!cancel.get().has_value());
    BOOST_TEST((std::chrono::steady_clock::now() - t0 < std::chrono::seconds(30)));
}

BOOST_AUTO_TEST_CASE(a_tool_asks_the_client_and_logs)
{
    harness h;
    h.result(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25",
        "capabilities":{"sampling":{}}}})");
    h.result(R"({"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{"level":"debug"}})");
    auto call = asio::co_spawn(h.ioc,
        h.server.handle_text(h.session,
            R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ask","arguments":{"prompt":"¿Capital?"}}})"),
        asio::use_future);
    h.ioc.restart();
    while(h.sent.size() < 2 && h.ioc.run_one())
        ;
    BOOST_TEST_REQUIRE(h.sent.size() == 2u);
    BOOST_TEST(h.sent[0].at("method") == "notifications/message");
    BOOST_TEST(h.sent[0].at("params").at("data") == "preguntando");
    auto const& request = h.sent[1];
    BOOST_TEST(request.at("method") == "sampling/createMessage");
    BOOST_TEST(request.at("params").at("messages").at(0).at("content").at("text") == "¿Capital?");
    // The client's answer, as a message of its own, resumes the tool.
    json::object answer{{"jsonrpc", "2.0"}, {"id", request.at("id")},
        {"result", json::parse(R"({"role":"assistant","content":{"type":"text","text":"París"},"model":"m"})")}};
    auto reply = asio::co_spawn(h.ioc, h.server.handle(h.session, answer), asio::use_future);
    h.ioc.run();
    BOOST_TEST(!reply.get().has_value());
    auto const r = call.get();
    BOOST_TEST_REQUIRE(r.has_value());
    BOOST_TEST(r->at("result").at("content").at(0).at("text") == "LLM response: París");

    // A client without sampling is not asked.
    harness plain;
    plain.initialize();
    auto const refused = plain.result(
        R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ask","arguments":{"prompt":"x"}}})");
    BOOST_TEST(refused.at("isError") == true);
    BOOST_TEST(std::string(refused.at("content").at(0).at("text").as_string()).find("sampling") != std::string::npos);
}

// A 2026-07-28 request's _meta, with a placeholder for extra members.
std::string stateless(std::string_view method, std::string_view params = "", std::string_view meta_extra = "",
    std::string_view version = "2026-07-28", std::string_view caps = "{}")
{
    return R"({"jsonrpc":"2.0","id":9,"method":")" + std::string(method) + R"(","params":{)" + std::string(params) +
        (params.empty() ? "" : ",") + R"("_meta":{"io.modelcontextprotocol/protocolVersion":")" + std::string(version) +
        R"(","io.modelcontextprotocol/clientCapabilities":)" + std::string(caps) +
        R"(,"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"})" + std::string(meta_extra) + "}}}";
}

BOOST_AUTO_TEST_CASE(stateless_requests_need_no_handshake)
{
    harness h; // never initialized
    auto const discover = h.result(stateless("server/discover"));
    BOOST_TEST(discover.at("resultType") == "complete");
    auto const& versions = discover.at("supportedVersions").as_array();
    BOOST_TEST(versions.at(0) == "2026-07-28");
    BOOST_TEST((std::find(versions.begin(), versions.end(), json::value("2025-11-25")) != versions.end()));
    BOOST_TEST(discover.at("capabilities").at("tools").as_object().empty());
    BOOST_TEST(discover.at("_meta").at("io.modelcontextprotocol/serverInfo").at("name") == "agentio");
    BOOST_TEST(discover.at("ttlMs").as_int64() >= 0);
    BOOST_TEST(discover.at("cacheScope") == "public");

    auto const list = h.result(stateless("tools/list"));
    BOOST_TEST(list.at("tools").as_array().size() == 4u);
    BOOST_TEST(list.at("resultType") == "complete");
    BOOST_TEST(list.at("cacheScope") == "public");
    auto const call = h.result(stateless("tools/call", R"("name":"echo","arguments":{"text":"hola"})"));
    BOOST_TEST(call.at("resultType") == "complete");
    BOOST_TEST(call.at("structuredContent").at("echo") == "hola");
    BOOST_TEST(!call.as_object().contains("ttlMs"));
    BOOST_TEST(h.session.protocol_version().empty()); // nothing was kept

    // The handshake still works on the same session afterwards.
    h.initialize();
    BOOST_TEST(h.session.protocol_version() == "2025-11-25");
}

BOOST_AUTO_TEST_CASE(stateless_errors)
{
    harness h;
    BOOST_TEST(h.error_code(R"({"jsonrpc":"2.0","id":1,"method":"server/discover"})") == -32602);
    BOOST_TEST(
        h.error_code(
            R"({"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}})") ==
        -32602); // no clientCapabilities
    auto const old = h.handle(stateless("tools/list", "", "", "v999.0.0"));
    BOOST_TEST(old->at("error").at("code") == -32022);
    BOOST_TEST(old->at("error").at("data").at("requested") == "v999.0.0");
    BOOST_TEST(old->at("error").at("data").at("supported").at(0) == "2026-07-28");
    for(auto removed : {"ping", "logging/setLevel", "resources/subscribe"})
        BOOST_TEST(h.error_code(stateless(removed)) == -32601);
    BOOST_TEST(h.error_code(stateless("no/such")) == -32601);
    BOOST_TEST(h.error_code(stateless("tools/list", "", R"(,"io.modelcontextprotocol/logLevel":"loud")")) == -32602);

    // A tool that needs sampling from a client that does not offer it: -32021 naming the capability.
    auto const missing = h.handle(stateless("tools/call", R"("name":"ask","arguments":{"prompt":"x"})"));
    BOOST_TEST(missing->at("error").at("code") == -32021);
    BOOST_TEST(missing->at("error").at("data").at("requiredCapabilities").at("sampling").as_object().empty());

    // Logs go out only when the request asks for them with its logLevel.
    h.sent.clear();
    h.result(stateless("tools/call", R"("name":"ask","arguments":{"prompt":"x"})", "", "2026-07-28",
        R"({"sampling":{}})"));
    BOOST_TEST(h.sent.empty());
    auto const asked = h.result(stateless("tools/call", R"("name":"ask","arguments":{"prompt":"x"})",
        R"(,"io.modelcontextprotocol/logLevel":"info")", "2026-07-28", R"({"sampling":{}})"));
    BOOST_TEST_REQUIRE(h.sent.size() == 1u);
    BOOST_TEST(h.sent[0].at("params").at("data") == "preguntando");
    BOOST_TEST(asked.at("isError") == true); // no server-to-client requests in 2026-07-28
}

BOOST_AUTO_TEST_CASE(multi_round_input_in_both_eras)
{
    // 2026-07-28: the client gets input_required with signed state, answers, and calls again.
    harness h;
    auto const caps = R"({"elicitation":{}})";
    auto const first = h.result(stateless("tools/call", R"("name":"confirm","arguments":{})", "", "2026-07-28", caps));
    BOOST_TEST(first.at("resultType") == "input_required");
    BOOST_TEST(first.at("inputRequests").at("ok").at("method") == "elicitation/create");
    std::string const state(first.at("requestState").as_string());
    BOOST_TEST(state.find("pending") == std::string::npos); // opaque: hex and a MAC
    auto const answers = std::string(R"("inputResponses":{"ok":{"action":"accept","content":{}}},"requestState":")");
    auto const done = h.result(stateless("tools/call", R"("name":"confirm","arguments":{},)" + answers + state + "\"",
        "", "2026-07-28", caps));
    BOOST_TEST(done.at("resultType") == "complete");
    BOOST_TEST(done.at("content").at(0).at("text") == "confirmado: accept");
    // A forged state is refused before the tool runs; so is a client that cannot answer.
    std::string forged = state;
    forged[0] = forged[0] == '7' ? '6' : '7';
    BOOST_TEST(h.error_code(stateless("tools/call", R"("name":"confirm","arguments":{},)" + answers + forged + "\"", "",
                   "2026-07-28", caps)) == -32602);
    auto const refused = h.handle(stateless("tools/call", R"("name":"confirm","arguments":{})"));
    BOOST_TEST(refused->at("error").at("code") == -32021);
    BOOST_TEST(refused->at("error").at("data").at("requiredCapabilities").as_object().contains("elicitation"));

    // A handshake session: the server asks the client itself and calls the tool again.
    harness session;
    session.result(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25",
        "capabilities":{"elicitation":{}}}})");
    auto call = asio::co_spawn(session.ioc,
        session.server.handle_text(session.session,
            R"({"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"confirm","arguments":{}}})"),
        asio::use_future);
    session.ioc.restart();
    while(session.sent.empty() && session.ioc.run_one())
        ;
    BOOST_TEST_REQUIRE(session.sent.size() == 1u);
    auto const& request = session.sent[0];
    BOOST_TEST(request.at("method") == "elicitation/create");
    BOOST_TEST(request.at("params").at("message") == "¿Seguro?");
    json::object answer{{"jsonrpc", "2.0"}, {"id", request.at("id")},
        {"result", json::parse(R"({"action":"decline"})")}};
    auto reply = asio::co_spawn(session.ioc, session.server.handle(session.session, answer), asio::use_future);
    session.ioc.run();
    BOOST_TEST(!reply.get().has_value());
    auto const r = call.get();
    BOOST_TEST_REQUIRE(r.has_value());
    BOOST_TEST(r->at("result").at("content").at(0).at("text") == "confirmado: decline");
}

BOOST_AUTO_TEST_CASE(resources_prompts_and_completion)
{
    harness h;
    h.server.add_resource({.uri = "test://static-text",
        .name = "static-text",
        .mime_type = "text/plain",
        .read = [](std::string const& uri) {
            return std::vector<mcp::resource_contents>{{uri, "text/plain", "contenido", std::nullopt}};
        }});
    h.server.add_resource_template({.uri_template = "test://template/{id}/data",
        .name = "template",
        .mime_type = "application/json",
        .read = [](std::string const& uri, std::map<std::string, std::string> const& v) {
            return std::vector<mcp::resource_contents>{
                {uri, "application/json", "{\"id\":\"" + v.at("id") + "\"}", std::nullopt}};
        }});
    h.server.add_prompt({.name = "saludo",
        .description = "Saluda",
        .arguments = {{"nombre", "A quién", true}},
        .get = [](std::map<std::string, std::string> const& a) {
            return json::array{json::object{{"role", "user"},
                {"content", json::object{{"type", "text"}, {"text", "Hola, " + a.at("nombre")}}}}};
        }});
    h.server.set_completion([](json::object const&, std::string const& arg, std::string const& value) {
        std::vector<std::string> out;
        for(std::string v : {"Ana", "Andrés", "Beatriz"})
            if(arg == "nombre" && v.starts_with(value))
                out.push_back(v);
        return out;
    });
    auto const init =
        h.result(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}})");
    BOOST_TEST(init.at("capabilities").at("resources").at("subscribe") == true);
    BOOST_TEST(init.at("capabilities").at("prompts").is_object());
    BOOST_TEST(init.at("capabilities").at("completions").is_object());

    BOOST_TEST(h.result(R"({"jsonrpc":"2.0","id":1,"method":"resources/list"})").at("resources").at(0).at("uri") ==
        "test://static-text");
    BOOST_TEST(h.result(R"({"jsonrpc":"2.0","id":1,"method":"resources/templates/list"})")
                   .at("resourceTemplates")
                   .at(0)
                   .at("uriTemplate") == "test://template/{id}/data");
    BOOST_TEST(h.result(R"({"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"test://static-text"}})")
                   .at("contents")
                   .at(0)
                   .at("text") == "contenido");
    BOOST_TEST(
        h.result(R"({"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"test://template/123/data"}})")
            .at("contents")
            .at(0)
            .at("text") == R"({"id":"123"})");
    auto const missing =
        h.handle(R"({"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"test://nada"}})");
    BOOST_TEST(missing->at("error").at("code") == -32002);
    BOOST_TEST(missing->at("error").at("data").at("uri") == "test://nada");
    BOOST_TEST(
        h.result(R"({"jsonrpc":"2.0","id":5,"method":"resources/subscribe","params":{"uri":"test://static-text"}})") ==
        json::object{});
    BOOST_TEST(h.session.subscriptions().size() == 1u);
    h.result(R"({"jsonrpc":"2.0","id":6,"method":"resources/unsubscribe","params":{"uri":"test://static-text"}})");
    BOOST_TEST(h.session.subscriptions().empty());

    auto const prompts = h.result(R"({"jsonrpc":"2.0","id":7,"method":"prompts/list"})");
    BOOST_TEST(prompts.at("prompts").at(0).at("arguments").at(0).at("required") == true);
    BOOST_TEST(
        h.result(
             R"({"jsonrpc":"2.0","id":8,"method":"prompts/get","params":{"name":"saludo","arguments":{"nombre":"Ana"}}})")
            .at("messages")
            .at(0)
            .at("content")
            .at("text") == "Hola, Ana");
    BOOST_TEST(h.error_code(R"({"jsonrpc":"2.0","id":9,"method":"prompts/get","params":{"name":"saludo"}})") ==
        mcp::jsonrpc::invalid_params);
    BOOST_TEST(h.error_code(R"({"jsonrpc":"2.0","id":9,"method":"prompts/get","params":{"name":"nada"}})") ==
        mcp::jsonrpc::invalid_params);
    auto const c = h.result(R"({"jsonrpc":"2.0","id":10,"method":"completion/complete","params":{
        "ref":{"type":"ref/prompt","name":"saludo"},"argument":{"name":"nombre","value":"An"}}})");
    BOOST_TEST(c.at("completion").at("values") == json::parse(R"(["Ana","Andrés"])"));
    BOOST_TEST(c.at("completion").at("total") == 2);
}

BOOST_AUTO_TEST_CASE(the_callers_trace_context_reaches_the_tool)
{
    // No tracer here: the tool gets the caller's context as it came, to pass on.
    trace_harness h(false);
    h.initialize();
    BOOST_TEST(h.seen(caller_tp) == caller_tp);
    BOOST_TEST(h.seen("") == "");
    // A malformed one is ignored, never passed on.
    BOOST_TEST(h.seen("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7") == "");
    BOOST_TEST(h.seen("00-00000000000000000000000000000000-00f067aa0ba902b7-01") == "");
    BOOST_TEST(h.seen("00-4BF92F3577B34DA6A3CE929D0E0E4736-00F067AA0BA902B7-01") == "");
    // The transport's (an HTTP header) stands in for a missing or malformed _meta one; a valid _meta one wins.
    BOOST_TEST(h.seen("", header_tp) == header_tp);
    BOOST_TEST(h.seen("garbage", header_tp) == header_tp);
    BOOST_TEST(h.seen(caller_tp, header_tp) == caller_tp);
    BOOST_TEST(h.seen("", "garbage") == "");
    // A `_meta` that is not an object carries nothing.
    auto const odd = h.handle(
        R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"whose_trace","_meta":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}})");
    BOOST_TEST(odd.at("result").at("content").at(0).at("text") == "");

    // 2026-07-28 carries it in the same `_meta`.
    trace_harness stateless_h(false);
    auto const r = stateless_h.handle(stateless("tools/call", R"("name":"whose_trace","arguments":{})",
        R"(,"traceparent":")" + std::string(caller_tp) + "\""));
    BOOST_TEST(std::string(r.at("result").at("content").at(0).at("text").as_string()) == caller_tp);
    auto const header_only = stateless_h.handle(stateless("tools/call", R"("name":"whose_trace","arguments":{})"),
        header_tp);
    BOOST_TEST(std::string(header_only.at("result").at("content").at(0).at("text").as_string()) == header_tp);
}

BOOST_AUTO_TEST_CASE(a_tracer_records_each_call_as_a_server_span)
{
    trace_harness h(true);
    h.initialize();
    BOOST_TEST(h.spans().empty()); // only tools/call is traced

    std::string const seen = h.seen(caller_tp, header_tp);
    auto spans = h.spans();
    BOOST_TEST_REQUIRE(spans.size() == 1u);
    auto const& span = spans[0];
    BOOST_TEST(span.name == "tools/call whose_trace");
    BOOST_TEST((span.kind == trace::span_kind::server));
    // The child of the caller's span (its `_meta`, not the header), and the tool got the span's own context.
    BOOST_TEST(trace::to_hex(span.context.trace_id) == "4bf92f3577b34da6a3ce929d0e0e4736");
    BOOST_TEST(trace::to_hex(span.parent_span_id) == "00f067aa0ba902b7");
    BOOST_TEST(seen == trace::format_traceparent(span.context));
    BOOST_TEST(attribute(span, "mcp.method.name") == "tools/call");
    BOOST_TEST(attribute(span, "gen_ai.operation.name") == "execute_tool");
    BOOST_TEST(attribute(span, "gen_ai.tool.name") == "whose_trace");
    BOOST_TEST(attribute(span, "jsonrpc.request.id") == "1");
    BOOST_TEST(attribute(span, "mcp.protocol.version") == "2025-11-25");
    BOOST_TEST(attribute(span, "error.type") == "");
    BOOST_TEST((span.status == trace::status_code::unset));

    // The header when `_meta` has none; a new trace when neither has a valid one.
    h.seen("", header_tp);
    h.seen("garbage");
    spans = h.spans();
    BOOST_TEST_REQUIRE(spans.size() == 2u);
    BOOST_TEST(trace::to_hex(spans[0].context.trace_id) == "0af7651916cd43dd8448eb211c80319c");
    BOOST_TEST(trace::to_hex(spans[0].parent_span_id) == "b7ad6b7169203331");
    BOOST_TEST(trace::to_hex(spans[1].parent_span_id) == "0000000000000000");
    BOOST_TEST(trace::to_hex(spans[1].context.trace_id) != "4bf92f3577b34da6a3ce929d0e0e4736");

    // A tool's error result is `tool_error`; a JSON-RPC error its code, as a string id is the id's text.
    h.handle(R"({"jsonrpc":"2.0","id":"c-7","method":"tools/call","params":{"name":"echo","arguments":{"text":""}}})");
    h.handle(R"({"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"nada"}})");
    spans = h.spans();
    BOOST_TEST_REQUIRE(spans.size() == 2u);
    BOOST_TEST(spans[0].name == "tools/call echo");
    BOOST_TEST(attribute(spans[0], "jsonrpc.request.id") == "c-7");
    BOOST_TEST(attribute(spans[0], "error.type") == "tool_error");
    BOOST_TEST((spans[0].status == trace::status_code::error));
    BOOST_TEST(spans[1].name == "tools/call nada");
    BOOST_TEST(attribute(spans[1], "error.type") == "-32602");
    BOOST_TEST(attribute(spans[1], "rpc.response.status_code") == "-32602");
    BOOST_TEST(spans[1].status_message == "Unknown tool: nada");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(mcp_stdio)

namespace {

// Writes `input` to the transport's stdin (then closes it) and returns all it wrote to stdout.
std::string run_stdio(std::string const& input)
{
    int to_server[2], from_server[2];
    BOOST_REQUIRE(::pipe(to_server) == 0);
    BOOST_REQUIRE(::pipe(from_server) == 0);
    asio::io_context ioc;
    test_tools tools{agentio::toolset_options{}, mcp_test::echo{}, mcp_test::slow{}, mcp_test::ask{},
        mcp_test::confirm{}};
    mcp::server<test_tools> server(tools);
    asio::posix::stream_descriptor in(ioc, to_server[0]), out(ioc, from_server[1]);
    asio::posix::stream_descriptor feed(ioc, to_server[1]), drain(ioc, from_server[0]);
    bool done = false;
    asio::co_spawn(ioc, mcp::serve_stdio(server, in, out), [&](std::exception_ptr) {
        done = true;
        out.close(); // EOF for the reader below
    });
    asio::co_spawn(
        ioc,
        [&]() -> asio::awaitable<void> {
            co_await asio::async_write(feed, asio::buffer(input), asio::use_awaitable);
            feed.close();
        },
        asio::detached);
    std::string output;
    asio::co_spawn(
        ioc,
        [&]() -> asio::awaitable<void> {
            auto [ec, n] = co_await asio::async_read(drain, asio::dynamic_buffer(output),
                asio::as_tuple(asio::use_awaitable));
            (void)ec;
            (void)n;
        },
        asio::detached);
    ioc.run_for(std::chrono::seconds(20));
    BOOST_TEST(done);
    return output;
}

std::vector<json::value> lines_of(std::string const& output)
{
    std::vector<json::value> out;
    std::size_t pos = 0;
    while(pos < output.size())
    {
        auto const end = output.find('\n', pos);
        BOOST_TEST_REQUIRE(end != std::string::npos, "every message ends in a newline");
        out.push_back(json::parse(output.substr(pos, end - pos)));
        pos = end + 1;
    }
    return out;
}

} // namespace

BOOST_AUTO_TEST_CASE(a_session_over_pipes)
{
    std::string const input =
        R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}})"
        "\n"
        R"({"jsonrpc":"2.0","method":"notifications/initialized"})"
        "\r\n"
        "\n"
        R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","arguments":{"ms":200},"_meta":{"progressToken":"p"}}})"
        "\n"
        R"({"jsonrpc":"2.0","id":2,"method":"ping"})"
        "\n"
        "no es json\n"
        R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"fin"}}})"; // no final newline
    auto const messages = lines_of(run_stdio(input));
    BOOST_TEST_REQUIRE(messages.size() == 7u);
    // The slow call does not hold up the others; its progress precedes its result.
    std::vector<std::string> order;
    for(auto const& m : messages)
        order.push_back(m.as_object().contains("id") ? agentio::to_json_text(m.at("id"))
                                                     : std::string(m.at("method").as_string()));
    BOOST_TEST(order.front() == "0");
    BOOST_TEST(order.back() == "1");
    auto pos = [&](std::string const& s) { return std::find(order.begin(), order.end(), s) - order.begin(); };
    BOOST_TEST(pos("2") < pos("1"));
    BOOST_TEST(pos("3") < pos("1"));
    BOOST_TEST(pos("null") < pos("1")); // the parse error
    BOOST_TEST(std::count(order.begin(), order.end(), "notifications/progress") == 2);
    BOOST_TEST(messages.back().at("result").at("content").at(0).at("text") == "hecho");
}

BOOST_AUTO_TEST_CASE(an_empty_input_ends_the_session_quietly)
{
    BOOST_TEST(run_stdio("").empty());
}

BOOST_AUTO_TEST_SUITE_END()

// ---------------------------------------------------------------------------
// Streamable HTTP, on 127.0.0.1 with agentio::http::server.

#include "test_http.hpp"

#include <boost/beast/_experimental/test/stream.hpp>
#include <boost/beast/core/buffers_generator.hpp>

#include <agentio/sse/parser.hpp>

namespace {

// A request from the local address `from`: on Linux every 127.x.y.z is the
// loopback, so one test can be several clients.
test_http::reply request_from(std::string const& from, asio::ip::tcp::endpoint ep, boost::beast::http::verb method,
    std::string const& target, std::string const& body, boost::beast::http::fields const& extra = {})
{
    namespace bhttp = boost::beast::http;
    asio::io_context ioc;
    boost::beast::tcp_stream stream(ioc);
    stream.expires_after(std::chrono::seconds(30));
    stream.socket().open(asio::ip::tcp::v4());
    stream.socket().bind({asio::ip::make_address(from), 0});
    stream.connect(ep);
    bhttp::request<bhttp::string_body> req{method, target, 11};
    req.set(bhttp::field::host, "127.0.0.1");
    for(auto const& f : extra)
        req.set(f.name_string(), f.value());
    if(!body.empty())
        req.set(bhttp::field::content_type, "application/json");
    req.body() = body;
    req.prepare_payload();
    bhttp::write(stream, req);
    boost::beast::flat_buffer buf;
    bhttp::response<bhttp::string_body> res;
    bhttp::read(stream, buf, res);
    test_http::reply r{res.result_int(), res.body(), {}};
    for(auto const& f : res)
        r.headers.insert(f.name_string(), f.value());
    return r;
}

// The status of the answer to raw request bytes ("HTTP/1.1 403 ..." → 403).
unsigned raw_status(asio::ip::tcp::endpoint ep, std::string const& bytes)
{
    auto const out = test_http::raw(ep, bytes);
    return out.starts_with("HTTP/1.1 ") && out.size() >= 12 ? static_cast<unsigned>(std::stoi(out.substr(9, 3))) : 0u;
}

} // namespace

BOOST_AUTO_TEST_SUITE(mcp_http)

namespace {

namespace bhttp = boost::beast::http;

struct http_harness
{
    asio::io_context ioc;
    test_tools tools{agentio::toolset_options{}, mcp_test::echo{}, mcp_test::slow{}, mcp_test::ask{},
        mcp_test::confirm{}};
    mcp::server<test_tools> mcp_server{tools};
    mcp::streamable_http<test_tools> endpoint;
    agentio::http::server<mcp::streamable_http<test_tools>> http{ioc.get_executor(), endpoint};
    asio::ip::tcp::endpoint ep;
    std::thread runner;

    explicit http_harness(mcp::http_options o = {.max_sessions = 3}) : endpoint(mcp_server, std::move(o))
    {
        ep = http.listen({asio::ip::make_address("127.0.0.1"), 0}).value();
        http.start();
        runner = std::thread([this] { ioc.run(); });
    }
    ~http_harness()
    {
        ioc.stop();
        runner.join();
    }

    test_http::reply post(std::string const& body, std::string const& session = {}, bhttp::fields extra = {})
    {
        if(!extra.count(bhttp::field::accept))
            extra.set(bhttp::field::accept, "application/json, text/event-stream");
        if(!session.empty())
            extra.set("Mcp-Session-Id", session);
        return test_http::request(ep, bhttp::verb::post, "/mcp", body, "application/json", extra);
    }

    std::string initialize()
    {
        auto const r = post(
            R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}})");
        BOOST_TEST_REQUIRE(r.status == 200u);
        std::string id(r.headers["mcp-session-id"]);
        BOOST_TEST_REQUIRE(!id.empty());
        BOOST_TEST(post(R"({"jsonrpc":"2.0","method":"notifications/initialized"})", id).status == 202u);
        return id;
    }

    // The same POSTs from another client address.
    test_http::reply post_from(std::string const& from, std::string const& body, std::string const& session = {})
    {
        bhttp::fields extra;
        extra.set(bhttp::field::accept, "application/json, text/event-stream");
        if(!session.empty())
            extra.set("Mcp-Session-Id", session);
        return request_from(from, ep, bhttp::verb::post, "/mcp", body, extra);
    }
    test_http::reply initialize_from(std::string const& from)
    {
        return post_from(from,
            R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}})");
    }
    unsigned ping(std::string const& session, std::string const& from = "127.0.0.1")
    {
        return post_from(from, R"({"jsonrpc":"2.0","id":1,"method":"ping"})", session).status;
    }
};

std::vector<json::value> sse_messages(std::string const& body)
{
    std::vector<json::value> out;
    agentio::sse::parser p;
    p.feed(body, [&](agentio::sse::event const& e) {
        BOOST_TEST(e.type == "message");
        out.push_back(json::parse(e.data));
    });
    return out;
}

} // namespace

BOOST_AUTO_TEST_CASE(a_session_from_initialize_to_delete)
{
    http_harness h;
    std::string const id = h.initialize();
    BOOST_TEST(id.size() == 36u); // a UUID
    BOOST_TEST(id[14] == '4');

    auto const list = h.post(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})", id);
    BOOST_TEST(list.status == 200u);
    BOOST_TEST(list.headers["content-type"] == "application/json");
    BOOST_TEST(list.json().at("result").at("tools").as_array().size() == 4u);

    // A call streams its progress, then its result, on the POST's own SSE stream.
    auto const call = h.post(
        R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","arguments":{"ms":10},"_meta":{"progressToken":7}}})",
        id);
    BOOST_TEST(call.status == 200u);
    BOOST_TEST(call.headers["content-type"] == "text/event-stream");
    BOOST_TEST(call.headers["mcp-session-id"] == id);
    auto const events = sse_messages(call.body);
    BOOST_TEST_REQUIRE(events.size() == 3u);
    BOOST_TEST(events[0].at("method") == "notifications/progress");
    BOOST_TEST(events[0].at("params").at("progressToken") == 7);
    BOOST_TEST(events[1].at("method") == "notifications/progress");
    BOOST_TEST(events[2].at("id") == 2);
    BOOST_TEST(events[2].at("result").at("content").at(0).at("text") == "hecho");

    bhttp::fields session;
    session.set("Mcp-Session-Id", id);
    BOOST_TEST(test_http::request(h.ep, bhttp::verb::delete_, "/mcp", {}, "application/json", session).status == 200u);
    BOOST_TEST(h.post(R"({"jsonrpc":"2.0","id":3,"method":"ping"})", id).status == 404u);
    BOOST_TEST(h.endpoint.session_count() == 0u);
}

BOOST_AUTO_TEST_CASE(transport_errors)
{
    http_harness h;
    std::string const id = h.initialize();
    auto const no_session = h.post(R"({"jsonrpc":"2.0","id":1,"method":"ping"})");
    BOOST_TEST(no_session.status == 400u);
    BOOST_TEST(no_session.json().at("id").is_null());
    auto const unknown = h.post(R"({"jsonrpc":"2.0","id":1,"method":"ping"})", "nope");
    BOOST_TEST(unknown.status == 404u);
    BOOST_TEST(unknown.json().at("error").at("code") == -32001);
    BOOST_TEST(h.post("{no json", id).json().at("error").at("code") == -32700);

    bhttp::fields v;
    v.set("MCP-Protocol-Version", "1999-01-01");
    auto const version = h.post(R"({"jsonrpc":"2.0","id":1,"method":"ping"})", id, v);
    BOOST_TEST(version.status == 400u);
    BOOST_TEST(version.detail_or_message().find("Unsupported protocol version: 1999-01-01") != std::string::npos);
    v.set("MCP-Protocol-Version", "2025-03-26"); // any supported one is fine
    BOOST_TEST(h.post(R"({"jsonrpc":"2.0","id":1,"method":"ping"})", id, v).status == 200u);

    bhttp::fields json_only;
    json_only.set(bhttp::field::accept, "application/json");
    BOOST_TEST(h.post(R"({"jsonrpc":"2.0","id":1,"method":"ping"})", id, json_only).status == 406u);
    BOOST_TEST(test_http::request(h.ep, bhttp::verb::post, "/mcp", "{}", "text/plain").status == 415u);
    auto const get = test_http::get(h.ep, "/mcp");
    BOOST_TEST(get.status == 405u);
    BOOST_TEST(get.headers["allow"] == "POST, DELETE");
    BOOST_TEST(test_http::get(h.ep, "/other").status == 404u);
}

BOOST_AUTO_TEST_CASE(dns_rebinding_is_refused)
{
    http_harness h;
    bhttp::fields evil;
    evil.set(bhttp::field::host, "evil.example.com");
    auto const init = R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}})";
    BOOST_TEST(h.post(init, {}, evil).status == 403u);
    bhttp::fields origin;
    origin.set(bhttp::field::origin, "http://evil.example.com");
    BOOST_TEST(h.post(init, {}, origin).status == 403u);
    bhttp::fields local;
    local.set(bhttp::field::host, "localhost:" + std::to_string(h.ep.port()));
    local.set(bhttp::field::origin, "http://localhost:" + std::to_string(h.ep.port()));
    BOOST_TEST(h.post(init, {}, local).status == 200u);

    // Hosts that a split at the last ':' took for an allowed one.
    for(auto const* host : {"127.0.0.1:8001@evil.example.com", "127.0.0.1:80,evil.example.com",
            "evil.example.com, 127.0.0.1", "user@127.0.0.1", "localhost:", "localhost:8001:evil"})
    {
        bhttp::fields f;
        f.set(bhttp::field::host, host);
        BOOST_TEST(h.post(init, {}, f).status == 403u, host);
    }
    bhttp::fields userinfo_origin;
    userinfo_origin.set(bhttp::field::origin, "http://localhost:8001@evil.example.com");
    BOOST_TEST(h.post(init, {}, userinfo_origin).status == 403u);

    // Two Host lines, the allowed one first: refused (by the MCP check, or earlier by the HTTP server).
    std::string const body = init;
    auto const two_hosts = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example.com\r\n"
                           "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
                           "Connection: close\r\nContent-Length: " +
        std::to_string(body.size()) + "\r\n\r\n" + body;
    auto const status = raw_status(h.ep, two_hosts);
    BOOST_TEST((status == 403u || status == 400u), status);
    BOOST_TEST(h.endpoint.session_count() == 1u); // only the good one above
}

BOOST_AUTO_TEST_CASE(host_and_origin_are_parsed_strictly)
{
    using mcp::detail::authority_host;
    BOOST_TEST(authority_host("localhost").value() == "localhost");
    BOOST_TEST(authority_host("localhost:8001").value() == "localhost");
    BOOST_TEST(authority_host("127.0.0.1:8001").value() == "127.0.0.1");
    BOOST_TEST(authority_host("[::1]:8001").value() == "[::1]");
    BOOST_TEST(authority_host("[::1]").value() == "[::1]");
    BOOST_TEST(authority_host("example.com:65535").value() == "example.com");
    for(auto const* bad :
        {"", "127.0.0.1:8001@evil", "user@127.0.0.1", "user:pw@localhost:8001", "127.0.0.1:80,evil.com",
            "evil.com, 127.0.0.1", "localhost,127.0.0.1", "localhost:", "localhost::8001", "localhost:80:81",
            "localhost:65536", "localhost:123456", "localhost:8o", "localhost:+80", "localhost: 80", " localhost",
            "local host", "localhost/path", "localhost?x", "localhost#x", "::1", ":8001", "[::1", "[::1]x",
            "[::1]:", "[::1]:80]", "[::1]:8001@evil", "[fe80::1%25eth0]", "[v1.x]", "[127.0.0.1]", "%6cocalhost"})
        BOOST_TEST(!authority_host(bad), "[" << bad << "]");

    // Whole requests: one Host among `hosts` (any port, any case), an Origin at most, exactly scheme://host[:port].
    std::vector<std::string> const hosts{"localhost", "127.0.0.1", "[::1]"};
    auto refused = [&](std::vector<std::pair<bhttp::field, std::string>> const& fields) {
        agentio::http::request req{bhttp::verb::post, "/mcp", 11};
        for(auto const& [name, value] : fields)
            req.insert(name, value);
        return !mcp::detail::refused_host_or_origin(req, hosts, {"https://app.example.com"}).empty();
    };
    using bhttp::field;
    for(auto const* good : {"localhost", "localhost:8001", "127.0.0.1:8001", "[::1]:8001", "LocalHost:8001"})
        BOOST_TEST(!refused({{field::host, good}}), good);
    for(auto const* bad : {"evil.com", "127.0.0.1:8001@evil", "127.0.0.1:80,evil.com", "evil.com, 127.0.0.1",
            "localhost.evil.com", "127.0.0.1.evil.com", "[::2]:8001", ""})
        BOOST_TEST(refused({{field::host, bad}}), bad);
    BOOST_TEST(refused({}));
    BOOST_TEST(refused({{field::host, "localhost"}, {field::host, "localhost"}}));
    BOOST_TEST(refused({{field::host, "localhost"}, {field::host, "evil.com"}}));

    for(auto const* good : {"http://localhost:8001", "https://127.0.0.1", "http://[::1]:8001", "HTTP://localhost",
            "https://app.example.com"})
        BOOST_TEST(!refused({{field::host, "localhost:8001"}, {field::origin, good}}), good);
    for(auto const* bad :
        {"http://evil.com", "http://localhost:8001/", "http://localhost/path", "http://user@localhost",
            "http://localhost:8001@evil.com", "http://localhost.evil.com", "http://localhost, http://evil.com",
            "ftp://localhost", "localhost", "http://", "null", "", "https://app.example.com/"})
        BOOST_TEST(refused({{field::host, "localhost:8001"}, {field::origin, bad}}), bad);
    BOOST_TEST(refused({{field::host, "localhost"}, {field::origin, "http://localhost"},
        {field::origin, "http://localhost"}}));

    // No hosts listed: anything goes (a proxy in front checks).
    agentio::http::request any{bhttp::verb::post, "/mcp", 11};
    any.insert(field::host, "evil.com");
    BOOST_TEST(mcp::detail::refused_host_or_origin(any, {}, {}).empty());
}

BOOST_AUTO_TEST_CASE(stateless_requests_over_http)
{
    http_harness h;
    auto const meta = std::string(
        R"("_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}})");
    auto headers = [](std::string method, std::string name = {}) {
        bhttp::fields f;
        f.set("MCP-Protocol-Version", "2026-07-28");
        f.set("Mcp-Method", method);
        if(!name.empty())
            f.set("Mcp-Name", name);
        return f;
    };
    auto const discover = h.post(R"({"jsonrpc":"2.0","id":1,"method":"server/discover","params":{)" + meta + "}}", {},
        headers("server/discover"));
    BOOST_TEST(discover.status == 200u);
    BOOST_TEST(discover.headers["mcp-session-id"].empty());
    BOOST_TEST(discover.json().at("result").at("resultType") == "complete");
    BOOST_TEST(h.endpoint.session_count() == 0u);

    // A quick call is answered with JSON; Mcp-Name may come Base64-wrapped ("echo"); echo's
    // `text` is mirrored in Mcp-Param-Text.
    auto const call =
        R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hola"},)" + meta +
        "}}";
    auto with_text = headers("tools/call", "=?base64?ZWNobw==?=");
    with_text.set("Mcp-Param-Text", "hola");
    auto const quick = h.post(call, {}, with_text);
    BOOST_TEST(quick.status == 200u);
    BOOST_TEST(quick.headers["content-type"] == "application/json");
    BOOST_TEST(quick.json().at("result").at("content").at(0).at("text") == R"({"echo":"hola"})");

    // Headers that disagree with the body, a version nobody speaks, a method that is gone.
    auto const wrong_name = h.post(call, {}, headers("tools/call", "other"));
    BOOST_TEST(wrong_name.status == 400u);
    BOOST_TEST(wrong_name.json().at("error").at("code") == -32020);
    BOOST_TEST(h.post(call, {}, headers("tools/list", "echo")).json().at("error").at("code") == -32020);
    bhttp::fields v999 = headers("tools/list");
    v999.set("MCP-Protocol-Version", "v999.0.0");
    auto const unsupported = h.post(
        R"({"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"v999.0.0","io.modelcontextprotocol/clientCapabilities":{}}}})",
        {}, v999);
    BOOST_TEST(unsupported.status == 400u);
    BOOST_TEST(unsupported.json().at("error").at("code") == -32022);
    auto const init = h.post(
        R"({"jsonrpc":"2.0","id":4,"method":"initialize","params":{"protocolVersion":"2026-07-28",)" + meta + "}}", {},
        headers("initialize"));
    BOOST_TEST(init.status == 404u);
    BOOST_TEST(init.json().at("error").at("code") == -32601);
    bhttp::fields get_headers = headers("tools/list");
    BOOST_TEST(test_http::request(h.ep, bhttp::verb::get, "/mcp", {}, "application/json", get_headers).status == 405u);

    // A call that runs long streams its progress, then its result.
    auto const slow = h.post(
        R"({"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"slow","arguments":{"ms":400},"_meta":{"progressToken":"t","io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}})",
        {}, headers("tools/call", "slow"));
    BOOST_TEST(slow.headers["content-type"] == "text/event-stream");
    auto const events = sse_messages(slow.body);
    BOOST_TEST_REQUIRE(events.size() == 3u);
    BOOST_TEST(events[0].at("method") == "notifications/progress");
    BOOST_TEST(events[2].at("result").at("resultType") == "complete");

    // The handshake revisions are still served on the same endpoint.
    BOOST_TEST(!h.initialize().empty());
}

BOOST_AUTO_TEST_CASE(mcp_param_headers_mirror_marked_arguments)
{
    http_harness h;
    auto const meta = std::string(
        R"("_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}})");
    auto call = [&](std::string arguments, std::vector<std::pair<std::string, std::string>> extra) {
        bhttp::fields f;
        f.set("MCP-Protocol-Version", "2026-07-28");
        f.set("Mcp-Method", "tools/call");
        f.set("Mcp-Name", "echo");
        for(auto const& [name, value] : extra)
            f.set(name, value);
        return h.post(R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":)" +
                arguments + "," + meta + "}}",
            {}, f);
    };
    // The schema says which argument travels in which header.
    bhttp::fields list_headers;
    list_headers.set("MCP-Protocol-Version", "2026-07-28");
    list_headers.set("Mcp-Method", "tools/list");
    auto const list = h.post(R"({"jsonrpc":"2.0","id":1,"method":"tools/list","params":{)" + meta + "}}", {},
        list_headers);
    BOOST_TEST(
        list.json().at("result").at("tools").at(0).at("inputSchema").at("properties").at("text").at("x-mcp-header") ==
        "Text");

    // Accepted: the value as it is, Base64-wrapped, any case of header name, whitespace around.
    for(auto const& [name, value] : std::vector<std::pair<std::string, std::string>>{{"Mcp-Param-Text", "Hello"},
            {"Mcp-Param-Text", "=?base64?SGVsbG8=?="}, {"mcp-param-text", "Hello"}, {"MCP-PARAM-TEXT", "  Hello  "}})
    {
        auto const r = call(R"({"text":"Hello"})", {{name, value}});
        BOOST_TEST(r.status == 200u, name << ": " << value);
        BOOST_TEST(r.json().at("result").at("content").at(0).at("text") == R"({"echo":"Hello"})",
            name << ": " << value);
    }
    // Without the wrapper's closing "?=" the value is literal.
    BOOST_TEST(call(R"({"text":"=?base64?SGVsbG8="})", {{"Mcp-Param-Text", "=?base64?SGVsbG8="}}).status == 200u);

    // Refused with 400 and -32020: missing, different, invalid Base64, or a header without its argument.
    auto refused = [&](std::string arguments, std::vector<std::pair<std::string, std::string>> extra, std::string why) {
        auto const r = call(std::move(arguments), std::move(extra));
        BOOST_TEST(r.status == 400u, why);
        BOOST_TEST(r.json().at("error").at("code") == -32020, why);
        return std::string(r.json().at("error").at("message").as_string());
    };
    BOOST_TEST(refused(R"({"text":"Hello"})", {}, "missing") ==
        "Header mismatch: Mcp-Param-Text is required: params.arguments.text is in the body");
    BOOST_TEST(refused(R"({"text":"Hello"})", {{"Mcp-Param-Text", "Adios"}}, "different") ==
        "Header mismatch: Mcp-Param-Text must carry params.arguments.text");
    for(auto const* bad : {"=?base64?SGVsbG8?=", "=?base64?SGVs!!!bG8=?=", "=?base64?QR==?=", "=?base64?S===?="})
        BOOST_TEST(refused(R"({"text":"Hello"})", {{"Mcp-Param-Text", bad}}, bad) ==
            "Header mismatch: Mcp-Param-Text is not valid Base64 (=?base64?...?=)");
    BOOST_TEST(refused(R"({})", {{"Mcp-Param-Text", "Hello"}}, "no argument") ==
        "Header mismatch: Mcp-Param-Text is sent but params.arguments.text is not");
}

BOOST_AUTO_TEST_CASE(base64_header_values_are_strict)
{
    using mcp::detail::header_value;
    BOOST_TEST(header_value("=?base64?SGVsbG8=?=").value() == "Hello");
    BOOST_TEST(header_value("=?base64?QQ==?=").value() == "A");
    BOOST_TEST(header_value("=?base64?"
                            "?=")
                   .value()
                   .empty()); // split: two question marks and = make a trigraph
    BOOST_TEST(header_value(" \tplain text\t ").value() == "plain text");
    BOOST_TEST(header_value("SGVsbG8=").value() == "SGVsbG8="); // no wrapper: literal
    BOOST_TEST(!header_value("=?base64?SGVsbG8?="));            // padding missing
    BOOST_TEST(!header_value("=?base64?QR==?="));               // bits after the last byte
    BOOST_TEST(!header_value("=?base64?Q=Q=?="));               // padding inside
    BOOST_TEST(!header_value("=?base64?SGVs bG8=?="));          // not in the alphabet
}

// The answer to an initialize refused for want of room: 503, a JSON-RPC error, Retry-After.
void check_too_many_sessions(test_http::reply const& r, std::string const& why)
{
    BOOST_TEST(r.status == 503u, why);
    BOOST_TEST(r.headers["mcp-session-id"].empty(), why);
    BOOST_TEST_REQUIRE(!r.headers["retry-after"].empty(), why);
    BOOST_TEST(std::stoi(std::string(r.headers["retry-after"])) >= 1, why);
    auto const body = r.json();
    BOOST_TEST(body.at("id") == 0, why);
    BOOST_TEST(body.at("error").at("code") == -32000, why);
    BOOST_TEST(std::string(body.at("error").at("message").as_string()).find("too many sessions") != std::string::npos,
        why);
}

BOOST_AUTO_TEST_CASE(a_flood_of_initialize_cannot_push_out_a_session_in_use)
{
    http_harness h(
        {.max_sessions = 4, .max_sessions_per_address = 2, .session_evictable_after = std::chrono::hours(1)});
    std::string const victim = h.initialize(); // from 127.0.0.1

    // One address fills its own cap, then is refused; the victim is not touched.
    BOOST_TEST(h.initialize_from("127.0.0.2").status == 200u);
    BOOST_TEST(h.initialize_from("127.0.0.2").status == 200u);
    check_too_many_sessions(h.initialize_from("127.0.0.2"), "per address");
    auto const hour = h.initialize_from("127.0.0.2");
    BOOST_TEST(std::stoi(std::string(hour.headers["retry-after"])) > 3000); // when the oldest may go

    // Then the server's cap, from any number of addresses.
    BOOST_TEST(h.initialize_from("127.0.0.3").status == 200u);
    for(int i = 0; i < 40; ++i)
        check_too_many_sessions(h.initialize_from("127.0.1." + std::to_string(1 + i)),
            "total, flood " + std::to_string(i));
    BOOST_TEST(h.endpoint.session_count() == 4u);
    BOOST_TEST(h.ping(victim) == 200u);

    // Ending a session makes room again.
    bhttp::fields session;
    session.set("Mcp-Session-Id", victim);
    BOOST_TEST(test_http::request(h.ep, bhttp::verb::delete_, "/mcp", {}, "application/json", session).status == 200u);
    BOOST_TEST(h.initialize_from("127.0.0.4").status == 200u);
}

BOOST_AUTO_TEST_CASE(only_sessions_idle_long_enough_make_room)
{
    using namespace std::chrono_literals;
    http_harness h({.max_sessions = 3, .max_sessions_per_address = 2, .session_evictable_after = 1s});
    auto const id = [](test_http::reply const& r) {
        BOOST_TEST_REQUIRE(r.status == 200u);
        return std::string(r.headers["mcp-session-id"]);
    };
    std::string const a1 = id(h.initialize_from("127.0.0.2"));
    std::string const a2 = id(h.initialize_from("127.0.0.2"));
    check_too_many_sessions(h.initialize_from("127.0.0.2"), "both used just now");

    // The address's cap: its session idle longest goes, the one just used stays.
    std::this_thread::sleep_for(1300ms);
    BOOST_TEST(h.ping(a2, "127.0.0.2") == 200u);
    std::string const a3 = id(h.initialize_from("127.0.0.2"));
    BOOST_TEST(h.ping(a1, "127.0.0.2") == 404u);
    BOOST_TEST(h.ping(a2, "127.0.0.2") == 200u);

    // The server's cap: the idlest session of any address, once idle long enough.
    std::string const b1 = id(h.initialize_from("127.0.0.3"));
    check_too_many_sessions(h.initialize_from("127.0.0.4"), "all used just now");
    std::this_thread::sleep_for(1300ms);
    BOOST_TEST(h.ping(a3, "127.0.0.2") == 200u);
    BOOST_TEST(h.ping(b1, "127.0.0.3") == 200u);
    BOOST_TEST(h.initialize_from("127.0.0.4").status == 200u);
    BOOST_TEST(h.ping(a2, "127.0.0.2") == 404u);
    BOOST_TEST(h.ping(a3, "127.0.0.2") == 200u);
    BOOST_TEST(h.ping(b1, "127.0.0.3") == 200u);
    BOOST_TEST(h.endpoint.session_count() == 3u);
}

BOOST_AUTO_TEST_CASE(a_session_with_a_call_running_is_never_evicted)
{
    using namespace std::chrono_literals;
    // Every session not in use may go at once, and is forgotten after 200 ms.
    http_harness h({.max_sessions = 2,
        .max_sessions_per_address = 0,
        .session_idle_timeout = 200ms,
        .session_evictable_after = 0s});
    std::string const victim = h.initialize();
    // Boost.Test's assertions are for the main thread: the call's answer is checked after the join.
    test_http::reply answer;
    std::thread call([&] {
        answer =
            h.post(R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","arguments":{"ms":1500}}})",
                victim);
    });
    std::this_thread::sleep_for(500ms); // the call is on its stream, the session used longer ago than 200 ms

    // Each new session pushes out the previous one, never the victim's.
    for(int i = 0; i < 10; ++i)
        BOOST_TEST(h.initialize_from("127.0.0.2").status == 200u, i);
    BOOST_TEST(h.endpoint.session_count() == 2u);
    call.join();
    BOOST_TEST(answer.status == 200u);
    auto const events = sse_messages(answer.body);
    BOOST_TEST_REQUIRE(!events.empty());
    BOOST_TEST(events.back().at("result").at("content").at(0).at("text") == "hecho");
    BOOST_TEST(h.ping(victim) == 200u);
}

BOOST_AUTO_TEST_CASE(a_client_is_its_connections_address)
{
    // On a dual-stack listener an IPv4 client is ::ffff:a.b.c.d: it must count as a.b.c.d.
    asio::io_context ioc;
    asio::ip::tcp::acceptor acceptor(ioc);
    boost::system::error_code ec;
    acceptor.open(asio::ip::tcp::v6(), ec);
    if(!ec)
        acceptor.set_option(asio::ip::v6_only(false), ec);
    if(!ec)
        acceptor.bind({asio::ip::address_v6::any(), 0}, ec);
    if(ec)
    {
        BOOST_TEST_MESSAGE("no dual-stack socket here (" << ec.message() << "): an IPv4 listener instead");
        acceptor = asio::ip::tcp::acceptor(ioc, {asio::ip::make_address("127.0.0.1"), 0});
    }
    else
        acceptor.listen();
    boost::beast::tcp_stream client(ioc);
    client.socket().open(asio::ip::tcp::v4());
    client.socket().bind({asio::ip::make_address("127.0.0.5"), 0});
    client.connect({asio::ip::make_address("127.0.0.1"), acceptor.local_endpoint().port()});
    boost::beast::tcp_stream server(acceptor.accept());
    BOOST_TEST(mcp::detail::client_address(server) == asio::ip::make_address("127.0.0.5"));
    boost::beast::tcp_stream unconnected(ioc);
    BOOST_TEST(mcp::detail::client_address(unconnected).is_unspecified());
}

// The transport is a template over the stream: here it answers on Beast's
// in-memory stream, no socket and no http::server, each exchange on a fresh pair.
test_http::reply exchange_in_memory(mcp::streamable_http<test_tools> const& endpoint, std::string const& body,
    std::string const& session = {})
{
    asio::io_context ioc;
    boost::beast::test::stream server_end(ioc);
    boost::beast::test::stream client_end(ioc);
    server_end.connect(client_end);
    agentio::http::request req{bhttp::verb::post, "/mcp", 11};
    req.set(bhttp::field::host, "127.0.0.1");
    req.set(bhttp::field::accept, "application/json, text/event-stream");
    req.set(bhttp::field::content_type, "application/json");
    if(!session.empty())
        req.set("Mcp-Session-Id", session);
    req.body() = body;
    req.prepare_payload();
    asio::co_spawn(
        ioc,
        [&]() -> asio::awaitable<void> {
            auto reply = co_await endpoint(std::move(req), server_end);
            if(reply)
                co_await boost::beast::async_write(server_end, std::move(*reply), asio::as_tuple(asio::use_awaitable));
            server_end.close();
        },
        [](std::exception_ptr e) {
            if(e)
                std::rethrow_exception(e);
        });
    ioc.run();
    bhttp::response_parser<bhttp::string_body> parser;
    parser.eager(true);
    boost::system::error_code ec;
    auto const raw = std::string(client_end.str());
    parser.put(asio::buffer(raw), ec);
    if(!parser.is_done())
        parser.put_eof(ec);
    BOOST_TEST_REQUIRE(parser.is_header_done(), raw);
    auto res = parser.release();
    test_http::reply r{res.result_int(), res.body(), {}};
    for(auto const& f : res)
        r.headers.insert(f.name_string(), f.value());
    return r;
}

// The JSON-RPC message of an answer, plain JSON or the last event of a stream.
boost::json::object message_of(test_http::reply const& r)
{
    if(r.headers[bhttp::field::content_type].starts_with("text/event-stream"))
    {
        std::string last;
        agentio::sse::parser p;
        p.feed(r.body, [&](agentio::sse::event const& e) { last = e.data; });
        return boost::json::parse(last).as_object();
    }
    return boost::json::parse(r.body).as_object();
}

BOOST_AUTO_TEST_CASE(initialize_and_tools_list_on_an_in_memory_stream)
{
    test_tools tools{agentio::toolset_options{}, mcp_test::echo{}, mcp_test::slow{}, mcp_test::ask{},
        mcp_test::confirm{}};
    mcp::server<test_tools> mcp_server{tools};
    mcp::streamable_http<test_tools> endpoint(mcp_server);

    auto const init = exchange_in_memory(endpoint,
        R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}})");
    BOOST_TEST_REQUIRE(init.status == 200u, init.body);
    std::string const session(init.headers["mcp-session-id"]);
    BOOST_TEST_REQUIRE(!session.empty());
    BOOST_TEST(message_of(init).at("result").at("protocolVersion") == "2025-11-25");

    auto const ack = exchange_in_memory(endpoint, R"({"jsonrpc":"2.0","method":"notifications/initialized"})", session);
    BOOST_TEST(ack.status == 202u);

    auto const list = exchange_in_memory(endpoint, R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})", session);
    BOOST_TEST_REQUIRE(list.status == 200u, list.body);
    auto const listed = message_of(list).at("result").at("tools").as_array();
    BOOST_TEST(listed.size() == 4u);
    BOOST_TEST(listed.at(0).at("name") == "echo");
}

BOOST_AUTO_TEST_CASE(a_posts_traceparent_header_reaches_the_tool)
{
    // Both HTTP transports, one tracer: each call is the child of what the request carried.
    asio::io_context ioc;
    trace::tracer tracer(tracing_on());
    trace_tools tools{agentio::toolset_options{}, mcp_test::echo{}, mcp_test::whose_trace{}};
    mcp::server<trace_tools> srv(tools, {.tracer = &tracer});
    mcp::http_endpoints<trace_tools> endpoints(srv);
    agentio::http::server<mcp::http_endpoints<trace_tools>> http(ioc.get_executor(), endpoints);
    auto const ep = http.listen({asio::ip::make_address("127.0.0.1"), 0}).value();
    http.start();
    std::thread runner([&] { ioc.run(); });

    bhttp::fields accept;
    accept.set(bhttp::field::accept, "application/json, text/event-stream");
    auto const init = test_http::request(ep, bhttp::verb::post, "/mcp",
        R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}})",
        "application/json", accept);
    std::string const session(init.headers["mcp-session-id"]);
    // The text whose_trace answers to a tools/call POSTed with `header` (and `_meta` when given).
    auto call = [&](std::string const& header, std::string const& meta) {
        bhttp::fields extra = accept;
        extra.set("Mcp-Session-Id", session);
        if(!header.empty())
            extra.set("traceparent", header);
        std::string const body = R"({"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"whose_trace")" +
            (meta.empty() ? std::string() : R"(,"_meta":{"traceparent":")" + meta + "\"}") + "}}";
        auto const r = test_http::request(ep, bhttp::verb::post, "/mcp", body, "application/json", extra);
        json::value answer = r.headers["content-type"] == "text/event-stream" ? sse_messages(r.body).back() : r.json();
        return std::string(answer.at("result").at("content").at(0).at("text").as_string());
    };
    std::string const by_header = call(std::string(header_tp), "");
    std::string const by_meta = call(std::string(header_tp), std::string(caller_tp));
    std::string const malformed = call("00-zz", "");

    // HTTP+SSE: the POST's header, the answer on the stream.
    test_http::event_stream stream(ep, "/sse");
    std::string const post_to = stream.next().data;
    bhttp::fields traced;
    traced.set("traceparent", std::string(header_tp));
    test_http::request(ep, bhttp::verb::post, post_to,
        R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{}}})",
        "application/json");
    BOOST_TEST(stream.next().data.find("protocolVersion") != std::string::npos);
    test_http::request(ep, bhttp::verb::post, post_to,
        R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"whose_trace"}})", "application/json",
        traced);
    auto const legacy = json::parse(stream.next().data);
    stream.close();
    ioc.stop();
    runner.join();

    std::vector<trace::span_data> spans;
    tracer.take(spans, 10);
    BOOST_TEST_REQUIRE(spans.size() == 4u);
    BOOST_TEST(trace::to_hex(spans[0].parent_span_id) == "b7ad6b7169203331");
    BOOST_TEST(by_header == trace::format_traceparent(spans[0].context));
    BOOST_TEST(trace::to_hex(spans[1].parent_span_id) == "00f067aa0ba902b7"); // `_meta` wins
    BOOST_TEST(by_meta == trace::format_traceparent(spans[1].context));
    BOOST_TEST(trace::to_hex(spans[2].parent_span_id) == "0000000000000000"); // malformed: a new trace
    BOOST_TEST(malformed == trace::format_traceparent(spans[2].context));
    BOOST_TEST(trace::to_hex(spans[3].parent_span_id) == "b7ad6b7169203331");
    BOOST_TEST(std::string(legacy.at("result").at("content").at(0).at("text").as_string()) ==
        trace::format_traceparent(spans[3].context));
    for(auto const& s : spans)
        BOOST_TEST(s.name == "tools/call whose_trace");
}

BOOST_AUTO_TEST_SUITE_END()

// ---------------------------------------------------------------------------
// The 2024-11-05 HTTP+SSE transport next to Streamable HTTP on one server.

BOOST_AUTO_TEST_SUITE(mcp_legacy_sse)

namespace {

namespace bhttp = boost::beast::http;

struct legacy_harness
{
    // Both transports behind one handler, as the spec's backwards compatibility asks.
    using both = mcp::http_endpoints<test_tools>;

    asio::io_context ioc;
    test_tools tools{agentio::toolset_options{}, mcp_test::echo{}, mcp_test::slow{}, mcp_test::ask{},
        mcp_test::confirm{}};
    mcp::server<test_tools> mcp_server{tools};
    both endpoints;
    agentio::http::server<both> http{ioc.get_executor(), endpoints};
    asio::ip::tcp::endpoint ep;
    std::vector<std::thread> runners;

    explicit legacy_harness(mcp::legacy_sse_options o = {.max_sessions = 2}) : endpoints{mcp_server, {}, std::move(o)}
    {
        ep = http.listen({asio::ip::make_address("127.0.0.1"), 0}).value();
        http.start();
        for(int i = 0; i < 2; ++i) // the POSTs and the stream on different threads
            runners.emplace_back([this] { ioc.run(); });
    }
    ~legacy_harness()
    {
        ioc.stop();
        for(auto& t : runners)
            t.join();
    }

    test_http::reply post(std::string const& target, std::string const& body, bhttp::fields extra = {})
    {
        return test_http::request(ep, bhttp::verb::post, target, body, "application/json", extra);
    }

    // Waits until the server has noticed streams closing.
    bool sessions_become(std::size_t n)
    {
        for(int i = 0; i < 500 && endpoints.legacy().session_count() != n; ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        return endpoints.legacy().session_count() == n;
    }
};

json::value message_of(agentio::sse::event const& e)
{
    BOOST_TEST(e.type == "message");
    return json::parse(e.data);
}

// A GET /sse from the local address `from`, kept open; `status` is the answer's.
struct stream_from
{
    asio::io_context ioc;
    asio::ip::tcp::socket socket{ioc};
    unsigned status = 0;
    std::string head;

    stream_from(asio::ip::tcp::endpoint ep, std::string const& from)
    {
        socket.open(asio::ip::tcp::v4());
        socket.bind({asio::ip::make_address(from), 0});
        socket.connect(ep);
        asio::write(socket,
            asio::buffer(std::string("GET /sse HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")));
        asio::read_until(socket, asio::dynamic_buffer(head), "\r\n\r\n");
        if(head.starts_with("HTTP/1.1 ") && head.size() >= 12)
            status = static_cast<unsigned>(std::stoi(head.substr(9, 3)));
    }
};

} // namespace

BOOST_AUTO_TEST_CASE(a_session_lives_on_its_stream)
{
    legacy_harness h;
    test_http::event_stream stream(h.ep, "/sse");
    BOOST_TEST(stream.status == 200u);
    BOOST_TEST(stream.headers["content-type"] == "text/event-stream");
    auto const endpoint = stream.next();
    BOOST_TEST(endpoint.type == "endpoint");
    BOOST_TEST_REQUIRE(endpoint.data.starts_with("/messages/?session_id="));
    std::string const post_to = endpoint.data;
    BOOST_TEST(h.endpoints.legacy().session_count() == 1u);

    // Every POST is accepted; its answer comes on the stream.
    auto const init = h.post(post_to,
        R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{}}})");
    BOOST_TEST(init.status == 202u);
    BOOST_TEST(init.body == "Accepted");
    auto const initialized = message_of(stream.next());
    BOOST_TEST(initialized.at("id") == 0);
    BOOST_TEST(initialized.at("result").at("protocolVersion") == "2024-11-05");
    BOOST_TEST(h.post(post_to, R"({"jsonrpc":"2.0","method":"notifications/initialized"})").status == 202u);

    // The TypeScript SDK's parameter name works too.
    std::string const ts_style = "/messages/?sessionId=" + post_to.substr(post_to.find('=') + 1);
    BOOST_TEST(h.post(ts_style, R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})").status == 202u);
    BOOST_TEST(message_of(stream.next()).at("result").at("tools").as_array().size() == 4u);

    // Progress, then the result, all on the stream.
    BOOST_TEST(
        h.post(post_to,
             R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","arguments":{"ms":10},"_meta":{"progressToken":"p"}}})")
            .status == 202u);
    auto const first = message_of(stream.next());
    BOOST_TEST(first.at("method") == "notifications/progress");
    BOOST_TEST(first.at("params").at("progressToken") == "p");
    BOOST_TEST(message_of(stream.next()).at("method") == "notifications/progress");
    auto const result = message_of(stream.next());
    BOOST_TEST(result.at("id") == 2);
    BOOST_TEST(result.at("result").at("content").at(0).at("text") == "hecho");

    // Invalid arguments are the tool's error, on the stream like anything else.
    BOOST_TEST(
        h.post(post_to,
             R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":""}}})")
            .status == 202u);
    BOOST_TEST(message_of(stream.next()).at("result").at("isError") == true);

    // The session ends with its stream.
    stream.close();
    BOOST_TEST(h.sessions_become(0));
    BOOST_TEST(h.post(post_to, R"({"jsonrpc":"2.0","id":4,"method":"ping"})").status == 404u);
}

BOOST_AUTO_TEST_CASE(a_slow_call_does_not_hold_the_others)
{
    legacy_harness h;
    test_http::event_stream stream(h.ep, "/sse");
    std::string const post_to = stream.next().data;
    h.post(post_to,
        R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}})");
    BOOST_TEST(message_of(stream.next()).at("id") == 0);
    h.post(post_to,
        R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","arguments":{"ms":60000}}})");
    h.post(post_to, R"({"jsonrpc":"2.0","id":2,"method":"ping"})");
    BOOST_TEST(message_of(stream.next()).at("id") == 2);

    // Leaving cancels the minute-long call: nothing keeps the session.
    stream.close();
    BOOST_TEST(h.sessions_become(0));
}

BOOST_AUTO_TEST_CASE(transport_errors)
{
    legacy_harness h;
    test_http::event_stream stream(h.ep, "/sse");
    std::string const post_to = stream.next().data;

    auto const missing = h.post("/messages/", R"({"jsonrpc":"2.0","id":1,"method":"ping"})");
    BOOST_TEST(missing.status == 400u);
    BOOST_TEST(missing.detail_or_message() == "Bad Request: session_id is required");
    auto const unknown = h.post("/messages/?session_id=nope", R"({"jsonrpc":"2.0","id":1,"method":"ping"})");
    BOOST_TEST(unknown.status == 404u);
    BOOST_TEST(unknown.json().at("error").at("code") == -32001);
    auto const bad = h.post(post_to, "{no json");
    BOOST_TEST(bad.status == 400u);
    BOOST_TEST(bad.json().at("error").at("code") == -32700);
    BOOST_TEST(test_http::request(h.ep, bhttp::verb::post, post_to, "{}", "text/plain").status == 415u);

    auto const get_messages = test_http::get(h.ep, "/messages/");
    BOOST_TEST(get_messages.status == 405u);
    BOOST_TEST(get_messages.headers["allow"] == "POST");
    auto const post_sse = h.post("/sse", "{}");
    BOOST_TEST(post_sse.status == 405u);
    BOOST_TEST(post_sse.headers["allow"] == "GET");

    bhttp::fields evil;
    evil.set(bhttp::field::host, "evil.example.com");
    BOOST_TEST(test_http::event_stream(h.ep, "/sse", evil).status == 403u);
    BOOST_TEST(h.post(post_to, R"({"jsonrpc":"2.0","id":1,"method":"ping"})", evil).status == 403u);

    // At most two streams.
    test_http::event_stream second(h.ep, "/sse");
    BOOST_TEST(second.status == 200u);
    second.next();
    BOOST_TEST(test_http::event_stream(h.ep, "/sse").status == 503u);

    // The modern endpoint is still there.
    BOOST_TEST(test_http::get(h.ep, "/mcp").status == 405u);
}

BOOST_AUTO_TEST_CASE(streams_are_capped_per_address)
{
    legacy_harness h({.max_sessions = 3, .max_sessions_per_address = 1});
    test_http::event_stream first(h.ep, "/sse"); // from 127.0.0.1
    BOOST_TEST(first.status == 200u);
    BOOST_TEST(first.next().type == "endpoint");
    test_http::event_stream again(h.ep, "/sse");
    BOOST_TEST(again.status == 503u);
    BOOST_TEST(!again.headers["retry-after"].empty());

    // Another address still gets its stream, then meets its own cap.
    stream_from other(h.ep, "127.0.0.2");
    BOOST_TEST(other.status == 200u);
    BOOST_TEST(stream_from(h.ep, "127.0.0.2").status == 503u);
    BOOST_TEST(h.sessions_become(2));

    // The server's cap holds whatever the address.
    stream_from third(h.ep, "127.0.0.3");
    BOOST_TEST(third.status == 200u);
    BOOST_TEST(stream_from(h.ep, "127.0.0.4").status == 503u);

    // A stream that ends gives its room back.
    first.close();
    BOOST_TEST(h.sessions_become(2));
    test_http::event_stream back(h.ep, "/sse");
    BOOST_TEST(back.status == 200u);
}

BOOST_AUTO_TEST_SUITE_END()
