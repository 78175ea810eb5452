// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// One suite of checks of agentio::retrieval::index_writer and the pipelines
// over it, run on each backend as open_index_writer opens it: SQLite in a
// temporary folder, PostgreSQL in the temporary cluster that
// scripts/postgres.sh starts (the CTest fixture postgres; a real server).

// Test that header file is self-contained.
#include <agentio/retrieval/open_index_writer.hpp>

#include "../store/postgres_fixture.hpp"

#include <agentio/retrieval.hpp>
#include <agentio/retrieval/documents.hpp>
#include <agentio/retrieval/open_searcher.hpp>
#include <agentio/retrieval/postgres_index.hpp>
#include <agentio/sqlite.hpp>

#include <boost/asio/io_context.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <unistd.h>

namespace asio = boost::asio;
namespace retrieval = agentio::retrieval;
namespace pg = agentio::postgres;
namespace llm = agentio::llm;

#include "sample_law.hpp"

namespace {

using agentio_test::make_chunk;
using agentio_test::small_law;
using agentio_test::spanish_like;
using agentio_test::word_embedder;

// Where a check's index is, and what it needs besides the writer.
struct backend
{
    virtual ~backend() = default;
    // What open_index_writer is given.
    virtual std::string where() const = 0;
    // SQL behind the writer's back, on a connection of its own.
    virtual asio::awaitable<void> execute(char const* sql) = 0;
    // The read side of the same index.
    virtual asio::awaitable<std::unique_ptr<retrieval::index>> reader() = 0;
    // Closes what runs on the check's context, before it goes.
    virtual void release() {}
};

// An index in a fresh temporary folder; the writer's folder is created by
// open_index_writer (it does not exist before).
struct sqlite_backend final : backend
{
    std::filesystem::path dir = std::filesystem::temp_directory_path() /
        ("agentio-writer-" + std::to_string(::getpid()) + "-" + std::to_string(std::random_device{}()));
    std::filesystem::path file = dir / "data" / "index.db";

    ~sqlite_backend() override { std::filesystem::remove_all(dir); }

    std::string where() const override { return "sqlite:" + file.string(); }

    asio::awaitable<void> execute(char const* sql) override
    {
        auto c = agentio::sqlite::connection::open(file, agentio::sqlite::open_mode::read_write_create).value();
        BOOST_TEST_REQUIRE(c.execute(sql).has_value(), c.last_error_message());
        co_return;
    }

    asio::awaitable<std::unique_ptr<retrieval::index>> reader() override
    {
        auto opened = retrieval::sqlite_index::open(file);
        BOOST_TEST_REQUIRE(opened.has_value(), (opened ? "" : opened.error().message));
        co_return std::move(*opened);
    }
};

// The test cluster with no index in it: each case starts from nothing.
struct postgres_backend final : backend
{
    std::unique_ptr<pg::pool> pool;

    std::string where() const override { return agentio_test::postgres_uri(); }

    asio::awaitable<void> execute(char const* sql) override
    {
        auto& p = pool_on(co_await asio::this_coro::executor);
        auto done = co_await p.execute(sql);
        BOOST_TEST_REQUIRE(done.has_value(), (done ? "" : done.error().message));
    }

    asio::awaitable<std::unique_ptr<retrieval::index>> reader() override
    {
        auto& p = pool_on(co_await asio::this_coro::executor);
        auto opened = co_await retrieval::postgres_index::open(p);
        BOOST_TEST_REQUIRE(opened.has_value(), (opened ? "" : opened.error().message));
        co_return std::move(*opened);
    }

    void release() override
    {
        if(pool)
            pool->close();
        pool.reset();
    }

    pg::pool& pool_on(asio::any_io_executor ex)
    {
        if(!pool)
            pool = std::make_unique<pg::pool>(ex, where());
        return *pool;
    }

    static asio::awaitable<void> drop_index()
    {
        pg::connection c(co_await asio::this_coro::executor);
        (co_await c.connect(agentio_test::postgres_uri())).value();
        (co_await c.execute("DROP TABLE IF EXISTS rag_vectors, rag_models, rag_chunks, rag_corpus, rag_meta CASCADE; "
                            "DROP FUNCTION IF EXISTS rag_tokens(tsvector)"))
            .value();
    }

    postgres_backend()
    {
        asio::io_context ctx;
        agentio_test::run(ctx, drop_index());
    }
};

template<class Backend>
void run_check(asio::awaitable<void> (*check)(backend&))
{
    Backend b;
    asio::io_context ctx;
    agentio_test::run(ctx, check(b));
    b.release();
}

asio::awaitable<std::unique_ptr<retrieval::index_writer>> open_writer(backend& b)
{
    // Named before the co_await: no temporary argument of a coroutine inside it (GCC 12).
    auto const where = b.where();
    auto text = spanish_like();
    retrieval::open_index_writer_options options;
    auto opened = co_await retrieval::open_index_writer(where, std::move(text), std::move(options));
    BOOST_TEST_REQUIRE(opened.has_value(), (opened ? "" : opened.error().message));
    co_return std::move(*opened);
}

std::vector<std::int64_t> ids_of(std::vector<retrieval::chunk> const& chunks)
{
    std::vector<std::int64_t> out;
    for(auto const& c : chunks)
        out.push_back(c.id);
    return out;
}

// The chunks of the small law with one changed, one gone and one new.
std::vector<retrieval::chunk> edited_law()
{
    auto edited = small_law();
    edited[0].text += " Modificado.";
    edited.erase(edited.begin() + 2);
    edited.push_back(make_chunk("ley/59/1", "59", "1", "Artículo 59. Prescripción y caducidad.",
        "Las acciones derivadas del contrato de trabajo prescribirán al año de su terminación.", {}, 6));
    return edited;
}

// An embedder that answers with one vector fewer than it was asked for.
class short_embedder final : public llm::embedder
{
public:
    std::string model_id() const override { return "short@2"; }
    asio::awaitable<boost::system::result<llm::embeddings, llm::error>>
    embed(std::span<std::string const> texts) override
    {
        llm::embeddings out;
        out.dimensions = 2;
        out.values.assign((texts.size() - 1) * 2, 0.5f);
        co_return out;
    }
};

// ---------------------------------------------------------------------------
// The checks, each on a writer open_index_writer opened.

asio::awaitable<void> check_replace_keeps_ids_and_remove_removes(backend& b)
{
    auto writer = co_await open_writer(b);
    auto chunks = small_law();
    auto const first = (co_await writer->replace("normativa", "Ley", chunks)).value();
    BOOST_TEST(first.added == 5u);
    BOOST_TEST(chunks[0].id != 0);
    BOOST_TEST(chunks[0].law == "Ley");
    BOOST_TEST(chunks[0].collection == "normativa");
    auto const ids = ids_of(chunks);

    auto again = small_law();
    auto const second = (co_await writer->replace("normativa", "Ley", again)).value();
    BOOST_TEST(second.unchanged == 5u);
    BOOST_TEST(second.added + second.changed + second.removed == 0u);
    BOOST_TEST(ids_of(again) == ids);

    // A changed chunk loses its vectors; an unchanged one keeps them.
    word_embedder words;
    retrieval::embed_missing_options quiet;
    auto const embedded = co_await retrieval::embed_missing_vectors(*writer, words, std::move(quiet));
    BOOST_TEST(embedded.value() == 5u);
    auto edited = edited_law();
    auto const third = (co_await writer->replace("normativa", "Ley", edited)).value();
    BOOST_TEST(third.changed == 1u);
    BOOST_TEST(third.removed == 1u);
    BOOST_TEST(third.added == 1u);
    BOOST_TEST(third.unchanged == 3u);
    BOOST_TEST(edited[0].id == ids[0]);
    auto const missing = (co_await writer->missing_vectors(words.model_id())).value();
    BOOST_TEST(missing == (std::vector<std::int64_t>{ids[0], edited.back().id}));

    // Another law is untouched by removing this one.
    std::vector<retrieval::chunk> other{make_chunk("otra/1", "1", "", "Artículo 1.", "Texto de otra ley.")};
    (co_await writer->replace("normativa", "Otra", other)).value();
    auto const removed = co_await writer->remove("normativa", "Ley");
    BOOST_TEST(removed.value() == 5u);
    auto const removed_again = co_await writer->remove("normativa", "Ley");
    BOOST_TEST(removed_again.value() == 0u);
    auto const removed_elsewhere = co_await writer->remove("sentencias", "Otra");
    auto const remaining = co_await writer->all_chunks();
    BOOST_TEST(removed_elsewhere.value() == 0u); // another collection's law
    auto const left = remaining.value();
    BOOST_TEST_REQUIRE(left.size() == 1u);
    BOOST_TEST(left[0].key == "otra/1");
    auto const models_left = co_await writer->vector_models();
    BOOST_TEST(models_left.value().empty()); // the removed chunks' vectors went with them
}

asio::awaitable<void> check_bad_input_is_refused_with_nothing_written(backend& b)
{
    auto writer = co_await open_writer(b);
    auto chunks = small_law();
    (co_await writer->replace("normativa", "Ley", chunks)).value();

    // Two chunks with one key.
    auto dup = edited_law();
    dup[1].key = dup[0].key;
    auto const refused = co_await writer->replace("normativa", "Ley", dup);
    BOOST_TEST_REQUIRE(refused.has_error());
    BOOST_TEST((refused.error().code == retrieval::errc::corrupt_data));
    BOOST_TEST(refused.error().message.find("ley/38/1") != std::string::npos);
    auto const kept = (co_await writer->all_chunks()).value();
    BOOST_TEST(kept.size() == 5u);
    BOOST_TEST(kept[0].text == small_law()[0].text);

    // Vectors that are not one row of `dimensions` floats per id.
    auto const ids = ids_of(chunks);
    std::vector<float> const three(3, 1.0f);
    auto const ragged = co_await writer->store_vectors("m@2", ids, three, 2, false);
    BOOST_TEST_REQUIRE(ragged.has_error());
    BOOST_TEST((ragged.error().code == retrieval::errc::model_mismatch));
    std::vector<float> const none;
    std::span<std::int64_t const> const no_ids;
    auto const flat = co_await writer->store_vectors("m@0", no_ids, none, 0, true);
    BOOST_TEST((flat.has_error() && flat.error().code == retrieval::errc::model_mismatch));
    auto const no_models = co_await writer->vector_models();
    BOOST_TEST(no_models.value().empty());

    // An embedder that miscounts: nothing stored.
    short_embedder miscounting;
    retrieval::embed_missing_options quiet;
    auto const short_by_one = co_await retrieval::embed_missing_vectors(*writer, miscounting, std::move(quiet));
    BOOST_TEST_REQUIRE(short_by_one.has_error());
    BOOST_TEST((short_by_one.error().code == retrieval::errc::embedding_failed));
    BOOST_TEST(short_by_one.error().message.find("4 vectors for 5 texts") != std::string::npos,
        short_by_one.error().message);
    auto const still_no_models = co_await writer->vector_models();
    BOOST_TEST(still_no_models.value().empty());
}

asio::awaitable<void> check_vectors_are_listed_and_dropped_by_model(backend& b)
{
    auto writer = co_await open_writer(b);
    auto chunks = small_law();
    (co_await writer->replace("normativa", "Ley", chunks)).value();
    auto const ids = ids_of(chunks);
    std::vector<float> const twos(ids.size() * 2, 0.5f);
    (co_await writer->store_vectors("a@2", ids, twos, 2, false)).value();
    std::span<std::int64_t const> const first_two(ids.data(), 2);
    std::vector<float> const fours(2 * 4, 0.25f);
    (co_await writer->store_vectors("b@4", first_two, fours, 4, false)).value();

    auto const models = (co_await writer->vector_models()).value();
    BOOST_TEST_REQUIRE(models.size() == 2u);
    BOOST_TEST(models.at("a@2") == 5u);
    BOOST_TEST(models.at("b@4") == 2u);
    auto const missing_b = co_await writer->missing_vectors("b@4");
    BOOST_TEST(missing_b.value() == (std::vector<std::int64_t>{ids[2], ids[3], ids[4]}));

    auto const dropped = co_await writer->drop_vectors("a@2");
    BOOST_TEST(dropped.value() == 5u);
    auto const dropped_again = co_await writer->drop_vectors("a@2");
    BOOST_TEST(dropped_again.value() == 0u);
    auto const dropped_none = co_await writer->drop_vectors("nobody");
    BOOST_TEST(dropped_none.value() == 0u);
    auto const left = (co_await writer->vector_models()).value();
    BOOST_TEST_REQUIRE(left.size() == 1u);
    BOOST_TEST(left.begin()->first == "b@4");
    auto const missing_a = co_await writer->missing_vectors("a@2");
    BOOST_TEST(missing_a.value() == ids);

    // A model's bytes round-trip, replaced by the next store; none for an unknown name.
    std::string const bytes("\x00\x01\xff model", 9);
    (co_await writer->store_model("m", std::as_bytes(std::span(bytes)))).value();
    auto const loaded = co_await writer->load_model("m");
    BOOST_TEST((loaded.value() == bytes));
    std::string const newer("newer");
    (co_await writer->store_model("m", std::as_bytes(std::span(newer)))).value();
    auto const replaced = co_await writer->load_model("m");
    BOOST_TEST((replaced.value() == newer));
    auto const unknown = co_await writer->load_model("unknown");
    BOOST_TEST(!unknown.value().has_value());
}

asio::awaitable<void> check_refresh_fits_stores_and_drops_stale_fits(backend& b)
{
    auto writer = co_await open_writer(b);
    auto chunks = small_law();
    (co_await writer->replace("normativa", "Ley", chunks)).value();
    retrieval::analysis_profile const profile{
        .stop_words = {"el", "la", "los", "las", "de", "del", "y", "en", "a", "por", "que", "un", "una", "me", "mi",
            "se", "al", "con", "para", "su"}};
    (co_await writer->store_analysis(profile)).value();
    // Another embedder's vectors stay through every refresh.
    word_embedder words;
    retrieval::embed_missing_options quiet;
    (co_await retrieval::embed_missing_vectors(*writer, words, std::move(quiet))).value();

    retrieval::lsa_refresh_options first_options;
    auto const first = (co_await retrieval::refresh_lsa_vectors(*writer, std::move(first_options))).value();
    BOOST_TEST(first.model_id.starts_with("lsa:"));
    BOOST_TEST(first.dimensions > 0u);
    BOOST_TEST(first.chunks == 5u);
    BOOST_TEST(first.dropped == 0u);
    auto const stored = (co_await writer->load_model(retrieval::lsa_model_name)).value();
    BOOST_TEST_REQUIRE(stored.has_value());
    auto const model = retrieval::lsa_model::parse(*stored);
    BOOST_TEST_REQUIRE(model.has_value());
    BOOST_TEST(model->dimensions() == first.dimensions);
    BOOST_TEST(
        (retrieval::lsa_embedder(std::make_shared<retrieval::lsa_model const>(*model), spanish_like()).model_id() ==
            first.model_id));

    // The same chunks: the same model, its vectors replaced, nothing else dropped.
    retrieval::lsa_refresh_options same_options;
    auto const same = (co_await retrieval::refresh_lsa_vectors(*writer, std::move(same_options))).value();
    BOOST_TEST(same.model_id == first.model_id);
    BOOST_TEST(same.dropped == 0u);

    // New chunks: a new fit, and the old one's vectors dropped.
    auto edited = edited_law();
    (co_await writer->replace("normativa", "Ley", edited)).value();
    retrieval::lsa_refresh_options again_options;
    auto const again = (co_await retrieval::refresh_lsa_vectors(*writer, std::move(again_options))).value();
    BOOST_TEST(again.model_id != first.model_id);
    BOOST_TEST(again.chunks == 5u);
    BOOST_TEST(again.dropped == 3u); // the first fit's vectors of the three unchanged chunks
    auto const models = (co_await writer->vector_models()).value();
    BOOST_TEST_REQUIRE(models.size() == 2u);
    BOOST_TEST(models.at(again.model_id) == 5u);
    BOOST_TEST(models.at(words.model_id()) == 3u);

    // Whoever searches the index finds the refreshed dense half.
    auto index = co_await b.reader();
    retrieval::open_searcher_options options;
    auto opened = (co_await retrieval::open_searcher(*index, std::move(options))).value();
    BOOST_TEST((opened.dense == retrieval::dense_status::ready), opened.warning);
    BOOST_TEST(opened.embedder_id == again.model_id);
    retrieval::search_request const dense{.text = "prescripción de las acciones del contrato",
        .top_k = 3,
        .mode = retrieval::search_mode::dense};
    auto const found = (co_await opened.searcher->search(dense)).value();
    BOOST_TEST_REQUIRE(!found.hits.empty());
    BOOST_TEST(found.hits[0].item.key == "ley/59/1");
}

asio::awaitable<void> check_refresh_with_nothing_to_fit_stores_nothing(backend& b)
{
    auto writer = co_await open_writer(b);
    retrieval::lsa_refresh_options options;
    options.model_name = "lsa-empty";
    auto const empty = (co_await retrieval::refresh_lsa_vectors(*writer, std::move(options))).value();
    BOOST_TEST(empty.model_id.empty());
    BOOST_TEST(empty.dimensions == 0u);
    BOOST_TEST(empty.chunks == 0u);
    auto const no_model = co_await writer->load_model("lsa-empty");
    BOOST_TEST(!no_model.value().has_value());
    auto const no_vectors = co_await writer->vector_models();
    BOOST_TEST(no_vectors.value().empty());
}

asio::awaitable<void> check_embed_missing_fills_only_the_gaps(backend& b)
{
    auto writer = co_await open_writer(b);
    auto chunks = small_law();
    (co_await writer->replace("normativa", "Ley", chunks)).value();
    word_embedder words;
    std::vector<std::size_t> announced;
    retrieval::embed_missing_options first_options;
    first_options.before_embedding = [&](std::size_t n) { announced.push_back(n); };
    auto const first = co_await retrieval::embed_missing_vectors(*writer, words, std::move(first_options));
    BOOST_TEST(first.value() == 5u);
    retrieval::embed_missing_options again_options;
    again_options.before_embedding = [&](std::size_t n) { announced.push_back(n); };
    auto const second = co_await retrieval::embed_missing_vectors(*writer, words, std::move(again_options));
    BOOST_TEST(second.value() == 0u);
    BOOST_TEST(announced == (std::vector<std::size_t>{5}));

    // The vectors read back are the ones stored.
    auto index = co_await b.reader();
    auto const loaded = (co_await index->load_vectors(words.model_id())).value();
    BOOST_TEST_REQUIRE(loaded.vectors);
    BOOST_TEST(loaded.vectors->size() == 5u);

    // The service down: an error of its own, and nothing stored.
    auto edited = edited_law();
    (co_await writer->replace("normativa", "Ley", edited)).value();
    words.fail = true;
    retrieval::embed_missing_options down_options;
    auto const down = co_await retrieval::embed_missing_vectors(*writer, words, std::move(down_options));
    BOOST_TEST_REQUIRE(down.has_error());
    BOOST_TEST((down.error().code == retrieval::errc::embedding_failed));
    BOOST_TEST(down.error().message == "embeddings unreachable");
    auto const still_missing = co_await writer->missing_vectors(words.model_id());
    BOOST_TEST(still_missing.value().size() == 2u);
    words.fail = false;
    retrieval::embed_missing_options up_options;
    auto const filled = co_await retrieval::embed_missing_vectors(*writer, words, std::move(up_options));
    BOOST_TEST(filled.value() == 2u);
}

asio::awaitable<void> check_a_failing_database_is_an_error_and_the_old_fit_stays(backend& b)
{
    auto writer = co_await open_writer(b);
    auto chunks = small_law();
    (co_await writer->replace("normativa", "Ley", chunks)).value();
    retrieval::lsa_refresh_options first_options;
    auto const first = (co_await retrieval::refresh_lsa_vectors(*writer, std::move(first_options))).value();

    // The models' table gone behind the writer's back: the refresh stops at
    // storing the model, before any vector is touched.
    co_await b.execute("DROP TABLE rag_models");
    auto edited = edited_law();
    (co_await writer->replace("normativa", "Ley", edited)).value();
    retrieval::lsa_refresh_options again_options;
    auto const failed = co_await retrieval::refresh_lsa_vectors(*writer, std::move(again_options));
    BOOST_TEST_REQUIRE(failed.has_error());
    BOOST_TEST(failed.error().message.find("rag_models") != std::string::npos, failed.error().message);
    auto const models = (co_await writer->vector_models()).value();
    BOOST_TEST_REQUIRE(models.size() == 1u);
    BOOST_TEST(models.begin()->first == first.model_id);
    BOOST_TEST(models.begin()->second == 3u); // the unchanged chunks' vectors of the first fit
    auto const load = co_await writer->load_model(retrieval::lsa_model_name);
    BOOST_TEST(load.has_error());
}

// A user's document, ingested, searched in its user's collection only,
// ingested again unchanged, and deleted with its chunks — what the platform
// does with an upload — through open_index_writer and open_index.
asio::awaitable<void> check_documents_are_ingested_searched_and_removed(backend& b)
{
    auto writer = co_await open_writer(b);
    std::string holidays;
    for(int i = 0; i < 30; ++i)
        holidays += "El periodo de vacaciones número " + std::to_string(i) + " se fija de común acuerdo. ";
    retrieval::document policy{"uploads/ana", "file-1", "politica.md",
        {{"section Viajes", "Las dietas de viaje son de 53 euros diarios por persona desplazada."},
            {"section Vacaciones", holidays}}};
    retrieval::document other{"uploads/eva", "file-2", "notas.txt",
        {{"text", "Las dietas de viaje de Eva se pagan aparte, en la nómina de cada mes."}}};

    // Chunks never cross a part, and a long part is cut with overlap.
    auto const chunks = retrieval::chunk_document(policy);
    BOOST_TEST_REQUIRE(chunks.size() >= 3u);
    BOOST_TEST(chunks[0].section == "section Viajes");
    BOOST_TEST(chunks[0].title == "politica.md");
    BOOST_TEST(chunks[0].collection == "uploads/ana");
    for(std::size_t i = 2; i < chunks.size(); ++i)
    {
        BOOST_TEST(chunks[i].section == "section Vacaciones");
        auto const& before = chunks[i - 1].text;
        BOOST_TEST(chunks[i].text.find(before.substr(before.size() - 40, 20)) != std::string::npos,
            "chunk " << i << " does not overlap the one before");
    }

    retrieval::document_ingest_options const how;
    // Copies named first: no temporary inside a co_await (GCC 12).
    auto policy_copy = policy, other_copy = other, policy_again = policy;
    auto const first = co_await retrieval::ingest_document(*writer, std::move(policy_copy), how);
    BOOST_TEST_REQUIRE(first.has_value(), (first ? "" : first.error().message));
    BOOST_TEST(first->added == chunks.size());
    auto const second = co_await retrieval::ingest_document(*writer, std::move(other_copy), how); // folded in
    BOOST_TEST_REQUIRE(second.has_value(), (second ? "" : second.error().message));
    // Every chunk has its vector, of the one model the first document's fit made.
    auto const models = (co_await writer->vector_models()).value();
    BOOST_TEST_REQUIRE(models.size() == 1u);
    BOOST_TEST(models.begin()->second == chunks.size() + retrieval::chunk_document(other).size());

    auto const where = b.where();
    pg::pool_options pool;
    auto index = co_await retrieval::open_index(where, std::move(pool));
    BOOST_TEST_REQUIRE(index.has_value(), (index ? "" : index.error().message));
    {
        retrieval::open_searcher_options options;
        options.fallback = spanish_like();
        auto opened = co_await retrieval::open_searcher(**index, std::move(options));
        BOOST_TEST_REQUIRE(opened.has_value(), (opened ? "" : opened.error().message));
        BOOST_TEST((opened->dense == retrieval::dense_status::ready));
        retrieval::search_request ask;
        ask.text = "dietas de viaje";
        ask.collections = {"uploads/ana"};
        auto const found = co_await opened->searcher->search(ask);
        BOOST_TEST_REQUIRE(found.has_value());
        BOOST_TEST_REQUIRE(!found->hits.empty());
        BOOST_TEST(found->hits[0].item.section == "section Viajes");
        BOOST_TEST(found->hits[0].item.title == "politica.md");
        for(auto const& h : found->hits)
            BOOST_TEST(h.item.collection == "uploads/ana"); // never Eva's
    }

    auto const again = co_await retrieval::ingest_document(*writer, std::move(policy_again), how);
    BOOST_TEST_REQUIRE(again.has_value());
    BOOST_TEST(again->unchanged == chunks.size());
    BOOST_TEST(again->added + again->changed + again->removed == 0u);

    BOOST_TEST((co_await writer->remove("uploads/ana", "file-1")).value() == chunks.size());
    retrieval::open_searcher_options options;
    options.fallback = spanish_like();
    auto reopened = co_await retrieval::open_searcher(**index, std::move(options));
    BOOST_TEST_REQUIRE(reopened.has_value());
    retrieval::search_request ask;
    ask.text = "dietas de viaje vacaciones";
    ask.collections = {"uploads/ana"};
    BOOST_TEST((co_await reopened->searcher->search(ask)).value().hits.empty());
}

} // namespace

// The backends' own ways to fail to open.

BOOST_AUTO_TEST_SUITE(index_writer_sqlite)

BOOST_AUTO_TEST_CASE(replace_keeps_ids_and_remove_removes)
{
    run_check<sqlite_backend>(check_replace_keeps_ids_and_remove_removes);
}
BOOST_AUTO_TEST_CASE(bad_input_is_refused_with_nothing_written)
{
    run_check<sqlite_backend>(check_bad_input_is_refused_with_nothing_written);
}
BOOST_AUTO_TEST_CASE(vectors_are_listed_and_dropped_by_model)
{
    run_check<sqlite_backend>(check_vectors_are_listed_and_dropped_by_model);
}
BOOST_AUTO_TEST_CASE(refresh_fits_stores_and_drops_stale_fits)
{
    run_check<sqlite_backend>(check_refresh_fits_stores_and_drops_stale_fits);
}
BOOST_AUTO_TEST_CASE(refresh_with_nothing_to_fit_stores_nothing)
{
    run_check<sqlite_backend>(check_refresh_with_nothing_to_fit_stores_nothing);
}
BOOST_AUTO_TEST_CASE(embed_missing_fills_only_the_gaps)
{
    run_check<sqlite_backend>(check_embed_missing_fills_only_the_gaps);
}
BOOST_AUTO_TEST_CASE(a_failing_database_is_an_error_and_the_old_fit_stays)
{
    run_check<sqlite_backend>(check_a_failing_database_is_an_error_and_the_old_fit_stays);
}

BOOST_AUTO_TEST_CASE(documents_are_ingested_searched_and_removed)
{
    run_check<sqlite_backend>(check_documents_are_ingested_searched_and_removed);
}

BOOST_AUTO_TEST_CASE(a_file_that_cannot_be_made_is_an_error)
{
    sqlite_backend b;
    std::filesystem::create_directories(b.dir);
    std::ofstream(b.dir / "plain") << "a file, not a folder";
    asio::io_context ctx;
    agentio_test::run(ctx, [&]() -> asio::awaitable<void> {
        retrieval::open_index_writer_options options;
        auto const where = (b.dir / "plain" / "index.db").string();
        auto text = spanish_like();
        auto const opened = co_await retrieval::open_index_writer(where, std::move(text), std::move(options));
        BOOST_TEST_REQUIRE(opened.has_error());
        BOOST_TEST(opened.error().message.find("plain/index.db") != std::string::npos, opened.error().message);
    }());
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(index_writer_postgres)

BOOST_AUTO_TEST_CASE(replace_keeps_ids_and_remove_removes)
{
    run_check<postgres_backend>(check_replace_keeps_ids_and_remove_removes);
}
BOOST_AUTO_TEST_CASE(bad_input_is_refused_with_nothing_written)
{
    run_check<postgres_backend>(check_bad_input_is_refused_with_nothing_written);
}
BOOST_AUTO_TEST_CASE(vectors_are_listed_and_dropped_by_model)
{
    run_check<postgres_backend>(check_vectors_are_listed_and_dropped_by_model);
}
BOOST_AUTO_TEST_CASE(refresh_fits_stores_and_drops_stale_fits)
{
    run_check<postgres_backend>(check_refresh_fits_stores_and_drops_stale_fits);
}
BOOST_AUTO_TEST_CASE(refresh_with_nothing_to_fit_stores_nothing)
{
    run_check<postgres_backend>(check_refresh_with_nothing_to_fit_stores_nothing);
}
BOOST_AUTO_TEST_CASE(embed_missing_fills_only_the_gaps)
{
    run_check<postgres_backend>(check_embed_missing_fills_only_the_gaps);
}
BOOST_AUTO_TEST_CASE(a_failing_database_is_an_error_and_the_old_fit_stays)
{
    run_check<postgres_backend>(check_a_failing_database_is_an_error_and_the_old_fit_stays);
}

BOOST_AUTO_TEST_CASE(documents_are_ingested_searched_and_removed)
{
    run_check<postgres_backend>(check_documents_are_ingested_searched_and_removed);
}

BOOST_AUTO_TEST_CASE(a_server_that_is_not_there_is_an_error)
{
    asio::io_context ctx;
    agentio_test::run(ctx, []() -> asio::awaitable<void> {
        // A port nothing listens on (the discard port), refused at once.
        retrieval::open_index_writer_options options;
        options.pool.connect_timeout = std::chrono::seconds(2);
        std::string const where = "postgresql://postgres@127.0.0.1:9/agentio_test";
        auto text = spanish_like();
        auto const opened = co_await retrieval::open_index_writer(where, std::move(text), std::move(options));
        BOOST_TEST(opened.has_error());
    }());
}

BOOST_AUTO_TEST_SUITE_END()
