// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The application kit's telemetry: settings from AGENTIO_LOG_* and OTEL_*,
// the agents' records as metrics and log lines, a router's requests logged,
// counted and traced, and the exporter's fate of each span in the exposition.
#include <agentio/app/telemetry.hpp>

#include <boost/asio/io_context.hpp>
#include <boost/json/parse.hpp>
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace app = agentio::app;
namespace agent = agentio::agent;

namespace {

agentio::environment_lookup env(std::map<std::string, std::string> vars)
{
    return [vars = std::move(vars)](char const* name) -> std::optional<std::string> {
        auto const it = vars.find(name);
        if(it == vars.end())
            return std::nullopt;
        return it->second;
    };
}

struct temp_file
{
    std::filesystem::path path = std::filesystem::temp_directory_path() /
        ("agentio-telemetry-" + std::to_string(std::random_device{}()) + ".log");
    ~temp_file() { std::filesystem::remove(path); }

    std::vector<boost::json::object> lines() const
    {
        std::vector<boost::json::object> out;
        std::ifstream in(path);
        std::string line;
        while(std::getline(in, line))
            if(!line.empty())
                out.push_back(boost::json::parse(line).as_object());
        return out;
    }
};

bool has(std::string const& text, std::string const& part)
{
    return text.find(part) != std::string::npos;
}

} // namespace

BOOST_AUTO_TEST_SUITE(app_telemetry)

BOOST_AUTO_TEST_CASE(settings_name_the_service_and_the_bad_variable)
{
    auto const s = app::telemetry_from_environment(env({{"OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318"}}),
        "agentio-facturas")
                       .value();
    BOOST_TEST(s.log.program == "agentio-facturas");
    BOOST_TEST(s.trace.service_name == "agentio-facturas");
    BOOST_TEST(s.trace.enabled);
    auto const bad = app::telemetry_from_environment(env({{"OTEL_TRACES_SAMPLER", "a veces"}}), "x");
    BOOST_TEST_REQUIRE(!bad);
    BOOST_TEST(bad.error().variable == "OTEL_TRACES_SAMPLER");
    auto const bad_log = app::telemetry_from_environment(env({{"AGENTIO_LOG_LEVEL", "verbose"}}), "x");
    BOOST_TEST_REQUIRE(!bad_log);
    BOOST_TEST(bad_log.error().variable == "AGENTIO_LOG_LEVEL");
}

BOOST_AUTO_TEST_CASE(agents_runs_calls_and_tools_become_metrics_and_lines)
{
    temp_file file;
    app::telemetry_settings s;
    s.log.program = "pruebas";
    s.log.file = file.path.string();
    s.log.format = agentio::log::format::json;
    s.log.level = agentio::log::level::debug;
    boost::asio::io_context ioc;
    app::telemetry seen(ioc.get_executor(), s);
    auto const t = seen.agent("cartera");
    BOOST_TEST_REQUIRE(t.observer != nullptr);
    BOOST_TEST(t.agent_name == "cartera");

    t.observer->run_started("tools");
    BOOST_TEST(has(seen.registry().expose(), "agentio_agent_runs_active{strategy=\"tools\"} 1"));
    agent::model_call_record call;
    call.provider = "anthropic";
    call.model = "claude";
    call.outcome = "ok";
    call.duration = std::chrono::milliseconds(120);
    call.time_to_first_token = std::chrono::milliseconds(30);
    call.usage = {100, 20, 0, 80};
    call.retries = 1;
    call.finish_reason = "end_turn";
    t.observer->model_call(call);
    agent::tool_call_record tool{"consultar", "toolu_1", "error", std::chrono::milliseconds(5), "no existe"};
    t.observer->tool_call(tool);
    agent::run_record run{"tools", "claude", agent::outcome::completed, 2, {100, 20, 0, 80},
        std::chrono::milliseconds(300), {}};
    t.observer->run_finished(run);

    {
        agentio::llm::error failure;
        failure.what = agentio::llm::error::kind::http_status;
        failure.status = 529;
        failure.message = "Overloaded";
        seen.provider_retries("anthropic")("claude", 1, failure);
    }

    auto const text = seen.registry().expose();
    BOOST_TEST(has(text, "agentio_agent_runs_active{strategy=\"tools\"} 0"));
    BOOST_TEST(has(text, "agentio_agent_runs_total{strategy=\"tools\",outcome=\"completed\"} 1"));
    BOOST_TEST(has(text, "agentio_model_calls_total{provider=\"anthropic\",model=\"claude\",outcome=\"ok\"} 1"));
    BOOST_TEST(has(text, "agentio_model_tokens_total{provider=\"anthropic\",model=\"claude\",type=\"input\"} 100"));
    BOOST_TEST(has(text, "agentio_model_tokens_total{provider=\"anthropic\",model=\"claude\",type=\"cache_read\"} 80"));
    BOOST_TEST(has(text, "agentio_model_retries_total{provider=\"anthropic\",model=\"claude\"} 2"));
    BOOST_TEST(has(text, "agentio_model_time_to_first_token_seconds_count{provider=\"anthropic\",model=\"claude\"} 1"));
    BOOST_TEST(has(text, "agentio_tool_calls_total{tool=\"consultar\",outcome=\"error\"} 1"));
    BOOST_TEST(has(text, "agentio_tool_call_duration_seconds_count{tool=\"consultar\"} 1"));
    BOOST_TEST(has(text, "agentio_trace_spans_total{fate=\"dropped\"} 0"));

    seen.log().flush();
    std::map<std::string, boost::json::object> by_event;
    for(auto& line : file.lines())
        by_event[std::string(line.at("event").as_string())] = line;
    BOOST_TEST_REQUIRE(by_event.count("agent.run") == 1u);
    BOOST_TEST(by_event["agent.run"].at("rounds").as_int64() == 2);
    BOOST_TEST(by_event["agent.run"].at("outcome").as_string() == "completed");
    BOOST_TEST(by_event["tool.call"].at("outcome").as_string() == "error");
    BOOST_TEST(by_event["tool.error"].at("error").as_string() == "no existe"); // at debug
    BOOST_TEST(by_event["model.call"].at("finish_reason").as_string() == "end_turn");
    BOOST_TEST(by_event["provider.retry"].at("status").as_int64() == 529);
}

BOOST_AUTO_TEST_CASE(the_router_options_log_count_and_trace)
{
    app::telemetry_settings s;
    s.log.level = agentio::log::level::off;
    s.trace.enabled = true;
    s.trace.sampler = agentio::trace::sampler::always_on;
    boost::asio::io_context ioc;
    app::telemetry seen(ioc.get_executor(), s);
    int earlier = 0;
    agentio::http::router_options base;
    base.observe = [&](agentio::http::request_observation const&) { ++earlier; };
    auto const o = seen.router_options(base);
    BOOST_TEST(o.tracer == &seen.tracer());
    agentio::http::request_observation r;
    r.method = boost::beast::http::verb::post;
    r.route = "/v1/chat/completions";
    r.status = 200;
    o.observe(r);
    BOOST_TEST(earlier == 1); // the application's own observer still runs
    BOOST_TEST(has(seen.registry().expose(),
        "agentio_http_requests_total{method=\"POST\",route=\"/v1/chat/completions\",status=\"200\"} 1"));
}

BOOST_AUTO_TEST_SUITE_END()
