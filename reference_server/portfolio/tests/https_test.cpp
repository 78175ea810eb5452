// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// `agentio-portfolio serve --tls-cert --tls-key` end to end: the real program
// on an ephemeral port with a certificate from a CA made for the test, called
// with agentio's HTTP client trusting that CA alone. The REST API and the chat
// stream (the agent against the fake LLM, its tools calling the API over
// https) answer; a client that does not trust the CA, or speaks plain HTTP,
// gets nothing, and the server lives on.

#include "chat_fixture.hpp"
#include "portfolio_fixture.hpp"
#include "test_http.hpp"
#include "test_tls.hpp"

#include <agentio/http/client.hpp>
#include <agentio/sse/parser.hpp>
#include <agentio/testing/fake_llm.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <regex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>
#include "test_paths.hpp"

extern char** environ;

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace json = boost::json;
namespace fs = std::filesystem;
using portfolio_test::fake_provider;
using portfolio_test::shared_server;

namespace {

std::string read_text(fs::path const& p)
{
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Runs the program with `args` in `dir` (so no .env is read), stdout and
// stderr to files there, with the environment the test chooses: the user's
// agent and server settings are left out.
class program
{
public:
    program(std::vector<std::string> args, std::vector<std::string> env, fs::path dir) : dir_(std::move(dir))
    {
        for(char** e = environ; *e; ++e)
        {
            std::string_view const v(*e);
            if(!v.starts_with("AGENT_") && !v.starts_with("ANTHROPIC_") && !v.starts_with("OPENAI_") &&
                !v.starts_with("PORTFOLIO_") && !v.starts_with("CHART_") && !v.starts_with("API_"))
                env.emplace_back(v);
        }
        args.insert(args.begin(), AGENTIO_PORTFOLIO_EXE);
        std::vector<char*> argv, envp;
        for(auto& a : args)
            argv.push_back(a.data());
        argv.push_back(nullptr);
        for(auto& e : env)
            envp.push_back(e.data());
        envp.push_back(nullptr);
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_addchdir_np(&actions, dir_.c_str());
        posix_spawn_file_actions_addopen(&actions, 1, (dir_ / "out.txt").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        posix_spawn_file_actions_addopen(&actions, 2, (dir_ / "err.txt").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int const rc = posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), envp.data());
        posix_spawn_file_actions_destroy(&actions);
        if(rc != 0)
            throw std::runtime_error(std::string("posix_spawn: ") + std::strerror(rc));
    }

    ~program()
    {
        if(pid_ > 0)
        {
            ::kill(pid_, SIGTERM);
            wait();
        }
    }

    /// Waits for the program to end; its exit status (-1 when it did not exit normally).
    int wait()
    {
        int status = 0;
        ::waitpid(pid_, &status, 0);
        pid_ = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }

    /// Whether it is still running.
    bool running()
    {
        int status = 0;
        if(pid_ > 0 && ::waitpid(pid_, &status, WNOHANG) == pid_)
            pid_ = -1;
        return pid_ > 0;
    }

    /// Waits until stdout matches `pattern` (20 s at most); the first group.
    std::string wait_for(std::regex const& pattern)
    {
        for(int i = 0; i < 200; ++i)
        {
            std::smatch m;
            auto const out = read_text(dir_ / "out.txt");
            if(std::regex_search(out, m, pattern))
                return m[1];
            if(!running())
                break;
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        throw std::runtime_error("agentio-portfolio did not start: " + read_text(dir_ / "out.txt") +
            read_text(dir_ / "err.txt"));
    }

    std::string errors() const { return read_text(dir_ / "err.txt"); }

private:
    fs::path dir_;
    pid_t pid_ = -1;
};

// The test CA, the server's certificate and key in files, and the program
// serving HTTPS with the agent pointed at the fake LLM: started once.
struct https_server
{
    fs::path dir;
    test_tls::pki pki;
    fake_provider fake;
    std::unique_ptr<program> serve;
    std::string url; // https://127.0.0.1:<port>
    asio::ip::tcp::endpoint endpoint;

    static https_server& get()
    {
        static https_server instance;
        return instance;
    }

private:
    https_server() : dir(shared_server::get().dir / "https"), pki(test_tls::make_pki())
    {
        fs::create_directories(dir);
        test_tls::write_file(dir / "ca.pem", pki.ca_cert);
        test_tls::write_file(dir / "cert.pem", pki.server_cert);
        test_tls::write_file(dir / "key.pem", pki.server_key);
        serve = std::make_unique<program>(
            std::vector<std::string>{"serve", "--db", shared_server::get().db_path.string(), "--port", "0", "--threads",
                "2", "--tls-cert", (dir / "cert.pem").string(), "--tls-key", (dir / "key.pem").string()},
            std::vector<std::string>{"AGENT_PROVIDER=anthropic", "ANTHROPIC_API_KEY=clave-de-prueba",
                "ANTHROPIC_BASE_URL=" + fake.fake.anthropic_base_url(), "AGENT_MODEL=portfolio-two-rounds",
                "CHART_OUTPUT_DIR=" + (dir / "charts").string()},
            dir);
        url = "https://127.0.0.1:" + serve->wait_for(std::regex("escuchando en https://127\\.0\\.0\\.1:([0-9]+)"));
        endpoint = {asio::ip::make_address("127.0.0.1"),
            static_cast<unsigned short>(std::stoi(url.substr(url.rfind(':') + 1)))};
    }
};

struct result
{
    agentio::http::client_error error;
    agentio::http::client_response response;
};

// One request with agentio's client, verifying with `tls`.
result call(beast::http::verb method, std::string url, std::string body, std::shared_ptr<asio::ssl::context> tls)
{
    asio::io_context ioc;
    agentio::http::client_options opt;
    opt.tls = std::move(tls);
    opt.connect_timeout = std::chrono::seconds(5);
    opt.total_timeout = std::chrono::seconds(60);
    agentio::http::client c(ioc.get_executor(), opt);
    result out;
    asio::co_spawn(
        ioc,
        [&]() -> asio::awaitable<void> {
            agentio::http::client_request req;
            req.method = method;
            req.url = std::move(url);
            if(!body.empty())
            {
                req.headers.set(beast::http::field::content_type, "application/json");
                req.body = std::move(body);
            }
            auto [e, r] = co_await c.async_request(std::move(req), asio::use_awaitable);
            out = {std::move(e), std::move(r)};
        },
        asio::detached);
    ioc.run();
    return out;
}

std::shared_ptr<asio::ssl::context> trusting_the_ca()
{
    return test_tls::client_context(https_server::get().pki.ca_cert);
}

} // namespace

BOOST_AUTO_TEST_SUITE(https_serve)

BOOST_AUTO_TEST_CASE(the_rest_api_answers_over_https)
{
    auto& s = https_server::get();
    auto const r = call(beast::http::verb::get, s.url + "/api/v1/health", {}, trusting_the_ca());
    BOOST_TEST_REQUIRE(!r.error, r.error.message);
    BOOST_TEST(r.response.status == 200u);
    BOOST_TEST(json::parse(r.response.body).at("status") == "ok");
}

BOOST_AUTO_TEST_CASE(the_chat_streams_over_https_and_its_tools_call_the_api_over_https)
{
    auto& s = https_server::get();
    auto const question = json::serialize(json::object{{"messages",
        json::array{json::object{{"role", "user"}, {"content", "¿Cuántas iniciativas hay en ejecución?"}}}}});
    auto const r = call(beast::http::verb::post, s.url + "/api/v1/agent/chat", question, trusting_the_ca());
    BOOST_TEST_REQUIRE(!r.error, r.error.message);
    BOOST_TEST(r.response.status == 200u);
    BOOST_TEST(r.response.header("content-type") == "text/event-stream");
    std::vector<agentio::sse::event> events;
    agentio::sse::parser p;
    p.feed(r.response.body, [&](agentio::sse::event const& e) { events.push_back(e); });
    BOOST_TEST((p.finish() == agentio::sse::end_state::clean));
    BOOST_TEST_REQUIRE(!events.empty());
    std::size_t tool_calls = 0;
    for(auto const& e : events)
        tool_calls += e.type == "tool_call";
    BOOST_TEST(tool_calls == 1u);
    BOOST_TEST(events.back().type == "done");
    BOOST_TEST(events.back().data.starts_with(R"({"status": "completed", "thread_id": ")"), r.response.body);
    // The tool's result came from the API, over https: the answer echoes its counts.
    auto db = shared_server::get().direct();
    auto const total = portfolio_test::sql_count(db, "SELECT count(*) FROM datos_relevantes");
    BOOST_TEST(r.response.body.find("total_iniciativas") != std::string::npos);
    BOOST_TEST(r.response.body.find(std::to_string(total)) != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_client_that_does_not_trust_the_ca_fails_verification)
{
    auto& s = https_server::get();
    auto const r = call(beast::http::verb::get, s.url + "/api/v1/health", {}, test_tls::client_context({}));
    BOOST_TEST((r.error.code == agentio::http::client_errc::tls_verify_failed), r.error.message);
}

BOOST_AUTO_TEST_CASE(plain_http_to_the_tls_port_gets_no_answer_and_the_server_lives_on)
{
    auto& s = https_server::get();
    auto const raw = test_http::raw(s.endpoint, "GET /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n");
    BOOST_TEST(raw.find("HTTP/1.1") == std::string::npos, raw);
    BOOST_TEST(s.serve->running());
    auto const r = call(beast::http::verb::get, s.url + "/api/v1/health", {}, trusting_the_ca());
    BOOST_TEST(!r.error, r.error.message);
    BOOST_TEST(r.response.status == 200u);
}

BOOST_AUTO_TEST_CASE(tls_options_come_in_pairs_and_their_files_must_load)
{
    auto const dir = shared_server::get().dir / "https-errors";
    fs::create_directories(dir);
    auto const db = shared_server::get().db_path.string();
    {
        program p({"serve", "--db", db, "--port", "0", "--tls-cert", "cert.pem"}, {}, dir);
        BOOST_TEST(p.wait() != 0);
        BOOST_TEST(p.errors().find("--tls-key") != std::string::npos, p.errors());
    }
    {
        program p({"serve", "--db", db, "--port", "0", "--tls-cert", "no-such.pem", "--tls-key", "no-such.pem"}, {},
            dir);
        BOOST_TEST(p.wait() != 0);
        BOOST_TEST(p.errors().find("--tls-cert no-such.pem") != std::string::npos, p.errors());
    }
    {
        test_tls::write_file(dir / "cert.pem", https_server::get().pki.server_cert);
        test_tls::write_file(dir / "other-key.pem", test_tls::make_pki().server_key); // another certificate's key
        program p({"serve", "--db", db, "--port", "0", "--tls-cert", "cert.pem", "--tls-key", "other-key.pem"}, {},
            dir);
        BOOST_TEST(p.wait() != 0);
        BOOST_TEST(p.errors().find("--tls-key other-key.pem") != std::string::npos, p.errors());
    }
}

BOOST_AUTO_TEST_SUITE_END()
