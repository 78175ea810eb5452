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

#include <agentio/app.hpp>
#include <agentio/app/telemetry.hpp>
#include <agentio/http/server.hpp>
#include <agentio/llm/environment.hpp>
#include <agentio/run.hpp>
#include <agentio/threads/observed_store.hpp>
#include <agentio/threads/open_store.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include <cstdio>
#include <iostream>

namespace asio = boost::asio;
namespace llm = agentio::llm;
namespace app = agentio::app;

namespace {

constexpr char const* about = R"(The agents of agentio as OpenAI-compatible models: POST /v1/chat/completions,
GET /v1/models, GET /v1/models/{id}, GET /health. By default it listens on
http://127.0.0.1:7002. Models: asistente (mathematics, Python in a sandbox, SQL,
document search), and portfolio, facturas, normativa when their applications
are configured. Files: POST /v1/files, GET /v1/files, GET /v1/files/{id},
GET /v1/files/{id}/content, DELETE /v1/files/{id}.

Variables: AGENT_PROVIDER (anthropic | openai), ANTHROPIC_API_KEY,
ANTHROPIC_BASE_URL, ANTHROPIC_VERSION, OPENAI_API_KEY, OPENAI_BASE_URL,
AGENT_MODEL; PLATFORM_JWT_SECRET (HS256) or PLATFORM_JWT_PUBLIC_KEY (RS256 or
ES256, PEM or a file), PLATFORM_JWT_ISSUER, PLATFORM_JWT_AUDIENCE; PLATFORM_STORE
(sessions: a SQLite file, data/platform_threads.db, or postgresql://...),
PLATFORM_MEMORY (on | off), PLATFORM_MEMORY_MESSAGES (40); PLATFORM_SQL_DB (the
database of sql_query), PLATFORM_SQLITE_MCP, PLATFORM_SQL_MAX_ROWS (200);
PLATFORM_RAG_INDEX (the index of rag_retrieval); PLATFORM_AGENT_PORTFOLIO,
PLATFORM_AGENT_FACTURAS, PLATFORM_AGENT_NORMATIVA (each application's /v1 URL);
PLATFORM_A2A_AGENTS (remote A2A agents, name=url,...: each a model and a tool
of the asistente), PLATFORM_A2A_TOKEN (their Authorization: Bearer);
PLATFORM_MAX_ROUNDS (8), PLATFORM_MAX_ITERATIONS (5), PLATFORM_APPROVAL_TOOLS
(tools that wait for a person's approval); PLATFORM_UPLOADS
(data/uploads), PLATFORM_MAX_UPLOAD_BYTES (20971520), PLATFORM_DOCUMENTS_INDEX
(data/platform_documents.db, postgresql://..., or off); PLATFORM_SANDBOX (on |
off), PLATFORM_SANDBOX_SECONDS (10), PLATFORM_SANDBOX_MEMORY_MB (1024),
PLATFORM_SANDBOX_MAX_RUNNING (4); the web tools: TAVILY_API_KEY (none: the
fallback only), TAVILY_BASE_URL (https://api.tavily.com),
WEB_SEARCH_FALLBACK_URL (https://html.duckduckgo.com/html/; empty or off: none),
WIKIPEDIA_API_URL (https://{lang}.wikipedia.org/w/api.php),
PLATFORM_WIKIPEDIA_LANGUAGE (es), OPEN_METEO_GEOCODING_URL
(https://geocoding-api.open-meteo.com/v1/search), OPEN_METEO_FORECAST_URL
(https://api.open-meteo.com/v1/forecast); the log: AGENTIO_LOG_LEVEL (info),
AGENTIO_LOG_FORMAT (text | json), AGENTIO_LOG_FILE (unset: stderr).)";

} // namespace

int main(int argc, char** argv)
{
    app::command_line cli("agentio-platform");
    std::string host = "127.0.0.1";
    unsigned short port = 7002;
    unsigned threads = 2;
    agentio::http::server_options so;
    so.error_body = agentio::chat_completions::write_error_body;
    so.max_body_bytes = 8 * 1024 * 1024; // images come as data URLs
    auto& serve = cli.command("serve", "serves the OpenAI-compatible API");
    serve.option("--host", host, "H");
    serve.option("--port", port, "P");
    serve.option("--threads", threads, "N").range(1, 64);
    serve.option("--max-connections", so.max_connections, "N").range(1, 1'000'000);
    // Per address, 0 lifts the bound (a load test from one address).
    serve.option("--max-connections-per-address", so.max_connections_per_address, "N").range(0, 1'000'000);
    cli.command("env-template", "prints every variable with its default and what it does (a .env to start from)");
    cli.epilog(about);

    return app::run_main(cli, argc, argv, [&](std::string_view command) -> int {
        if(command == "env-template")
        {
            std::fputs(platform::env_template().c_str(), stdout);
            return 0;
        }
        auto config = platform::settings::from_environment();
        if(!config)
            throw app::usage_error(config.error());
        asio::io_context ioc;
        // Logs (AGENTIO_LOG_*), GET /metrics, and traces to an OTLP collector (OTEL_*).
        agentio::app::telemetry seen(ioc.get_executor(), {config->log, config->trace, config->metrics_address});
        auto& log = seen.log();
        agentio::http::client http(ioc.get_executor(), seen.client_options(llm::provider_client_options()));
        llm::provider_options counted;
        counted.on_retry = seen.provider_retries(config->model.provider == llm::provider_kind::anthropic ? "anthropic"
                                                                                                         : "openai");
        auto provider = llm::make_provider(config->model, http, std::move(counted));
        auto store = agentio::run_to_completion(ioc, agentio::threads::open_store(config->store));
        if(!store)
            throw app::usage_error("PLATFORM_STORE: cannot open '" + config->store + "': " + store.error().message);
        // Each store call timed and counted (agentio_store_*), on GET /metrics.
        *store = std::make_unique<agentio::threads::observed_store>(std::move(*store), seen.registry(), "threads",
            &seen.tracer());
        platform::application application(std::move(*config), http, provider, store->get(), seen);
        agentio::run_to_completion(ioc, application.start());
        for(auto const& w : application.warnings())
            log.warn("start.warning", {{"detail", w}});

        so.max_body_bytes_for = [&application](auto const& head) { return application.body_limit(head); };
        agentio::http::server server(ioc.get_executor(), application.routes(), so);
        auto const bound = server.listen({asio::ip::make_address(host), port});
        if(!bound)
            throw std::runtime_error("cannot listen on " + host + ":" + std::to_string(port) + ": " +
                bound.error().message());
        server.start();
        asio::co_spawn(ioc, application.watch_provider(), asio::detached);
        std::printf("agentio-platform on http://%s:%u/v1 (models:", host.c_str(), bound->port());
        for(auto const& m : application.api().models())
            std::printf(" %s", m->card().id.c_str());
        std::printf(")\n");
        std::fflush(stdout);
        log.info("start",
            {{"url", "http://" + host + ":" + std::to_string(bound->port()) + "/v1"}, {"threads", threads}});
        seen.start();
        auto drained = [&]() -> asio::awaitable<void> {
            co_await application.close();
            co_await seen.shutdown(); // the last spans sent, the log flushed
        };
        app::serve(ioc, server, {.threads = threads, .on_drained = drained});
        log.info("stop");
        return 0;
    });
}
