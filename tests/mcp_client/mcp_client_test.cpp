// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// agentio::mcp::client against agentio's MCP server over each transport: a
// real child process on stdio (this executable, started with --serve-stdio),
// Streamable HTTP and HTTP+SSE on 127.0.0.1. The official suite's client
// scenarios and foreign servers are run by scripts/mcp_conformance.sh and
// scripts/mcp_clients.sh; here are the cases a suite cannot provoke: timeouts,
// cancellation reaching the server, a server that dies, an expired session,
// the bridge into dynamic_tools.
#define BOOST_TEST_MODULE agentio_mcp_client
#define BOOST_TEST_NO_MAIN
#include "spans.hpp"

#include <agentio/detail/child_process.hpp>
#include <agentio/mcp.hpp>
#include <agentio/mcp/client.hpp>
#include <agentio/tool.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/use_future.hpp>
#include <boost/describe.hpp>
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <thread>

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

namespace asio = boost::asio;
namespace json = boost::json;
namespace mcp = agentio::mcp;
using namespace std::chrono_literals;

namespace client_test {

// Tool calls the server finished, and calls it saw cancelled.
std::atomic<int> calls_served{0};
std::atomic<int> calls_cancelled{0};
bool serving_stdio = false; // this process is the child: cancellations go to its stderr log

struct echo
{
    static constexpr std::string_view name = "echo";
    static constexpr std::string_view description = "Repeats the text";
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

struct add
{
    static constexpr std::string_view name = "add";
    static constexpr std::string_view description = "Adds two numbers";
    struct args
    {
        double a = 0;
        double b = 0;
    };
    asio::awaitable<agentio::tool_result> operator()(args x, agentio::tool_context&) const
    {
        co_return agentio::tool_result::json(json::object{{"sum", x.a + x.b}});
    }
};
BOOST_DESCRIBE_STRUCT(add::args, (), (a, b))

// Waits `ms`, reporting progress every 20 ms; counts the calls cancelled.
struct slow
{
    static constexpr std::string_view name = "slow";
    static constexpr std::string_view description = "Waits";
    struct args
    {
        std::int64_t ms = 0;
    };
    asio::awaitable<agentio::tool_result> operator()(args a, agentio::tool_context& ctx) const
    {
        // Counted however the call ends early: an error code, or the exception
        // of a wait begun after the cancellation.
        struct count_unless_finished
        {
            bool finished = false;
            ~count_unless_finished()
            {
                if(finished)
                    return;
                ++calls_cancelled;
                if(serving_stdio)
                    std::fprintf(stderr, "slow: cancelled\n");
            }
        } guard;
        asio::steady_timer t(co_await asio::this_coro::executor);
        for(std::int64_t done = 0; done < a.ms; done += 20)
        {
            ctx.report_progress(static_cast<double>(done), static_cast<double>(a.ms), "waiting");
            t.expires_after(20ms);
            auto [ec] = co_await t.async_wait(asio::as_tuple(asio::use_awaitable));
            if(ec)
                co_return agentio::tool_result::error("cancelled");
        }
        guard.finished = true;
        co_return agentio::tool_result::text("done");
    }
};
BOOST_DESCRIBE_STRUCT(slow::args, (), (ms))

struct fail
{
    static constexpr std::string_view name = "fail";
    static constexpr std::string_view description = "Always fails";
    struct args
    {
    };
    asio::awaitable<agentio::tool_result> operator()(args, agentio::tool_context&) const
    {
        co_return agentio::tool_result::error("the tool failed on purpose");
    }
};
BOOST_DESCRIBE_STRUCT(fail::args, (), ())

// Ends the server process in the middle of a call.
struct crash
{
    static constexpr std::string_view name = "crash";
    static constexpr std::string_view description = "Ends the server process";
    struct args
    {
    };
    asio::awaitable<agentio::tool_result> operator()(args, agentio::tool_context&) const
    {
        std::_Exit(3);
        co_return agentio::tool_result::text("unreachable");
    }
};
BOOST_DESCRIBE_STRUCT(crash::args, (), ())

} // namespace client_test

template<>
struct agentio::field_traits<client_test::echo::args>
{
    static constexpr agentio::field_info fields[] = {
        {.name = "text", .description = "Text", .min_length = 1, .annotation = agentio::mcp::param_header("Text")}};
};
template<>
struct agentio::field_traits<client_test::add::args>
{
    static constexpr agentio::field_info fields[] = {{.name = "a", .description = "First"},
        {.name = "b", .description = "Second"}};
};
template<>
struct agentio::field_traits<client_test::slow::args>
{
    static constexpr agentio::field_info fields[] = {{.name = "ms", .description = "Milliseconds", .minimum = 0}};
};

namespace {

using test_tools =
    agentio::toolset<client_test::echo, client_test::add, client_test::slow, client_test::fail, client_test::crash>;

test_tools make_tools()
{
    return test_tools{agentio::toolset_options{}, client_test::echo{}, client_test::add{}, client_test::slow{},
        client_test::fail{}, client_test::crash{}};
}

mcp::server_options server_options()
{
    mcp::server_options o;
    o.info = {"client-test-server", "1.0.0", ""};
    o.tools_page_size = 2; // five tools: three pages
    o.on_tool_call = [](auto&&...) { ++client_test::calls_served; };
    return o;
}

std::string self_path()
{
    return std::filesystem::read_symlink("/proc/self/exe").string();
}

// Runs `body` on a fresh io_context (two threads: the client must not care) and returns its value.
template<class T>
T run(std::function<asio::awaitable<T>(asio::any_io_executor)> body)
{
    asio::io_context ioc;
    auto f = asio::co_spawn(ioc, body(ioc.get_executor()), asio::use_future);
    std::thread second([&] { ioc.run(); });
    ioc.run();
    second.join();
    return f.get();
}

// Streamable HTTP and HTTP+SSE served on 127.0.0.1 by a thread of its own.
struct http_fixture
{
    asio::io_context ioc;
    test_tools tools = make_tools();
    mcp::server<test_tools> server;
    mcp::http_endpoints<test_tools> endpoints;
    agentio::http::server<mcp::http_endpoints<test_tools>> http{ioc.get_executor(), endpoints};
    asio::ip::tcp::endpoint ep;
    std::thread runner;

    explicit http_fixture(mcp::http_options o = {}, mcp::server_options so = server_options())
        : server(tools, std::move(so))
        , endpoints(server, std::move(o))
    {
        ep = http.listen({asio::ip::make_address("127.0.0.1"), 0}).value();
        http.start();
        runner = std::thread([this] { ioc.run(); });
    }
    ~http_fixture()
    {
        ioc.stop();
        runner.join();
    }
    std::string url(std::string_view path) const
    {
        return "http://127.0.0.1:" + std::to_string(ep.port()) + std::string(path);
    }
};

mcp::client http_client(asio::any_io_executor ex, std::string url, mcp::negotiation mode)
{
    mcp::http_transport_options t;
    t.url = std::move(url);
    mcp::client_options o;
    o.mode = mode;
    o.request_timeout = 10s;
    return mcp::client(mcp::make_http_transport(std::move(ex), std::move(t)), std::move(o));
}

mcp::client stdio_client(asio::any_io_executor ex, mcp::negotiation mode, std::filesystem::path log = {})
{
    mcp::process_options p;
    p.program = self_path();
    p.arguments = {"--serve-stdio"};
    p.stderr_log = std::move(log);
    p.shutdown_grace = 1s;
    mcp::client_options o;
    o.mode = mode;
    o.request_timeout = 10s;
    return mcp::client(mcp::make_stdio_transport(std::move(ex), std::move(p)), std::move(o));
}

json::object args(json::object o)
{
    return o;
}

// What every transport must do: list every page, call, tell a tool's failure
// from a protocol error, report progress.
asio::awaitable<std::string> exercise(mcp::client c)
{
    auto const server = co_await c.connect();
    auto const tools = co_await c.list_tools();
    BOOST_TEST(tools.size() == 5u);
    BOOST_TEST(tools.at(0).name == "echo");
    BOOST_TEST(tools.at(4).name == "crash");
    BOOST_TEST(tools.at(0).input_schema.at("properties").at("text").at("minLength") == 1);

    auto const hello = args({{"text", "hola, 世界"}});
    auto r = co_await c.call_tool("echo", hello);
    BOOST_TEST(!r.is_error);
    BOOST_TEST(r.joined_text() == R"({"echo":"hola, 世界"})");
    if(server.protocol_version != "2024-11-05" && server.protocol_version != "2025-03-26")
    {
        BOOST_TEST_REQUIRE(r.structured.has_value());
        BOOST_TEST(r.structured->at("echo") == "hola, 世界");
    }

    auto const none = args({});
    auto failed = co_await c.call_tool("fail", none);
    BOOST_TEST(failed.is_error);
    BOOST_TEST(failed.joined_text() == "the tool failed on purpose");

    int code = 0;
    try
    {
        (void)co_await c.call_tool("no_such_tool", none);
    }
    catch(mcp::client_error const& e)
    {
        BOOST_TEST((e.code() == mcp::client_errc::server_error));
        code = e.rpc_code();
    }
    BOOST_TEST(code == mcp::jsonrpc::invalid_params);

    int reports = 0;
    mcp::call_options with_progress;
    with_progress.on_progress = [&](mcp::progress const& p) {
        ++reports;
        BOOST_TEST(p.total.value_or(0) == 100);
    };
    auto const wait = args({{"ms", 100}});
    auto done = co_await c.call_tool("slow", wait, with_progress);
    BOOST_TEST(done.joined_text() == "done");
    BOOST_TEST(reports >= 3);

    co_await c.ping();
    co_await c.close();
    co_return server.protocol_version;
}

// A call that outlives its timeout: the client throws `timeout` and tells the
// server, whose tool sees the cancellation; the connection goes on serving.
asio::awaitable<void> timeout_reaches_server(mcp::client c)
{
    co_await c.connect();
    int const before = client_test::calls_cancelled;
    mcp::call_options quick;
    quick.timeout = 150ms;
    quick.progress_resets_timeout = false;
    bool timed_out = false;
    auto const long_wait = args({{"ms", 20000}});
    try
    {
        (void)co_await c.call_tool("slow", long_wait, quick);
    }
    catch(mcp::client_error const& e)
    {
        timed_out = e.code() == mcp::client_errc::timeout;
    }
    BOOST_TEST(timed_out);
    auto const hi = args({{"text", "still here"}});
    auto r = co_await c.call_tool("echo", hi);
    BOOST_TEST(!r.is_error);
    co_await c.close();
    BOOST_TEST(before >= 0);
}

// The caller gives up (`||` with a timer): the call ends at once with operation_aborted.
asio::awaitable<bool> caller_cancels(mcp::client c)
{
    using namespace asio::experimental::awaitable_operators;
    co_await c.connect();
    // Long enough for the answer to have become an event stream (HTTP).
    asio::steady_timer t(co_await asio::this_coro::executor, 300ms);
    auto const long_wait = args({{"ms", 20000}});
    auto const started = std::chrono::steady_clock::now();
    // `||` cancels the call when the timer wins (its operation_aborted is not rethrown).
    auto outcome = co_await (c.call_tool("slow", long_wait) || t.async_wait(asio::use_awaitable));
    bool const aborted = outcome.index() == 1u;
    BOOST_TEST((std::chrono::steady_clock::now() - started < 5s));
    auto const hi = args({{"text", "after"}});
    auto r = co_await c.call_tool("echo", hi);
    BOOST_TEST(!r.is_error);
    co_await c.close();
    co_return aborted;
}

// ---- The trace context of a call: `_meta.traceparent`, and the POST's header over HTTP.

namespace trace = agentio::trace;

// A caller's traceparent (the `execute_tool` span of an agent's tool call).
constexpr std::string_view caller_tp = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

// What the server received of one tools/call: its `_meta.traceparent` and its POST's `traceparent` header.
struct received_call
{
    std::string meta;
    std::string header;
    bool meta_present = false;
};

struct call_log
{
    std::mutex mutex;
    std::vector<received_call> calls;

    std::vector<received_call> take()
    {
        std::lock_guard lock(mutex);
        return std::exchange(calls, {});
    }
};

// Both HTTP transports, each tools/call POST written down before it is served.
struct recording_endpoints
{
    mcp::http_endpoints<test_tools> inner;
    std::shared_ptr<call_log> log;

    template<class Stream>
    asio::awaitable<std::optional<boost::beast::http::message_generator>> operator()(agentio::http::request&& req,
        Stream& stream) const
    {
        boost::system::error_code ec;
        auto const body = json::parse(req.body(), ec);
        auto const* message = ec ? nullptr : body.if_object();
        if(message && message->contains("method") && message->at("method") == "tools/call")
        {
            received_call seen;
            auto const* params = message->if_contains("params");
            auto const* meta = params && params->is_object() ? params->get_object().if_contains("_meta") : nullptr;
            auto const* given = meta && meta->is_object() ? meta->get_object().if_contains("traceparent") : nullptr;
            seen.meta_present = given != nullptr;
            if(given && given->is_string())
                seen.meta = given->get_string();
            if(auto const it = req.find("traceparent"); it != req.end())
                seen.header.assign(it->value().data(), it->value().size());
            std::lock_guard lock(log->mutex);
            log->calls.push_back(std::move(seen));
        }
        return inner(std::move(req), stream);
    }
};

// A server of the test tools over both HTTP transports that records what each call carried, and traces the calls.
struct recording_fixture
{
    asio::io_context ioc;
    test_tools tools = make_tools();
    trace::tracer tracer;
    mcp::server<test_tools> server;
    std::shared_ptr<call_log> log = std::make_shared<call_log>();
    agentio::http::server<recording_endpoints> http;
    asio::ip::tcp::endpoint ep;
    std::thread runner;

    static mcp::server_options traced(trace::tracer& t)
    {
        auto o = server_options();
        o.tracer = &t;
        return o;
    }

    recording_fixture()
        : tracer(agentio_test::tracing_on())
        , server(tools, traced(tracer))
        , http(ioc.get_executor(), recording_endpoints{mcp::http_endpoints<test_tools>(server), log})
    {
        ep = http.listen({asio::ip::make_address("127.0.0.1"), 0}).value();
        http.start();
        runner = std::thread([this] { ioc.run(); });
    }
    ~recording_fixture()
    {
        ioc.stop();
        runner.join();
    }
    std::string url(std::string_view path) const
    {
        return "http://127.0.0.1:" + std::to_string(ep.port()) + std::string(path);
    }
};

// A transport that keeps each message it sends, with the traceparent it was told to send as a header.
class recording_transport final : public mcp::client_transport
{
public:
    explicit recording_transport(std::shared_ptr<mcp::client_transport> inner) : inner_(std::move(inner)) {}

    // Read once the client is closed (everything runs on the transport's strand until then).
    std::vector<std::pair<json::object, std::string>> sent;

    asio::any_io_executor get_executor() const override { return inner_->get_executor(); }
    asio::awaitable<void> start(receiver r) override { return inner_->start(std::move(r)); }
    asio::awaitable<void> send(json::object const& message, mcp::send_options const& options) override
    {
        sent.emplace_back(message, options.traceparent);
        return inner_->send(message, options);
    }
    asio::awaitable<void> session_established(std::string const& version) override
    {
        return inner_->session_established(version);
    }
    void abandon(json::value const& id) override { inner_->abandon(id); }
    bool take_session_expired() noexcept override { return inner_->take_session_expired(); }
    bool supports_stateless() const noexcept override { return inner_->supports_stateless(); }
    bool cancels_by_closing_stream() const noexcept override { return inner_->cancels_by_closing_stream(); }
    asio::awaitable<void> close() override { return inner_->close(); }
    void abort() noexcept override { inner_->abort(); }

private:
    std::shared_ptr<mcp::client_transport> inner_;
};

// Calls srv_echo through the bridge with a tool_context whose traceparent is `tp` (none when empty).
asio::awaitable<agentio::tool_result> bridged_echo(agentio::dynamic_tools const& tools, std::string tp)
{
    agentio::tool_context ctx;
    ctx.traceparent = tp;
    auto const hello = json::value(args({{"text", "hola"}}));
    co_return co_await tools.call("srv_echo", hello, ctx);
}

// Waits (up to 5 s) until the server saw `n` cancelled calls.
bool server_saw_cancellations(int n)
{
    for(int i = 0; i < 250 && client_test::calls_cancelled < n; ++i)
        std::this_thread::sleep_for(20ms);
    return client_test::calls_cancelled >= n;
}

} // namespace

BOOST_AUTO_TEST_SUITE(mcp_client_http)

BOOST_AUTO_TEST_CASE(handshake_lists_every_page_and_calls)
{
    http_fixture f;
    auto version = run<std::string>([&](asio::any_io_executor ex) {
        return exercise(http_client(ex, f.url("/mcp"), mcp::negotiation::handshake));
    });
    BOOST_TEST(version == "2025-11-25");
}

BOOST_AUTO_TEST_CASE(automatic_negotiation_finds_the_stateless_revision)
{
    // The echo tool mirrors `text` in Mcp-Param-Text: the server refuses a
    // call whose header is missing, so a successful call proves the header.
    http_fixture f;
    auto version = run<std::string>([&](asio::any_io_executor ex) {
        return exercise(http_client(ex, f.url("/mcp"), mcp::negotiation::automatic));
    });
    BOOST_TEST(version == "2026-07-28");
}

BOOST_AUTO_TEST_CASE(older_handshake_versions_are_accepted)
{
    http_fixture f;
    for(std::string const asked : {"2025-06-18", "2025-03-26", "2024-11-05"})
    {
        auto version = run<std::string>([&](asio::any_io_executor ex) -> asio::awaitable<std::string> {
            mcp::http_transport_options t;
            t.url = f.url("/mcp");
            mcp::client_options o;
            o.mode = mcp::negotiation::handshake;
            o.handshake_version = asked;
            return exercise(mcp::client(mcp::make_http_transport(ex, std::move(t)), std::move(o)));
        });
        BOOST_TEST(version == asked);
    }
}

BOOST_AUTO_TEST_CASE(a_timeout_cancels_the_call_on_the_server)
{
    http_fixture f;
    int const before = client_test::calls_cancelled;
    run<bool>([&](asio::any_io_executor ex) -> asio::awaitable<bool> {
        co_await timeout_reaches_server(http_client(ex, f.url("/mcp"), mcp::negotiation::handshake));
        co_return true;
    });
    BOOST_TEST(server_saw_cancellations(before + 1));
}

BOOST_AUTO_TEST_CASE(a_stateless_call_is_cancelled_by_closing_its_stream)
{
    http_fixture f;
    int const before = client_test::calls_cancelled;
    bool aborted = run<bool>([&](asio::any_io_executor ex) {
        return caller_cancels(http_client(ex, f.url("/mcp"), mcp::negotiation::stateless));
    });
    BOOST_TEST(aborted);
    BOOST_TEST(server_saw_cancellations(before + 1));
}

BOOST_AUTO_TEST_CASE(an_expired_session_is_initialized_again)
{
    mcp::http_options o;
    o.session_idle_timeout = 300ms;
    http_fixture f(o);
    run<bool>([&](asio::any_io_executor ex) -> asio::awaitable<bool> {
        auto c = http_client(ex, f.url("/mcp"), mcp::negotiation::handshake);
        co_await c.connect();
        auto const hi = args({{"text", "one"}});
        (void)co_await c.call_tool("echo", hi);
        asio::steady_timer t(ex, 1200ms);
        co_await t.async_wait(asio::use_awaitable);
        auto r = co_await c.call_tool("echo", hi); // 404, then a new session, then the call
        BOOST_TEST(!r.is_error);
        co_await c.close();
        co_return true;
    });
}

BOOST_AUTO_TEST_CASE(a_server_that_is_not_there_is_a_transport_failure)
{
    bool failed = run<bool>([&](asio::any_io_executor ex) -> asio::awaitable<bool> {
        auto c = http_client(ex, "http://127.0.0.1:1/mcp", mcp::negotiation::automatic);
        try
        {
            co_await c.connect();
        }
        catch(mcp::client_error const& e)
        {
            co_return e.code() == mcp::client_errc::transport_failed;
        }
        co_return false;
    });
    BOOST_TEST(failed);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(mcp_client_legacy_sse)

BOOST_AUTO_TEST_CASE(the_2024_transport_negotiates_the_handshake)
{
    http_fixture f;
    auto version = run<std::string>([&](asio::any_io_executor ex) {
        mcp::legacy_sse_transport_options t;
        t.url = f.url("/sse");
        mcp::client_options o;
        o.handshake_version = "2024-11-05";
        return exercise(mcp::client(mcp::make_legacy_sse_transport(ex, std::move(t)), std::move(o)));
    });
    BOOST_TEST(version == "2024-11-05");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(mcp_client_stdio)

BOOST_AUTO_TEST_CASE(a_child_process_serves_both_revisions)
{
    auto handshake = run<std::string>([](asio::any_io_executor ex) {
        return exercise(stdio_client(ex, mcp::negotiation::handshake));
    });
    BOOST_TEST(handshake == "2025-11-25");
    auto automatic = run<std::string>([](asio::any_io_executor ex) {
        return exercise(stdio_client(ex, mcp::negotiation::automatic));
    });
    BOOST_TEST(automatic == "2026-07-28");
}

BOOST_AUTO_TEST_CASE(the_child_gets_this_environment_with_the_changes_asked)
{
    // What process_options::environment reaches: a variable set, one removed, the rest inherited.
    ::setenv("AGENTIO_TEST_REMOVED", "shared.log", 1);
    ::setenv("AGENTIO_TEST_KEPT", "kept", 1);
    agentio::detail::child_process child;
    auto const ends = child.start({"/usr/bin/env", {}, {}, -1,
        {{"AGENTIO_TEST_REMOVED", std::nullopt}, {"AGENTIO_TEST_SET", std::string("set")}}});
    ::close(ends.to_child);
    std::string seen;
    char buffer[4096];
    for(ssize_t n; (n = ::read(ends.from_child, buffer, sizeof buffer)) > 0;)
        seen.append(buffer, static_cast<std::size_t>(n));
    ::close(ends.from_child);
    ::unsetenv("AGENTIO_TEST_REMOVED");
    ::unsetenv("AGENTIO_TEST_KEPT");
    BOOST_TEST(seen.find("AGENTIO_TEST_SET=set\n") != std::string::npos, seen);
    BOOST_TEST(seen.find("AGENTIO_TEST_KEPT=kept\n") != std::string::npos, seen);
    BOOST_TEST(seen.find("AGENTIO_TEST_REMOVED") == std::string::npos, seen);
    BOOST_TEST(seen.find("PATH=") != std::string::npos, seen);
}

BOOST_AUTO_TEST_CASE(timeouts_and_cancellation_reach_the_child)
{
    // The child writes each cancellation its tool saw to its log.
    auto const log = std::filesystem::temp_directory_path() / ("agentio_mcp_cancel_" + std::to_string(::getpid()));
    std::filesystem::remove(log);
    run<bool>([&](asio::any_io_executor ex) -> asio::awaitable<bool> {
        co_await timeout_reaches_server(stdio_client(ex, mcp::negotiation::handshake, log));
        co_return true;
    });
    bool aborted = run<bool>([&](asio::any_io_executor ex) {
        return caller_cancels(stdio_client(ex, mcp::negotiation::handshake, log));
    });
    BOOST_TEST(aborted);
    std::ifstream in(log);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::size_t seen = 0;
    for(std::size_t at = 0; (at = text.find("slow: cancelled", at)) != std::string::npos; ++at)
        ++seen;
    BOOST_TEST(seen == 2u, text);
    std::filesystem::remove(log);
}

BOOST_AUTO_TEST_CASE(a_server_that_dies_fails_the_call_waiting)
{
    std::string what = run<std::string>([](asio::any_io_executor ex) -> asio::awaitable<std::string> {
        auto c = stdio_client(ex, mcp::negotiation::handshake);
        co_await c.connect();
        auto const none = args({});
        std::string message;
        try
        {
            (void)co_await c.call_tool("crash", none);
        }
        catch(mcp::client_error const& e)
        {
            BOOST_TEST((e.code() == mcp::client_errc::closed));
            message = e.what();
        }
        try
        {
            (void)co_await c.call_tool("fail", none);
            message = "a call after the end succeeded";
        }
        catch(mcp::client_error const& e)
        {
            BOOST_TEST((e.code() == mcp::client_errc::closed));
        }
        co_await c.close();
        co_return message;
    });
    BOOST_TEST(what.find("exit code 3") != std::string::npos, what);
}

BOOST_AUTO_TEST_CASE(a_callback_that_throws_does_not_end_the_connection)
{
    // What an application's progress callback throws stays in the callback:
    // the reader goes on, the call completes, the connection serves on.
    std::string text = run<std::string>([](asio::any_io_executor ex) -> asio::awaitable<std::string> {
        auto c = stdio_client(ex, mcp::negotiation::handshake);
        co_await c.connect();
        mcp::call_options throwing;
        throwing.on_progress = [](mcp::progress const&) { throw std::runtime_error("the application's bug"); };
        auto const wait = args({{"ms", 60}});
        auto done = co_await c.call_tool("slow", wait, throwing);
        auto const hi = args({{"text", "still"}});
        auto after = co_await c.call_tool("echo", hi);
        co_await c.close();
        co_return done.joined_text() + " " + after.joined_text();
    });
    BOOST_TEST(text == R"(done {"echo":"still"})");
}

BOOST_AUTO_TEST_CASE(a_tool_contexts_traceparent_goes_in_meta_over_stdio)
{
    for(auto const mode : {mcp::negotiation::handshake, mcp::negotiation::stateless})
    {
        mcp::process_options p;
        p.program = self_path();
        p.arguments = {"--serve-stdio"};
        p.shutdown_grace = 1s;
        // The transport's strand belongs to run's io_context: it goes with the coroutine, its record is kept.
        std::vector<std::pair<json::object, std::string>> sent;
        run<bool>([&](asio::any_io_executor ex) -> asio::awaitable<bool> {
            auto recorder = std::make_shared<recording_transport>(mcp::make_stdio_transport(ex, p));
            mcp::client c(recorder, {.mode = mode, .request_timeout = 10s});
            co_await c.connect();
            agentio::dynamic_tools tools;
            mcp::bridge_options b;
            b.prefix = "srv_";
            co_await mcp::add_tools(c, tools, b);
            auto traced = co_await bridged_echo(tools, std::string(caller_tp));
            BOOST_TEST(!traced.is_error, traced.joined_text());
            auto plain = co_await bridged_echo(tools, "");
            BOOST_TEST(!plain.is_error);
            // Straight from the client too, with entries of the caller's own in `_meta`.
            mcp::call_options o;
            o.traceparent = caller_tp;
            o.meta = json::object{{"example.com/tenant", "a"}};
            auto const hello = args({{"text", "hola"}});
            auto direct = co_await c.call_tool("echo", hello, o);
            BOOST_TEST(!direct.is_error);
            co_await c.close();
            sent = recorder->sent;
            co_return true;
        });
        std::vector<std::pair<json::object, std::string>> calls;
        for(auto const& [message, header] : sent)
            if(message.contains("method") && message.at("method") == "tools/call")
                calls.emplace_back(message, header);
        BOOST_TEST_REQUIRE(calls.size() == 3u);
        auto const& traced_meta = calls[0].first.at("params").at("_meta").as_object();
        BOOST_TEST(std::string(traced_meta.at("traceparent").as_string()) == caller_tp);
        BOOST_TEST(calls[0].second == caller_tp); // what an HTTP transport would send as the header
        auto const* plain_meta = calls[1].first.at("params").as_object().if_contains("_meta");
        BOOST_TEST(!(plain_meta && plain_meta->as_object().contains("traceparent")));
        BOOST_TEST(calls[1].second.empty());
        auto const& direct_meta = calls[2].first.at("params").at("_meta").as_object();
        BOOST_TEST(std::string(direct_meta.at("traceparent").as_string()) == caller_tp);
        BOOST_TEST(direct_meta.at("example.com/tenant") == "a");
    }
}

BOOST_AUTO_TEST_CASE(a_program_that_cannot_start_is_named)
{
    std::string what = run<std::string>([](asio::any_io_executor ex) -> asio::awaitable<std::string> {
        mcp::process_options p;
        p.program = "agentio-no-such-program";
        mcp::client c(mcp::make_stdio_transport(ex, std::move(p)));
        try
        {
            co_await c.connect();
        }
        catch(mcp::client_error const& e)
        {
            BOOST_TEST((e.code() == mcp::client_errc::transport_failed));
            co_return e.what();
        }
        co_return "";
    });
    BOOST_TEST(what.find("agentio-no-such-program") != std::string::npos, what);
}

BOOST_AUTO_TEST_CASE(the_child_writes_its_log_where_asked)
{
    auto const log = std::filesystem::temp_directory_path() / ("agentio_mcp_client_" + std::to_string(::getpid()));
    std::filesystem::remove(log);
    run<bool>([&](asio::any_io_executor ex) -> asio::awaitable<bool> {
        mcp::process_options p;
        p.program = self_path();
        p.arguments = {"--serve-stdio", "--log", "started"};
        p.stderr_log = log;
        mcp::client c(mcp::make_stdio_transport(ex, std::move(p)));
        co_await c.connect();
        co_await c.close();
        co_return true;
    });
    std::ifstream in(log);
    std::string line;
    std::getline(in, line);
    BOOST_TEST(line == "started");
    std::filesystem::remove(log);
}

BOOST_AUTO_TEST_CASE(the_child_starts_in_its_directory_with_three_descriptors_and_default_sigpipe)
{
    // The child sees the working directory asked for, inherits nothing but
    // standard input, output and error, and starts as from a shell (SIGPIPE at
    // its default even though this process ignores it, as servers do).
    ::signal(SIGPIPE, SIG_IGN);
    auto const dir = std::filesystem::temp_directory_path() / ("agentio_mcp_cwd_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    // No close-on-exec: a careless library's descriptor, numbered apart from the shell's own.
    int const opened = ::open("/dev/null", O_RDONLY);
    int const leaked = ::fcntl(opened, F_DUPFD, 100);
    ::close(opened);
    std::string seen = run<std::string>([&](asio::any_io_executor ex) -> asio::awaitable<std::string> {
        mcp::process_options p;
        p.program = "sh";
        p.arguments = {"-c",
            R"sh(printf '{"dir":"%s","fds":"%s","sigpipe":"%s"}\n' "$PWD" "$(ls /proc/$$/fd | tr '\n' ' ')" )sh"
            R"sh("$(grep SigIgn /proc/$$/status | cut -f2)"; cat >/dev/null)sh"};
        p.working_directory = dir;
        auto t = mcp::make_stdio_transport(ex, std::move(p));
        auto got = std::make_shared<std::string>();
        mcp::client_transport::receiver r;
        r.on_message = [got](json::object m) { *got = json::serialize(m); };
        co_await t->start(std::move(r));
        asio::steady_timer moment(ex);
        for(int i = 0; i < 1000 && got->empty(); ++i)
        {
            moment.expires_after(std::chrono::milliseconds(10));
            co_await moment.async_wait(asio::use_awaitable);
        }
        co_await t->close();
        co_return *got;
    });
    ::close(leaked);
    std::filesystem::remove(dir);
    BOOST_TEST_REQUIRE(!seen.empty());
    auto const m = json::parse(seen).as_object();
    BOOST_TEST(std::filesystem::path(std::string(m.at("dir").as_string())) == dir);
    // 0, 1, 2 and the shell's own descriptor for reading the listing, never `leaked`.
    std::string const fds(m.at("fds").as_string());
    BOOST_TEST_REQUIRE(leaked >= 100);
    BOOST_TEST((" " + fds).find(" " + std::to_string(leaked) + " ") == std::string::npos, fds);
    BOOST_TEST(fds.find("0 1 2 ") == 0u, fds);
    unsigned long const ignored = std::stoul(std::string(m.at("sigpipe").as_string()), nullptr, 16);
    BOOST_TEST((ignored & (1ul << (SIGPIPE - 1))) == 0ul, std::string(m.at("sigpipe").as_string()));
}

BOOST_AUTO_TEST_CASE(a_server_that_stops_reading_is_an_error_not_sigpipe)
{
    // This process as a library user leaves it: SIGPIPE at its default, which
    // ends a process writing to a pipe nobody reads.
    ::signal(SIGPIPE, SIG_DFL);
    std::string what = run<std::string>([](asio::any_io_executor ex) -> asio::awaitable<std::string> {
        mcp::process_options p;
        p.program = "sh";
        p.arguments = {"-c", "exec 0<&-; sleep 2"}; // alive, but its standard input is closed
        mcp::client_options o;
        o.request_timeout = std::chrono::seconds(5);
        mcp::client c(mcp::make_stdio_transport(ex, std::move(p)), std::move(o));
        try
        {
            co_await c.connect();
        }
        catch(mcp::client_error const& e)
        {
            co_return e.what();
        }
        co_return "connected to a server that reads nothing";
    });
    BOOST_TEST(!what.empty());
    BOOST_TEST(what.find("connected") == std::string::npos, what);
    struct sigaction now = {};
    ::sigaction(SIGPIPE, nullptr, &now);
    BOOST_TEST((now.sa_handler == SIG_IGN));
}

BOOST_AUTO_TEST_CASE(command_lines_split_as_a_shell_splits_words)
{
    auto p = mcp::process_options::from_command_line(R"(npx -y "@scope/server everything" 'a b' c\ d "q\"x")");
    BOOST_TEST(p.program == "npx");
    std::vector<std::string> const expected{"-y", "@scope/server everything", "a b", "c d", "q\"x"};
    BOOST_TEST(p.arguments == expected, boost::test_tools::per_element());
    BOOST_CHECK_THROW(mcp::process_options::from_command_line("  "), std::invalid_argument);
    BOOST_CHECK_THROW(mcp::process_options::from_command_line("a 'b"), std::invalid_argument);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(mcp_client_bridge)

BOOST_AUTO_TEST_CASE(server_tools_become_dynamic_tools_checked_before_they_leave)
{
    http_fixture f;
    run<bool>([&](asio::any_io_executor ex) -> asio::awaitable<bool> {
        auto c = http_client(ex, f.url("/mcp"), mcp::negotiation::automatic);
        co_await c.connect();
        agentio::dynamic_tools tools;
        mcp::bridge_options b;
        b.prefix = "srv_";
        auto const added = co_await mcp::add_tools(c, tools, b);
        BOOST_TEST(added.size() == 5u);
        BOOST_TEST(tools.contains("srv_echo"));

        agentio::tool_context ctx;
        int const served = client_test::calls_served;
        auto const empty_text = json::value(args({{"text", ""}}));
        auto refused = co_await tools.call("srv_echo", empty_text, ctx);
        BOOST_TEST(refused.is_error);
        BOOST_TEST(refused.joined_text().find("/text") != std::string::npos, refused.joined_text());
        BOOST_TEST(client_test::calls_served == served); // it never left

        auto const numbers = json::value(args({{"a", 2}, {"b", 40}}));
        auto sum = co_await tools.call("srv_add", numbers, ctx);
        BOOST_TEST(!sum.is_error);
        BOOST_TEST(sum.structured->at("sum") == 42);
        co_await c.close();

        // The server gone, a call is an error result for the model, not an exception.
        auto gone = co_await tools.call("srv_add", numbers, ctx);
        BOOST_TEST(gone.is_error);
        co_return true;
    });
}

BOOST_AUTO_TEST_CASE(a_tool_contexts_traceparent_goes_in_meta_and_in_the_posts_header)
{
    recording_fixture f;
    struct transport_case
    {
        char const* path;
        mcp::negotiation mode;
        bool legacy;
    };
    transport_case const cases[] = {{"/mcp", mcp::negotiation::handshake, false},
        {"/mcp", mcp::negotiation::stateless, false}, {"/sse", mcp::negotiation::handshake, true}};
    for(auto const& tc : cases)
    {
        run<bool>([&](asio::any_io_executor ex) -> asio::awaitable<bool> {
            mcp::client c = tc.legacy ? mcp::client(mcp::make_legacy_sse_transport(ex, {.url = f.url(tc.path)}))
                                      : http_client(ex, f.url(tc.path), tc.mode);
            co_await c.connect();
            agentio::dynamic_tools tools;
            mcp::bridge_options b;
            b.prefix = "srv_";
            co_await mcp::add_tools(c, tools, b);
            auto traced = co_await bridged_echo(tools, std::string(caller_tp));
            BOOST_TEST(!traced.is_error, traced.joined_text());
            auto plain = co_await bridged_echo(tools, "");
            BOOST_TEST(!plain.is_error);
            auto malformed = co_await bridged_echo(tools, "00-not-a-traceparent");
            BOOST_TEST(!malformed.is_error);
            co_await c.close();
            co_return true;
        });
        auto const calls = f.log->take();
        BOOST_TEST_REQUIRE(calls.size() == 3u, tc.path);
        BOOST_TEST(calls[0].meta == caller_tp, tc.path);
        BOOST_TEST(calls[0].header == caller_tp, tc.path);
        // Nothing at all without a (valid) context: no empty value, no malformed one.
        for(std::size_t i = 1; i < 3; ++i)
        {
            BOOST_TEST(!calls[i].meta_present, tc.path << " call " << i);
            BOOST_TEST(calls[i].header.empty(), tc.path << " call " << i);
        }

        // The server's span of the traced call is the caller's span's child; the others start traces of their own.
        std::vector<trace::span_data> spans;
        f.tracer.take(spans, 10);
        BOOST_TEST_REQUIRE(spans.size() == 3u, tc.path);
        BOOST_TEST(spans[0].name == "tools/call echo");
        BOOST_TEST(trace::to_hex(spans[0].context.trace_id) == "4bf92f3577b34da6a3ce929d0e0e4736");
        BOOST_TEST(trace::to_hex(spans[0].parent_span_id) == "00f067aa0ba902b7");
        BOOST_TEST(trace::to_hex(spans[1].parent_span_id) == "0000000000000000");
        BOOST_TEST(trace::to_hex(spans[2].parent_span_id) == "0000000000000000");
    }
}

BOOST_AUTO_TEST_CASE(read_only_tools_are_idempotent_when_the_server_is_trusted)
{
    auto so = server_options();
    so.read_only_tools = true; // every tool says readOnlyHint
    http_fixture f({}, std::move(so));
    run<bool>([&](asio::any_io_executor ex) -> asio::awaitable<bool> {
        auto c = http_client(ex, f.url("/mcp"), mcp::negotiation::automatic);
        co_await c.connect();
        agentio::dynamic_tools untrusted, trusted;
        mcp::bridge_options b;
        co_await mcp::add_tools(c, untrusted, b);
        b.trust_annotations = true;
        co_await mcp::add_tools(c, trusted, b);
        BOOST_TEST(untrusted.descriptors().size() == 5u);
        BOOST_TEST(trusted.descriptors().size() == 5u);
        for(auto const& d : untrusted.descriptors())
            BOOST_TEST(!d.idempotent, d.name); // a hint alone does not make a call safe to repeat
        for(auto const& d : trusted.descriptors())
            BOOST_TEST(d.idempotent, d.name);
        co_await c.close();
        co_return true;
    });
    // Without the hint, trust changes nothing.
    http_fixture plain;
    run<bool>([&](asio::any_io_executor ex) -> asio::awaitable<bool> {
        auto c = http_client(ex, plain.url("/mcp"), mcp::negotiation::automatic);
        co_await c.connect();
        agentio::dynamic_tools tools;
        mcp::bridge_options b;
        b.trust_annotations = true;
        co_await mcp::add_tools(c, tools, b);
        for(auto const& d : tools.descriptors())
            BOOST_TEST(!d.idempotent, d.name);
        co_await c.close();
        co_return true;
    });
}

BOOST_AUTO_TEST_SUITE_END()

// This executable is also the stdio server its tests start.
int serve_stdio(int argc, char** argv)
{
    for(int i = 2; i + 1 < argc; ++i)
        if(std::string_view(argv[i]) == "--log")
            std::fprintf(stderr, "%s\n", argv[i + 1]);
    client_test::serving_stdio = true;
    asio::io_context ioc;
    auto tools = make_tools();
    mcp::server<test_tools> server(tools, server_options());
    return mcp::run_stdio(server, ioc);
}

int main(int argc, char** argv)
{
    if(argc > 1 && std::string_view(argv[1]) == "--serve-stdio")
        return serve_stdio(argc, argv);
    return boost::unit_test::unit_test_main(&init_unit_test, argc, argv);
}
