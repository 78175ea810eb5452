// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The exporter's payloads read by a real consumer: a traced HTTP request that
// runs an agent (the fake LLM, a tool), its spans sent by trace::otlp_exporter
// to tests/otlp/receiver.mjs, which decodes them with the OpenTelemetry JS
// SDK's own protobuf code and writes what it accepted; this program then reads
// that back and checks the tree: server span, invoke_agent, chat, execute_tool.
// The tracer is configured by the OTEL_* variables the script sets.
//
//   agentio_otlp_export_check SPANS.jsonl     (scripts/otlp_check.sh starts the receiver)
#include <agentio/agent/orchestrator.hpp>
#include <agentio/http/client.hpp>
#include <agentio/http/router.hpp>
#include <agentio/http/server.hpp>
#include <agentio/llm/anthropic.hpp>
#include <agentio/testing/fake_llm.hpp>
#include <agentio/trace.hpp>
#include <agentio/otlp.hpp>

#include "../agent/test_tools.hpp"
#include "test_paths.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/json.hpp>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <thread>
#include <vector>

namespace asio = boost::asio;
namespace json = boost::json;
namespace http = agentio::http;
namespace trace = agentio::trace;
namespace agent = agentio::agent;
namespace llm = agentio::llm;
using namespace std::chrono_literals;

namespace {

int failures = 0;

void check(bool ok, std::string const& what)
{
    if(!ok)
    {
        ++failures;
        std::cerr << "otlp_export_check: FAILED: " << what << '\n';
    }
}

} // namespace

int main(int argc, char** argv)
{
    if(argc != 2)
    {
        std::cerr << "usage: agentio_otlp_export_check SPANS.jsonl\n";
        return 2;
    }
    auto settings = trace::settings_from_environment(agentio::process_environment, {.service_name = "otlp-check"});
    if(!settings || !settings->enabled)
    {
        std::cerr << "otlp_export_check: set OTEL_EXPORTER_OTLP_ENDPOINT\n";
        return 2;
    }
    trace::tracer tracer(*settings);

    asio::io_context ioc;
    agentio::testing::fake_llm fake(ioc.get_executor());
    fake.load_scenarios(agentio_test::source_dir() + "/tests/fixtures/scenarios");
    if(!fake.start())
        return 1;
    http::client client(ioc.get_executor());
    llm::provider_options po;
    po.api_key = "test";
    po.base_url = fake.anthropic_base_url();
    llm::anthropic_provider provider(client, po);
    agent_test::shared_counters counters;
    agent::options opts;
    opts.model = "portfolio-two-rounds";
    opts.telemetry = {nullptr, &tracer, "cartera"};
    agent::orchestrator runner{provider,
        ::test_tools{agentio::toolset_options{}, agent_test::contar_iniciativas{&counters, 0ms},
            agent_test::sumar_presupuesto{&counters}},
        opts};

    // A traced route that runs the agent under its request's context.
    http::router_options ro;
    ro.tracer = &tracer;
    http::router<> routes(ro);
    routes.post("/ask",
        [&](http::request&& req, http::route_params const&) -> asio::awaitable<boost::beast::http::message_generator> {
            std::vector<llm::message> conversation{llm::message::user(req.body())};
            std::string const parent(req["traceparent"]);
            agent::run_options how;
            how.traceparent = parent;
            how.conversation_id = "hilo-otlp";
            auto sink = [](agent::event const&) {};
            auto const result = co_await runner.run(conversation, sink, how);
            boost::beast::http::response<boost::beast::http::string_body> res{boost::beast::http::status::ok,
                req.version()};
            res.body() = result.answer;
            res.prepare_payload();
            co_return boost::beast::http::message_generator(std::move(res));
        });
    http::server server(ioc.get_executor(), std::move(routes));
    auto const ep = server.listen({asio::ip::make_address("127.0.0.1"), 0}).value();
    server.start();
    trace::otlp_exporter exporter(ioc.get_executor(), tracer);
    exporter.start();

    std::string const caller = "00-11111111111111111111111111111111-2222222222222222-01";
    bool done = false;
    asio::co_spawn(
        ioc,
        [&]() -> asio::awaitable<void> {
            http::client_request req;
            req.method = boost::beast::http::verb::post;
            req.url = "http://127.0.0.1:" + std::to_string(ep.port()) + "/ask";
            req.headers.set("traceparent", caller);
            req.body = "¿Cuántas iniciativas hay en ejecución?";
            auto [err, res] = co_await client.async_request(std::move(req), asio::use_awaitable);
            check(!err && res.status == 200, "the traced request was answered");
            co_await exporter.shutdown();
            server.stop();
            done = true;
        },
        asio::detached);
    while(!done && ioc.run_one_for(20s))
    {
    }
    check(done, "the run ended within 20 s");
    auto const stats = exporter.stats();
    check(stats.exported == 5 && stats.failed == 0,
        "5 spans exported, none failed (exported " + std::to_string(stats.exported) + ", failed " +
            std::to_string(stats.failed) + ")");

    // What the receiver accepted, one span a line.
    std::ifstream in(argv[1]);
    std::map<std::string, json::object> by_name;
    std::string line;
    std::size_t lines = 0;
    while(std::getline(in, line))
    {
        if(line.empty())
            continue;
        ++lines;
        auto span = json::parse(line).as_object();
        std::string name(span.at("name").as_string());
        if(by_name.count(name))
            name += " #2";
        by_name[name] = std::move(span);
    }
    check(lines == 5, "the receiver accepted 5 spans (it accepted " + std::to_string(lines) + ")");
    auto const span_of = [&](std::string const& name) -> json::object const& {
        static json::object const none;
        auto const it = by_name.find(name);
        check(it != by_name.end(), "a span named '" + name + "'");
        return it == by_name.end() ? none : it->second;
    };
    auto const text = [](json::object const& o, std::string_view key) -> std::string {
        auto const* v = o.if_contains(key);
        return v && v->is_string() ? std::string(v->as_string()) : std::string();
    };
    auto const attribute = [&](json::object const& o, std::string_view key) -> std::string {
        auto const* attrs = o.if_contains("attributes");
        auto const* v = attrs && attrs->is_object() ? attrs->as_object().if_contains(key) : nullptr;
        if(!v)
            return {};
        return v->is_string() ? std::string(v->as_string()) : json::serialize(*v);
    };
    auto const& server_span = span_of("POST /ask");
    auto const& run = span_of("invoke_agent cartera");
    auto const& first = span_of("chat portfolio-two-rounds");
    auto const& second = span_of("chat portfolio-two-rounds #2");
    auto const& tool = span_of("execute_tool contar_iniciativas");
    for(auto const* s : {&server_span, &run, &first, &second, &tool})
    {
        check(text(*s, "traceId") == "11111111111111111111111111111111", "one trace, the caller's");
        check(text(*s, "serviceName") == settings->service_name, "the service's name");
    }
    check(text(server_span, "parentSpanId") == "2222222222222222", "the server span under the caller's");
    check(text(run, "parentSpanId") == text(server_span, "spanId"), "the run under the server span");
    for(auto const* s : {&first, &second, &tool})
        check(text(*s, "parentSpanId") == text(run, "spanId"), "the calls under the run");
    check(attribute(server_span, "http.route") == "/ask", "http.route");
    check(attribute(server_span, "http.response.status_code") == "200", "http.response.status_code");
    check(attribute(first, "gen_ai.operation.name") == "chat", "gen_ai.operation.name");
    check(attribute(first, "gen_ai.provider.name") == "anthropic", "gen_ai.provider.name");
    check(attribute(first, "gen_ai.response.finish_reasons") == "[\"tool_use\"]", "gen_ai.response.finish_reasons");
    check(attribute(run, "gen_ai.conversation.id") == "hilo-otlp", "gen_ai.conversation.id");
    check(attribute(tool, "gen_ai.tool.name") == "contar_iniciativas", "gen_ai.tool.name");
    check(!attribute(run, "gen_ai.usage.input_tokens").empty(), "gen_ai.usage.input_tokens");
    auto const* kind = first.if_contains("kind");
    check(kind && kind->is_number() && kind->to_number<int>() == 3, "chat is a client span");

    // The model calls went out with their spans' context.
    auto const requests = fake.requests();
    check(requests.size() == 2 &&
            std::string(requests[0].headers["traceparent"]) ==
                "00-11111111111111111111111111111111-" + text(first, "spanId") + "-01",
        "the first model call carried its chat span's traceparent");
    if(failures == 0)
        std::cout << "otlp_export_check: 5 spans exported and decoded by the OpenTelemetry JS SDK's protobuf code\n";
    return failures == 0 ? 0 : 1;
}
