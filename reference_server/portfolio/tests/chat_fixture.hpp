// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// What the chat tests share: a fake LLM on its own thread, a server whose
// agent talks to it (with a thread store of its own), and the chat protocol
// read back as events.
#pragma once

#include "portfolio_fixture.hpp"
#include "test_http.hpp"

#include <agentio/sse/parser.hpp>
#include <agentio/testing/fake_llm.hpp>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <thread>
#include "test_paths.hpp"

namespace portfolio_test {

namespace asio = boost::asio;
namespace json = boost::json;

// A fake LLM on its own thread.
struct fake_provider
{
    asio::io_context ioc;
    agentio::testing::fake_llm fake;
    std::thread runner;

    explicit fake_provider(agentio::testing::fake_llm_options options = {})
        : fake(ioc.get_executor(), std::move(options))
    {
        fake.load_scenarios(AGENTIO_SCENARIOS);
        fake.start().value();
        runner = std::thread([this] { ioc.run(); });
    }
    ~fake_provider()
    {
        ioc.stop();
        runner.join();
    }
};

// A server on the shared database with the agent pointed at the fake.
struct chat_server
{
    std::unique_ptr<portfolio::portfolio_server> server;
    std::thread runner;

    explicit chat_server(portfolio::agent::chat_settings chat)
    {
        portfolio::server_options opt;
        opt.db_path = shared_server::get().db_path;
        opt.port = 0;
        opt.threads = 2;
        opt.db_threads = 2;
        opt.chat = std::move(chat);
        if(opt.chat.store == portfolio::agent::chat_settings{}.store)
            opt.chat.store = shared_server::get().store_for("chat");
        opt.charts.output_dir = (shared_server::get().dir / "charts").string();
        server = std::make_unique<portfolio::portfolio_server>(opt);
        runner = std::thread([this] { server->run(); });
    }
    ~chat_server()
    {
        server->stop();
        runner.join();
    }
    asio::ip::tcp::endpoint endpoint() const { return server->endpoint(); }
};

// A scenario whose every attempt is answered 529 (overloaded).
inline void add_always_overloaded(fake_provider& f, std::string name)
{
    agentio::testing::scripted_response busy;
    busy.text = "Hola.";
    agentio::testing::fault overload;
    overload.kind = agentio::testing::fault_kind::http_error;
    overload.status = 529;
    busy.faults.push_back(overload);
    agentio::testing::scenario sc;
    sc.name = std::move(name);
    sc.turns.push_back({busy});
    f.fake.add_scenario(sc);
}

inline portfolio::agent::chat_settings anthropic_at(fake_provider const& f, std::string model)
{
    portfolio::agent::chat_settings s;
    s.provider = portfolio::agent::provider_kind::anthropic;
    s.anthropic_api_key = "clave-de-prueba";
    s.anthropic_base_url = f.fake.anthropic_base_url();
    s.model = std::move(model);
    return s;
}

struct sse_reply
{
    test_http::reply http;
    std::vector<agentio::sse::event> events;

    std::string names() const
    {
        std::string out;
        for(auto const& e : events)
        {
            if((e.type == "chunk" || e.type == "tool_call_delta") && out.ends_with(e.type + " "))
                continue; // a run of chunks, or of a call's fragments, counts once
            out += e.type + " ";
        }
        return out;
    }
    json::value data(std::size_t i) const { return json::parse(events.at(i).data); }
    std::string text() const
    {
        std::string out;
        for(auto const& e : events)
            if(e.type == "chunk")
                out += json::parse(e.data).at("content").as_string();
        return out;
    }
};

inline sse_reply chat(asio::ip::tcp::endpoint ep, std::string const& body)
{
    sse_reply r{test_http::post(ep, "/api/v1/agent/chat", body), {}};
    agentio::sse::parser p;
    p.feed(r.http.body, [&](agentio::sse::event const& e) { r.events.push_back(e); });
    BOOST_TEST((p.finish() == agentio::sse::end_state::clean));
    return r;
}

inline std::string ask(std::string const& question)
{
    return json::serialize(json::object{
        {"messages", json::array{json::object{{"role", "user"}, {"content", question}}}}});
}

} // namespace portfolio_test
