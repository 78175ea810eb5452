// agentio-portfolio: the reference server of agentio.
//
//   agentio-portfolio init-db PATH [--initiatives N] [--seed S]
//   agentio-portfolio serve [--db PATH] [--host H] [--port P] [--threads N] [--max-limit N]

#include "app/config.hpp"
#include "app/server.hpp"
#include "portfolio/db_generator.hpp"

#include <agentio/sqlite.hpp>

#include <boost/asio/signal_set.hpp>

#include <charconv>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <span>
#include <string>
#include <string_view>

namespace {

constexpr char const* usage = R"(agentio-portfolio — servidor de referencia de agentio (portfolio digital)

Uso:
  agentio-portfolio init-db PATH [--initiatives N] [--seed S]
      Genera la base de datos SQLite de ejemplo (determinista: misma semilla, mismo fichero).
  agentio-portfolio serve [--db PATH] [--host H] [--port P] [--threads N] [--max-limit N]
      API REST de solo lectura en http://H:P/api/v1 (por defecto 127.0.0.1:8080).
      Sin --db usa $PORTFOLIO_DB o data/portfolio.db, y la genera si no existe.

Variables de entorno (también en .env): PORTFOLIO_DB, PORTFOLIO_HOST, PORTFOLIO_PORT, API_MAX_LIMIT.
)";

struct usage_error
{
    std::string message;
};

template<class Int>
Int parse_number(std::string_view flag, std::string_view text, Int lo, Int hi)
{
    Int v{};
    auto const [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if(ec != std::errc() || ptr != text.data() + text.size() || v < lo || v > hi)
        throw usage_error{std::string(flag) + ": se esperaba un número entre " + std::to_string(lo) + " y " +
            std::to_string(hi) + ", recibido '" + std::string(text) + "'"};
    return v;
}

// Walks "--flag value" pairs; every flag takes a value.
template<class F>
void for_each_flag(std::span<char* const> args, F&& on_flag)
{
    for(std::size_t i = 0; i < args.size(); ++i)
    {
        std::string_view flag = args[i];
        if(!flag.starts_with("--"))
            throw usage_error{"argumento inesperado '" + std::string(flag) + "'"};
        if(i + 1 >= args.size())
            throw usage_error{std::string(flag) + ": falta el valor"};
        if(!on_flag(flag, std::string_view(args[++i])))
            throw usage_error{"opción desconocida '" + std::string(flag) + "'"};
    }
}

int init_db(std::span<char* const> args)
{
    if(args.empty() || std::string_view(args[0]).starts_with("--"))
        throw usage_error{"init-db: falta la ruta del fichero"};
    std::filesystem::path const path = args[0];
    portfolio::generator_options opt;
    for_each_flag(args.subspan(1), [&](std::string_view flag, std::string_view value) {
        if(flag == "--initiatives")
            opt.initiatives = parse_number<int>(flag, value, 1, 100000);
        else if(flag == "--seed")
            opt.seed = parse_number<std::uint64_t>(flag, value, 0, UINT64_MAX);
        else
            return false;
        return true;
    });
    auto const t0 = std::chrono::steady_clock::now();
    auto const report = portfolio::generate_database(path, opt);
    auto const ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0);
    long long rows = 0;
    for(auto const& [table, n] : report.rows_per_table)
        rows += n;
    std::printf("Base de datos generada en %s: %d iniciativas, %zu tablas, %lld filas (semilla %llu, %lld ms)\n",
        path.c_str(), report.initiatives, report.rows_per_table.size(), rows,
        static_cast<unsigned long long>(opt.seed), static_cast<long long>(ms.count()));
    return 0;
}

int serve(std::span<char* const> args)
{
    portfolio::server_options opt;
    bool explicit_db = false;
    if(auto v = portfolio::env("PORTFOLIO_DB"))
        explicit_db = true;
    opt.db_path = portfolio::default_db_path();
    if(auto v = portfolio::env("PORTFOLIO_HOST"))
        opt.host = *v;
    if(auto v = portfolio::env("PORTFOLIO_PORT"))
        opt.port = parse_number<unsigned short>("PORTFOLIO_PORT", *v, 0, 65535);
    if(auto v = portfolio::env("API_MAX_LIMIT"))
        opt.limits.max_limit = parse_number<std::int64_t>("API_MAX_LIMIT", *v, 1, 100000);
    for_each_flag(args, [&](std::string_view flag, std::string_view value) {
        if(flag == "--db")
            opt.db_path = value, explicit_db = true;
        else if(flag == "--host")
            opt.host = value;
        else if(flag == "--port")
            opt.port = parse_number<unsigned short>(flag, value, 0, 65535);
        else if(flag == "--threads")
            opt.threads = opt.db_threads = parse_number<unsigned>(flag, value, 1, 256);
        else if(flag == "--max-limit")
            opt.limits.max_limit = parse_number<std::int64_t>(flag, value, 1, 100000);
        else
            return false;
        return true;
    });

    if(!std::filesystem::exists(opt.db_path))
    {
        // The embedded default: generate the sample database on first use, but
        // never invent a database at a path the user named.
        if(explicit_db)
            throw std::runtime_error("no existe la base de datos " + opt.db_path.string() +
                " (genérala con: agentio-portfolio init-db " + opt.db_path.string() + ")");
        if(opt.db_path.has_parent_path())
            std::filesystem::create_directories(opt.db_path.parent_path());
        std::printf("Generando la base de datos de ejemplo en %s...\n", opt.db_path.c_str());
        portfolio::generate_database(opt.db_path);
    }

    portfolio::portfolio_server server(opt);
    boost::asio::io_context signals_ctx;
    boost::asio::signal_set signals(signals_ctx, SIGINT, SIGTERM);
    signals.async_wait([&](boost::system::error_code ec, int) {
        if(!ec)
            server.stop();
    });
    std::thread signal_thread([&] { signals_ctx.run(); });

    auto const ep = server.endpoint();
    std::printf("agentio-portfolio escuchando en http://%s:%u (base de datos %s, %u hilos)\n",
        ep.address().to_string().c_str(), ep.port(), opt.db_path.c_str(), opt.threads);
    std::fflush(stdout);
    server.run();
    signals_ctx.stop();
    signal_thread.join();
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    agentio::sqlite::configure_for_concurrency();
    std::span<char* const> args(argv + 1, static_cast<std::size_t>(argc > 0 ? argc - 1 : 0));
    try
    {
        portfolio::load_dotenv();
        if(args.empty() || args[0] == std::string_view("--help") || args[0] == std::string_view("-h"))
        {
            std::fputs(usage, args.empty() ? stderr : stdout);
            return args.empty() ? 2 : 0;
        }
        std::string_view const command = args[0];
        if(command == "init-db")
            return init_db(args.subspan(1));
        if(command == "serve")
            return serve(args.subspan(1));
        throw usage_error{"orden desconocida '" + std::string(command) + "'"};
    }
    catch(usage_error const& e)
    {
        std::fprintf(stderr, "agentio-portfolio: %s\n\n%s", e.message.c_str(), usage);
        return 2;
    }
    catch(std::exception const& e)
    {
        std::fprintf(stderr, "agentio-portfolio: error: %s\n", e.what());
        return 1;
    }
}
