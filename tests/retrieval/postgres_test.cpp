// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The PostgreSQL index on the test cluster (CTest fixture postgres): what the
// SQLite suites check of the SQLite index, and the searcher on top.

// Test that header file is self-contained.
#include <agentio/retrieval/postgres_index.hpp>

#include "../store/postgres_fixture.hpp"

#include <agentio/retrieval.hpp>

#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

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

// The test cluster with no index in it: each case starts from nothing, so the
// schema is created (and the migration runs) every time.
struct database
{
    asio::io_context ctx;
    pg::pool pool{ctx.get_executor(), agentio_test::postgres_uri()};

    static asio::awaitable<void> drop_index()
    {
        pg::connection c(co_await asio::this_coro::executor);
        auto const uri = agentio_test::postgres_uri();
        (co_await c.connect(uri)).value();
        (co_await c.execute("DROP TABLE IF EXISTS rag_vectors, rag_models, rag_chunks, rag_corpus, rag_meta CASCADE; "
                            "DROP FUNCTION IF EXISTS rag_tokens(tsvector); "
                            "DROP TEXT SEARCH CONFIGURATION IF EXISTS agentio_spanish"))
            .value();
    }

    database() { agentio_test::run(ctx, drop_index()); }
    ~database() { pool.close(); }

    void run(asio::awaitable<void> task) { agentio_test::run(ctx, std::move(task)); }

    // Runs one operation to its end (as the SQLite suites do, outside coroutines).
    template<class T>
    T await(asio::awaitable<T> work)
    {
        std::optional<T> out; // co_spawn's own result needs a default-constructible T
        agentio_test::run(ctx, into(out, std::move(work)));
        return std::move(*out);
    }

    template<class T>
    static asio::awaitable<void> into(std::optional<T>& out, asio::awaitable<T> work)
    {
        auto r = co_await std::move(work);
        out.emplace(std::move(r));
    }

    // A writer (Spanish text search unless `options` says otherwise), or the test fails.
    retrieval::postgres_index_writer writer(retrieval::postgres_index_options options = {})
    {
        auto w = await(retrieval::postgres_index_writer::open(pool, spanish_like(), std::move(options)));
        BOOST_REQUIRE_MESSAGE(w, (w ? "" : w.error().message));
        return std::move(*w);
    }
};

// The ids of chunks, in order.
std::vector<std::int64_t> ids_of(std::vector<retrieval::chunk> const& chunks)
{
    std::vector<std::int64_t> out;
    for(auto const& c : chunks)
        out.push_back(c.id);
    return out;
}

} // namespace

BOOST_AUTO_TEST_SUITE(retrieval_postgres)

BOOST_AUTO_TEST_CASE(tsquery_quotes_every_word)
{
    std::vector<std::string> const terms{"vacaciones", "a'b", "x:*", "!no", "(c|d)", "vacaciones", "ñandú", "\\", "e&f",
        "g<->h",
        "ab\xff"
        "cd"};
    BOOST_TEST(retrieval::tsquery_any_of(terms) ==
        "'a' | 'ab' | 'b' | 'c' | 'cd' | 'd' | 'e' | 'f' | 'g' | 'h' | 'no' | 'vacaciones' | 'x' | 'ñandú'");
    BOOST_TEST(retrieval::tsquery_any_of({}).empty());
    std::vector<std::string> const only_syntax{"&", "|", "!", ":*", "(", "'"};
    BOOST_TEST(retrieval::tsquery_any_of(only_syntax).empty());
}

BOOST_AUTO_TEST_CASE(replace_is_idempotent_and_keeps_ids)
{
    database db;
    auto writer = db.writer();
    auto chunks = small_law();
    auto const first = db.await(writer.replace("normativa", "Ley", chunks)).value();
    BOOST_TEST(first.added == 5u);
    auto const ids = ids_of(chunks);
    BOOST_TEST(chunks[0].collection == "normativa");
    BOOST_TEST(chunks[0].law == "Ley");

    auto again = small_law();
    auto const second = db.await(writer.replace("normativa", "Ley", again)).value();
    BOOST_TEST(second.unchanged == 5u);
    BOOST_TEST(second.added + second.changed + second.removed == 0u);
    BOOST_TEST(ids_of(again) == ids, boost::test_tools::per_element());

    // One changed, one with other refs, one gone, one new.
    auto edited = small_law();
    edited[0].text += " Modificado.";
    edited[1].refs.push_back("56");
    edited.erase(edited.begin() + 2);
    edited.push_back(make_chunk("ley/59/1", "59", "1", "Artículo 59. Prescripción y caducidad.",
        "Las acciones derivadas del contrato de trabajo prescribirán al año de su terminación.", {}, 6));
    auto const third = db.await(writer.replace("normativa", "Ley", edited)).value();
    BOOST_TEST(third.changed == 2u);
    BOOST_TEST(third.removed == 1u);
    BOOST_TEST(third.added == 1u);
    BOOST_TEST(third.unchanged == 2u);
    BOOST_TEST(edited[0].id == ids[0]);
    BOOST_TEST(edited[1].id == ids[1]);
    BOOST_TEST(edited.back().id > ids.back());

    // Another law is untouched by replacing this one.
    std::vector<retrieval::chunk> other{make_chunk("otra/1", "1", "", "Artículo 1.", "Texto de otra ley.")};
    BOOST_TEST(db.await(writer.replace("normativa", "Otra", other)).value().added == 1u);
    BOOST_TEST(db.await(writer.all_chunks()).value().size() == 6u);
    std::vector<retrieval::chunk> none;
    BOOST_TEST(db.await(writer.replace("normativa", "Otra", none)).value().removed == 1u);
    auto const all = db.await(writer.all_chunks()).value();
    BOOST_TEST_REQUIRE(all.size() == 5u);
    BOOST_TEST(all[0].key == "ley/38/1");
    BOOST_TEST(all[0].text.ends_with("Modificado."));
    BOOST_TEST(all[1].refs == (std::vector<std::string>{"48", "56"}), boost::test_tools::per_element());

    // Two chunks with one key: refused, nothing written.
    auto dup = small_law();
    dup[0].text = "Cambiado.";
    dup[1].key = dup[0].key;
    auto const refused = db.await(writer.replace("normativa", "Ley", dup));
    BOOST_TEST_REQUIRE(refused.has_error());
    BOOST_TEST(refused.error().message.find("ley/38/1") != std::string::npos);
    auto const after = db.await(writer.all_chunks()).value();
    BOOST_TEST(after.size() == 5u);
    BOOST_TEST(after[0].text.ends_with("Modificado."));

    // A key another law holds: refused by the database, the whole call rolled back.
    std::vector<retrieval::chunk> stolen{make_chunk("otra/2", "2", "", "Artículo 2.", "Nuevo."),
        make_chunk("ley/56/1", "56", "1", "Artículo 56.", "Robado.")};
    auto const clash = db.await(writer.replace("normativa", "Otra", stolen));
    BOOST_TEST_REQUIRE(clash.has_error());
    BOOST_TEST(clash.error().message.find("23505") != std::string::npos);
    BOOST_TEST(db.await(writer.all_chunks()).value().size() == 5u);
}

BOOST_AUTO_TEST_CASE(searches_and_fetches)
{
    database db;
    {
        auto writer = db.writer();
        auto chunks = small_law();
        db.await(writer.replace("normativa", "Ley", chunks)).value();
        std::vector<retrieval::chunk> ruling{make_chunk("sts/1", "", "", "STS 1/2020",
            "Sentencia sobre vacaciones no disfrutadas por incapacidad temporal.")};
        db.await(writer.replace("sentencias", "Tribunal Supremo", ruling)).value();
    }
    auto opened = db.await(retrieval::postgres_index::open(db.pool));
    BOOST_REQUIRE_MESSAGE(opened, (opened ? "" : opened.error().message));
    auto& index = **opened;
    auto const a = spanish_like();

    auto const hits = db.await(index.sparse(a.terms("¿Vacaciones anuales retribuidas?"), {}, 30)).value();
    BOOST_TEST_REQUIRE(hits.size() >= 3u);
    auto const top = db.await(index.chunks({hits[0].id})).value();
    BOOST_TEST(top.at(0).key == "ley/38/1");
    for(std::size_t i = 1; i < hits.size(); ++i)
        BOOST_TEST(hits[i - 1].score >= hits[i].score);
    // The Spanish stemmer: "vacación" and "improcedentes" meet "vacaciones" and "improcedente".
    BOOST_TEST(db.await(index.sparse(a.terms("vacación"), {}, 30)).value().size() == 3u);
    BOOST_TEST(db.await(index.sparse(a.terms("improcedentes"), {}, 30)).value().size() == 1u);

    // Collections filter; limit; equal scores by id.
    BOOST_TEST(db.await(index.sparse(a.terms("vacaciones"), {"sentencias"}, 30)).value().size() == 1u);
    BOOST_TEST(db.await(index.sparse(a.terms("vacaciones"), {"normativa", "sentencias"}, 30)).value().size() == 3u);
    BOOST_TEST(db.await(index.sparse(a.terms("vacaciones"), {"ninguna"}, 30)).value().empty());
    BOOST_TEST(db.await(index.sparse(a.terms("vacaciones"), {}, 1)).value().size() == 1u);
    BOOST_TEST(db.await(index.sparse(a.terms("vacaciones"), {}, 0)).value().empty());
    // In the title and the text beats the title alone.
    auto const suspension = db.await(index.sparse(a.terms("suspensión"), {}, 30)).value();
    BOOST_TEST_REQUIRE(suspension.size() == 2u);
    BOOST_TEST(db.await(index.chunks({suspension[0].id})).value().at(0).key == "ley/48/1");

    // tsquery syntax in a question is only words, through the analyzer or not.
    BOOST_TEST(db.await(index.sparse(a.terms("vacaciones' & | ! :* ( despido"), {}, 30)).value().size() == 4u);
    std::vector<std::string> const raw{"vacaciones'", "&", "|", "!despido", "x:*", "(", "')", "\\", "<->"};
    BOOST_TEST(db.await(index.sparse(raw, {}, 30)).value().size() == 4u);
    std::vector<std::string> const only_syntax{"&", "|", "!", ":*", "("};
    BOOST_TEST(db.await(index.sparse(only_syntax, {}, 30)).value().empty());
    BOOST_TEST(db.await(index.sparse({}, {}, 30)).value().empty());
    // Stop words of PostgreSQL's Spanish configuration match nothing, and fail nothing.
    std::vector<std::string> const stop{"para", "donde"};
    BOOST_TEST(db.await(index.sparse(stop, {}, 30)).value().empty());

    // An article in order, a paragraph, a law that is not there.
    auto const art = db.await(index.article("Ley", "48", "")).value();
    BOOST_TEST_REQUIRE(art.size() == 2u);
    BOOST_TEST(art[0].paragraph == "1");
    BOOST_TEST(art[1].paragraph == "4");
    BOOST_TEST(art[1].refs == (std::vector<std::string>{"38.1", "56"}), boost::test_tools::per_element());
    BOOST_TEST(art[1].title == "Artículo 48. Suspensión con reserva de puesto de trabajo.");
    BOOST_TEST(art[1].ordinal == 4);
    BOOST_TEST(db.await(index.article("Ley", "48", "4")).value().size() == 1u);
    BOOST_TEST(db.await(index.article("Otra", "48", "")).value().empty());

    // Related: the cited paragraph, else the article's first chunk; itself never.
    auto const related = db.await(retrieval::related_chunks(index, art[1], 5)).value();
    BOOST_TEST_REQUIRE(related.size() == 2u);
    BOOST_TEST(related[0].key == "ley/38/1");
    BOOST_TEST(related[1].key == "ley/56/1");
    BOOST_TEST(db.await(retrieval::related_chunks(index, art[1], 1)).value().size() == 1u);

    auto const stats = db.await(index.stats()).value();
    BOOST_TEST(stats.chunks == 6u);
    BOOST_TEST(stats.per_collection.at("sentencias") == 1u);
    BOOST_TEST(db.await(index.laws()).value().at("Ley") == 5u);

    // Ids fetched in the order asked, unknown ones left out, repeats once.
    auto const fetched = db.await(index.chunks({art[1].id, 999999, art[0].id, art[1].id})).value();
    BOOST_TEST_REQUIRE(fetched.size() == 2u);
    BOOST_TEST(fetched[0].id == art[1].id);
    BOOST_TEST(fetched[1].id == art[0].id);
    BOOST_TEST(db.await(index.chunks({})).value().empty());
}

BOOST_AUTO_TEST_CASE(analyzer_terms_in_a_simple_tsvector)
{
    database db;
    auto writer = db.writer({.language = ""});
    BOOST_TEST(writer.text_search() == "simple");
    auto chunks = small_law();
    db.await(writer.replace("normativa", "Ley", chunks)).value();
    retrieval::postgres_index index(db.pool);
    auto const a = spanish_like();
    auto const hits = db.await(index.sparse(a.terms("¿Vacaciones anuales retribuidas?"), {}, 30)).value();
    BOOST_TEST_REQUIRE(hits.size() == 2u);
    BOOST_TEST(hits[0].id == chunks[0].id);
    // No stemmer here: the words as the analyzer left them.
    BOOST_TEST(db.await(index.sparse(a.terms("vacación"), {}, 30)).value().empty());
    BOOST_TEST(db.await(index.sparse(a.terms("vacaciones' & | ! :* ("), {}, 30)).value().size() == 2u);

    // The language is the index's: a writer of another one is refused.
    auto const other = db.await(retrieval::postgres_index_writer::open(db.pool, spanish_like()));
    BOOST_TEST_REQUIRE(other.has_error());
    BOOST_TEST((other.error().code == retrieval::errc::model_mismatch));
    auto const odd = db.await(retrieval::postgres_index_writer::open(db.pool, spanish_like(), {.language = "es;"}));
    BOOST_TEST_REQUIRE(odd.has_error());
    BOOST_TEST((odd.error().code == retrieval::errc::model_mismatch));
}

BOOST_AUTO_TEST_CASE(bm25_weighs_rare_words_and_ties_by_id)
{
    database db;
    auto writer = db.writer();
    std::vector<retrieval::chunk> chunks{make_chunk("c/1", "1", "", "", "Jornada, jornada y jornada; descanso."),
        make_chunk("c/2", "2", "", "", "Jornada."), make_chunk("c/3", "3", "", "", "Jornada."),
        make_chunk("c/4", "4", "", "", "Jornada nocturna."), make_chunk("c/5", "5", "", "Jornada", "Horario.")};
    db.await(writer.replace("normativa", "Ley", chunks)).value();
    retrieval::postgres_index index(db.pool);
    auto const a = spanish_like();
    auto const hits = db.await(index.sparse(a.terms("jornada nocturna"), {}, 30)).value();
    BOOST_TEST_REQUIRE(hits.size() == 5u);
    // The word one chunk has outweighs the word every chunk has, however often.
    BOOST_TEST(hits[0].id == chunks[3].id);
    // A word of the title counts twice: the short chunk titled for it next.
    BOOST_TEST(hits[1].id == chunks[4].id);
    // Equal scores by id.
    auto const rest = db.await(index.sparse(a.terms("jornada"), {}, 30)).value();
    BOOST_TEST_REQUIRE(rest.size() == 5u);
    std::vector<std::int64_t> tied;
    for(auto const& h : rest)
        if(h.id == chunks[1].id || h.id == chunks[2].id)
            tied.push_back(h.id);
    BOOST_TEST_REQUIRE(tied.size() == 2u);
    BOOST_TEST(tied[0] == chunks[1].id);
    for(std::size_t i = 1; i < rest.size(); ++i)
        BOOST_TEST(rest[i - 1].score >= rest[i].score);
    auto const at = [&](std::int64_t id) {
        return std::find_if(rest.begin(), rest.end(), [&](retrieval::ranked const& r) { return r.id == id; })->score;
    };
    BOOST_TEST(at(chunks[1].id) == at(chunks[2].id));
}

BOOST_AUTO_TEST_CASE(vectors_and_models_round_trip)
{
    database db;
    auto writer = db.writer();
    auto chunks = small_law();
    db.await(writer.replace("normativa", "Ley", chunks)).value();
    BOOST_TEST(db.await(writer.missing_vectors("m")).value().size() == 5u);
    std::vector<std::int64_t> const ids{chunks[0].id, chunks[3].id};
    std::vector<float> const values{1, 0, 0, 0, 1, 0.5f};
    db.await(writer.store_vectors("m", ids, values, 3, true)).value();
    BOOST_TEST(db.await(writer.missing_vectors("m")).value() ==
            (std::vector<std::int64_t>{chunks[1].id, chunks[2].id, chunks[4].id}),
        boost::test_tools::per_element());
    BOOST_TEST(db.await(writer.store_vectors("m", ids, values, 4, false)).has_error()); // 6 floats are not 2 × 4
    // An id twice: its last row.
    std::vector<std::int64_t> const twice{chunks[1].id, chunks[1].id};
    std::vector<float> const rows{1, 1, 1, 0, 0, 2};
    db.await(writer.store_vectors("m", twice, rows, 3, false)).value();
    // An id of no chunk: the foreign key refuses it, and nothing of the call is stored.
    std::vector<std::int64_t> const unknown{chunks[4].id, 999999};
    BOOST_TEST(db.await(writer.store_vectors("m", unknown, values, 3, false)).has_error());
    BOOST_TEST(db.await(writer.missing_vectors("m")).value().size() == 2u);

    std::string const model("model bytes \0 with a zero \xff", 27);
    db.await(writer.store_model("lsa", std::as_bytes(std::span(model)))).value();
    BOOST_TEST(*db.await(writer.load_model("lsa")).value() == model);
    BOOST_TEST(!db.await(writer.load_model("none")).value().has_value());
    std::string const refitted = "other";
    db.await(writer.store_model("lsa", std::as_bytes(std::span(refitted)))).value();
    BOOST_TEST(*db.await(writer.load_model("lsa")).value() == refitted);

    retrieval::postgres_index index(db.pool);
    auto const dense = db.await(index.load_vectors("m")).value();
    BOOST_TEST_REQUIRE(dense.vectors);
    BOOST_TEST(dense.model_id == "m");
    BOOST_TEST(dense.vectors->size() == 3u);
    BOOST_TEST(dense.vectors->dimensions() == 3u);
    BOOST_TEST(dense.collections.at(0) == "normativa");
    // Rows by chunk id, normalised on load; chunk 1's is the last row given, (0, 0, 2).
    BOOST_TEST(dense.vectors->id(1) == chunks[1].id);
    BOOST_TEST(dense.vectors->row(1)[2] == 1.0f, boost::test_tools::tolerance(1e-6f));
    BOOST_TEST(dense.vectors->row(2)[2] == 0.5f / std::sqrt(1.25f), boost::test_tools::tolerance(1e-6f));
    BOOST_TEST(!db.await(index.load_vectors("other")).value().vectors);
    BOOST_TEST(*db.await(index.load_model("lsa")).value() == refitted);

    // A changed chunk loses its vectors (they described the old text); a removed one too.
    chunks[0].text = "Otro texto.";
    chunks.pop_back();
    db.await(writer.replace("normativa", "Ley", chunks)).value();
    BOOST_TEST(db.await(writer.missing_vectors("m")).value().size() == 2u);
    BOOST_TEST(db.await(index.load_vectors("m")).value().vectors->size() == 2u);
    // replace_all drops the model's other vectors.
    std::vector<std::int64_t> const one{chunks[2].id};
    std::vector<float> const v{0, 1, 0};
    db.await(writer.store_vectors("m", one, v, 3, true)).value();
    BOOST_TEST(db.await(index.load_vectors("m")).value().vectors->size() == 1u);
}

BOOST_AUTO_TEST_CASE(schema_is_created_once_and_checked)
{
    database db;
    // No index yet: the reader says so.
    auto const missing = db.await(retrieval::postgres_index::open(db.pool));
    BOOST_TEST_REQUIRE(missing.has_error());
    BOOST_TEST((missing.error().code == retrieval::errc::corrupt_data));

    // Replicas starting together: one creates, the other waits on the lock and finds it done.
    db.run([&]() -> asio::awaitable<void> {
        using namespace asio::experimental::awaitable_operators;
        auto first = retrieval::postgres_index_writer::open(db.pool, spanish_like());
        auto second = retrieval::postgres_index_writer::open(db.pool, spanish_like());
        auto both = co_await (std::move(first) && std::move(second));
        BOOST_TEST(std::get<0>(both).has_value());
        BOOST_TEST(std::get<1>(both).has_value());
    }());
    BOOST_TEST(db.await(retrieval::postgres_index::open(db.pool)).has_value());

    // A schema newer than this program.
    db.await(db.pool.execute("UPDATE rag_meta SET value = '99' WHERE key = 'schema_version'")).value();
    auto const newer = db.await(retrieval::postgres_index_writer::open(db.pool, spanish_like()));
    BOOST_TEST_REQUIRE(newer.has_error());
    BOOST_TEST((newer.error().code == retrieval::errc::schema_too_new));
    auto const newer_reader = db.await(retrieval::postgres_index::open(db.pool));
    BOOST_TEST_REQUIRE(newer_reader.has_error());
    BOOST_TEST((newer_reader.error().code == retrieval::errc::schema_too_new));
}

BOOST_AUTO_TEST_CASE(searcher_fuses_both_halves)
{
    database db;
    word_embedder embed;
    {
        auto writer = db.writer();
        auto chunks = small_law();
        db.await(writer.replace("normativa", "Ley", chunks)).value();
        std::vector<std::string> texts;
        for(auto const& c : chunks)
            texts.push_back(c.title + " " + c.text);
        auto const ids = ids_of(chunks);
        auto const v = db.await(embed.embed(texts)).value();
        db.await(writer.store_vectors(embed.model_id(), ids, v.values, v.dimensions, true)).value();
    }
    retrieval::postgres_index index(db.pool);
    auto dense = db.await(index.load_vectors(embed.model_id())).value();
    retrieval::searcher search(index, spanish_like(), &embed, std::move(dense));
    BOOST_TEST(search.has_dense());

    auto const found = db.await(search.search({.text = "vacaciones", .top_k = 3})).value();
    BOOST_TEST_REQUIRE(!found.hits.empty());
    BOOST_TEST(found.hits[0].item.article_number == "38");
    BOOST_TEST(found.hits[0].sparse_rank >= 1u);
    BOOST_TEST(found.hits[0].dense_rank >= 1u);
    BOOST_TEST(found.hits[0].score <= 1.0);
    BOOST_TEST(found.hits.size() <= 3u);
    BOOST_TEST(!found.dense_failure);

    // Dense only finds what shares a word of its vocabulary.
    auto const dense_only =
        db.await(search.rank({.text = "nacimiento", .top_k = 5, .mode = retrieval::search_mode::dense})).value();
    BOOST_TEST_REQUIRE(dense_only.hits.size() == 1u);
    BOOST_TEST(dense_only.hits[0].sparse_rank == 0u);
    BOOST_TEST(dense_only.hits[0].score == 1.0, boost::test_tools::tolerance(1e-9));

    // Collection weights read the sparse hits' collections from the index.
    retrieval::search_options weighted;
    weighted.collection_weights["normativa"] = 0.5;
    retrieval::searcher sparse_only(index, spanish_like(), nullptr, {}, weighted);
    auto const halved = db.await(sparse_only.search({.text = "vacaciones", .top_k = 3})).value();
    BOOST_TEST_REQUIRE(!halved.hits.empty());
    BOOST_TEST(halved.hits[0].score == 0.5, boost::test_tools::tolerance(1e-9));

    embed.fail = true;
    auto const degraded = db.await(search.search({.text = "vacaciones", .top_k = 3})).value();
    BOOST_TEST(degraded.dense_failure.value() == "embeddings unreachable");
    BOOST_TEST(degraded.hits.at(0).item.article_number == "38");
}

BOOST_AUTO_TEST_CASE(open_searcher_reads_the_stored_profile)
{
    database db;
    retrieval::analysis_profile const profile{.stop_words = {"el", "la", "de", "y", "en"}, .stemmer = "spanish"};
    {
        auto writer = db.writer();
        auto chunks = small_law();
        db.await(writer.replace("normativa", "Ley", chunks)).value();
        db.await(writer.store_analysis(profile)).value();
        auto const bytes = db.await(writer.load_model(retrieval::analysis_model_name)).value();
        BOOST_TEST_REQUIRE(bytes.has_value());
        BOOST_TEST((retrieval::analysis_profile::from_json_text(*bytes).value() == profile));
    }
    retrieval::postgres_index index(db.pool);
    BOOST_TEST((db.await(retrieval::load_analysis(index)).value() == profile));
    retrieval::open_searcher_options options;
    auto opened = db.await(retrieval::open_searcher(index, std::move(options)));
    BOOST_TEST_REQUIRE(opened.has_value(), opened.error().message);
    BOOST_TEST((opened->profile == profile));
    BOOST_TEST(opened->stats.chunks == 5u);
    BOOST_TEST((opened->dense == retrieval::dense_status::no_embedder));
    auto const found = db.await(opened->searcher->search({.text = "vacación", .top_k = 3})).value();
    BOOST_TEST_REQUIRE(!found.hits.empty());
    BOOST_TEST(found.hits[0].item.article_number == "38");

    // Without a profile, and nothing to fall back on: the error says so.
    db.await(db.pool.execute("DELETE FROM rag_models")).value();
    retrieval::open_searcher_options bare;
    auto const refused = db.await(retrieval::open_searcher(index, std::move(bare)));
    BOOST_TEST_REQUIRE(refused.has_error());
    BOOST_TEST((refused.error().code == retrieval::errc::no_analysis));
}

BOOST_AUTO_TEST_SUITE_END()
