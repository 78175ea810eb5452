// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// asistente's plain-chat path against its tool path, on the routing set's
// requests labelled `chat` and `tools` (tests/routing.json): the model calls
// and the latency of each message, with the keyword router and with the
// model router. The platform runs in this process on loopback, as
// agentio-platform serves it, in front of the fake LLM (zero delay) whose
// scenario answers a chat call with text, a tool loop's first call with a
// math_calc call (run for real) and its second with the answer, and a
// classification call with "tools"; the client is the library's HTTP client.
// What differs between the paths is therefore the platform's own work and
// the number of calls and the tokens sent (the tool menu is most of them):
// with a real model each call adds its own latency.
//
//   platform_chat_path_bench ROUTING.json [rounds=20]
#include "app.hpp"
#include "settings.hpp"

#include <agentio/app/telemetry.hpp>
#include <agentio/http/client.hpp>
#include <agentio/http/server.hpp>
#include <agentio/llm/any_provider.hpp>
#include <agentio/llm/environment.hpp>
#include <agentio/testing/fake_llm.hpp>
#include <agentio/threads/sqlite_store.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_future.hpp>
#include <boost/json.hpp>

#include <algorithm>
#include <cstdint>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

namespace asio = boost::asio;
namespace json = boost::json;
namespace testing = agentio::testing;

namespace {

json::value read_json(char const* path)
{
    std::ifstream in(path);
    if(!in)
        throw std::runtime_error(std::string("cannot read ") + path);
    std::stringstream text;
    text << in.rdbuf();
    return json::parse(text.str());
}

testing::scripted_response says(std::string text)
{
    testing::scripted_response r;
    r.text = std::move(text);
    return r;
}

// The model behind asistente here: a label for the classifier, text for plain chat, a math_calc call and then the
// answer for the tool loop.
testing::scenario routing_scenario()
{
    auto label = says("tools");
    label.when_user_message_contains = "Label:";
    auto chat = says("¡Hola! ¿En qué puedo ayudarte?");
    chat.when_tools_offered = false;
    testing::scripted_response call;
    call.when_tools_offered = true;
    testing::scripted_tool_call c;
    c.name = "math_calc";
    c.input = json::object{{"expression", "(1250*0.21)+sqrt(16)"}, {"operation", "evaluate"}};
    call.tool_calls.push_back(std::move(c));
    testing::scenario s;
    s.name = "routing-bench";
    s.turns.push_back({label, chat, call});
    s.turns.push_back({says("El resultado es {{last_tool_result}}.")});
    return s;
}

struct measured
{
    std::vector<double> ms;
    std::size_t calls = 0;
    std::size_t messages = 0;
    std::uint64_t input_tokens = 0;
    std::uint64_t output_tokens = 0;
    std::map<std::string, std::size_t> strategies;
};

double percentile(std::vector<double> v, double p)
{
    if(v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    auto const at = static_cast<std::size_t>(p * static_cast<double>(v.size() - 1) + 0.5);
    return v[std::min(at, v.size() - 1)];
}

// One router: the platform and the fake on a thread of their own, each request of `set` sent `rounds` times.
std::map<std::string, measured> run(std::string const& router,
    std::vector<std::pair<std::string, std::string>> const& set, int rounds)
{
    auto const dir = std::filesystem::temp_directory_path() /
        ("agentio-chat-path-" + std::to_string(::getpid()) + "-" + std::to_string(std::random_device{}()));
    std::filesystem::create_directories(dir);
    std::map<std::string, measured> out;
    {
        asio::io_context ioc;
        testing::fake_llm_options fo;
        fo.max_recorded_requests = 1u << 20; // every request counted
        testing::fake_llm fake(ioc.get_executor(), fo);
        if(!fake.start())
            throw std::runtime_error("the fake LLM cannot listen");
        fake.add_scenario(routing_scenario());
        std::map<std::string, std::string> vars{{"AGENT_PROVIDER", "openai"},
            {"OPENAI_BASE_URL", fake.openai_base_url()}, {"OPENAI_API_KEY", "bench"}, {"AGENT_MODEL", "routing-bench"},
            {"PLATFORM_ROUTER", router}, {"PLATFORM_MEMORY", "off"}, {"PLATFORM_STORE", (dir / "threads.db").string()},
            {"PLATFORM_UPLOADS", (dir / "uploads").string()}, {"PLATFORM_DOCUMENTS_INDEX", "off"},
            {"PLATFORM_SANDBOX", "off"}};
        auto config = platform::settings::from_environment([&vars](char const* name) -> std::optional<std::string> {
            auto it = vars.find(name);
            return it == vars.end() ? std::nullopt : std::optional<std::string>(it->second);
        });
        if(!config)
            throw std::runtime_error(config.error());
        agentio::http::client http(ioc.get_executor());
        agentio::llm::any_provider provider(agentio::llm::make_provider(config->model, http));
        auto store = agentio::sqlite::thread_store::open(config->store);
        if(!store)
            throw std::runtime_error("the session store cannot be opened: " + store.error().message);
        agentio::app::telemetry seen(ioc.get_executor(), {config->log, config->trace});
        platform::application app(std::move(*config), http, provider, store->get(), seen);
        auto started = asio::co_spawn(ioc, app.start(), asio::use_future);
        while(started.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
            ioc.run_one();
        started.get();
        agentio::http::server_options so;
        so.error_body = agentio::chat_completions::write_error_body;
        agentio::http::server<agentio::http::router<>> server(ioc.get_executor(), app.routes(), so);
        auto const ep = server.listen({asio::ip::make_address("127.0.0.1"), 0}).value();
        server.start();
        auto work = asio::make_work_guard(ioc);
        std::thread thread([&ioc] { ioc.run(); });

        asio::io_context client_ioc;
        agentio::http::client client(client_ioc.get_executor());
        std::string const url = "http://127.0.0.1:" + std::to_string(ep.port()) + "/v1/chat/completions";
        auto ask = [&](std::string const& text) -> asio::awaitable<json::value> {
            agentio::http::client_request req;
            req.method = boost::beast::http::verb::post;
            req.url = url;
            req.headers.set(boost::beast::http::field::content_type, "application/json");
            json::object const body{{"model", "asistente"},
                {"messages", json::array{json::object{{"role", "user"}, {"content", text}}}}};
            req.body = json::serialize(body);
            auto [err, res] = co_await client.async_request(std::move(req), asio::use_awaitable);
            if(err || !res.ok())
                throw std::runtime_error("the platform did not answer '" + text +
                    "': " + (err ? err.message : std::to_string(res.status) + " " + res.body));
            co_return json::parse(res.body);
        };
        for(int round = 0; round <= rounds; ++round) // round 0 warms up, unmeasured
            for(auto const& [text, label] : set)
            {
                auto const before = fake.requests().size();
                auto const t0 = std::chrono::steady_clock::now();
                auto answered = asio::co_spawn(client_ioc, ask(text), asio::use_future);
                client_ioc.restart();
                client_ioc.run();
                auto const reply = answered.get();
                double const ms =
                    std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
                if(round == 0)
                    continue;
                auto const reasoning =
                    std::string(reply.at("choices").at(0).at("message").at("reasoning_content").as_string());
                auto const strategy = reasoning.substr(10, reasoning.find('\n') - 10); // "strategy: X\n"
                auto& m = out[label];
                m.ms.push_back(ms);
                m.calls += fake.requests().size() - before;
                ++m.messages;
                m.input_tokens += reply.at("usage").at("prompt_tokens").to_number<std::uint64_t>();
                m.output_tokens += reply.at("usage").at("completion_tokens").to_number<std::uint64_t>();
                ++m.strategies[strategy];
            }
        work.reset();
        asio::post(ioc, [&server] { server.stop(); });
        auto closed = asio::co_spawn(ioc, app.close(), asio::use_future);
        closed.wait_for(std::chrono::seconds(10));
        ioc.stop();
        thread.join();
    }
    std::filesystem::remove_all(dir);
    return out;
}

} // namespace

int main(int argc, char** argv)
{
    try
    {
        if(argc < 2 || argc > 3)
        {
            std::fprintf(stderr, "usage: platform_chat_path_bench ROUTING.json [rounds=20]\n");
            return 2;
        }
        int const rounds = argc == 3 ? std::max(1, std::atoi(argv[2])) : 20;
        std::vector<std::pair<std::string, std::string>> set;
        auto const document = read_json(argv[1]);
        for(auto const& item : document.at("requests").as_array())
        {
            auto const label = std::string(item.at("label").as_string());
            if(label == "chat" || label == "tools")
                set.emplace_back(std::string(item.at("request").as_string()), label);
        }
        std::printf(
            "| router | requests labelled | messages | strategies run | model calls per message | tokens in + out "
            "per message | p50 ms | p99 ms |\n|---|---|---:|---|---:|---:|---:|---:|\n");
        for(std::string router : {"keywords", "model"})
        {
            auto const results = run(router, set, rounds);
            for(auto const& [label, m] : results)
            {
                std::string ran;
                for(auto const& [strategy, n] : m.strategies)
                    ran += (ran.empty() ? "" : ", ") + strategy + " " + std::to_string(n);
                auto const n = static_cast<double>(m.messages);
                std::printf("| %s | %s | %zu | %s | %.2f | %.0f + %.0f | %.2f | %.2f |\n", router.c_str(),
                    label.c_str(), m.messages, ran.c_str(), static_cast<double>(m.calls) / n,
                    static_cast<double>(m.input_tokens) / n, static_cast<double>(m.output_tokens) / n,
                    percentile(m.ms, 0.5), percentile(m.ms, 0.99));
            }
        }
        return 0;
    }
    catch(std::exception const& e)
    {
        std::fprintf(stderr, "platform_chat_path_bench: %s\n", e.what());
        return 1;
    }
}
