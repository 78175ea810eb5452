// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Traces: W3C traceparent read and written (the specification's valid and
// invalid forms), the OTEL_* variables, sampling, the bounded queue, the
// OTLP/JSON shape, the OTLP exporter against a collector on loopback that
// accepts, refuses (500) or is not there, and the router's server spans.
// (The payloads are also decoded by the official OpenTelemetry JS packages
// in the CTest test otlp.official_decoder.)
#include <agentio/http/router.hpp>
#include <agentio/http/server.hpp>
#include <agentio/trace.hpp>
#include <agentio/otlp.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace asio = boost::asio;
namespace json = boost::json;
namespace trace = agentio::trace;
namespace http = agentio::http;
using namespace std::chrono_literals;

namespace {

agentio::environment_lookup env(std::map<std::string, std::string> vars)
{
    return [vars = std::move(vars)](char const* name) -> std::optional<std::string> {
        auto const it = vars.find(name);
        if(it == vars.end() || it->second.empty())
            return std::nullopt;
        return it->second;
    };
}

trace::settings on()
{
    trace::settings s;
    s.enabled = true;
    s.service_name = "pruebas";
    s.sampler = trace::sampler::always_on;
    return s;
}

// A collector on loopback: records each POST /v1/traces body, answers `status`.
struct collector
{
    asio::io_context ioc;
    std::mutex mutex;
    std::vector<std::string> bodies;
    std::vector<std::string> content_types;
    std::vector<std::string> authorizations;
    std::atomic<unsigned> status{200};
    std::optional<http::server<http::router<boost::beast::tcp_stream>>> server;
    asio::ip::tcp::endpoint ep;
    std::thread thread;

    collector()
    {
        http::router<boost::beast::tcp_stream> routes;
        routes.post("/v1/traces",
            [this](http::request&& req,
                http::route_params const&) -> asio::awaitable<boost::beast::http::message_generator> {
                {
                    std::lock_guard lock(mutex);
                    bodies.push_back(req.body());
                    content_types.emplace_back(req[boost::beast::http::field::content_type]);
                    authorizations.emplace_back(req[boost::beast::http::field::authorization]);
                }
                boost::beast::http::response<boost::beast::http::string_body> res{
                    static_cast<boost::beast::http::status>(status.load()), req.version()};
                res.set(boost::beast::http::field::content_type, "application/json");
                res.body() = status == 200 ? "{\"partialSuccess\":{}}" : "{\"code\":13,\"message\":\"broken\"}";
                res.prepare_payload();
                co_return boost::beast::http::message_generator(std::move(res));
            });
        server.emplace(ioc.get_executor(), std::move(routes));
        ep = server->listen({asio::ip::make_address("127.0.0.1"), 0}).value();
        server->start();
        thread = std::thread([this] { ioc.run(); });
    }
    ~collector()
    {
        asio::post(ioc, [this] { server->stop(); });
        thread.join();
    }
    std::string url() const { return "http://127.0.0.1:" + std::to_string(ep.port()) + "/v1/traces"; }
    std::size_t spans_received()
    {
        std::lock_guard lock(mutex);
        std::size_t n = 0;
        for(auto const& b : bodies)
            n += json::parse(b).at("resourceSpans").at(0).at("scopeSpans").at(0).at("spans").as_array().size();
        return n;
    }
};

// Runs `work` on a fresh io_context to its end.
template<class Work>
void run_to_end(asio::io_context& ioc, Work work)
{
    bool done = false;
    asio::co_spawn(ioc, work(), [&](std::exception_ptr e) {
        done = true;
        if(e)
            std::rethrow_exception(e);
    });
    while(!done && ioc.run_one_for(10s))
    {
    }
    BOOST_TEST_REQUIRE(done);
}

} // namespace

BOOST_AUTO_TEST_SUITE(trace_context)

BOOST_AUTO_TEST_CASE(traceparent_as_the_w3c_specification_has_it)
{
    auto const c = trace::parse_traceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
    BOOST_TEST_REQUIRE(c.has_value());
    BOOST_TEST(trace::to_hex(c->trace_id) == "4bf92f3577b34da6a3ce929d0e0e4736");
    BOOST_TEST(trace::to_hex(c->span_id) == "00f067aa0ba902b7");
    BOOST_TEST(c->sampled);
    BOOST_TEST(trace::format_traceparent(*c) == "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
    auto const unsampled = trace::parse_traceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00");
    BOOST_TEST_REQUIRE(unsampled.has_value());
    BOOST_TEST(!unsampled->sampled);
    // Other flags are kept out of `sampled`; a later version may add fields after a dash.
    BOOST_TEST(trace::parse_traceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-02")->sampled == false);
    BOOST_TEST(trace::parse_traceparent("cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-what-the-future")
                   .has_value());

    for(char const* bad : {"",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",          // no flags
            "00-4BF92F3577B34DA6A3CE929D0E0E4736-00F067AA0BA902B7-01",       // upper case
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01",       // zero trace id
            "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",       // zero span id
            "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",       // version ff
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra", // version 00 with more
            "00_4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",       // separator
            "00-4bf92f3577b34da6a3ce929d0e0e473g-00f067aa0ba902b7-01",       // not hex
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-1",        // short flags
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01\r\nX-Forged: 1"})
        BOOST_TEST(!trace::parse_traceparent(bad).has_value(), bad);
    BOOST_TEST(trace::format_traceparent(trace::span_context{}).empty());
}

BOOST_AUTO_TEST_CASE(settings_from_the_standard_variables)
{
    // Nothing set: off, the service named by the program.
    trace::settings defaults;
    defaults.service_name = "agentio-platform";
    auto const none = trace::settings_from_environment(env({}), defaults).value();
    BOOST_TEST(!none.enabled);
    BOOST_TEST(none.service_name == "agentio-platform");
    BOOST_TEST(none.endpoint == "http://localhost:4318/v1/traces");

    // A base endpoint gets /v1/traces; the traces endpoint is taken as is and wins.
    auto const base =
        trace::settings_from_environment(env({{"OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318/"}})).value();
    BOOST_TEST(base.enabled);
    BOOST_TEST(base.endpoint == "http://collector:4318/v1/traces");
    auto const exact = trace::settings_from_environment(env({{"OTEL_EXPORTER_OTLP_ENDPOINT", "http://a:4318"},
                                                            {"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "https://b/otlp"}}))
                           .value();
    BOOST_TEST(exact.endpoint == "https://b/otlp");

    auto const full = trace::settings_from_environment(
        env({{"OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318"}, {"OTEL_SERVICE_NAME", "facturas"},
            {"OTEL_RESOURCE_ATTRIBUTES", "deployment.environment=pruebas,service.name=x,team=a%20b"},
            {"OTEL_EXPORTER_OTLP_HEADERS", "authorization=Bearer%20abc"}, {"OTEL_EXPORTER_OTLP_PROTOCOL", "http/json"},
            {"OTEL_EXPORTER_OTLP_TIMEOUT", "2500"}, {"OTEL_BSP_MAX_QUEUE_SIZE", "100"},
            {"OTEL_BSP_MAX_EXPORT_BATCH_SIZE", "500"}, {"OTEL_BSP_SCHEDULE_DELAY", "200"},
            {"OTEL_TRACES_SAMPLER", "parentbased_traceidratio"}, {"OTEL_TRACES_SAMPLER_ARG", "0.25"},
            {"OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT",
                "TRUE"}})).value();
    BOOST_TEST(full.service_name == "facturas"); // OTEL_SERVICE_NAME wins over the resource's service.name
    BOOST_TEST_REQUIRE(full.resource.size() == 2u);
    BOOST_TEST(full.resource[0].key == "deployment.environment");
    BOOST_TEST(std::get<std::string>(full.resource[1].value) == "a b");
    BOOST_TEST_REQUIRE(full.headers.size() == 1u);
    BOOST_TEST(full.headers[0].second == "Bearer abc");
    BOOST_TEST(full.export_timeout.count() == 2500);
    BOOST_TEST(full.max_queue_size == 100u);
    BOOST_TEST(full.max_export_batch_size == 100u); // never more than the queue
    BOOST_TEST(full.schedule_delay.count() == 200);
    BOOST_TEST((full.sampler == trace::sampler::parentbased_traceidratio));
    BOOST_TEST(full.sampler_ratio == 0.25);
    BOOST_TEST(full.capture_message_content);

    // What turns it off wins.
    BOOST_TEST(!trace::settings_from_environment(env({{"OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318"},
                                                     {"OTEL_SDK_DISABLED", "true"}}))
                    .value()
                    .enabled);
    BOOST_TEST(!trace::settings_from_environment(env({{"OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318"},
                                                     {"OTEL_TRACES_EXPORTER", "none"}}))
                    .value()
                    .enabled);
    BOOST_TEST(trace::settings_from_environment(env({{"OTEL_TRACES_EXPORTER", "otlp"}})).value().enabled);

    // Each bad value names its variable; a header's value is never echoed.
    auto const variable_of = [](std::map<std::string, std::string> vars) {
        auto const r = trace::settings_from_environment(env(std::move(vars)));
        return r ? std::string() : r.error().variable + "=" + r.error().value;
    };
    BOOST_TEST(variable_of({{"OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"}}) == "OTEL_EXPORTER_OTLP_PROTOCOL=grpc");
    BOOST_TEST(variable_of({{"OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "http/protobuf"}}) ==
        "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL=http/protobuf");
    BOOST_TEST(variable_of({{"OTEL_EXPORTER_OTLP_ENDPOINT", "collector:4318"}}) ==
        "OTEL_EXPORTER_OTLP_ENDPOINT=collector:4318/v1/traces");
    BOOST_TEST(variable_of({{"OTEL_TRACES_SAMPLER", "sometimes"}}) == "OTEL_TRACES_SAMPLER=sometimes");
    BOOST_TEST(variable_of({{"OTEL_TRACES_SAMPLER", "traceidratio"}, {"OTEL_TRACES_SAMPLER_ARG", "1.5"}}) ==
        "OTEL_TRACES_SAMPLER_ARG=1.5");
    BOOST_TEST(variable_of({{"OTEL_BSP_MAX_QUEUE_SIZE", "0"}}) == "OTEL_BSP_MAX_QUEUE_SIZE=0");
    BOOST_TEST(variable_of({{"OTEL_TRACES_EXPORTER", "zipkin"}}) == "OTEL_TRACES_EXPORTER=zipkin");
    BOOST_TEST(variable_of({{"OTEL_EXPORTER_OTLP_HEADERS", "api-key"}}) == "OTEL_EXPORTER_OTLP_HEADERS=[redacted]");
}

BOOST_AUTO_TEST_CASE(spans_children_sampling_and_the_bounded_queue)
{
    // Off: nothing recorded, the parent's context passed on unchanged.
    trace::tracer off;
    auto const parent = trace::parse_traceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
    {
        auto s = off.start("x", trace::span_kind::server, parent);
        BOOST_TEST(!s.recording());
        BOOST_TEST(s.traceparent() == "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
        auto root = off.start("y", trace::span_kind::internal);
        BOOST_TEST(root.traceparent().empty());
    }
    BOOST_TEST(off.ended() == 0u);

    // On: a child keeps the trace, gets its own span id, and names its parent.
    trace::tracer tracer(on());
    {
        auto s = tracer.start("POST /ask", trace::span_kind::server, parent);
        BOOST_TEST(s.recording());
        BOOST_TEST(trace::to_hex(s.context().trace_id) == "4bf92f3577b34da6a3ce929d0e0e4736");
        BOOST_TEST(trace::to_hex(s.context().span_id) != "00f067aa0ba902b7");
        s.set("http.response.status_code", 200).set("http.route", "/ask");
        s.set("http.route", "/ask/stream"); // replaces
        auto child = tracer.start("chat m", trace::span_kind::client, s.context());
        child.fail("timeout", "no answer");
        child.end();
        child.end(); // once
    }
    std::vector<trace::span_data> spans;
    BOOST_TEST(tracer.take(spans, 10) == 2u);
    BOOST_TEST(spans[0].name == "chat m");
    BOOST_TEST((spans[0].status == trace::status_code::error));
    BOOST_TEST((spans[0].parent_span_id == spans[1].context.span_id));
    BOOST_TEST(trace::to_hex(spans[1].parent_span_id) == "00f067aa0ba902b7");
    BOOST_TEST(spans[1].attributes.size() == 2u);
    BOOST_TEST(std::get<std::string>(spans[1].attributes[1].value) == "/ask/stream");

    // parentbased: an unsampled parent's trace is not recorded, yet its context goes on.
    trace::tracer based([] {
        auto s = on();
        s.sampler = trace::sampler::parentbased_always_on;
        return s;
    }());
    auto const unsampled = trace::parse_traceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00");
    {
        auto s = based.start("x", trace::span_kind::server, unsampled);
        BOOST_TEST(!s.recording());
        BOOST_TEST(s.traceparent().starts_with("00-4bf92f3577b34da6a3ce929d0e0e4736-"));
        BOOST_TEST(s.traceparent().ends_with("-00"));
    }
    BOOST_TEST(based.queued() == 0u);

    // A ratio of 0.25 keeps about a quarter of new traces.
    auto ratio_settings = on();
    ratio_settings.sampler = trace::sampler::traceidratio;
    ratio_settings.sampler_ratio = 0.25;
    ratio_settings.max_queue_size = 100000;
    trace::tracer sometimes(ratio_settings);
    for(int i = 0; i < 4000; ++i)
        sometimes.start("x", trace::span_kind::internal);
    BOOST_TEST(sometimes.queued() > 800u);
    BOOST_TEST(sometimes.queued() < 1200u);

    // A full queue drops and counts, never grows.
    auto small = on();
    small.max_queue_size = 3;
    trace::tracer bounded(small);
    for(int i = 0; i < 10; ++i)
        bounded.start("x", trace::span_kind::internal);
    BOOST_TEST(bounded.queued() == 3u);
    BOOST_TEST(bounded.dropped() == 7u);
    BOOST_TEST(bounded.ended() == 10u);
}

BOOST_AUTO_TEST_CASE(otlp_json_as_the_specification_encodes_it)
{
    trace::span_data s;
    s.context = *trace::parse_traceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
    s.name = "chat claude";
    s.kind = trace::span_kind::client;
    s.start_unix_nano = 1764400000123456789ull;
    s.end_unix_nano = 1764400001123456789ull;
    s.attributes = {{"gen_ai.usage.input_tokens", std::int64_t(9007199254740993)}, {"t", 0.5}, {"b", true},
        {"gen_ai.response.finish_reasons", std::vector<std::string>{"stop"}}, {"s", std::string("\"\n")}};
    s.status = trace::status_code::error;
    s.status_message = "timeout";
    auto settings = on();
    settings.resource = {{"deployment.environment", std::string("pruebas")}};
    auto const doc = json::parse(trace::to_otlp_json(settings, std::span(&s, 1)));
    auto const& rs = doc.at("resourceSpans").at(0);
    auto const& resource = rs.at("resource").at("attributes").as_array();
    BOOST_TEST(resource.at(0).at("key").as_string() == "service.name");
    BOOST_TEST(resource.at(0).at("value").at("stringValue").as_string() == "pruebas");
    BOOST_TEST(resource.back().at("key").as_string() == "deployment.environment");
    auto const& scope = rs.at("scopeSpans").at(0);
    BOOST_TEST(scope.at("scope").at("name").as_string() == "agentio");
    auto const& span = scope.at("spans").at(0);
    BOOST_TEST(span.at("traceId").as_string() == "4bf92f3577b34da6a3ce929d0e0e4736");
    BOOST_TEST(span.at("spanId").as_string() == "00f067aa0ba902b7");
    BOOST_TEST(!span.as_object().contains("parentSpanId")); // a root
    BOOST_TEST(span.at("kind").as_int64() == 3);
    BOOST_TEST(span.at("startTimeUnixNano").as_string() == "1764400000123456789"); // 64-bit: a string
    auto const& attrs = span.at("attributes").as_array();
    BOOST_TEST(attrs.at(0).at("value").at("intValue").as_string() == "9007199254740993");
    BOOST_TEST(attrs.at(1).at("value").at("doubleValue").as_double() == 0.5);
    BOOST_TEST(attrs.at(2).at("value").at("boolValue").as_bool());
    BOOST_TEST(attrs.at(3).at("value").at("arrayValue").at("values").at(0).at("stringValue").as_string() == "stop");
    BOOST_TEST(attrs.at(4).at("value").at("stringValue").as_string() == "\"\n");
    BOOST_TEST(span.at("status").at("code").as_int64() == 2);
    BOOST_TEST(span.at("status").at("message").as_string() == "timeout");
}

BOOST_AUTO_TEST_CASE(the_exporter_sends_batches_and_counts_what_it_loses)
{
    collector up;
    auto settings = on();
    settings.endpoint = up.url();
    settings.schedule_delay = 50ms;
    settings.max_export_batch_size = 4;
    settings.headers = {{"authorization", "Bearer secreto"}};
    trace::tracer tracer(settings);
    asio::io_context ioc;
    trace::otlp_exporter exporter(ioc.get_executor(), tracer);
    exporter.start();
    for(int i = 0; i < 10; ++i)
        tracer.start("span " + std::to_string(i), trace::span_kind::internal);
    run_to_end(ioc, [&]() -> asio::awaitable<void> {
        asio::steady_timer wait(co_await asio::this_coro::executor);
        for(int i = 0; i < 200 && exporter.stats().exported < 10; ++i)
        {
            wait.expires_after(10ms);
            co_await wait.async_wait(asio::use_awaitable);
        }
        co_await exporter.shutdown();
    });
    BOOST_TEST(exporter.stats().exported == 10u);
    BOOST_TEST(exporter.stats().failed == 0u);
    BOOST_TEST(up.spans_received() == 10u);
    BOOST_TEST(up.bodies.size() >= 3u); // batches of at most 4
    BOOST_TEST(up.content_types.at(0) == "application/json");
    BOOST_TEST(up.authorizations.at(0) == "Bearer secreto");

    // A collector answering 500: the batches are dropped and counted, not retried into a backlog.
    collector broken;
    broken.status = 500;
    auto failing = settings;
    failing.endpoint = broken.url();
    trace::tracer tracer2(failing);
    asio::io_context ioc2;
    trace::otlp_exporter exporter2(ioc2.get_executor(), tracer2);
    exporter2.start();
    for(int i = 0; i < 6; ++i)
        tracer2.start("x", trace::span_kind::internal);
    run_to_end(ioc2, [&]() -> asio::awaitable<void> { co_await exporter2.shutdown(); });
    BOOST_TEST(exporter2.stats().failed == 6u);
    BOOST_TEST(exporter2.stats().exported == 0u);
    BOOST_TEST(tracer2.queued() == 0u);

    // Nobody listening: the same, and quickly.
    asio::ip::port_type dead_port = 0;
    {
        asio::io_context probe;
        asio::ip::tcp::acceptor a(probe, {asio::ip::make_address("127.0.0.1"), 0});
        dead_port = a.local_endpoint().port();
    }
    auto dead = settings;
    dead.endpoint = "http://127.0.0.1:" + std::to_string(dead_port) + "/v1/traces";
    trace::tracer tracer3(dead);
    asio::io_context ioc3;
    trace::otlp_exporter exporter3(ioc3.get_executor(), tracer3);
    exporter3.start();
    for(int i = 0; i < 3; ++i)
        tracer3.start("x", trace::span_kind::internal);
    auto const started = std::chrono::steady_clock::now();
    run_to_end(ioc3, [&]() -> asio::awaitable<void> { co_await exporter3.shutdown(); });
    BOOST_TEST(exporter3.stats().failed == 3u);
    BOOST_TEST((std::chrono::steady_clock::now() - started < 5s));
}

BOOST_AUTO_TEST_CASE(the_router_traces_each_request_and_hands_its_context_on)
{
    trace::tracer tracer(on());
    http::router_options options;
    options.tracer = &tracer;
    http::router<boost::beast::tcp_stream> routes(std::move(options));
    std::mutex seen_mutex;
    std::vector<std::string> seen; // the traceparent each handler found
    routes.get("/items/{id}",
        [&](http::request&& req, http::route_params const&) -> asio::awaitable<boost::beast::http::message_generator> {
            {
                std::lock_guard lock(seen_mutex);
                seen.emplace_back(req["traceparent"]);
            }
            boost::beast::http::response<boost::beast::http::string_body> res{boost::beast::http::status::ok,
                req.version()};
            res.body() = "ok";
            res.prepare_payload();
            co_return boost::beast::http::message_generator(std::move(res));
        });
    asio::io_context ioc;
    http::server<http::router<boost::beast::tcp_stream>> server(ioc.get_executor(), std::move(routes));
    auto const ep = server.listen({asio::ip::make_address("127.0.0.1"), 0}).value();
    server.start();
    http::client client(ioc.get_executor());
    auto const base = "http://127.0.0.1:" + std::to_string(ep.port());
    run_to_end(ioc, [&]() -> asio::awaitable<void> {
        std::vector<std::string> const incoming{"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "00-not-a-traceparent", ""};
        for(auto const& tp : incoming)
        {
            http::client_request req;
            req.url = base + "/items/7";
            if(!tp.empty())
                req.headers.set("traceparent", tp);
            auto [err, res] = co_await client.async_request(std::move(req), asio::use_awaitable);
            BOOST_TEST(!err);
        }
        http::client_request missing;
        missing.url = base + "/nowhere";
        auto [err, res] = co_await client.async_request(std::move(missing), asio::use_awaitable);
        BOOST_TEST(res.status == 404u);
        server.stop();
    });
    std::vector<trace::span_data> spans;
    tracer.take(spans, 10);
    BOOST_TEST_REQUIRE(spans.size() == 4u);
    BOOST_TEST(spans[0].name == "GET /items/{id}");
    BOOST_TEST((spans[0].kind == trace::span_kind::server));
    BOOST_TEST(trace::to_hex(spans[0].context.trace_id) == "4bf92f3577b34da6a3ce929d0e0e4736");
    BOOST_TEST(trace::to_hex(spans[0].parent_span_id) == "00f067aa0ba902b7");
    // The handler found the server span's context, whatever came in; a malformed one is never passed on.
    BOOST_TEST_REQUIRE(seen.size() == 3u);
    for(std::size_t i = 0; i < 3; ++i)
        BOOST_TEST(seen[i] == trace::format_traceparent(spans[i].context));
    BOOST_TEST(trace::to_hex(spans[1].parent_span_id) == "0000000000000000"); // a new trace
    BOOST_TEST(spans[3].name == "GET");                                       // no route: the method only
    bool status_found = false;
    for(auto const& a : spans[3].attributes)
        if(a.key == "http.response.status_code")
            status_found = std::get<std::int64_t>(a.value) == 404;
    BOOST_TEST(status_found);
}

BOOST_AUTO_TEST_SUITE_END()
