// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The application kit's telemetry: settings from AGENTIO_LOG_* and OTEL_*,
// the agents' records as metrics and log lines, a router's requests logged,
// counted and traced, and the exporter's fate of each span in the exposition.
#include <agentio/app/telemetry.hpp>
#include <agentio/http/client.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_awaitable.hpp>
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

BOOST_AUTO_TEST_CASE(listen_addresses_as_exporters_write_them)
{
    namespace http = agentio::http;
    auto text = [](std::string_view s) {
        auto const e = http::parse_listen_address(s);
        return e ? e->address().to_string() + " " + std::to_string(e->port()) : std::string("none");
    };
    BOOST_TEST(text("127.0.0.1:9464") == "127.0.0.1 9464");
    BOOST_TEST(text("[::1]:9464") == "::1 9464");
    BOOST_TEST(text(":9464") == "0.0.0.0 9464");
    BOOST_TEST(text("9464") == "0.0.0.0 9464");
    BOOST_TEST(text("0.0.0.0:0") == "0.0.0.0 0");
    for(std::string_view bad : {"", ":", "localhost:9464", "::1:9464", "127.0.0.1:65536", "127.0.0.1:94a4",
            "127.0.0.1:-1", "127.0.0.1", "[::1]:", "1.2.3:80", "127.0.0.1:123456"})
        BOOST_TEST(text(bad) == "none", bad);

    auto const s = app::telemetry_from_environment(env({{"AGENTIO_METRICS_ADDRESS", "127.0.0.1:9464"}}), "x").value();
    BOOST_TEST_REQUIRE(s.metrics_address.has_value());
    BOOST_TEST(s.metrics_address->port() == 9464);
    BOOST_TEST(!app::telemetry_from_environment(env({}), "x").value().metrics_address);
    auto const bad = app::telemetry_from_environment(env({{"AGENTIO_METRICS_ADDRESS", "localhost:9464"}}), "x");
    BOOST_TEST_REQUIRE(!bad);
    BOOST_TEST(bad.error().variable == "AGENTIO_METRICS_ADDRESS");
    BOOST_TEST(agentio::to_string(bad.error()) ==
        "AGENTIO_METRICS_ADDRESS: expected 'host:port' or '[v6]:port' or ':port', got 'localhost:9464'");
}

BOOST_AUTO_TEST_CASE(the_metrics_served_on_a_listener_of_their_own)
{
    namespace asio = boost::asio;
    namespace http = agentio::http;
    app::telemetry_settings s;
    s.log.level = agentio::log::level::off;
    s.metrics_address = http::tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0);
    asio::io_context ioc;
    app::telemetry seen(ioc.get_executor(), s);
    // The application's own port does not serve them.
    http::router<> routes(seen.router_options());
    seen.add_metrics_route(routes);
    routes.get("/hola",
        [](http::request&& req, http::route_params const&) -> asio::awaitable<boost::beast::http::message_generator> {
            http::response res{boost::beast::http::status::ok, req.version()};
            res.body() = "hola";
            res.prepare_payload();
            co_return boost::beast::http::message_generator(std::move(res));
        });
    http::server<http::router<>> server(ioc.get_executor(), std::move(routes));
    auto const api = server.listen({asio::ip::make_address("127.0.0.1"), 0}).value();
    server.start();
    BOOST_TEST(!seen.metrics_endpoint());
    seen.start();
    BOOST_TEST_REQUIRE(seen.metrics_endpoint().has_value());
    BOOST_TEST(seen.metrics_endpoint()->port() != 0);
    BOOST_TEST(seen.metrics_endpoint()->port() != api.port());

    http::client client(ioc.get_executor());
    std::vector<http::client_response> answers;
    bool done = false;
    asio::co_spawn(
        ioc,
        [&]() -> asio::awaitable<void> {
            std::string const metrics = "http://127.0.0.1:" + std::to_string(seen.metrics_endpoint()->port());
            std::string const base = "http://127.0.0.1:" + std::to_string(api.port());
            std::vector<std::string> const urls{base + "/hola", base + "/metrics", metrics + "/metrics",
                metrics + "/hola"};
            for(auto const& url : urls)
            {
                http::client_request req;
                req.url = url;
                auto [err, res] = co_await client.async_request(std::move(req), asio::use_awaitable);
                BOOST_TEST(!err);
                answers.push_back(std::move(res));
            }
            server.stop();
            co_await seen.shutdown();
        },
        [&](std::exception_ptr e) {
            done = true;
            if(e)
                std::rethrow_exception(e);
        });
    while(!done && ioc.run_one_for(std::chrono::seconds(10)))
    {
    }
    BOOST_TEST_REQUIRE(done);
    BOOST_TEST_REQUIRE(answers.size() == 4u);
    BOOST_TEST(answers[0].status == 200u);
    BOOST_TEST(answers[1].status == 404u);
    BOOST_TEST(answers[2].status == 200u);
    BOOST_TEST(answers[2].header("Content-Type") == agentio::metrics::content_type);
    // The API's requests, counted and served on the other port.
    BOOST_TEST(has(answers[2].body, "agentio_http_requests_total{method=\"GET\",route=\"/hola\",status=\"200\"} 1"),
        answers[2].body);
    BOOST_TEST(has(answers[2].body, "agentio_sse_streams_open 0"), answers[2].body);
    BOOST_TEST(answers[3].status == 404u);
}

BOOST_AUTO_TEST_SUITE_END()
