// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// agentio-platform: the agents of this repository behind one OpenAI-compatible
// API (/v1/chat/completions, /v1/models).
//
//   agentio-platform serve [--host H] [--port P] [--threads N] [--max-connections N]
//                          [--max-connections-per-address N]
#include "app.hpp"
#include "settings.hpp"

#include <agentio/environment.hpp>
#include <agentio/http/server.hpp>
#include <agentio/llm/environment.hpp>
#include <agentio/run.hpp>
#include <agentio/threads/open_store.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include <cstdio>
#include <iostream>

namespace asio = boost::asio;
namespace llm = agentio::llm;

namespace {

constexpr char const* usage = R"(usage:
  agentio-platform serve [--host H] [--port P] [--threads N] [--max-connections N]
                         [--max-connections-per-address N]

The agents of agentio as OpenAI-compatible models: POST /v1/chat/completions,
GET /v1/models, GET /v1/models/{id}, GET /health. By default it listens on
http://127.0.0.1:7002. Models: asistente (calculator, SQL, document search),
and portfolio, facturas, normativa when their applications are configured.

Variables: AGENT_PROVIDER (anthropic | openai), ANTHROPIC_API_KEY,
ANTHROPIC_BASE_URL, ANTHROPIC_VERSION, OPENAI_API_KEY, OPENAI_BASE_URL,
AGENT_MODEL; PLATFORM_JWT_SECRET (HS256) or PLATFORM_JWT_PUBLIC_KEY (RS256 or
ES256, PEM or a file), PLATFORM_JWT_ISSUER, PLATFORM_JWT_AUDIENCE; PLATFORM_STORE
(sessions: a SQLite file, data/platform_threads.db, or postgresql://...),
PLATFORM_MEMORY (on | off), PLATFORM_MEMORY_MESSAGES (40); PLATFORM_SQL_DB (the
database of sql_query), PLATFORM_SQLITE_MCP, PLATFORM_SQL_MAX_ROWS (200);
PLATFORM_RAG_INDEX (the index of rag_retrieval); PLATFORM_AGENT_PORTFOLIO,
PLATFORM_AGENT_FACTURAS, PLATFORM_AGENT_NORMATIVA (each application's /v1 URL);
PLATFORM_MAX_ROUNDS (8), PLATFORM_MAX_ITERATIONS (5).
)";

struct usage_error
{
    std::string message;
};

int run(int argc, char** argv)
{
    if(argc < 2)
        throw usage_error{"a command is missing"};
    std::string const command = argv[1];
    if(command == "--help" || command == "-h")
    {
        std::cout << usage;
        return 0;
    }
    if(command != "serve")
        throw usage_error{"unknown command '" + command + "'"};
    std::string host = "127.0.0.1";
    unsigned short port = 7002;
    unsigned threads = 2;
    agentio::http::server_options so;
    so.error_body = agentio::chat_completions::write_error_body;
    so.max_body_bytes = 8 * 1024 * 1024; // images come as data URLs
    for(int i = 2; i < argc; ++i)
    {
        std::string_view const flag = argv[i];
        if(i + 1 >= argc)
            throw usage_error{std::string(flag) + ": the value is missing"};
        std::string const text = argv[++i];
        if(flag == "--host")
            host = text;
        else if(flag == "--max-connections" || flag == "--max-connections-per-address")
        {
            // Per address, 0 lifts the bound (a load test from one address).
            auto const v = agentio::parse_unsigned(text, flag == "--max-connections" ? 1 : 0, 1'000'000);
            if(!v)
                throw usage_error{std::string(flag) + ": not a valid value: '" + text + "'"};
            (flag == "--max-connections" ? so.max_connections : so.max_connections_per_address) = *v;
        }
        else if(flag == "--port" || flag == "--threads")
        {
            auto const v = flag == "--port" ? agentio::parse_unsigned(text, 0, 65535)
                                            : agentio::parse_unsigned(text, 1, 64);
            if(!v)
                throw usage_error{std::string(flag) + ": not a valid value: '" + text + "'"};
            if(flag == "--port")
                port = static_cast<unsigned short>(*v);
            else
                threads = *v;
        }
        else
            throw usage_error{"unknown argument '" + std::string(flag) + "'"};
    }

    auto config = platform::settings::from_environment();
    if(!config)
        throw usage_error{config.error()};
    asio::io_context ioc;
    // One provider origin carries every request's stream at once: the client's
    // default of a few connections per origin would queue them behind each other.
    agentio::http::client_options http_options;
    http_options.max_connections_per_origin = 100000;
    http_options.watch_idle_connections = true; // a server: no connection lingers in CLOSE_WAIT
    agentio::http::client http(ioc.get_executor(), http_options);
    auto provider = llm::make_provider(config->model, http);
    auto store = agentio::run_to_completion(ioc, agentio::threads::open_store(config->store));
    if(!store)
        throw usage_error{"PLATFORM_STORE: cannot open '" + config->store + "': " + store.error().message};
    platform::application app(std::move(*config), http, provider, store->get());
    agentio::run_to_completion(ioc, app.start());
    for(auto const& w : app.warnings())
        std::fprintf(stderr, "agentio-platform: %s\n", w.c_str());

    agentio::http::server server(ioc.get_executor(), app.routes(), so);
    auto const bound = server.listen({asio::ip::make_address(host), port});
    if(!bound)
        throw usage_error{"cannot listen on " + host + ":" + std::to_string(port) + ": " + bound.error().message()};
    server.start();
    asio::co_spawn(ioc, app.watch_provider(), asio::detached);
    std::printf("agentio-platform on http://%s:%u/v1 (models:", host.c_str(), bound->port());
    for(auto const& m : app.api().models())
        std::printf(" %s", m->card().id.c_str());
    std::printf(")\n");
    std::fflush(stdout);
    agentio::run_until_signal(ioc, threads, [&] {
        server.stop();
        asio::co_spawn(ioc, app.close(), [&](std::exception_ptr) { ioc.stop(); });
    });
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    try
    {
        return run(argc, argv);
    }
    catch(usage_error const& e)
    {
        std::fprintf(stderr, "agentio-platform: %s\n\n%s", e.message.c_str(), usage);
        return 2;
    }
    catch(std::exception const& e)
    {
        std::fprintf(stderr, "agentio-platform: %s\n", e.what());
        return 1;
    }
}
