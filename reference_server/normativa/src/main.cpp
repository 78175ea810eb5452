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

#include <agentio/http/server.hpp>
#include <agentio/environment.hpp>
#include <agentio/json_text.hpp>
#include <agentio/run.hpp>
#include <agentio/postgres/thread_store.hpp>
#include <agentio/sqlite.hpp>
#include <agentio/sqlite/thread_store.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/this_coro.hpp>

#include <unistd.h>

#include <charconv>
#include <cstdio>
#include <iostream>
#include <thread>

namespace asio = boost::asio;
namespace json = boost::json;
namespace llm = agentio::llm;

namespace {

constexpr char const* usage =
    "Uso:\n"
    "  agentio-normativa ingest [--index RUTA] --law \"Estatuto de los Trabajadores\" [--collection normativa] "
    "RUTA…\n"
    "  agentio-normativa serve [--index RUTA] [--host 127.0.0.1] [--port 7004] [--threads N] [--web-dir DIR]\n"
    "  agentio-normativa eval [--index RUTA] --questions FICHERO [--json]\n"
    "\n"
    "El índice es data/normativa.db salvo que --index o RAG_INDEX digan otra cosa.\n"
    "Variables: RAG_API_KEYS, RAG_STORE, RAG_EMBEDDER (lsa | openai), RAG_FUSION_WEIGHTS, "
    "RAG_COLLECTION_WEIGHTS,\n"
    "AGENT_PROVIDER, ANTHROPIC_API_KEY, OPENAI_API_KEY, OPENAI_BASE_URL, AGENT_MODEL (docs/apps/normativa.md).\n";

struct usage_error
{
    std::string message;
};

std::filesystem::path program_directory()
{
    std::error_code ec;
    auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::filesystem::path() : self.parent_path();
}

// The thread store: SQLite by default, PostgreSQL for a postgresql:// URL.
asio::awaitable<std::unique_ptr<agentio::threads::thread_store>> open_store(std::string const& where)
{
    if(where.starts_with("postgresql://") || where.starts_with("postgres://"))
    {
        auto const ex = co_await asio::this_coro::executor;
        auto pg = co_await agentio::postgres::thread_store::open(ex, where);
        if(!pg)
            throw usage_error{"RAG_STORE: no se puede abrir '" + where + "': " + pg.error().message};
        co_return std::move(*pg);
    }
    auto path = where.starts_with("sqlite:") ? where.substr(7) : where;
    std::error_code ec;
    if(auto const dir = std::filesystem::path(path).parent_path(); !dir.empty())
        std::filesystem::create_directories(dir, ec);
    auto store = agentio::sqlite::thread_store::open(path);
    if(!store)
        throw usage_error{"RAG_STORE: no se puede abrir '" + path + "': " + store.error().message};
    co_return std::move(*store);
}

int run(int argc, char** argv)
{
    if(argc < 2)
        throw usage_error{"falta la orden"};
    std::string const command = argv[1];
    if(command == "--help" || command == "-h")
    {
        std::cout << usage;
        return 0;
    }
    auto config = normativa::settings::from_environment();
    if(!config)
        throw usage_error{config.error()};
    std::string index = config->index, law, collection = "normativa", web_dir = config->web_dir, questions;
    std::vector<std::filesystem::path> inputs;
    bool as_json = false;
    unsigned threads = 2;
    for(int i = 2; i < argc; ++i)
    {
        std::string_view const flag = argv[i];
        auto value = [&]() -> std::string {
            if(i + 1 >= argc)
                throw usage_error{std::string(flag) + ": falta el valor"};
            return argv[++i];
        };
        if(flag == "--index")
            index = value();
        else if(flag == "--law")
            law = value();
        else if(flag == "--collection")
            collection = value();
        else if(flag == "--host")
            config->host = value();
        else if(flag == "--web-dir")
            web_dir = value();
        else if(flag == "--questions")
            questions = value();
        else if(flag == "--json")
            as_json = true;
        else if(flag == "--port" || flag == "--threads")
        {
            auto const text = value();
            auto const v = flag == "--port" ? agentio::parse_unsigned(text, 0, 65535)
                                            : agentio::parse_unsigned(text, 1, 64);
            if(!v)
                throw usage_error{std::string(flag) + ": valor no válido '" + text + "'"};
            if(flag == "--port")
                config->port = static_cast<unsigned short>(*v);
            else
                threads = *v;
        }
        else if(command == "ingest" && !flag.starts_with("--"))
            inputs.emplace_back(flag);
        else
            throw usage_error{"argumento desconocido '" + std::string(flag) + "'"};
    }

    if(command == "ingest")
    {
        if(law.empty())
            throw usage_error{"ingest necesita --law \"NOMBRE DE LA LEY\""};
        if(inputs.empty())
            throw usage_error{"ingest necesita al menos un fichero o carpeta"};
        normativa::ingest_options o{index, law, collection, inputs, ::isatty(2) == 1};
        auto done = normativa::ingest(o, *config, std::cerr);
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
    if(command != "serve" && command != "eval")
        throw usage_error{"orden desconocida '" + command + "'"};

    agentio::sqlite::configure_for_concurrency();
    asio::io_context ioc;
    // One provider origin carries every request's stream at once: the client's
    // default of a few connections per origin would queue them behind each other.
    agentio::http::client_options http_options;
    http_options.max_connections_per_origin = 100000;
    http_options.watch_idle_connections = true; // a server: no connection lingers in CLOSE_WAIT
    agentio::http::client http(ioc.get_executor(), http_options);
    auto loaded = agentio::run_to_completion(ioc, normativa::open_index(index, *config, http));

    if(command == "eval")
    {
        if(questions.empty())
            throw usage_error{"eval necesita --questions FICHERO"};
        if(!loaded->searcher)
            throw usage_error{loaded->warning};
        auto list = normativa::load_questions(questions);
        if(!list)
            throw usage_error{list.error()};
        auto rows = agentio::run_to_completion(ioc, normativa::measure_quality(*loaded->searcher, *list));
        if(!rows)
            throw std::runtime_error(rows.error().message);
        if(as_json)
            std::cout << agentio::to_json_text(normativa::quality_json(*rows)) << '\n';
        else
            std::cout << normativa::quality_table(*rows);
        return 0;
    }

    if(!loaded->warning.empty())
        std::fprintf(stderr, "agentio-normativa: aviso: %s\n", loaded->warning.c_str());
    auto store = agentio::run_to_completion(ioc, open_store(config->store));
    std::optional<llm::any_provider> provider;
    if(!config->llm_unavailable_reason())
        provider.emplace(llm::make_provider(config->model, http));
    else
        std::fprintf(stderr, "agentio-normativa: aviso: %s; las preguntas responderán 503\n",
            config->llm_unavailable_reason()->c_str());
    normativa::rag_service service(*config, provider ? &*provider : nullptr, *store, loaded->tools);
    agentio::http::api_keys keys(config->api_keys);
    if(!keys.required())
        std::fprintf(stderr,
            "agentio-normativa: aviso: RAG_API_KEYS vacía: el servidor acepta peticiones sin clave "
            "(un solo usuario)\n");
    if(web_dir.empty())
        web_dir = (program_directory() / "web").string();
    auto page = agentio::http::static_files::load(web_dir);
    // The same agent as an OpenAI-compatible model, for any OpenAI client and agentio-platform.
    agentio::chat_completions::endpoint openai;
    openai.add(normativa::make_openai_model(service));
    auto routes = normativa::make_routes(service, keys, loaded->status, page.loaded() ? &page : nullptr);
    openai.add_routes(routes);
    agentio::http::server server(ioc.get_executor(), std::move(routes));
    auto const bound = server.listen({asio::ip::make_address(config->host), config->port});
    if(!bound)
        throw usage_error{"no se puede escuchar en " + config->host + ":" + std::to_string(config->port) + ": " +
            bound.error().message()};
    server.start();
    std::printf("agentio-normativa en http://%s:%u (%zu fragmentos; POST /api/rag-agent, POST /api/rag-pipeline, "
                "GET /health)\n",
        config->host.c_str(), bound->port(), loaded->status.chunks);
    std::fflush(stdout);
    agentio::run_until_signal(ioc, threads, [&] {
        server.stop();
        ioc.stop();
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
        std::fprintf(stderr, "agentio-normativa: %s\n\n%s", e.message.c_str(), usage);
        return 2;
    }
    catch(std::exception const& e)
    {
        std::fprintf(stderr, "agentio-normativa: %s\n", e.what());
        return 1;
    }
}
