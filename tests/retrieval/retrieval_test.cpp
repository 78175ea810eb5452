// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Text analysis, fusion, the SQLite index (a real file in a temporary folder)
// and the searcher over it.

#include "sample_law.hpp"

#include <agentio/metrics.hpp>
#include <agentio/retrieval.hpp>
#include <agentio/retrieval/observed_index.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_future.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <random>

#include <unistd.h>

namespace asio = boost::asio;
namespace retrieval = agentio::retrieval;
namespace llm = agentio::llm;

namespace {

using agentio_test::make_chunk;
using agentio_test::small_law;
using agentio_test::spanish_like;
using agentio_test::word_embedder;

// Runs a coroutine to its end on a fresh context.
template<class T>
T run(asio::awaitable<T> work)
{
    asio::io_context ioc;
    auto f = asio::co_spawn(ioc, std::move(work), asio::use_future);
    ioc.run();
    return f.get();
}

struct temp_dir
{
    std::filesystem::path path = std::filesystem::temp_directory_path() /
        ("agentio-retrieval-" + std::to_string(::getpid()) + "-" + std::to_string(std::random_device{}()));
    temp_dir() { std::filesystem::create_directories(path); }
    ~temp_dir() { std::filesystem::remove_all(path); }
};

// spanish_like() with Snowball's Spanish stems, as a profile.
retrieval::analysis_profile stemming_profile()
{
    return {.stop_words = {"el", "la", "los", "las", "de", "del", "y", "en", "a", "por", "que", "un", "una", "me", "mi",
                "se", "al", "con", "para", "su"},
        .stemmer = "spanish"};
}

// The small law written with `text`, its profile stored when given.
void write_small_law(std::filesystem::path const& path, retrieval::analyzer text,
    std::optional<retrieval::analysis_profile> const& profile)
{
    auto writer = retrieval::sqlite_index_writer::open(path, std::move(text)).value();
    auto chunks = small_law();
    writer.replace("normativa", "Ley", chunks).value();
    if(profile)
        writer.store_analysis(*profile).value();
}

// What open_searcher gives for `options`, or its error.
retrieval::result<retrieval::opened_searcher> open_with(retrieval::index& idx, retrieval::open_searcher_options options)
{
    return run(retrieval::open_searcher(idx, std::move(options)));
}

} // namespace

BOOST_AUTO_TEST_SUITE(retrieval_text)

BOOST_AUTO_TEST_CASE(folding_matches_fts5_remove_diacritics)
{
    BOOST_TEST(retrieval::fold("Índole ÑANDÚ Pingüino") == "indole nandu pinguino");
    BOOST_TEST(retrieval::fold("Sección 1.ª") == "seccion 1.a");
    BOOST_TEST(retrieval::fold("«¿Qué?»") == "  que? ");
}

BOOST_AUTO_TEST_CASE(words_split_on_punctuation)
{
    BOOST_TEST(retrieval::words("Contrato fijo-discontinuo (art. 48.4)") ==
            (std::vector<std::string>{"contrato", "fijo", "discontinuo", "art", "48", "4"}),
        boost::test_tools::per_element());
    BOOST_TEST(retrieval::words("¿Cuántos días?") == (std::vector<std::string>{"cuantos", "dias"}),
        boost::test_tools::per_element());
    // Invalid UTF-8 separates words instead of joining garbage to them.
    BOOST_TEST(retrieval::words("ab\xff"
                                "cd") == (std::vector<std::string>{"ab", "cd"}),
        boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(analyzer_drops_stop_words_and_short_words_not_numbers)
{
    auto const a = spanish_like();
    BOOST_TEST(a.terms("¿Cuántos días de vacaciones me tocan en el artículo 8?") ==
            (std::vector<std::string>{"cuantos", "dias", "vacaciones", "tocan", "articulo", "8"}),
        boost::test_tools::per_element());
    BOOST_TEST(a.indexed_text("Las vacaciones, y el DESCANSO") == "vacaciones descanso");
    // Stop words written with accents match their folded form.
    retrieval::analyzer b({.stop_words = {"Según"}});
    BOOST_TEST(b.terms("segun la ley") == (std::vector<std::string>{"la", "ley"}), boost::test_tools::per_element());
    retrieval::analyzer stemmed({.stem = [](std::string_view w) {
        return std::string(w.ends_with("es") ? w.substr(0, w.size() - 2) : w);
    }});
    BOOST_TEST(stemmed.terms("vacaciones día 100") == (std::vector<std::string>{"vacacion", "dia", "100"}),
        boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(fts5_query_quotes_every_term)
{
    std::vector<std::string> const terms{"near", "or", "vacaciones", "a\"b", "vacaciones", "x*"};
    BOOST_TEST(retrieval::fts5_any_of(terms) == R"("a""b" OR "near" OR "or" OR "vacaciones" OR "x*")");
    BOOST_TEST(retrieval::fts5_any_of({}).empty());
}

BOOST_AUTO_TEST_CASE(passages_join_short_lines_and_cut_long_ones)
{
    std::string const text = "Uno.\nDos.\n\n" + std::string(50, 'x') + ". " + std::string(50, 'y') + ".\nTres.";
    auto const parts = retrieval::split_passages(text, {.max_chars = 60, .min_chars = 20});
    BOOST_TEST_REQUIRE(parts.size() == 4u);
    BOOST_TEST(parts[0] == "Uno.\nDos."); // joined: each too short alone
    BOOST_TEST(parts[1] == std::string(50, 'x') + ".");
    BOOST_TEST(parts[2] == std::string(50, 'y') + ".");
    BOOST_TEST(parts[3] == "Tres.");
    for(auto p : retrieval::split_passages(std::string(500, 'z'), {.max_chars = 64, .min_chars = 10}))
        BOOST_TEST(p.size() <= 64u);
    BOOST_TEST(retrieval::split_passages(" \n\n ").empty());
}

BOOST_AUTO_TEST_CASE(analysis_profile_round_trips_through_json)
{
    auto const profile = stemming_profile();
    auto const json = profile.to_json();
    BOOST_TEST(json.at("version").as_int64() == 1);
    BOOST_TEST(json.at("stemmer").as_string() == "spanish");
    BOOST_TEST(json.at("min_length").to_number<std::size_t>() == 2u);
    auto const back = retrieval::analysis_profile::from_json(json);
    BOOST_TEST_REQUIRE(back.has_value());
    BOOST_TEST((*back == profile));
    auto const text = boost::json::serialize(json);
    auto const from_text = retrieval::analysis_profile::from_json_text(text);
    BOOST_TEST_REQUIRE(from_text.has_value());
    BOOST_TEST((*from_text == profile));
    // Fields a later version may add without changing the analysis are ignored.
    auto const extra = retrieval::analysis_profile::from_json_text(
        R"({"version":1,"stop_words":[],"min_length":0,"stemmer":"","note":"x"})");
    BOOST_TEST_REQUIRE(extra.has_value());
    BOOST_TEST(extra->min_length == 0u);
    BOOST_TEST(extra->stemmer.empty());

    // The analyzer it makes: stop words out, stems in, as the options say.
    auto const a = profile.make_analyzer().value();
    BOOST_TEST(a.terms("Las vacaciones y el descanso") == (std::vector<std::string>{"vacacion", "descans"}),
        boost::test_tools::per_element());
    BOOST_TEST(a.terms("vacación") == a.terms("vacaciones"), boost::test_tools::per_element());
    auto const plain = retrieval::analysis_profile{.stop_words = {"el"}, .min_length = 3}.make_analyzer().value();
    BOOST_TEST(plain.terms("el sol es 1") == (std::vector<std::string>{"sol", "1"}), boost::test_tools::per_element());
    auto const unknown = retrieval::analysis_profile{.stemmer = "klingon"}.make_analyzer();
    BOOST_TEST_REQUIRE(unknown.has_error());
    BOOST_TEST((unknown.error().code == retrieval::errc::unknown_stemmer));
    BOOST_TEST(unknown.error().message.find("klingon") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(bad_analysis_profile_json_names_the_field)
{
    auto const why = [](std::string_view text) {
        auto const r = retrieval::analysis_profile::from_json_text(text);
        BOOST_TEST_REQUIRE(r.has_error(), text);
        return r.error();
    };
    auto const corrupt = [&](std::string_view text, std::string_view field) {
        auto const e = why(text);
        BOOST_TEST((e.code == retrieval::errc::corrupt_data), text);
        BOOST_TEST(e.message.find(field) != std::string::npos, e.message << " lacks " << field);
    };
    corrupt("not json", "not JSON");
    corrupt("[1]", "not a JSON object");
    corrupt(R"({"stop_words":[],"min_length":2,"stemmer":""})", "\"version\" is missing");
    corrupt(R"({"version":"1","stop_words":[],"min_length":2,"stemmer":""})", "\"version\"");
    corrupt(R"({"version":1,"min_length":2,"stemmer":""})", "\"stop_words\" is missing");
    corrupt(R"({"version":1,"stop_words":"el","min_length":2,"stemmer":""})", "\"stop_words\" is not an array");
    corrupt(R"({"version":1,"stop_words":["el",3],"min_length":2,"stemmer":""})", "\"stop_words\"[1]");
    corrupt(R"({"version":1,"stop_words":[],"stemmer":""})", "\"min_length\" is missing");
    corrupt(R"({"version":1,"stop_words":[],"min_length":-1,"stemmer":""})", "\"min_length\"");
    corrupt(R"({"version":1,"stop_words":[],"min_length":2.5,"stemmer":""})", "\"min_length\"");
    corrupt(R"({"version":1,"stop_words":[],"min_length":2})", "\"stemmer\" is missing");
    corrupt(R"({"version":1,"stop_words":[],"min_length":2,"stemmer":null})", "\"stemmer\" is not a string");
    auto const newer = why(R"({"version":2,"stop_words":[],"min_length":2,"stemmer":"","fold":"ascii"})");
    BOOST_TEST((newer.code == retrieval::errc::schema_too_new));
    BOOST_TEST(newer.message.find("\"version\" 2") != std::string::npos, newer.message);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(retrieval_fusion)

BOOST_AUTO_TEST_CASE(reciprocal_rank_fusion_by_hand)
{
    std::vector<retrieval::ranked> const a{{1, 9}, {2, 8}, {3, 7}};
    std::vector<retrieval::ranked> const b{{3, 0.9}, {4, 0.8}, {1, 0.7}};
    retrieval::fusion_input const inputs[] = {{a, 1.0}, {b, 2.0}};
    auto const f = retrieval::reciprocal_rank_fusion(inputs, {.k = 60, .depth = 30});
    BOOST_TEST_REQUIRE(f.size() == 4u);
    // 3: 1/63 + 2/61; 1: 1/61 + 2/63; 4: 2/62; 2: 1/62
    BOOST_TEST(f[0].id == 3);
    BOOST_TEST(f[0].score == 1.0 / 63 + 2.0 / 61, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(f[1].id == 1);
    BOOST_TEST(f[2].id == 4);
    BOOST_TEST(f[3].id == 2);
    BOOST_TEST(f[0].ranks == (std::vector<std::uint32_t>{3, 1}), boost::test_tools::per_element());
    BOOST_TEST(f[2].ranks == (std::vector<std::uint32_t>{0, 2}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(depth_is_at_least_thirty_and_ties_are_deterministic)
{
    std::vector<retrieval::ranked> a, b;
    for(int i = 0; i < 50; ++i)
        a.push_back({i, 0});
    retrieval::fusion_input const one[] = {{a, 1}};
    BOOST_TEST(retrieval::reciprocal_rank_fusion(one, {.k = 60, .depth = 5}).size() == 30u);
    BOOST_TEST(retrieval::reciprocal_rank_fusion(one, {.k = 60, .depth = 40}).size() == 40u);
    // Same score (rank 1 in one list each): the better single rank, then the smaller id.
    std::vector<retrieval::ranked> const x{{7, 0}}, y{{5, 0}};
    retrieval::fusion_input const two[] = {{x, 1}, {y, 1}};
    auto const f = retrieval::reciprocal_rank_fusion(two);
    BOOST_TEST(f[0].id == 5);
    BOOST_TEST(f[1].id == 7);
    // An id a list repeats counts once.
    std::vector<retrieval::ranked> const rep{{1, 0}, {1, 0}};
    retrieval::fusion_input const r[] = {{rep, 1}};
    BOOST_TEST(retrieval::reciprocal_rank_fusion(r)[0].score == 1.0 / 61, boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(retrieval_sqlite)

BOOST_AUTO_TEST_CASE(replace_is_idempotent_and_keeps_ids)
{
    temp_dir dir;
    auto const path = dir.path / "index.db";
    auto writer = retrieval::sqlite_index_writer::open(path, spanish_like()).value();
    auto chunks = small_law();
    auto const first = writer.replace("normativa", "Ley", chunks).value();
    BOOST_TEST(first.added == 5u);
    std::vector<std::int64_t> ids;
    for(auto const& c : chunks)
        ids.push_back(c.id);

    auto again = small_law();
    auto const second = writer.replace("normativa", "Ley", again).value();
    BOOST_TEST(second.unchanged == 5u);
    BOOST_TEST(second.added + second.changed + second.removed == 0u);
    for(std::size_t i = 0; i < again.size(); ++i)
        BOOST_TEST(again[i].id == ids[i]);

    // One changed, one gone, one new.
    auto edited = small_law();
    edited[0].text += " Modificado.";
    edited.erase(edited.begin() + 2);
    edited.push_back(make_chunk("ley/59/1", "59", "1", "Artículo 59. Prescripción y caducidad.",
        "Las acciones derivadas del contrato de trabajo prescribirán al año de su terminación.", {}, 6));
    auto const third = writer.replace("normativa", "Ley", edited).value();
    BOOST_TEST(third.changed == 1u);
    BOOST_TEST(third.removed == 1u);
    BOOST_TEST(third.added == 1u);
    BOOST_TEST(third.unchanged == 3u);
    BOOST_TEST(edited[0].id == ids[0]);

    // Another law is untouched by replacing this one.
    std::vector<retrieval::chunk> other{make_chunk("otra/1", "1", "", "Artículo 1.", "Texto de otra ley.")};
    writer.replace("normativa", "Otra", other).value();
    std::vector<retrieval::chunk> none;
    BOOST_TEST(writer.replace("normativa", "Otra", none).value().removed == 1u);
    BOOST_TEST(writer.all_chunks().value().size() == 5u);

    // Two chunks with one key: refused, nothing written.
    auto dup = small_law();
    dup[1].key = dup[0].key;
    auto const refused = writer.replace("normativa", "Ley", dup);
    BOOST_TEST_REQUIRE(refused.has_error());
    BOOST_TEST(refused.error().message.find("ley/38/1") != std::string::npos);
    BOOST_TEST(writer.all_chunks().value().size() == 5u);
}

BOOST_AUTO_TEST_CASE(read_only_index_searches_and_fetches)
{
    temp_dir dir;
    auto const path = dir.path / "index.db";
    {
        auto writer = retrieval::sqlite_index_writer::open(path, spanish_like()).value();
        auto chunks = small_law();
        writer.replace("normativa", "Ley", chunks).value();
        std::vector<retrieval::chunk> ruling{make_chunk("sts/1", "", "", "STS 1/2020",
            "Sentencia sobre vacaciones no disfrutadas por incapacidad temporal.")};
        writer.replace("sentencias", "Tribunal Supremo", ruling).value();
    }
    auto index = retrieval::sqlite_index::open(path).value();
    auto const a = spanish_like();

    auto const hits = run(index->sparse(a.terms("¿Vacaciones anuales retribuidas?"), {}, 30)).value();
    BOOST_TEST_REQUIRE(hits.size() >= 2u);
    auto const top = run(index->chunks({hits[0].id})).value();
    BOOST_TEST(top.at(0).article_number == "38");
    for(std::size_t i = 1; i < hits.size(); ++i)
        BOOST_TEST(hits[i - 1].score >= hits[i].score);

    // Collections filter; the FTS5 syntax in a question is only words.
    auto const rulings = run(index->sparse(a.terms("vacaciones"), {"sentencias"}, 30)).value();
    BOOST_TEST_REQUIRE(rulings.size() == 1u);
    BOOST_TEST(run(index->sparse(a.terms("NEAR(\"x\" OR * : vacaciones"), {}, 30)).value().size() >= 3u);
    BOOST_TEST(run(index->sparse({}, {}, 30)).value().empty());

    // An article in order, a paragraph, a law that is not there.
    auto const art = run(index->article("Ley", "48", "")).value();
    BOOST_TEST_REQUIRE(art.size() == 2u);
    BOOST_TEST(art[0].paragraph == "1");
    BOOST_TEST(art[1].paragraph == "4");
    BOOST_TEST(art[1].refs == (std::vector<std::string>{"38.1", "56"}), boost::test_tools::per_element());
    BOOST_TEST(run(index->article("Ley", "48", "4")).value().size() == 1u);
    BOOST_TEST(run(index->article("Otra", "48", "")).value().empty());

    // Related: the cited paragraph, else the article's first chunk; itself never.
    auto const related = run(retrieval::related_chunks(*index, art[1], 5)).value();
    BOOST_TEST_REQUIRE(related.size() == 2u);
    BOOST_TEST(related[0].key == "ley/38/1");
    BOOST_TEST(related[1].key == "ley/56/1");
    BOOST_TEST(run(retrieval::related_chunks(*index, art[1], 1)).value().size() == 1u);

    auto const stats = run(index->stats()).value();
    BOOST_TEST(stats.chunks == 6u);
    BOOST_TEST(stats.per_collection.at("sentencias") == 1u);
    BOOST_TEST(run(index->laws()).value().at("Ley") == 5u);
    // The readers' connections cannot write, though they have no authorizer (FTS5 needs that).
    {
        auto c = agentio::sqlite::connection::open(path, agentio::sqlite::open_mode::read_only_trusted).value();
        BOOST_TEST(c.execute("DELETE FROM rag_chunks").has_error());
        BOOST_TEST(c.execute("INSERT INTO rag_fts(rag_fts) VALUES('rebuild')").has_error());
        BOOST_TEST(c.execute("ATTACH DATABASE ':memory:' AS other").has_error());
        BOOST_TEST(c.execute("PRAGMA query_only = OFF; DELETE FROM rag_chunks").has_error());
    }
    // Ids fetched in the order asked, unknown ones left out.
    auto const fetched = run(index->chunks({art[1].id, 999999, art[0].id})).value();
    BOOST_TEST_REQUIRE(fetched.size() == 2u);
    BOOST_TEST(fetched[0].id == art[1].id);
}

BOOST_AUTO_TEST_CASE(vectors_and_models_round_trip)
{
    temp_dir dir;
    auto const path = dir.path / "index.db";
    auto writer = retrieval::sqlite_index_writer::open(path, spanish_like()).value();
    auto chunks = small_law();
    writer.replace("normativa", "Ley", chunks).value();
    BOOST_TEST(writer.missing_vectors("m").value().size() == 5u);
    std::vector<std::int64_t> ids{chunks[0].id, chunks[3].id};
    std::vector<float> const values{1, 0, 0, 0, 1, 0};
    writer.store_vectors("m", ids, values, 3, true).value();
    BOOST_TEST(writer.missing_vectors("m").value().size() == 3u);
    BOOST_TEST(writer.store_vectors("m", ids, values, 4, false).has_error()); // 6 floats are not 2 × 4
    std::string const model = "model bytes \0 with a zero";
    writer.store_model("lsa", std::as_bytes(std::span(model))).value();
    BOOST_TEST(*writer.load_model("lsa").value() == model);
    BOOST_TEST(!writer.load_model("none").value().has_value());

    // A changed chunk loses its vectors (they described the old text).
    chunks[0].text = "Otro texto.";
    writer.replace("normativa", "Ley", chunks).value();
    BOOST_TEST(writer.missing_vectors("m").value().size() == 4u);

    auto index = retrieval::sqlite_index::open(path).value();
    auto const dense = run(index->load_vectors("m")).value();
    BOOST_TEST_REQUIRE(dense.vectors);
    BOOST_TEST(dense.vectors->size() == 1u);
    BOOST_TEST(dense.vectors->dimensions() == 3u);
    BOOST_TEST(dense.collections.at(0) == "normativa");
    BOOST_TEST(!run(index->load_vectors("other")).value().vectors);
    BOOST_TEST(*run(index->load_model("lsa")).value() == model);
}

BOOST_AUTO_TEST_CASE(a_missing_index_is_an_error)
{
    temp_dir dir;
    auto const missing = retrieval::sqlite_index::open(dir.path / "none.db");
    BOOST_TEST(missing.has_error());
    // A SQLite file that is not an index.
    {
        auto c = agentio::sqlite::connection::open(dir.path / "other.db", agentio::sqlite::open_mode::read_write_create)
                     .value();
        c.execute("CREATE TABLE t(x)").value();
    }
    BOOST_TEST(retrieval::sqlite_index::open(dir.path / "other.db").has_error());
}

BOOST_AUTO_TEST_CASE(the_analysis_profile_is_stored_with_the_index)
{
    temp_dir dir;
    auto const path = dir.path / "index.db";
    auto const profile = stemming_profile();
    {
        auto writer = retrieval::sqlite_index_writer::open(path, profile.make_analyzer().value()).value();
        BOOST_TEST(!writer.load_model(retrieval::analysis_model_name).value());
        writer.store_analysis(retrieval::analysis_profile{.stemmer = "english"}).value();
        writer.store_analysis(profile).value(); // replaces the first
        auto const bytes = writer.load_model(retrieval::analysis_model_name).value();
        BOOST_TEST_REQUIRE(bytes.has_value());
        BOOST_TEST((retrieval::analysis_profile::from_json_text(*bytes).value() == profile));
    }
    auto index = retrieval::sqlite_index::open(path).value();
    auto const loaded = run(retrieval::load_analysis(*index)).value();
    BOOST_TEST_REQUIRE(loaded.has_value());
    BOOST_TEST((*loaded == profile));

    // None stored: nothing, not an error. Garbage stored: the error says what.
    write_small_law(dir.path / "bare.db", spanish_like(), std::nullopt);
    auto bare = retrieval::sqlite_index::open(dir.path / "bare.db").value();
    BOOST_TEST(!run(retrieval::load_analysis(*bare)).value().has_value());
    {
        auto writer = retrieval::sqlite_index_writer::open(dir.path / "bare.db", spanish_like()).value();
        std::string const garbage = R"({"version":1,"stop_words":{}})";
        writer.store_model(retrieval::analysis_model_name, std::as_bytes(std::span(garbage))).value();
    }
    auto const bad = run(retrieval::load_analysis(*bare));
    BOOST_TEST_REQUIRE(bad.has_error());
    BOOST_TEST((bad.error().code == retrieval::errc::corrupt_data));
    BOOST_TEST(bad.error().message.find("stop_words") != std::string::npos);
}

// Each read through an observed_index is one observation and one count under
// its method's name, `error` for a result holding one; results and errors
// come back as the inner index gives them, and open_searcher reads through it.
BOOST_AUTO_TEST_CASE(an_observed_index_times_and_counts_its_reads)
{
    temp_dir dir;
    auto const path = dir.path / "index.db";
    write_small_law(path, spanish_like(), std::nullopt);
    {
        // Article 56's refs made unreadable: reading it is the inner index's corrupt_data.
        auto c = agentio::sqlite::connection::open(path, agentio::sqlite::open_mode::read_write_create).value();
        c.execute("UPDATE rag_chunks SET refs = 'not json' WHERE key = 'ley/56/1'").value();
    }
    agentio::metrics::registry registry({.process_metrics = false});
    retrieval::observed_index index(retrieval::sqlite_index::open(path).value(), registry, "leyes");
    auto& inner = index.inner();
    auto const a = spanish_like();

    auto const hits = run(index.sparse(a.terms("vacaciones anuales"), {}, 30)).value();
    auto const direct = run(inner.sparse(a.terms("vacaciones anuales"), {}, 30)).value();
    BOOST_TEST_REQUIRE(hits.size() == direct.size());
    BOOST_TEST_REQUIRE(!hits.empty());
    BOOST_TEST(hits[0].id == direct[0].id);
    BOOST_TEST(run(index.article("Ley", "38", "")).value().size() == 2u);
    BOOST_TEST(run(index.laws()).value().at("Ley") == 5u);

    auto const broken = run(index.article("Ley", "56", ""));
    auto const broken_inner = run(inner.article("Ley", "56", ""));
    BOOST_TEST_REQUIRE(broken.has_error());
    BOOST_TEST_REQUIRE(broken_inner.has_error());
    BOOST_TEST((broken.error().code == retrieval::errc::corrupt_data));
    BOOST_TEST(broken.error().message == broken_inner.error().message);

    // open_searcher's reads (stats, laws, the stored profile and model) are the wrapper's too.
    retrieval::open_searcher_options options;
    options.fallback = a;
    auto const opened = open_with(index, std::move(options));
    BOOST_TEST_REQUIRE(opened.has_value());
    BOOST_TEST(opened->stats.chunks == 5u);

    auto const text = registry.expose();
    auto const has = [&](std::string const& line) { return text.find(line + "\n") != std::string::npos; };
    BOOST_TEST(has(R"(agentio_index_operations_total{index="leyes",operation="sparse",outcome="ok"} 1)"));
    BOOST_TEST(has(R"(agentio_index_operations_total{index="leyes",operation="article",outcome="ok"} 1)"));
    BOOST_TEST(has(R"(agentio_index_operations_total{index="leyes",operation="article",outcome="error"} 1)"));
    BOOST_TEST(has(R"(agentio_index_operation_duration_seconds_count{index="leyes",operation="article"} 2)"));
    BOOST_TEST(has(R"(agentio_index_operation_duration_seconds_count{index="leyes",operation="sparse"} 1)"));
    BOOST_TEST(has(R"(agentio_index_operations_total{index="leyes",operation="stats",outcome="ok"} 1)"));
    BOOST_TEST(text.find(R"(operation="load_model",outcome="ok")") != std::string::npos);
    BOOST_TEST(text.find(R"(operation="sparse",outcome="error")") == std::string::npos);
    BOOST_CHECK_THROW((void)retrieval::observed_index(std::unique_ptr<retrieval::index>(), registry),
        std::invalid_argument);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(retrieval_searcher)

BOOST_AUTO_TEST_CASE(hybrid_fuses_both_halves_and_survives_a_dense_failure)
{
    temp_dir dir;
    auto const path = dir.path / "index.db";
    word_embedder embed;
    {
        auto writer = retrieval::sqlite_index_writer::open(path, spanish_like()).value();
        auto chunks = small_law();
        writer.replace("normativa", "Ley", chunks).value();
        std::vector<std::string> texts;
        std::vector<std::int64_t> ids;
        for(auto const& c : chunks)
            texts.push_back(c.title + " " + c.text), ids.push_back(c.id);
        auto const v = run(embed.embed(texts)).value();
        writer.store_vectors(embed.model_id(), ids, v.values, v.dimensions, true).value();
    }
    auto index = retrieval::sqlite_index::open(path).value();
    auto dense = run(index->load_vectors(embed.model_id())).value();
    retrieval::searcher search(*index, spanish_like(), &embed, std::move(dense));
    BOOST_TEST(search.has_dense());

    auto const found = run(search.search({.text = "vacaciones", .top_k = 3})).value();
    BOOST_TEST_REQUIRE(!found.hits.empty());
    BOOST_TEST(found.hits[0].item.article_number == "38");
    BOOST_TEST(found.hits[0].sparse_rank >= 1u);
    BOOST_TEST(found.hits[0].dense_rank >= 1u);
    BOOST_TEST(found.hits[0].score <= 1.0);
    BOOST_TEST(found.hits.size() <= 3u);
    BOOST_TEST(!found.dense_failure);

    // Dense only finds what shares a word of its vocabulary.
    auto const dense_only =
        run(search.rank({.text = "nacimiento", .top_k = 5, .mode = retrieval::search_mode::dense})).value();
    BOOST_TEST_REQUIRE(dense_only.hits.size() == 1u);
    BOOST_TEST(dense_only.hits[0].sparse_rank == 0u);
    BOOST_TEST(dense_only.hits[0].score == 1.0, boost::test_tools::tolerance(1e-9));

    embed.fail = true;
    auto const degraded = run(search.search({.text = "vacaciones", .top_k = 3})).value();
    BOOST_TEST(degraded.dense_failure.value() == "embeddings unreachable");
    BOOST_TEST(degraded.hits.at(0).item.article_number == "38");
}

BOOST_AUTO_TEST_CASE(collection_weights_scale_scores)
{
    temp_dir dir;
    auto const path = dir.path / "index.db";
    {
        auto writer = retrieval::sqlite_index_writer::open(path, spanish_like()).value();
        auto chunks = small_law();
        writer.replace("normativa", "Ley", chunks).value();
        std::vector<retrieval::chunk> ruling{
            make_chunk("sts/1", "", "", "Vacaciones", "Vacaciones vacaciones vacaciones: sentencia sobre vacaciones.")};
        writer.replace("sentencias", "Tribunal Supremo", ruling).value();
    }
    auto index = retrieval::sqlite_index::open(path).value();
    retrieval::searcher plain(*index, spanish_like(), nullptr, {});
    auto const a = run(plain.search({.text = "vacaciones", .top_k = 5})).value();
    BOOST_TEST_REQUIRE(!a.hits.empty());
    BOOST_TEST(a.hits[0].item.collection == "sentencias");
    BOOST_TEST(a.hits[0].score == 1.0, boost::test_tools::tolerance(1e-9));

    retrieval::search_options weighted;
    weighted.collection_weights["sentencias"] = 0.5;
    retrieval::searcher search(*index, spanish_like(), nullptr, {}, weighted);
    auto const b = run(search.search({.text = "vacaciones", .top_k = 5})).value();
    BOOST_TEST(b.hits[0].item.collection == "normativa");
    auto const only = run(search.search({.text = "vacaciones", .top_k = 5, .collections = {"sentencias"}})).value();
    BOOST_TEST_REQUIRE(only.hits.size() == 1u);
    BOOST_TEST(only.hits[0].score == 0.5, boost::test_tools::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(each_search_is_a_retrieval_span_of_its_caller)
{
    temp_dir dir;
    auto const path = dir.path / "index.db";
    {
        auto writer = retrieval::sqlite_index_writer::open(path, spanish_like()).value();
        auto chunks = small_law();
        writer.replace("normativa", "Ley", chunks).value();
    }
    auto index = retrieval::sqlite_index::open(path).value();
    agentio::trace::settings on;
    on.enabled = true;
    agentio::trace::tracer tracer(on);
    agentio::trace::settings with_contents = on;
    with_contents.capture_message_content = true;
    agentio::trace::tracer capturing(with_contents);

    retrieval::search_options traced;
    traced.tracer = &tracer;
    traced.data_source = "leyes";
    retrieval::searcher search(*index, spanish_like(), nullptr, {}, traced);
    std::string const caller = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    auto const found = run(search.search({.text = "vacaciones", .top_k = 3, .traceparent = caller})).value();
    BOOST_TEST_REQUIRE(!found.hits.empty());
    (void)run(search.rank({.text = "vacaciones", .top_k = 2})).value(); // no caller: a trace of its own

    std::vector<agentio::trace::span_data> spans;
    tracer.take(spans, 10);
    BOOST_TEST_REQUIRE(spans.size() == 2u);
    auto const parent = agentio::trace::parse_traceparent(caller).value();
    auto attribute = [](agentio::trace::span_data const& d, std::string_view key) -> agentio::trace::attribute_value {
        for(auto const& a : d.attributes)
            if(a.key == key)
                return a.value;
        return std::string("<absent>");
    };
    BOOST_TEST(spans[0].name == "retrieval leyes");
    BOOST_TEST(static_cast<int>(spans[0].kind) == static_cast<int>(agentio::trace::span_kind::internal));
    BOOST_TEST((spans[0].context.trace_id == parent.trace_id));
    BOOST_TEST((spans[0].parent_span_id == parent.span_id));
    BOOST_TEST(std::get<std::string>(attribute(spans[0], "gen_ai.operation.name")) == "retrieval");
    BOOST_TEST(std::get<std::string>(attribute(spans[0], "gen_ai.data_source.id")) == "leyes");
    BOOST_TEST(std::get<double>(attribute(spans[0], "gen_ai.request.top_k")) == 3.0);
    BOOST_TEST(std::get<std::int64_t>(attribute(spans[0], "agentio.retrieval.hits")) ==
        static_cast<std::int64_t>(found.hits.size()));
    // Contents only when opted in: no query, no documents.
    BOOST_TEST(std::get<std::string>(attribute(spans[0], "gen_ai.retrieval.query.text")) == "<absent>");
    BOOST_TEST(std::get<std::string>(attribute(spans[0], "gen_ai.retrieval.documents")) == "<absent>");
    BOOST_TEST((spans[1].parent_span_id == agentio::trace::span_id{}));

    traced.tracer = &capturing;
    retrieval::searcher open_book(*index, spanish_like(), nullptr, {}, traced);
    auto const again = run(open_book.search({.text = "vacaciones", .top_k = 1, .traceparent = caller})).value();
    BOOST_TEST_REQUIRE(again.hits.size() == 1u);
    spans.clear();
    capturing.take(spans, 10);
    BOOST_TEST_REQUIRE(spans.size() == 1u);
    BOOST_TEST(std::get<std::string>(attribute(spans[0], "gen_ai.retrieval.query.text")) == "vacaciones");
    auto const documents = boost::json::parse(std::get<std::string>(attribute(spans[0], "gen_ai.retrieval.documents")));
    BOOST_TEST(documents.at(0).at("id").as_string() == std::to_string(again.hits[0].item.id));
}

BOOST_AUTO_TEST_CASE(open_searcher_analyses_queries_as_the_index_says)
{
    temp_dir dir;
    auto const path = dir.path / "index.db";
    auto const profile = stemming_profile();
    auto const text = profile.make_analyzer().value();
    write_small_law(path, text, profile);
    auto index = retrieval::sqlite_index::open(path).value();

    // Nothing but the index: its profile, no model stored, so sparse only.
    auto opened = open_with(*index, {});
    BOOST_TEST_REQUIRE(opened.has_value(), opened.error().message);
    BOOST_TEST_REQUIRE(opened->searcher);
    BOOST_TEST((opened->profile == profile));
    BOOST_TEST(opened->stats.chunks == 5u);
    BOOST_TEST(opened->laws.at("Ley") == 5u);
    BOOST_TEST((opened->dense == retrieval::dense_status::no_embedder));
    BOOST_TEST(opened->embedder_id.empty());
    BOOST_TEST(!opened->own_embedder);
    BOOST_TEST(opened->warning.find("no latent-semantic model") != std::string::npos, opened->warning);
    BOOST_TEST(!opened->searcher->has_dense());
    // "vacación" and "retribuido" meet "vacaciones" and "retribuidas" at their stems.
    auto const found = run(opened->searcher->search({.text = "vacación", .top_k = 3})).value();
    BOOST_TEST_REQUIRE(!found.hits.empty());
    BOOST_TEST(found.hits[0].item.article_number == "38");
    auto const stemmed = run(opened->searcher->search({.text = "retribuido", .top_k = 3})).value();
    BOOST_TEST_REQUIRE(!stemmed.hits.empty());
    BOOST_TEST(stemmed.hits[0].item.key == "ley/38/1");
    // What a program guessing the analysis would miss.
    retrieval::searcher guessed(*index, spanish_like(), nullptr, {});
    BOOST_TEST(run(guessed.search({.text = "retribuido", .top_k = 3})).value().hits.empty());

    // The latent-semantic model stored with its vectors: the dense half is there.
    {
        auto writer = retrieval::sqlite_index_writer::open(path, text).value();
        auto const chunks = writer.all_chunks().value();
        std::vector<std::vector<std::string>> documents;
        std::vector<std::int64_t> ids;
        for(auto const& c : chunks)
            documents.push_back(text.terms(c.title + "\n" + c.text)), ids.push_back(c.id);
        auto model = std::make_shared<retrieval::lsa_model const>(retrieval::lsa_model::fit(documents));
        auto const bytes = model->serialize();
        writer.store_model(retrieval::lsa_model_name, std::as_bytes(std::span(bytes))).value();
        retrieval::lsa_embedder embed(model, text);
        std::vector<std::string> texts;
        for(auto const& c : chunks)
            texts.push_back(c.title + "\n" + c.text);
        auto const v = embed.embed_now(texts);
        writer.store_vectors(embed.model_id(), ids, v.values, v.dimensions, true).value();
    }
    auto hybrid = open_with(*index, {});
    BOOST_TEST_REQUIRE(hybrid.has_value(), hybrid.error().message);
    BOOST_TEST((hybrid->dense == retrieval::dense_status::ready));
    BOOST_TEST(hybrid->warning.empty(), hybrid->warning);
    BOOST_TEST_REQUIRE(hybrid->own_embedder);
    BOOST_TEST(hybrid->embedder_id == hybrid->own_embedder->model_id());
    BOOST_TEST(hybrid->embedder_id.starts_with("lsa"));
    BOOST_TEST(hybrid->searcher->has_dense());
    auto const both = run(hybrid->searcher->search({.text = "vacación anual", .top_k = 3})).value();
    BOOST_TEST_REQUIRE(!both.hits.empty());
    BOOST_TEST(both.hits[0].item.article_number == "38");
    BOOST_TEST(both.hits[0].dense_rank >= 1u);
    // Moved, it still searches: the searcher and its embedder keep their addresses.
    auto moved = std::move(*hybrid);
    BOOST_TEST(!run(moved.searcher->search({.text = "vacaciones", .top_k = 1})).value().hits.empty());

    // An embedder of the caller's, which the index has no vectors of: sparse only, and said so.
    word_embedder words;
    retrieval::open_searcher_options with_service;
    with_service.embedder = &words;
    auto other = open_with(*index, std::move(with_service));
    BOOST_TEST_REQUIRE(other.has_value());
    BOOST_TEST((other->dense == retrieval::dense_status::no_vectors));
    BOOST_TEST(!other->own_embedder);
    BOOST_TEST(other->embedder_id.empty());
    BOOST_TEST(other->warning.find("no vectors of words@5") != std::string::npos, other->warning);
    BOOST_TEST(!other->searcher->has_dense());

    // A stored model that is not one.
    {
        auto writer = retrieval::sqlite_index_writer::open(path, text).value();
        std::string const garbage = "not a model";
        writer.store_model(retrieval::lsa_model_name, std::as_bytes(std::span(garbage))).value();
    }
    auto corrupt = open_with(*index, {});
    BOOST_TEST_REQUIRE(corrupt.has_value());
    BOOST_TEST((corrupt->dense == retrieval::dense_status::unreadable));
    BOOST_TEST(corrupt->warning.find("corrupt") != std::string::npos, corrupt->warning);
}

BOOST_AUTO_TEST_CASE(open_searcher_on_an_index_without_a_profile)
{
    temp_dir dir;
    auto const path = dir.path / "index.db";
    write_small_law(path, spanish_like(), std::nullopt);
    auto index = retrieval::sqlite_index::open(path).value();

    // No profile and nothing to fall back on: an error the caller can report.
    auto const refused = open_with(*index, {});
    BOOST_TEST_REQUIRE(refused.has_error());
    BOOST_TEST((refused.error().code == retrieval::errc::no_analysis));
    BOOST_TEST(refused.error().message.find("analysis profile") != std::string::npos);

    // The caller's analyzer when it knows better (an index written before profiles).
    retrieval::open_searcher_options options;
    options.fallback = spanish_like();
    options.search.sparse_weight = 2;
    auto opened = open_with(*index, std::move(options));
    BOOST_TEST_REQUIRE(opened.has_value(), opened.error().message);
    BOOST_TEST(!opened->profile);
    BOOST_TEST(opened->warning.find("no analysis profile") != std::string::npos, opened->warning);
    auto const found = run(opened->searcher->search({.text = "vacaciones", .top_k = 3})).value();
    BOOST_TEST_REQUIRE(!found.hits.empty());
    BOOST_TEST(found.hits[0].item.article_number == "38");
    BOOST_TEST(found.hits[0].score == 1.0, boost::test_tools::tolerance(1e-9));

    // A stored profile wins over the fallback; one naming a stemmer this program lacks is an error.
    {
        auto writer = retrieval::sqlite_index_writer::open(path, spanish_like()).value();
        writer.store_analysis(retrieval::analysis_profile{.stemmer = "klingon"}).value();
    }
    retrieval::open_searcher_options again;
    again.fallback = spanish_like();
    auto const unknown = open_with(*index, std::move(again));
    BOOST_TEST_REQUIRE(unknown.has_error());
    BOOST_TEST((unknown.error().code == retrieval::errc::unknown_stemmer));

    // An index with no chunks opens too; the caller reads the count.
    write_small_law(dir.path / "empty.db", spanish_like(), stemming_profile());
    {
        auto writer = retrieval::sqlite_index_writer::open(dir.path / "empty.db", spanish_like()).value();
        std::vector<retrieval::chunk> none;
        writer.replace("normativa", "Ley", none).value();
    }
    auto empty_index = retrieval::sqlite_index::open(dir.path / "empty.db").value();
    auto const empty = open_with(*empty_index, {});
    BOOST_TEST_REQUIRE(empty.has_value());
    BOOST_TEST(empty->stats.chunks == 0u);
    BOOST_TEST(empty->laws.empty());
}

BOOST_AUTO_TEST_SUITE_END()
