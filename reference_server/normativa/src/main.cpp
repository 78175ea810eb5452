// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// agentio-normativa: the labour-law agent.
//   ingest [--index PATH] --law NAME [--collection C] PATH…   law files → the index
//   serve  [--index PATH] [--host H] [--port P] [--threads N] [--web-dir DIR]
//   eval   [--index PATH] --questions FILE [--json]          recall@5 and MRR per method

#include "agent.hpp"
#include "app.hpp"
#include "http_api.hpp"
#include "openai_api.hpp"
#include "ingest.hpp"
#include "quality.hpp"
#include "settings.hpp"

#include <agentio/app.hpp>
#include <agentio/app/telemetry.hpp>
#include <agentio/http/metrics.hpp>
#include <agentio/http/request_log.hpp>
#include <agentio/http/server.hpp>
#include <agentio/llm/environment.hpp>
#include <agentio/a2a.hpp>
#include <agentio/ag_ui.hpp>
#include <agentio/version.hpp>
#include <agentio/threads/observed_store.hpp>
#include <agentio/threads/open_store.hpp>
#include <agentio/json_text.hpp>
#include <agentio/run.hpp>
#include <agentio/sqlite.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>

#include <unistd.h>

#include <charconv>
#include <cstdio>
#include <iostream>
#include <thread>

namespace asio = boost::asio;
namespace json = boost::json;
namespace llm = agentio::llm;

namespace app = agentio::app;

namespace {

constexpr char const* about =
    "El índice es data/normativa.db salvo que --index o RAG_INDEX digan otra cosa.\n"
    "Variables (también en .env): RAG_API_KEYS, RAG_STORE, RAG_EMBEDDER (lsa | openai), RAG_FUSION_WEIGHTS, "
    "RAG_COLLECTION_WEIGHTS,\nRAG_APPROVAL_TOOLS (herramientas cuyas llamadas esperan una aprobación por AG-UI y A2A), "
    "AGENT_PROVIDER, ANTHROPIC_API_KEY, OPENAI_API_KEY, OPENAI_BASE_URL, AGENT_MODEL; el registro: AGENTIO_LOG_LEVEL\n"
    "(info), AGENTIO_LOG_FORMAT (text | json), AGENTIO_LOG_FILE (sin ella: stderr) (docs/apps/normativa.md).";

std::filesystem::path program_directory()
{
    std::error_code ec;
    auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::filesystem::path() : self.parent_path();
}

struct command_values
{
    std::string index, law, collection = "normativa", web_dir, questions, host;
    std::vector<std::string> inputs;
    unsigned short port = 7004;
    unsigned threads = 2;
    bool as_json = false;
};

int ingest(normativa::settings const& config, command_values const& v)
{
    std::vector<std::filesystem::path> inputs(v.inputs.begin(), v.inputs.end());
    normativa::ingest_options o{config.index, v.law, v.collection, inputs, ::isatty(2) == 1};
    auto done = normativa::ingest(o, config, std::cerr);
    if(!done)
    {
        std::fprintf(stderr, "agentio-normativa: %s\n", done.error().c_str());
        return 1;
    }
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.2f", done->seconds);
    for(auto& c : seconds)
        if(c == '.')
            c = ','; // as Spanish writes decimals
    std::printf("Ingeridos %zu ficheros (%zu artículos): %zu fragmentos (%zu nuevos, %zu cambiados, %zu iguales, "
                "%zu eliminados) en %s s%s\n",
        done->files, done->articles, done->chunks, done->report.added, done->report.changed, done->report.unchanged,
        done->report.removed, seconds, done->refitted ? "; modelo latente recalculado" : "");
    return 0;
}

int serve_or_eval(std::string_view command, normativa::settings& config, command_values const& v)
{
    agentio::sqlite::configure_for_concurrency();
    asio::io_context ioc;

    if(command == "eval")
    {
        agentio::http::client http(ioc.get_executor(), llm::provider_client_options());
        auto loaded = agentio::run_to_completion(ioc, normativa::open_index(config.index, config, http));
        if(!loaded->searcher)
            throw app::usage_error(loaded->warning);
        auto list = normativa::load_questions(v.questions);
        if(!list)
            throw app::usage_error(list.error());
        auto rows = agentio::run_to_completion(ioc, normativa::measure_quality(*loaded->searcher, *list));
        if(!rows)
            throw std::runtime_error(rows.error().message);
        if(v.as_json)
            std::cout << agentio::to_json_text(normativa::quality_json(*rows)) << '\n';
        else
            std::cout << normativa::quality_table(*rows);
        return 0;
    }

    // The log (AGENTIO_LOG_*): the warnings below, each answer, each request; GET /metrics; traces (OTEL_*).
    auto trace = agentio::trace::settings_from_environment(agentio::process_environment,
        {.service_name = "agentio-normativa"});
    if(!trace)
        throw app::usage_error(trace.error().variable + ": valor no válido '" + trace.error().value + "'");
    auto metrics_address = agentio::app::metrics_address_from_environment(agentio::process_environment);
    if(!metrics_address)
        throw app::usage_error(metrics_address.error().variable + ": valor no válido '" +
            metrics_address.error().value + "'");
    agentio::app::telemetry seen(ioc.get_executor(), {config.log, std::move(*trace), *metrics_address});
    seen.agents().log_runs(false); // rag_service writes its own agent.run line, with the thread and the sources
    auto& log = seen.log();
    // Each call that carries a trace (the model's, the embedder's) is a client span.
    agentio::http::client http(ioc.get_executor(), seen.client_options(llm::provider_client_options()));
    // Opened once the registry exists: each read of the index timed and counted (agentio_index_*).
    auto loaded = agentio::run_to_completion(ioc,
        normativa::open_index(config.index, config, http, &seen.registry(), &seen.tracer()));
    if(!loaded->warning.empty())
        log.warn("start.warning", {{"detail", loaded->warning}});
    auto store = agentio::run_to_completion(ioc, agentio::threads::open_store(config.store));
    if(!store)
        throw app::usage_error("RAG_STORE: no se puede abrir '" + config.store + "': " + store.error().message);
    // Each store call timed and counted (agentio_store_*), on GET /metrics.
    *store = std::make_unique<agentio::threads::observed_store>(std::move(*store), seen.registry(), "threads",
        &seen.tracer());
    std::optional<llm::any_provider> provider;
    if(!config.llm_unavailable_reason())
    {
        llm::provider_options counted;
        counted.on_retry = seen.provider_retries(config.model.provider == llm::provider_kind::anthropic ? "anthropic"
                                                                                                        : "openai");
        provider.emplace(llm::make_provider(config.model, http, std::move(counted)));
    }
    else
        log.warn("start.warning", {{"detail", *config.llm_unavailable_reason() + "; las preguntas responderán 503"}});
    normativa::rag_service service(config, provider ? &*provider : nullptr, **store, loaded->tools, &log);
    service.set_telemetry(seen.agent("normativa"));
    agentio::http::api_keys keys(config.api_keys);
    if(!keys.required())
        log.warn("start.warning",
            {{"detail", "RAG_API_KEYS vacía: el servidor acepta peticiones sin clave (un solo usuario)"}});
    auto const web_dir = config.web_dir.empty() ? (program_directory() / "web").string() : config.web_dir;
    auto page = agentio::http::static_files::load(web_dir);
    // Each request logged, counted by its route's pattern and traced; GET /metrics for Prometheus.
    auto observed = seen.router_options();
    // The same agent as an OpenAI-compatible model, for any OpenAI client and agentio-platform.
    agentio::chat_completions::endpoint openai;
    openai.add(normativa::make_openai_model(service));
    auto routes = normativa::make_routes(service, keys, loaded->status, page.loaded() ? &page : nullptr,
        std::move(observed));
    openai.add_routes(routes);
    // And over AG-UI (POST /ag-ui), with the same keys as the API's other routes and its threads in the store.
    agentio::ag_ui::endpoint ag_ui(openai,
        {.authenticate = agentio::chat_completions::key_authenticator(keys, "x-api-key",
             "Falta una clave de API válida en la cabecera x-api-key"),
            .store = store->get()});
    ag_ui.add_routes(routes);
    // And to other agents over A2A (POST /a2a, the card at /.well-known/agent-card.json), on the same runs and keys.
    agentio::a2a::endpoint_options to_agents;
    to_agents.card.name = "agentio-normativa";
    to_agents.card.description = "Responde preguntas de derecho laboral español citando el Estatuto de los "
                                 "Trabajadores (búsqueda híbrida en su texto).";
    to_agents.card.version = AGENTIO_VERSION_STRING;
    to_agents.card.security = keys.required() ? agentio::a2a::card_security::api_key
                                              : agentio::a2a::card_security::none;
    to_agents.card.api_key_header = "x-api-key"; // or Authorization: Bearer, as the API's other routes
    to_agents.skills = {
        {"normativa", "Derecho laboral", "Busca en el Estatuto de los Trabajadores y responde citando los artículos.",
            {"derecho laboral", "rag"}, {"¿Cuántos días de vacaciones tengo?"}}};
    agentio::a2a::endpoint a2a(ag_ui, std::move(to_agents));
    a2a.add_routes(routes);
    seen.add_metrics_route(routes);
    agentio::http::server server(ioc.get_executor(), std::move(routes));
    auto const bound = server.listen({asio::ip::make_address(config.host), config.port});
    if(!bound)
        throw std::runtime_error("no se puede escuchar en " + config.host + ":" + std::to_string(config.port) + ": " +
            bound.error().message());
    server.start();
    std::printf("agentio-normativa en http://%s:%u (%zu fragmentos; POST /api/rag-agent, POST /api/rag-pipeline, "
                "GET /health, GET /metrics)\n",
        config.host.c_str(), bound->port(), loaded->status.chunks);
    std::fflush(stdout);
    log.info("start",
        {{"url", "http://" + config.host + ":" + std::to_string(bound->port())}, {"threads", v.threads},
            {"chunks", loaded->status.chunks}, {"model", config.model.effective_model()}});
    seen.start();
    auto drained = [&seen]() -> asio::awaitable<void> { co_await seen.shutdown(); };
    app::serve(ioc, server, {.threads = v.threads, .on_drained = drained});
    log.info("stop");
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    app::command_line cli("agentio-normativa", agentio::spanish_messages);
    command_values v;
    auto& ingest_command = cli.command("ingest", "añade o actualiza en el índice los artículos de una ley");
    auto& ingest_index = ingest_command.option("--index", v.index, "RUTA");
    ingest_command.option("--law", v.law, "\"NOMBRE DE LA LEY\"").required();
    ingest_command.option("--collection", v.collection, "COLECCIÓN");
    ingest_command.arguments("RUTA…", v.inputs);
    auto& serve = cli.command("serve", "sirve el agente, su página y la API de OpenAI");
    auto& serve_index = serve.option("--index", v.index, "RUTA");
    auto& host = serve.option("--host", v.host, "H");
    auto& port = serve.option("--port", v.port, "P");
    serve.option("--threads", v.threads, "N").range(1, 64);
    auto& web_dir = serve.option("--web-dir", v.web_dir, "DIR");
    auto& eval = cli.command("eval", "mide la calidad de la búsqueda (recall@5 y MRR por método)");
    auto& eval_index = eval.option("--index", v.index, "RUTA");
    eval.option("--questions", v.questions, "FICHERO").required();
    eval.option("--json", v.as_json);
    cli.epilog(about);

    return app::run_main(cli, argc, argv, [&](std::string_view command) -> int {
        auto config = normativa::settings::from_environment();
        if(!config)
            throw app::usage_error(config.error());
        // The command line over the variables.
        if(ingest_index.given() || serve_index.given() || eval_index.given())
            config->index = v.index;
        if(host.given())
            config->host = v.host;
        if(port.given())
            config->port = v.port;
        if(web_dir.given())
            config->web_dir = v.web_dir;
        if(command == "ingest")
            return ingest(*config, v);
        return serve_or_eval(command, *config, v);
    });
}
