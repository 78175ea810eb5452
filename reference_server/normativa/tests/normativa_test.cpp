// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The labour-law agent on the real BOE text of the Estatuto de los
// Trabajadores: the corpus as parsed (articles, paragraphs, headings carried
// from file to file, disposiciones, references), ingest (idempotent, bad
// files named and skipped), retrieval quality on the labelled questions, and
// the HTTP API on a real socket with the wire-exact fake LLM as the model.
#define BOOST_TEST_MODULE agentio normativa tests
#include "summaries.hpp"
#include "model_outputs.hpp"
#include "agent.hpp"
#include "openai_api.hpp"
#include "app.hpp"
#include "corpus.hpp"
#include "http_api.hpp"
#include "ingest.hpp"
#include "quality.hpp"

#include <agentio/http/client.hpp>
#include <agentio/http/metrics.hpp>
#include <agentio/http/request_log.hpp>
#include <agentio/http/server.hpp>
#include <agentio/json_text.hpp>
#include <agentio/llm/anthropic.hpp>
#include <agentio/threads/sqlite_store.hpp>
#include <agentio/sse/parser.hpp>
#include <agentio/testing/fake_llm.hpp>

#include "../../../tests/store/postgres_fixture.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_future.hpp>
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include "test_paths.hpp"

namespace asio = boost::asio;
namespace json = boost::json;
namespace fs = std::filesystem;
namespace llm = agentio::llm;
namespace testing = agentio::testing;
namespace retrieval = agentio::retrieval;
namespace bhttp = boost::beast::http;

namespace {

// The Estatuto's text, put in the build folder by scripts/data.sh, the CTest
// fixture data.fetch.
fs::path estatuto_dir()
{
    return fs::path(AGENTIO_TEST_DATA) / "normativa" / "estatuto-trabajadores";
}

std::string read_file(fs::path const& p)
{
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

struct temp_dir
{
    fs::path path = fs::temp_directory_path() /
        ("agentio_normativa_" + std::to_string(::getpid()) + "_" + std::to_string(counter()++));
    temp_dir() { fs::create_directories(path); }
    ~temp_dir() { fs::remove_all(path); }
    static int& counter()
    {
        static int n = 0;
        return n;
    }
};

// The Estatuto ingested into `index`; the outcome.
normativa::ingest_outcome ingest_estatuto(fs::path const& index, std::ostream& log)
{
    BOOST_TEST_REQUIRE(fs::exists(estatuto_dir()),
        estatuto_dir().string() + " is missing (ctest runs data.fetch first: bash scripts/data.sh all " +
            AGENTIO_TEST_DATA + ")");
    normativa::ingest_options o{index, normativa::estatuto, "normativa", {estatuto_dir()}, false};
    auto done = normativa::ingest(o, normativa::settings{}, log);
    if(!done)
        BOOST_FAIL(done.error());
    return *done;
}

template<class T>
T run_on(asio::io_context& ioc, asio::awaitable<T> work)
{
    auto f = asio::co_spawn(ioc, std::move(work), asio::use_future);
    return f.get();
}

} // namespace

// ---------------------------------------------------------------------------

BOOST_AUTO_TEST_SUITE(normativa_corpus)

BOOST_AUTO_TEST_CASE(headings_carry_from_the_file_before)
{
    normativa::structure_state state;
    auto const thirteen = normativa::parse_law_text(read_file(estatuto_dir() / "articulo_13.txt"), state);
    BOOST_TEST_REQUIRE(thirteen.articles.size() == 1u);
    BOOST_TEST(thirteen.articles[0].number == "13");
    // The headings at the end of article 13's file open article 14, not 13's text.
    BOOST_TEST(thirteen.articles[0].body.find("CAPÍTULO II") == std::string::npos);
    auto const fourteen = normativa::parse_law_text(read_file(estatuto_dir() / "articulo_14.txt"), state);
    BOOST_TEST_REQUIRE(!fourteen.articles.empty());
    BOOST_TEST(fourteen.articles[0].chapter == "CAPÍTULO II. Contenido del contrato de trabajo");
    BOOST_TEST(fourteen.articles[0].section == "Sección 1.ª Duración del contrato");
    BOOST_TEST(fourteen.articles[0].heading == "Artículo 14. Periodo de prueba.");
    BOOST_TEST(*fourteen.first_number == 14);
}

BOOST_AUTO_TEST_CASE(disposiciones_and_bis_articles_are_their_own)
{
    normativa::structure_state state;
    auto const last = normativa::parse_law_text(read_file(estatuto_dir() / "articulo_92.txt"), state);
    std::vector<std::string> numbers;
    for(auto const& a : last.articles)
        numbers.push_back(a.number);
    BOOST_TEST(numbers.front() == "92");
    BOOST_TEST(std::count(numbers.begin(), numbers.end(), "disposición adicional décima") == 1);
    BOOST_TEST(std::count(numbers.begin(), numbers.end(), "disposición transitoria undécima") == 1);
    BOOST_TEST(numbers.size() > 30u);
    auto const twenty = normativa::parse_law_text(read_file(estatuto_dir() / "articulo_20.txt"), state);
    BOOST_TEST_REQUIRE(twenty.articles.size() == 2u);
    BOOST_TEST(twenty.articles[1].number == "20 bis");
}

BOOST_AUTO_TEST_CASE(references_of_this_law_only)
{
    using v = std::vector<std::string>;
    BOOST_TEST(normativa::find_references("según el artículo 48.4 y el artículo 15", "14") == (v{"48.4", "15"}),
        boost::test_tools::per_element());
    BOOST_TEST(normativa::find_references("los artículos 50, 51 y 52.c)", "1") == (v{"50", "51", "52"}),
        boost::test_tools::per_element());
    BOOST_TEST(normativa::find_references("los artículos 34.3 y 4", "1") == (v{"34.3", "34.4"}),
        boost::test_tools::per_element());
    BOOST_TEST(normativa::find_references("el artículo 139 de la Ley 36/2011, de 10 de octubre", "37").empty());
    BOOST_TEST(normativa::find_references("el artículo 50 de esta ley", "1") == (v{"50"}),
        boost::test_tools::per_element());
    BOOST_TEST(normativa::find_references("lo previsto en el artículo 14 de este", "14").empty()); // itself
}

BOOST_AUTO_TEST_CASE(laws_by_name_and_alias)
{
    std::vector<std::string> const known{"Estatuto de los Trabajadores"};
    for(auto name : {"Estatuto de los Trabajadores", "estatuto de los trabajadores", "ET", "E.T.", "RDL 2/2015",
            "Real Decreto Legislativo 2/2015", "Estatuto de los Trabajadores (ET)"})
        BOOST_TEST(normativa::resolve_law(name, known).value_or("") == known[0], name);
    BOOST_TEST(!normativa::resolve_law("LGSS", known));
    BOOST_TEST(!normativa::resolve_law("", known));
}

BOOST_AUTO_TEST_CASE(utf8_is_checked)
{
    BOOST_TEST(normativa::is_utf8("Artículo 1. Ámbito"));
    BOOST_TEST(!normativa::is_utf8("Art\xed"
                                   "culo 1"));       // Latin-1
    BOOST_TEST(!normativa::is_utf8("\xc0\x80"));     // overlong
    BOOST_TEST(!normativa::is_utf8("\xed\xa0\x80")); // a surrogate
}

BOOST_AUTO_TEST_SUITE_END()

// ---------------------------------------------------------------------------

BOOST_AUTO_TEST_SUITE(normativa_ingest)

BOOST_AUTO_TEST_CASE(every_article_once_and_idempotent)
{
    temp_dir dir;
    std::ostringstream log;
    auto const first = ingest_estatuto(dir.path / "index.db", log);
    BOOST_TEST(first.files == 92u);
    BOOST_TEST(first.skipped == 1u); // intro.txt: the preamble, headings only
    BOOST_TEST(log.str().find("intro.txt: sin encabezado «Artículo N.»") != std::string::npos);
    BOOST_TEST(first.report.added == first.chunks);
    BOOST_TEST(first.chunks > 400u);
    BOOST_TEST(first.refitted);

    auto opened = retrieval::sqlite_index_writer::open(dir.path / "index.db", normativa::spanish_analyzer());
    BOOST_TEST_REQUIRE(opened.has_value());
    auto& writer = *opened;
    // The index says how its text was analysed, for any program that searches it.
    auto const profile = writer.load_model(retrieval::analysis_model_name).value();
    BOOST_TEST_REQUIRE(profile.has_value());
    BOOST_TEST((retrieval::analysis_profile::from_json_text(*profile).value() == normativa::spanish_profile()));
    auto const chunks = writer.all_chunks().value();
    std::set<std::string> articles;
    for(auto const& c : chunks)
        articles.insert(c.article_number);
    for(int n = 1; n <= 92; ++n)
        BOOST_TEST(articles.contains(std::to_string(n)), n);
    BOOST_TEST(articles.contains("20 bis"));
    BOOST_TEST(articles.contains("disposición final segunda"));
    auto const one = std::find_if(chunks.begin(), chunks.end(), [](auto const& c) { return c.article_number == "1"; });
    BOOST_TEST(one->chapter == "CAPÍTULO I. Disposiciones generales"); // from intro.txt's last lines

    std::ostringstream again_log;
    auto const again = ingest_estatuto(dir.path / "index.db", again_log);
    BOOST_TEST(again.report.unchanged == first.chunks);
    BOOST_TEST(again.report.added + again.report.changed + again.report.removed == 0u);
    BOOST_TEST(!again.refitted);
    auto const same = writer.all_chunks().value();
    BOOST_TEST_REQUIRE(same.size() == chunks.size());
    for(std::size_t i = 0; i < same.size(); ++i)
        BOOST_TEST(same[i].key == chunks[i].key);
}

BOOST_AUTO_TEST_CASE(bad_files_are_named_and_skipped)
{
    temp_dir dir;
    auto const corpus = dir.path / "corpus";
    fs::create_directories(corpus);
    fs::copy_file(estatuto_dir() / "articulo_38.txt", corpus / "articulo_38.txt");
    std::ofstream(corpus / "latin1.txt") << "Art\xed"
                                            "culo 99. Vacaciones en Latin-1.\n1. Texto.";
    std::ofstream(corpus / "notas.md") << "# Notas\nSin encabezado de artículo.";
    std::ostringstream log;
    normativa::ingest_options o{dir.path / "index.db", "Ley de prueba", "normativa", {corpus, dir.path / "nada.txt"},
        false};
    auto const done = normativa::ingest(o, normativa::settings{}, log);
    BOOST_TEST_REQUIRE(done.has_value());
    BOOST_TEST(done->files == 1u);
    BOOST_TEST(done->skipped == 2u);
    BOOST_TEST(log.str().find("latin1.txt: no es UTF-8; se omite") != std::string::npos, log.str());
    BOOST_TEST(log.str().find("notas.md: sin encabezado «Artículo N.»") != std::string::npos, log.str());
    BOOST_TEST(log.str().find("nada.txt: no existe") != std::string::npos, log.str());

    // Nothing readable at all: an error, and the index untouched.
    normativa::ingest_options none{dir.path / "other.db", "Ley", "normativa", {corpus / "notas.md"}, false};
    auto const failed = normativa::ingest(none, normativa::settings{}, log);
    BOOST_TEST_REQUIRE(failed.has_error());
    BOOST_TEST(failed.error().find("nada que ingerir") != std::string::npos);
    BOOST_TEST(!fs::exists(dir.path / "other.db"));
}

BOOST_AUTO_TEST_CASE(vectors_from_an_embeddings_service)
{
    // RAG_EMBEDDER=openai: ingest asks the fake LLM's /v1/embeddings (a 429
    // first, retried as the SDKs do), the server embeds queries the same way.
    temp_dir dir;
    asio::io_context fake_ioc;
    testing::fake_llm fake(fake_ioc.get_executor());
    testing::scenario sc;
    sc.name = "embeddings-test";
    testing::scripted_embeddings e;
    e.dimensions = 64;
    testing::fault limited;
    limited.kind = testing::fault_kind::http_error;
    limited.status = 429;
    limited.retry_after_ms = "10";
    limited.times = 1;
    e.faults.push_back(limited);
    sc.embeddings = e;
    fake.add_scenario(sc);
    fake.start().value();
    std::thread fake_thread([&] { fake_ioc.run(); });

    normativa::settings s;
    s.embedder = normativa::embedder_kind::openai;
    s.embedding_base_url = fake.openai_base_url();
    s.embedding_api_key = "test";
    s.embedding_model = "embeddings-test";
    std::ostringstream log;
    normativa::ingest_options o{dir.path / "index.db", normativa::estatuto, "normativa", {estatuto_dir()}, false};
    auto const done = normativa::ingest(o, s, log);
    BOOST_TEST_REQUIRE(done.has_value(), log.str());
    auto embedding_requests = fake.requests();
    BOOST_TEST(embedding_requests.size() >= 2u); // the 429, then the batches
    BOOST_TEST(embedding_requests.front().target == "/v1/embeddings");

    asio::io_context ioc;
    auto work = asio::make_work_guard(ioc);
    std::thread runner([&] { ioc.run(); });
    agentio::http::client http(ioc.get_executor());
    auto loaded = run_on(ioc, normativa::open_index((dir.path / "index.db").string(), s, http));
    BOOST_TEST(loaded->status.embedder == "openai:embeddings-test");
    BOOST_TEST_REQUIRE(loaded->searcher);
    BOOST_TEST(loaded->searcher->has_dense());
    retrieval::search_request dense{.text = "vacaciones anuales retribuidas",
        .top_k = 5,
        .mode = retrieval::search_mode::dense};
    auto const found = run_on(ioc, loaded->searcher->search(dense)).value();
    BOOST_TEST(!found.dense_failure);
    BOOST_TEST_REQUIRE(!found.hits.empty());
    BOOST_TEST(found.hits[0].dense_rank == 1u);
    // Re-ingesting asks for nothing: every chunk has its vector.
    auto const before = fake.requests().size();
    BOOST_TEST_REQUIRE(normativa::ingest(o, s, log).has_value());
    BOOST_TEST(fake.requests().size() == before);
    work.reset();
    runner.join();
    fake.stop();
    fake_ioc.stop();
    fake_thread.join();
}

BOOST_AUTO_TEST_SUITE_END()

// ---------------------------------------------------------------------------

BOOST_AUTO_TEST_SUITE(normativa_quality)

BOOST_AUTO_TEST_CASE(recall_and_mrr_on_the_question_set)
{
    temp_dir dir;
    std::ostringstream log;
    ingest_estatuto(dir.path / "index.db", log);
    auto const loaded_questions = normativa::load_questions(NORMATIVA_QUESTIONS);
    if(!loaded_questions)
        BOOST_FAIL(loaded_questions.error());
    auto const& questions = *loaded_questions;
    BOOST_TEST(questions.size() >= 30u);
    asio::io_context ioc;
    auto work = asio::make_work_guard(ioc);
    std::thread runner([&] { ioc.run(); });
    agentio::http::client http(ioc.get_executor());
    auto loaded = run_on(ioc, normativa::open_index((dir.path / "index.db").string(), normativa::settings{}, http));
    BOOST_TEST_REQUIRE(loaded->searcher);
    BOOST_TEST(!loaded->status.embedder.empty()); // the latent-semantic vectors are there
    auto const rows = run_on(ioc, normativa::measure_quality(*loaded->searcher, questions)).value();
    BOOST_TEST_MESSAGE("\n" << normativa::quality_table(rows));
    // Floors a little under what was measured when the set was written
    // (docs/apps/normativa.md): a regression in the analyzer, the index or the
    // fusion shows here. Which method wins is reported, not asserted.
    for(auto const& r : rows)
        BOOST_TEST_CONTEXT(r.method << " " << r.form)
        {
            BOOST_TEST(r.recall_at_5 >= (r.form == "question" ? 0.50 : 0.85));
            BOOST_TEST(r.mrr >= (r.form == "question" ? 0.40 : 0.75));
        }
    work.reset();
    runner.join();
}

BOOST_AUTO_TEST_SUITE_END()

// ---------------------------------------------------------------------------

namespace {

testing::scripted_response says(std::string when_user, std::string text, std::string when_result = {})
{
    testing::scripted_response r;
    r.when_user_message_contains = std::move(when_user);
    r.when_last_tool_result_contains = std::move(when_result);
    r.text = std::move(text);
    return r;
}

testing::scripted_response calls(std::string when_user, std::string tool, json::value input,
    std::string when_result = {})
{
    testing::scripted_response r;
    r.when_user_message_contains = std::move(when_user);
    r.when_last_tool_result_contains = std::move(when_result);
    r.tool_calls.push_back({std::move(tool), std::move(input), {}, {}});
    return r;
}

struct sse_reply
{
    unsigned status = 0;
    std::vector<std::string> types;
    std::vector<json::value> data;
    std::string body;

    json::value const& last(std::string_view type) const
    {
        for(std::size_t i = types.size(); i-- > 0;)
            if(types[i] == type)
                return data[i];
        BOOST_FAIL("no event " << type);
        return data.front();
    }
    std::string text() const
    {
        std::string out;
        for(std::size_t i = 0; i < types.size(); ++i)
            if(types[i] == "token")
                out += data[i].at("text").as_string();
        return out;
    }
};

// The server with the real index, the fake LLM, a SQLite thread store and two keys; each request counted for
// GET /metrics and, with log settings, logged as the program logs it.
struct server_fixture
{
    temp_dir dir;
    std::optional<agentio::log::logger> app_log;
    agentio::metrics::registry registry;
    agentio::http::request_metrics requests{registry};
    asio::io_context ioc;
    testing::fake_llm fake{ioc.get_executor()};
    agentio::http::client http{ioc.get_executor()};
    std::optional<llm::any_provider> provider;
    std::unique_ptr<agentio::sqlite::thread_store> store;
    std::unique_ptr<normativa::loaded_index> loaded;
    std::optional<normativa::rag_service> service;
    agentio::http::api_keys keys{std::vector<std::string>{"clave-a", "clave-b"}};
    agentio::chat_completions::endpoint openai;
    std::optional<agentio::http::server<agentio::http::router<>>> server;
    std::string base;
    std::optional<asio::executor_work_guard<asio::io_context::executor_type>> work;
    std::thread runner;

    explicit server_fixture(bool with_index = true, std::optional<agentio::log::settings> log_settings = {},
        std::vector<std::string> approval_tools = {})
    {
        if(log_settings)
            app_log.emplace(std::move(*log_settings));
        if(with_index)
        {
            std::ostringstream log;
            ingest_estatuto(dir.path / "index.db", log);
        }
        work.emplace(ioc.get_executor());
        runner = std::thread([this] { ioc.run(); });
        normativa::settings s;
        s.model.anthropic_api_key = "test";
        s.model.model = "normativa-test";
        s.max_message_chars = 4000;
        s.approval_tools = std::move(approval_tools);
        loaded = run_on(ioc, normativa::open_index((dir.path / "index.db").string(), s, http));
        fake.start().value();
        llm::provider_options p;
        p.api_key = "test";
        p.base_url = fake.anthropic_base_url();
        provider.emplace(llm::anthropic_provider(http, std::move(p)));
        store = agentio::sqlite::thread_store::open(dir.path / "threads.db").value();
        service.emplace(s, &*provider, *store, loaded->tools, app_log ? &*app_log : nullptr);
        openai.add(normativa::make_openai_model(*service));
        agentio::http::router_options observed;
        observed.observe = agentio::http::observe_requests(app_log ? &*app_log : nullptr, &requests);
        auto routes = normativa::make_routes(*service, keys, loaded->status, nullptr, std::move(observed));
        openai.add_routes(routes);
        agentio::http::add_metrics_route(routes, registry);
        server.emplace(ioc.get_executor(), std::move(routes));
        auto const ep = server->listen({asio::ip::make_address("127.0.0.1"), 0}).value();
        server->start();
        base = "http://127.0.0.1:" + std::to_string(ep.port());
    }

    ~server_fixture()
    {
        server->stop();
        fake.stop();
        work.reset();
        ioc.stop();
        runner.join();
    }

    std::int64_t chunk_id(std::string const& article, std::string const& paragraph)
    {
        auto rows = run_on(ioc, loaded->index->article(normativa::estatuto, article, paragraph)).value();
        BOOST_TEST_REQUIRE(!rows.empty());
        return rows.front().id;
    }

    agentio::http::client_response request(bhttp::verb method, std::string const& path, std::string body,
        std::string const& key = "clave-a")
    {
        agentio::http::client_request req;
        req.method = method;
        req.url = base + path;
        req.body = std::move(body);
        req.headers.set(bhttp::field::content_type, "application/json");
        if(!key.empty())
            req.headers.set("x-api-key", key);
        auto [err, res] = run_on(ioc, http.async_request(std::move(req), asio::as_tuple(asio::use_awaitable)));
        BOOST_REQUIRE(!err);
        return res;
    }

    sse_reply ask(json::object const& body, std::string const& key = "clave-a", std::string path = "/api/rag-agent")
    {
        auto res = request(bhttp::verb::post, path, agentio::to_json_text(body), key);
        sse_reply out;
        out.status = res.status;
        out.body = res.body;
        agentio::sse::parser parser;
        parser.feed(res.body, [&](agentio::sse::event const& e) {
            out.types.push_back(e.type);
            out.data.push_back(json::parse(e.data));
        });
        return out;
    }
};

std::string error_of(agentio::http::client_response const& res)
{
    return std::string(json::parse(res.body).at("error").as_string());
}

// A search for the holidays, then the answer citing article 38.
testing::scenario vacation_scenario()
{
    testing::scenario sc;
    sc.name = "normativa-test";
    sc.turns = {{calls("vacaciones", "search_normativa", json::object{{"query", "vacaciones anuales duración"}})},
        {says("", "Según el artículo 38 del Estatuto, al menos treinta días naturales.", "Artículo 38"),
            says("", "No lo encuentro.")}};
    return sc;
}

} // namespace

BOOST_AUTO_TEST_SUITE(normativa_agent)

BOOST_AUTO_TEST_CASE(search_answer_sources_and_a_thread_that_remembers)
{
    server_fixture f;
    f.fake.add_scenario(vacation_scenario());

    auto const first = f.ask({{"message", "¿Cuántos días de vacaciones me tocan?"}});
    BOOST_TEST(first.status == 200u);
    BOOST_TEST_REQUIRE(first.types.size() >= 3u, first.body);
    BOOST_TEST(first.types.front() == "tool_status");
    BOOST_TEST(first.data.front().at("tool") == "search_normativa");
    BOOST_TEST(first.data.front().at("args").at("query") == "vacaciones anuales duración");
    BOOST_TEST(first.types.back() == "done");
    BOOST_TEST(first.text() == "Según el artículo 38 del Estatuto, al menos treinta días naturales.");
    auto const& done = first.last("done");
    auto const thread_id = std::string(done.at("threadId").as_string());
    BOOST_TEST(!thread_id.empty());
    bool cites_38 = false;
    for(auto const& s : done.at("sources").as_array())
    {
        BOOST_TEST(s.at("law") == "Estatuto de los Trabajadores");
        BOOST_TEST(s.at("collection") == "normativa");
        BOOST_TEST(s.as_object().contains("chapter"));
        cites_38 = cites_38 || s.at("section") == "Art. 38";
    }
    BOOST_TEST(cites_38);
    // The tool result the model read: the seed's fields.
    auto const requests = f.fake.requests();
    BOOST_TEST_REQUIRE(requests.size() == 2u);
    auto const& result = requests[1].body.at("messages").as_array().back().at("content").as_array()[0];
    auto const hits = json::parse(result.at("content").as_array()[0].at("text").as_string()).as_array();
    BOOST_TEST_REQUIRE(!hits.empty());
    for(auto key : {"id", "law", "section", "chapter", "resumen", "text", "score", "collection"})
        BOOST_TEST(hits[0].as_object().contains(key), key);
    BOOST_TEST(hits[0].at("score").to_number<double>() <= 1.0);
    auto const items = run_on(f.ioc, f.store->load_items(thread_id)).value();
    BOOST_TEST(items.size() == 4u); // question, call, result, answer

    // The follow-up sends only the new message; the model sees the whole thread.
    auto const second = f.ask({{"message", "¿Y las vacaciones si trabajo a tiempo parcial?"}, {"threadId", thread_id}});
    BOOST_TEST(second.types.back() == "done");
    BOOST_TEST(second.last("done").at("threadId") == json::value(thread_id));
    auto const later = f.fake.requests();
    BOOST_TEST_REQUIRE(later.size() == 4u);
    BOOST_TEST(later[2].body.at("messages").as_array().size() == 5u); // 4 stored + the new question

    // The thread as the page reloads it.
    auto const view = f.request(bhttp::verb::get, "/api/rag-agent/threads/" + thread_id, "");
    BOOST_TEST(view.status == 200u);
    auto const shown = json::parse(view.body).at("messages").as_array();
    BOOST_TEST_REQUIRE(shown.size() == 4u); // two questions, two answers
    BOOST_TEST(shown[1].at("role") == "assistant");
    BOOST_TEST(!shown[1].at("sources").as_array().empty());
    // Another key's thread does not exist for this one.
    BOOST_TEST(f.request(bhttp::verb::get, "/api/rag-agent/threads/" + thread_id, "", "clave-b").status == 404u);
    auto const foreign = f.ask({{"message", "vacaciones"}, {"threadId", thread_id}}, "clave-b");
    BOOST_TEST(foreign.status == 404u);
    BOOST_TEST(foreign.body.find("threadId: conversación no encontrada") != std::string::npos);
}

// What the program logs and serves to Prometheus: the log's settings read from AGENTIO_LOG_* as `serve` reads
// them, one JSON line per answer and per request in AGENTIO_LOG_FILE, and GET /metrics counting the requests by
// route pattern.
BOOST_AUTO_TEST_CASE(answers_and_requests_are_logged_and_counted)
{
    temp_dir logs;
    auto const file = logs.path / "normativa.log";
    ::setenv("AGENTIO_LOG_FILE", file.c_str(), 1);
    ::setenv("AGENTIO_LOG_FORMAT", "json", 1);
    ::setenv("AGENTIO_LOG_LEVEL", "info", 1);
    auto config = normativa::settings::from_environment();
    ::unsetenv("AGENTIO_LOG_FILE");
    ::unsetenv("AGENTIO_LOG_FORMAT");
    ::unsetenv("AGENTIO_LOG_LEVEL");
    BOOST_TEST_REQUIRE(config.has_value());
    BOOST_TEST(config->log.program == "agentio-normativa");
    server_fixture f(true, config->log);
    f.fake.add_scenario(vacation_scenario());

    auto const answer = f.ask({{"message", "¿Cuántos días de vacaciones me tocan?"}});
    BOOST_TEST_REQUIRE(answer.types.back() == "done", answer.body);
    auto const thread_id = std::string(answer.last("done").at("threadId").as_string());
    // Answered before it is written, unlike a stream: counted and logged by the time the client reads it.
    BOOST_TEST(f.request(bhttp::verb::get, "/api/rag-agent/threads/" + thread_id, "").status == 200u);

    auto const scraped = f.request(bhttp::verb::get, "/metrics", "");
    BOOST_TEST_REQUIRE(scraped.status == 200u);
    BOOST_TEST(scraped.header("Content-Type") == agentio::metrics::content_type);
    BOOST_TEST(scraped.body.find("agentio_http_requests_total{method=\"GET\",route=\"/api/rag-agent/threads/{id}\","
                                 "status=\"200\"} 1\n") != std::string::npos,
        scraped.body);
    BOOST_TEST(scraped.body.find(thread_id) == std::string::npos); // a route's pattern, never a thread's id
    BOOST_TEST(scraped.body.find("\nprocess_resident_memory_bytes ") != std::string::npos);

    f.app_log->flush();
    std::vector<json::object> lines;
    std::istringstream in(read_file(file));
    for(std::string line; std::getline(in, line);)
        lines.push_back(json::parse(line).as_object());
    auto find = [&](std::string_view event, std::string_view route = {}) -> json::object const* {
        for(auto const& l : lines)
            if(l.at("event").as_string() == event && (route.empty() || l.at("route").as_string() == route))
                return &l;
        return nullptr;
    };
    auto const* run = find("agent.run");
    BOOST_TEST_REQUIRE(run != nullptr);
    BOOST_TEST(run->at("program").as_string() == "agentio-normativa");
    BOOST_TEST(run->at("level").as_string() == "info");
    BOOST_TEST(run->at("thread").as_string() == thread_id);
    BOOST_TEST(run->at("model").as_string() == "normativa-test");
    BOOST_TEST(run->at("outcome").as_string() == "completed");
    BOOST_TEST(run->at("rounds").to_number<int>() == 2);
    BOOST_TEST(run->at("tool_calls").to_number<int>() == 1);
    BOOST_TEST(run->at("output_tokens").to_number<int>() > 0);
    BOOST_TEST(run->at("sources").to_number<int>() > 0);
    BOOST_TEST(run->at("error").as_string().empty());
    auto const* request = find("http.request", "/api/rag-agent/threads/{id}");
    BOOST_TEST_REQUIRE(request != nullptr);
    BOOST_TEST(request->at("method").as_string() == "GET");
    BOOST_TEST(request->at("status").to_number<int>() == 200);
    BOOST_TEST(!request->at("streamed").as_bool());
    BOOST_TEST(request->at("duration_ms").is_number());
    BOOST_TEST(find("http.request", "/metrics") == nullptr); // a scrape is a debug line
    // Neither the question nor the answer is in the log.
    BOOST_TEST(read_file(file).find("vacaciones") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_thread_longer_than_the_window_keeps_answering)
{
    // A model that reads at most 6 000 tokens (the fake refuses more, as the API does), a thread of 60 000.
    server_fixture f;
    testing::scenario sc;
    sc.name = "normativa-test";
    sc.context_window = 6000;
    auto const summary = agentio_test::summary_response("RESUMEN: preguntas sobre vacaciones.");
    sc.turns = {{summary, says("", "Treinta días naturales.")}};
    f.fake.add_scenario(sc);
    auto const first = f.ask({{"message", "¿Cuántos días de vacaciones me tocan?"}});
    BOOST_TEST_REQUIRE(first.types.back() == "done", first.body);
    auto const thread_id = std::string(first.last("done").at("threadId").as_string());
    std::vector<llm::message> earlier;
    for(int i = 0; i < 120; ++i)
        earlier.push_back(i % 2 == 0
                ? llm::message::user("Pregunta " + std::to_string(i) + " " + std::string(1000, 'p'))
                : llm::message::assistant("Respuesta " + std::string(1000, 'r')));
    run_on(f.ioc, f.store->append_messages(thread_id, earlier)).value();

    for(int turn = 0; turn < 3; ++turn)
    {
        auto const next = f.ask({{"message", "¿Y si trabajo a tiempo parcial?"}, {"threadId", thread_id}});
        BOOST_TEST_REQUIRE(next.types.back() == "done", next.body);
        BOOST_TEST(next.text() == "Treinta días naturales.");
    }
    // The model's window was unknown (AGENT_CONTEXT_WINDOW unset, a model the table does not know): the first
    // long request was refused, the provider's limit learned, the older turns summarized (AGENT_CONTEXT_POLICY's
    // default), and every later request fitted at once, the summary kept in the thread and sent again.
    auto const requests = f.fake.requests();
    std::size_t const summarizing = agentio_test::summary_requests(requests);
    BOOST_TEST(summarizing >= 1u);
    BOOST_TEST(requests.size() - summarizing == 1u + 2u + 1u + 1u);
    auto const kept = run_on(f.ioc, f.store->latest_summary(thread_id)).value();
    BOOST_TEST_REQUIRE(kept.has_value());
    BOOST_TEST(kept->text == "RESUMEN: preguntas sobre vacaciones.");
    BOOST_TEST(agentio::to_json_text(requests.back().body.at("system")).find("RESUMEN: preguntas") !=
        std::string::npos);
    auto const& last = requests.back().body.at("messages").as_array();
    BOOST_TEST(last.size() < 120u);
    BOOST_TEST(agentio::to_json_text(last.back()).find("tiempo parcial") != std::string::npos);
    auto const items = run_on(f.ioc, f.store->load_items(thread_id)).value();
    BOOST_TEST(items.size() == 2u + 120u + 3u * 2u);
}

BOOST_AUTO_TEST_CASE(the_agent_as_an_openai_model)
{
    server_fixture f;
    f.fake.add_scenario(vacation_scenario());
    auto const r = f.request(bhttp::verb::post, "/v1/chat/completions",
        R"({"model": "normativa", "messages": [{"role": "user", "content": "¿Cuántos días de vacaciones me tocan?"}]})");
    BOOST_TEST_REQUIRE(r.status == 200u, r.body);
    auto const message = json::parse(r.body).at("choices").at(0).at("message");
    BOOST_TEST(message.at("content") == "Según el artículo 38 del Estatuto, al menos treinta días naturales.");
    auto const reasoning = std::string(message.at("reasoning_content").as_string());
    BOOST_TEST(reasoning.find("→ search_normativa(") != std::string::npos, reasoning);
    BOOST_TEST(reasoning.find("fuentes: ") != std::string::npos, reasoning);
    BOOST_TEST(reasoning.find("Art. 38 (Estatuto de los Trabajadores)") != std::string::npos, reasoning);
    auto const models = json::parse(f.request(bhttp::verb::get, "/v1/models", "").body);
    BOOST_TEST(models.at("data").at(0).at("id") == "normativa");
}

namespace {

// A model's answer to `r`, its outputs in order.
std::vector<agentio::chat_completions::output> complete(asio::io_context& ioc, agentio::chat_completions::model& m,
    agentio::chat_completions::request r)
{
    agentio::chat_completions::call_context ctx;
    ctx.user = "clave-a";
    return run_on(ioc, agentio_test::model_outputs(m, std::move(r), ctx));
}

} // namespace

BOOST_AUTO_TEST_CASE(a_call_of_an_approval_tool_waits_for_a_person_over_the_agent_doors)
{
    namespace cc = agentio::chat_completions;
    server_fixture f(true, {}, {"get_article"});
    testing::scenario sc;
    sc.name = "normativa-test";
    sc.turns = {{calls("", "get_article", json::object{{"article_number", "38"}, {"law_name", "ET"}})},
        {says("", "Según el artículo 38 del Estatuto, treinta días naturales.", "Artículo 38"),
            says("", "No lo he leído.")}};
    f.fake.add_scenario(sc);
    auto model = normativa::make_openai_model(*f.service);
    cc::request asked;
    asked.model = "normativa";
    asked.messages.push_back(llm::message::user("Léeme el artículo 38 entero"));
    auto const first = complete(f.ioc, *model, asked);
    BOOST_TEST_REQUIRE(!first.empty());
    auto const* waiting = std::get_if<cc::awaiting_approval>(&first.back());
    BOOST_TEST_REQUIRE(waiting != nullptr);
    BOOST_TEST_REQUIRE(waiting->calls.size() == 1u);
    auto const call = waiting->calls[0];
    BOOST_TEST(call.name == "get_article");
    BOOST_TEST(call.question.find("¿Apruebas la llamada a «get_article»") == 0u, call.question);
    BOOST_TEST_REQUIRE(waiting->turn.size() == 1u);
    BOOST_TEST(f.fake.requests().size() == 1u); // the call waits: no second round
    // The OpenAI door cannot ask anyone: 409; the page's own API never waits.
    auto const door = f.request(bhttp::verb::post, "/v1/chat/completions",
        R"({"model": "normativa", "messages": [{"role": "user", "content": "Léeme el artículo 38 entero"}]})");
    BOOST_TEST(door.status == 409u, door.body);
    auto const page = f.ask({{"message", "Léeme el artículo 38 entero"}});
    BOOST_TEST(page.types.back() == "done", page.body);
    BOOST_TEST(page.text() == "Según el artículo 38 del Estatuto, treinta días naturales.");

    auto const resumed_with = [&](bool approved) {
        cc::request r = asked;
        llm::message turn{llm::role::assistant, {}};
        turn.content.push_back(llm::tool_use_block{call.id, call.name, json::parse(call.arguments), call.arguments});
        r.messages.push_back(std::move(turn));
        r.decisions.push_back({call.id, approved, approved ? "" : "no hace falta"});
        return complete(f.ioc, *model, std::move(r));
    };
    auto const text_of = [](std::vector<cc::output> const& outputs) {
        std::string text;
        for(auto const& o : outputs)
            if(auto const* d = std::get_if<cc::content_delta>(&o))
                text += d->text;
        return text;
    };
    auto const yes = resumed_with(true);
    BOOST_TEST(std::holds_alternative<cc::finished>(yes.back()));
    BOOST_TEST(text_of(yes) == "Según el artículo 38 del Estatuto, treinta días naturales.");
    bool ran = false;
    for(auto const& o : yes)
        if(auto const* a = std::get_if<cc::tool_activity>(&o); a && a->what == cc::tool_activity::phase::finished)
            ran = a->id == call.id && !a->is_error;
    BOOST_TEST(ran);
    auto const no = resumed_with(false);
    BOOST_TEST(std::holds_alternative<cc::finished>(no.back()));
    BOOST_TEST(text_of(no) == "No lo he leído."); // the refusal went back to the model as the call's result
}

BOOST_AUTO_TEST_CASE(article_then_its_references)
{
    server_fixture f;
    auto const paragraph = f.chunk_id("48", "1");
    testing::scenario sc;
    sc.name = "normativa-test";
    sc.turns = {{calls("", "get_article", json::object{{"article_number", "48.1"}, {"law_name", "ET"}})},
        {calls("", "get_related_chunks", json::object{{"chunk_id", std::to_string(paragraph)}}, "Artículo 48.")},
        {says("", "El artículo 48 remite al 45.", "Artículo 45."), says("", "Sin referencias.")}};
    f.fake.add_scenario(sc);
    auto const reply = f.ask({{"message", "¿Qué pasa al volver de una suspensión?"}});
    BOOST_TEST(reply.types.back() == "done", reply.body);
    BOOST_TEST(reply.text() == "El artículo 48 remite al 45.");
    std::vector<std::string> tools;
    for(std::size_t i = 0; i < reply.types.size(); ++i)
        if(reply.types[i] == "tool_status")
            tools.emplace_back(reply.data[i].at("tool").as_string());
    BOOST_TEST(tools == (std::vector<std::string>{"get_article", "get_related_chunks"}),
        boost::test_tools::per_element());
    std::set<std::string> sections;
    for(auto const& s : reply.last("done").at("sources").as_array())
        sections.insert(std::string(s.at("section").as_string()));
    BOOST_TEST(sections.contains("Art. 48"));
    BOOST_TEST(sections.contains("Art. 45"));
}

BOOST_AUTO_TEST_CASE(bad_tool_calls_come_back_to_the_model)
{
    server_fixture f;
    testing::scenario sc;
    sc.name = "normativa-test";
    sc.turns = {{calls("", "search_normativa", json::object{{"query", "despido improcedente"}, {"top_k", 99}})},
        {calls("", "get_article", json::object{{"article_number", "999"}, {"law_name", "Estatuto de los Trabajadores"}},
            "top_k")},
        {calls("", "search_sentencias", json::object{{"query", "despido"}}, "no existe en el Estatuto")},
        {says("", "Sin jurisprudencia.", "aún no tiene documentos")}};
    f.fake.add_scenario(sc);
    auto const reply = f.ask({{"message", "¿Cuánto me pagan si el despido es improcedente?"}});
    BOOST_TEST(reply.types.back() == "done", reply.body);
    BOOST_TEST(reply.text() == "Sin jurisprudencia.");
    auto const requests = f.fake.requests();
    BOOST_TEST_REQUIRE(requests.size() == 4u);
    auto const result_text = [&](std::size_t i) {
        auto const& r = requests[i].body.at("messages").as_array().back().at("content").as_array()[0];
        return std::string(r.at("content").as_array()[0].at("text").as_string());
    };
    BOOST_TEST(result_text(1).find("top_k") != std::string::npos);
    // An article that does not exist: said so, and a search of the law in its place (as specified).
    BOOST_TEST(result_text(2) ==
        "El artículo 999 no existe en el Estatuto de los Trabajadores (artículos 1 a 92 y disposiciones). "
        "Resultados de búsqueda en esa ley en su lugar:");
    auto const& second_block =
        requests[2].body.at("messages").as_array().back().at("content").as_array()[0].at("content").as_array();
    BOOST_TEST_REQUIRE(second_block.size() >= 2u);
    BOOST_TEST(std::string(second_block[1].at("text").as_string()).find("Estatuto") != std::string::npos);
    BOOST_TEST(result_text(3) == "[]");
}

BOOST_AUTO_TEST_CASE(six_tool_rounds_then_an_answer)
{
    server_fixture f;
    testing::scenario sc;
    sc.name = "normativa-test";
    auto keep_searching = calls("", "search_normativa", json::object{{"query", "jornada"}});
    keep_searching.text = "Sigo buscando. ";
    sc.turns = {{keep_searching}};
    f.fake.add_scenario(sc);
    auto const reply = f.ask({{"message", "Busca sin parar"}});
    BOOST_TEST(reply.types.back() == "done", reply.body);
    BOOST_TEST(std::count(reply.types.begin(), reply.types.end(), "tool_status") == 6);
    auto const requests = f.fake.requests();
    BOOST_TEST_REQUIRE(requests.size() == 7u); // 6 tool rounds, then the answer without tools
    BOOST_TEST(requests[6].body.at("tool_choice").at("type") == "none");
    BOOST_TEST(!requests[5].body.as_object().contains("tool_choice"));
}

BOOST_AUTO_TEST_CASE(requests_are_checked_before_any_event)
{
    server_fixture f;
    auto const post = [&](std::string body, std::string const& key = "clave-a") {
        return f.request(bhttp::verb::post, "/api/rag-agent", std::move(body), key);
    };
    auto const no_key = post(R"({"message":"hola"})", "");
    BOOST_TEST(no_key.status == 401u);
    BOOST_TEST(error_of(no_key) == "Falta una clave de API válida en la cabecera x-api-key");
    BOOST_TEST(post(R"({"message":"hola"})", "otra").status == 401u);
    struct bad
    {
        std::string body;
        unsigned status;
        std::string message;
    };
    for(auto const& b : {bad{"no es json", 400, "el cuerpo debe ser un objeto JSON"},
            bad{R"({})", 400, "message: campo obligatorio (la pregunta)"},
            bad{R"({"message":"   "})", 400, "message: campo obligatorio (la pregunta)"},
            bad{R"({"message":7})", 400, "message: campo obligatorio"},
            bad{R"({"message":")" + std::string(4001, 'a') + R"("})", 400,
                "message: demasiado largo (máximo 4000 caracteres)"},
            bad{R"({"message":"hola","threadId":5})", 400, "threadId: debe ser un texto"},
            bad{R"({"message":"hola","extra":1})", 400, "extra: campo desconocido"},
            bad{R"({"message":"hola","busyPolicy":"wait"})", 400,
                "busyPolicy: se esperaba 'reject', 'enqueue' o 'interrupt'"},
            bad{R"({"message":"hola","threadId":"no-existe"})", 404, "threadId: conversación no encontrada"}})
    {
        auto const res = post(b.body);
        BOOST_TEST_CONTEXT(b.body.substr(0, 60))
        {
            BOOST_TEST(res.status == b.status);
            BOOST_TEST(error_of(res).find(b.message) != std::string::npos, error_of(res));
        }
    }
    // 4000 characters of Spanish are more bytes than that, and still fine.
    std::string accents;
    for(int i = 0; i < 4000; ++i)
        accents += "á";
    BOOST_TEST(normativa::parse_agent_request(agentio::to_json_text(json::object{{"message", accents}}),
        f.service->config())
                   .has_value());

    // One run per thread at a time.
    auto const a = run_on(f.ioc, f.service->prepare({"hola", std::nullopt}, "o")).value();
    auto const again = run_on(f.ioc, f.service->prepare({"hola", a->turn.thread().id}, "o")); // a still holds it
    BOOST_TEST_REQUIRE(again.has_error());
    BOOST_TEST(again.error().status == 409u);
    BOOST_TEST(again.error().message.starts_with("Esta conversación ya tiene una respuesta en curso; envíe el "
                                                 "mensaje con busyPolicy 'enqueue'"));
    // With busyPolicy 'enqueue' the question waits for the answer in progress, then reads it.
    normativa::agent_request queued{"¿y?", a->turn.thread().id, agentio::threads::busy_policy::enqueue};
    auto waiting = asio::co_spawn(f.ioc, f.service->prepare(queued, "o"), asio::use_future);
    BOOST_TEST((waiting.wait_for(std::chrono::milliseconds(300)) == std::future_status::timeout));
    std::vector<agentio::llm::message> const answer{agentio::llm::message::assistant("respuesta")};
    BOOST_TEST(run_on(f.ioc, a->turn.finish(answer)).has_value());
    auto next = waiting.get();
    BOOST_TEST_REQUIRE(next.has_value());
    BOOST_TEST((*next)->turn.waited_behind() == 1u);
    BOOST_TEST_REQUIRE((*next)->turn.history().size() == 1u); // what the first turn wrote
    BOOST_TEST((*next)->turn.history()[0].message.text() == "respuesta");
    BOOST_TEST(run_on(f.ioc, (*next)->turn.finish({})).has_value());

    auto const health = f.request(bhttp::verb::get, "/health", "");
    BOOST_TEST(health.status == 200u);
    BOOST_TEST(json::parse(health.body).at("index").at("chunks").as_int64() > 400);
}

BOOST_AUTO_TEST_CASE(an_empty_index_says_how_to_ingest)
{
    server_fixture f(false);
    BOOST_TEST(!f.loaded->searcher);
    BOOST_TEST(f.loaded->warning.find("ingest") != std::string::npos);
    testing::scenario sc;
    sc.name = "normativa-test";
    sc.turns = {{calls("", "search_normativa", json::object{{"query", "vacaciones"}})},
        {says("", "El índice está vacío.", "El índice está vacío")}};
    f.fake.add_scenario(sc);
    auto const reply = f.ask({{"message", "¿Vacaciones?"}});
    BOOST_TEST(reply.types.back() == "done", reply.body);
    BOOST_TEST(reply.text() == "El índice está vacío.");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(normativa_pipeline)

BOOST_AUTO_TEST_CASE(keywords_search_answer_and_carried_chunks)
{
    server_fixture f;
    auto const carried = f.chunk_id("59", "1");
    testing::scenario sc;
    sc.name = "normativa-test";
    // The first call (expansion) gets the question alone; the second, the conversation.
    sc.turns = {{says("Responde solo con las palabras clave", "despido improcedente indemnización"),
        says("", "La indemnización es de treinta y tres días por año (artículo 56).")}};
    f.fake.add_scenario(sc);
    json::array messages{json::object{{"role", "user"}, {"content", "¿Y si me despiden?"}}};
    auto const reply = f.ask({{"messages", messages}, {"previousChunkIds", json::array{carried}}}, "clave-a",
        "/api/rag-pipeline");
    BOOST_TEST(reply.types.back() == "done", reply.body);
    BOOST_TEST(reply.text() == "La indemnización es de treinta y tres días por año (artículo 56).");
    auto const& done = reply.last("done");
    auto const ids = done.at("contextChunkIds").as_array();
    BOOST_TEST(ids.size() == 9u); // 8 found + 1 carried
    BOOST_TEST(std::find(ids.begin(), ids.end(), json::value(carried)) != ids.end());
    bool cites_56 = false;
    for(auto const& s : done.at("sources").as_array())
        cites_56 = cites_56 || s.at("section") == "Art. 56";
    BOOST_TEST(cites_56);
    auto const requests = f.fake.requests();
    BOOST_TEST_REQUIRE(requests.size() == 2u);
    BOOST_TEST(requests[0].body.at("temperature").to_number<double>() == 0.0);
    auto const system = std::string(requests[1].body.at("system").as_string());
    BOOST_TEST(system.find("Artículo 56. Despido improcedente.") != std::string::npos);

    auto const bad = f.request(bhttp::verb::post, "/api/rag-pipeline",
        R"({"messages":[{"role":"assistant","content":"hola"}]})");
    BOOST_TEST(bad.status == 400u);
    BOOST_TEST(error_of(bad) == "messages: el último mensaje debe ser del usuario (la pregunta)");
}

BOOST_AUTO_TEST_SUITE_END()

// ---------------------------------------------------------------------------

BOOST_AUTO_TEST_SUITE(normativa_postgres)

BOOST_AUTO_TEST_CASE(the_index_in_postgresql)
{
    // RAG_INDEX=postgresql://…: ingest writes there (again: nothing changes),
    // the server searches there, with the quality of the SQLite index.
    auto const uri = agentio_test::postgres_uri();
    {
        asio::io_context ioc;
        agentio::postgres::pool db(ioc.get_executor(), uri);
        agentio_test::run(ioc, [&]() -> asio::awaitable<void> {
            auto dropped = co_await db.execute("DROP TABLE IF EXISTS rag_vectors, rag_models, rag_chunks, rag_corpus, "
                                               "rag_meta CASCADE; DROP FUNCTION IF EXISTS rag_tokens(tsvector)");
            BOOST_TEST_REQUIRE(dropped.has_value());
        }());
    }
    std::ostringstream log;
    auto const first = ingest_estatuto(uri, log);
    BOOST_TEST(first.report.added == first.chunks);
    BOOST_TEST(first.refitted);
    auto const again = ingest_estatuto(uri, log);
    BOOST_TEST(again.report.unchanged == first.chunks);
    BOOST_TEST(!again.refitted);

    asio::io_context ioc;
    auto work = asio::make_work_guard(ioc);
    std::thread runner([&] { ioc.run(); });
    agentio::http::client http(ioc.get_executor());
    normativa::settings s;
    s.index = uri;
    auto loaded = run_on(ioc, normativa::open_index(uri, s, http));
    BOOST_TEST_REQUIRE(loaded->searcher, loaded->warning);
    BOOST_TEST(loaded->status.chunks == first.chunks);
    BOOST_TEST(!loaded->status.embedder.empty());
    auto const loaded_questions = normativa::load_questions(NORMATIVA_QUESTIONS);
    if(!loaded_questions)
        BOOST_FAIL(loaded_questions.error());
    auto const rows = run_on(ioc, normativa::measure_quality(*loaded->searcher, *loaded_questions)).value();
    BOOST_TEST_MESSAGE("\n" << normativa::quality_table(rows));
    for(auto const& r : rows)
        BOOST_TEST_CONTEXT(r.method << " " << r.form)
        {
            BOOST_TEST(r.recall_at_5 >= (r.form == "question" ? 0.50 : 0.85));
            BOOST_TEST(r.mrr >= (r.form == "question" ? 0.40 : 0.75));
        }
    // The tools' lookups: an article in order, its references.
    auto const article = run_on(ioc, loaded->index->article(normativa::estatuto, "48", "")).value();
    BOOST_TEST_REQUIRE(article.size() > 5u);
    BOOST_TEST(article[0].paragraph == "1");
    auto const related = run_on(ioc, retrieval::related_chunks(*loaded->index, article[0], 5)).value();
    BOOST_TEST_REQUIRE(!related.empty());
    BOOST_TEST(related[0].article_number == "45");
    loaded.reset();
    work.reset();
    runner.join();
}

BOOST_AUTO_TEST_SUITE_END()
