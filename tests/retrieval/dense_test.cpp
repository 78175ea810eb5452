// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The dense half of retrieval: the SIMD dot product and vector store, and the
// latent-semantic model (TF-IDF + randomized truncated SVD).

// Test that header files are self-contained.
#include <agentio/retrieval/lsa.hpp>
#include <agentio/retrieval/vector_store.hpp>

#include <agentio/retrieval/detail/dense_kernels.hpp>
#include <agentio/retrieval/detail/deterministic_math.hpp>
#include <agentio/retrieval/detail/dot.hpp>

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace retrieval = agentio::retrieval;
namespace detail = agentio::retrieval::detail;

namespace {

// Uniform in [-1, 1).
float uniform(detail::xoshiro256& random)
{
    return float(double(random() >> 11) * 0x1.0p-52 - 1.0);
}

std::vector<float> random_vector(detail::xoshiro256& random, std::size_t n)
{
    std::vector<float> v(n);
    for(float& x : v)
        x = uniform(random);
    return v;
}

std::vector<float> normalized(std::vector<float> v)
{
    double sum = 0;
    for(float x : v)
        sum += double(x) * x;
    if(sum > 0)
        for(float& x : v)
            x = float(x / std::sqrt(sum));
    return v;
}

double cosine(std::span<float const> a, std::span<float const> b)
{
    double ab = 0, aa = 0, bb = 0;
    for(std::size_t i = 0; i < a.size(); ++i)
    {
        ab += double(a[i]) * b[i];
        aa += double(a[i]) * a[i];
        bb += double(b[i]) * b[i];
    }
    return aa > 0 && bb > 0 ? ab / std::sqrt(aa * bb) : 0.0;
}

// The k best of `rows` against `query` by an exact double-precision score,
// best first, equal scores by smaller id.
std::vector<retrieval::ranked> brute_force(std::vector<std::pair<std::int64_t, std::vector<float>>> const& rows,
    std::vector<float> const& query, std::size_t k)
{
    std::vector<retrieval::ranked> all;
    for(auto const& [id, row] : rows)
    {
        double s = 0;
        for(std::size_t i = 0; i < row.size(); ++i)
            s += double(row[i]) * query[i];
        all.push_back({id, s});
    }
    std::sort(all.begin(), all.end(),
        [](auto const& a, auto const& b) { return a.score > b.score || (a.score == b.score && a.id < b.id); });
    all.resize(std::min(k, all.size()));
    return all;
}

// A corpus of `documents` documents of about `length` terms drawn from a Zipf
// distribution over `vocabulary` terms.
std::vector<std::vector<std::string>> zipf_corpus(std::size_t documents, std::size_t length, std::size_t vocabulary,
    std::uint64_t seed)
{
    std::vector<double> cdf(vocabulary);
    double sum = 0;
    for(std::size_t i = 0; i < vocabulary; ++i)
        cdf[i] = sum += 1.0 / double(i + 1);
    detail::xoshiro256 random(seed);
    std::vector<std::vector<std::string>> out(documents);
    for(auto& doc : out)
    {
        std::size_t const n = length / 2 + random() % length;
        for(std::size_t k = 0; k < n; ++k)
        {
            double const u = double(random() >> 11) * 0x1.0p-53 * sum;
            std::size_t const term = std::size_t(std::lower_bound(cdf.begin(), cdf.end(), u) - cdf.begin());
            std::string word(1, 'w'); // not "w" + to_string(): GCC 12 warns falsely (-Wrestrict)
            word += std::to_string(std::min(term, vocabulary - 1));
            doc.push_back(std::move(word));
        }
    }
    return out;
}

std::vector<std::string> split(std::string const& text)
{
    std::vector<std::string> out;
    std::string word;
    for(char c : text + ' ')
    {
        if(c != ' ')
            word += c;
        else if(!word.empty())
            out.push_back(std::move(word)), word.clear();
    }
    return out;
}

// Four topics; "coche" and "automóvil" always appear together, except in
// document 3, which has "coche" only.
std::vector<std::vector<std::string>> const& toy_corpus()
{
    static std::vector<std::vector<std::string>> const corpus = [] {
        std::vector<std::vector<std::string>> c;
        for(char const* text : {
                "coche automóvil motor rueda carretera",
                "coche automóvil conducir carretera gasolina",
                "automóvil coche motor gasolina taller",
                "coche motor rueda taller conducir",
                "receta cocina tomate aceite sal",
                "cocina horno pan harina receta",
                "tomate ensalada aceite vinagre cocina",
                "fútbol partido gol equipo estadio",
                "equipo entrenador partido liga gol",
                "música concierto guitarra banda canción",
                "banda canción disco guitarra escenario",
            })
            c.push_back(split(text));
        return c;
    }();
    return corpus;
}

} // namespace

BOOST_AUTO_TEST_SUITE(retrieval_vectors)

BOOST_AUTO_TEST_CASE(dot_matches_a_double_reference_at_every_length)
{
    detail::xoshiro256 random(1);
    std::vector<detail::dot_function> kernels{&retrieval::dot, &detail::dot_portable};
#ifdef AGENTIO_RETRIEVAL_X86_64
    kernels.push_back(&detail::dot_sse2);
    if(__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        kernels.push_back(&detail::dot_avx2);
#endif
    std::vector<std::size_t> lengths;
    for(std::size_t n = 0; n <= 70; ++n)
        lengths.push_back(n);
    lengths.push_back(256);
    for(std::size_t n : lengths)
    {
        // One element more, so that a + 1 and b + 1 are misaligned.
        auto const a = random_vector(random, n + 1);
        auto const b = random_vector(random, n + 1);
        double reference = 0, magnitude = 0;
        for(std::size_t i = 0; i < n; ++i)
        {
            reference += double(a[i + 1]) * b[i + 1];
            magnitude += std::abs(double(a[i + 1]) * b[i + 1]);
        }
        for(auto kernel : kernels)
        {
            float const got = kernel(a.data() + 1, b.data() + 1, n);
            BOOST_TEST(std::abs(got - reference) <= 1e-6 * magnitude + 1e-30, "n = " << n);
        }
    }
    BOOST_TEST(retrieval::dot(nullptr, nullptr, 0) == 0.0f);
}

BOOST_AUTO_TEST_CASE(axpy_kernels_agree)
{
    detail::xoshiro256 random(2);
    for(std::size_t n : {0u, 1u, 7u, 8u, 9u, 33u, 256u})
    {
        auto const x = random_vector(random, n);
        auto const y0 = random_vector(random, n);
        auto y = y0;
        detail::axpy_kernel()(0.5f, x.data(), y.data(), n);
        for(std::size_t i = 0; i < n; ++i)
            BOOST_TEST(std::abs(y[i] - (y0[i] + 0.5 * x[i])) <= 1e-6);
    }
}

BOOST_AUTO_TEST_CASE(add_normalises_rows)
{
    retrieval::vector_store store(3);
    BOOST_TEST(store.dimensions() == 3u);
    std::vector<float> const v{3, 0, 4};
    store.add(7, v);
    std::vector<float> const zero{0, 0, 0};
    store.add(8, zero);
    BOOST_TEST_REQUIRE(store.size() == 2u);
    BOOST_TEST(store.id(0) == 7);
    BOOST_TEST(store.row(0)[0] == 0.6f, boost::test_tools::tolerance(1e-6f));
    BOOST_TEST(store.row(0)[2] == 0.8f, boost::test_tools::tolerance(1e-6f));
    for(float x : store.row(1))
        BOOST_TEST(x == 0.0f);

    // The query is normalised too: scores are cosines.
    std::vector<float> const q{0, 0, 10};
    auto const top = store.top(q, 5);
    BOOST_TEST_REQUIRE(top.size() == 2u);
    BOOST_TEST(top[0].id == 7);
    BOOST_TEST(top[0].score == 0.8, boost::test_tools::tolerance(1e-6));
    BOOST_TEST(top[1].id == 8);
    BOOST_TEST(top[1].score == 0.0);
    // A zero query scores every row 0: order by id.
    auto const flat = store.top(zero, 5);
    BOOST_TEST_REQUIRE(flat.size() == 2u);
    BOOST_TEST(flat[0].id == 7);

    std::vector<float> const wrong{1, 2};
    BOOST_CHECK_THROW(store.add(9, wrong), std::invalid_argument);
    BOOST_CHECK_THROW(store.top(wrong, 1), std::invalid_argument);
    BOOST_TEST(store.size() == 2u);
    BOOST_TEST(store.top(q, 0).empty());
    store.clear();
    BOOST_TEST(store.top(q, 3).empty());
}

BOOST_AUTO_TEST_CASE(top_matches_a_brute_force_sort)
{
    detail::xoshiro256 random(3);
    std::size_t const dims = 37; // not a multiple of 8: padded rows
    retrieval::vector_store store(dims);
    store.reserve(500);
    std::vector<std::pair<std::int64_t, std::vector<float>>> rows;
    for(std::size_t i = 0; i < 500; ++i)
    {
        // Ids out of order, some negative.
        std::int64_t const id = std::int64_t((i * 7919) % 1000) - 300;
        auto const v = random_vector(random, dims);
        store.add(id, v);
        rows.emplace_back(id, normalized(v));
    }
    for(int query = 0; query < 10; ++query)
    {
        auto const q = random_vector(random, dims);
        for(std::size_t k : {1u, 5u, 30u, 499u, 500u, 2000u})
        {
            auto const got = store.top(q, k);
            auto const expected = brute_force(rows, normalized(q), k);
            BOOST_TEST_REQUIRE(got.size() == expected.size());
            for(std::size_t i = 0; i < got.size(); ++i)
            {
                // Float sums: the order may differ only where scores are within rounding.
                BOOST_TEST(std::abs(got[i].score - expected[i].score) < 1e-6);
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(ties_by_smaller_id_and_keep_filter)
{
    // Rows of four entries ±0.5: unit norm exactly, and every score is a
    // multiple of 0.25, computed exactly in any order: many exact ties.
    detail::xoshiro256 random(4);
    std::size_t const dims = 16;
    retrieval::vector_store store(dims);
    std::vector<std::pair<std::int64_t, std::vector<float>>> rows;
    auto const ternary = [&] {
        std::vector<float> v(dims, 0.0f);
        for(int placed = 0; placed < 4;)
        {
            std::size_t const i = random() % dims;
            if(v[i] != 0)
                continue;
            v[i] = random() % 2 ? 0.5f : -0.5f;
            ++placed;
        }
        return v;
    };
    for(std::int64_t id = 999; id >= 0; --id) // added in descending id order
    {
        auto const v = ternary();
        store.add(id, v);
        rows.emplace_back(id, v);
    }
    for(int query = 0; query < 20; ++query)
    {
        auto const q = ternary();
        for(std::size_t k : {1u, 10u, 30u, 1000u, 1500u})
        {
            auto const got = store.top(q, k);
            auto const expected = brute_force(rows, q, k);
            BOOST_TEST_REQUIRE(got.size() == expected.size());
            for(std::size_t i = 0; i < got.size(); ++i)
            {
                BOOST_TEST(got[i].id == expected[i].id);
                BOOST_TEST(got[i].score == expected[i].score);
            }
        }
        // Only the ids divisible by 3; k beyond what passes the filter.
        auto const keep = [](std::int64_t id) { return id % 3 == 0; };
        std::vector<std::pair<std::int64_t, std::vector<float>>> kept;
        for(auto const& r : rows)
            if(keep(r.first))
                kept.push_back(r);
        auto const got = store.top(q, 5000, keep);
        auto const expected = brute_force(kept, q, 5000);
        BOOST_TEST_REQUIRE(got.size() == kept.size());
        for(std::size_t i = 0; i < got.size(); ++i)
            BOOST_TEST(got[i].id == expected[i].id);
        BOOST_TEST(store.top(q, 5, [](std::int64_t) { return false; }).empty());
    }
}

BOOST_AUTO_TEST_CASE(concurrent_queries)
{
    detail::xoshiro256 random(5);
    retrieval::vector_store store(64);
    for(std::int64_t id = 0; id < 2000; ++id)
        store.add(id, random_vector(random, 64));
    std::vector<std::vector<float>> queries;
    std::vector<std::vector<retrieval::ranked>> expected;
    for(int i = 0; i < 4; ++i)
    {
        queries.push_back(random_vector(random, 64));
        expected.push_back(store.top(queries.back(), 20));
    }
    std::vector<int> mismatches(4, 0);
    std::vector<std::thread> threads;
    for(std::size_t t = 0; t < 4; ++t)
        threads.emplace_back([&, t] {
            for(int round = 0; round < 50; ++round)
            {
                auto const got = store.top(queries[t], 20);
                for(std::size_t i = 0; i < got.size(); ++i)
                    mismatches[t] += got[i].id != expected[t][i].id || got[i].score != expected[t][i].score;
            }
        });
    for(auto& t : threads)
        t.join();
    for(int m : mismatches)
        BOOST_TEST(m == 0);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(retrieval_lsa)

BOOST_AUTO_TEST_CASE(co_occurring_words_find_each_others_documents)
{
    auto const& corpus = toy_corpus();
    retrieval::lsa_options options;
    options.dimensions = 4; // one per topic
    auto const model = retrieval::lsa_model::fit(corpus, options);
    BOOST_TEST_REQUIRE(model.dimensions() == 4u);
    retrieval::vector_store store(model.dimensions());
    for(std::size_t i = 0; i < corpus.size(); ++i)
        store.add(std::int64_t(i), model.embed(corpus[i]));

    // Document 3 never says "automóvil", and still ranks above every
    // document of another topic.
    std::vector<std::string> const query{"automóvil"};
    auto const hits = store.top(model.embed(query), corpus.size());
    std::map<std::int64_t, std::size_t> position;
    for(std::size_t i = 0; i < hits.size(); ++i)
        position[hits[i].id] = i;
    for(std::int64_t other = 4; other < std::int64_t(corpus.size()); ++other)
        BOOST_TEST(position.at(3) < position.at(other), "document " << other);
    BOOST_TEST(hits[position.at(3)].score > 0.5);

    // Plain TF-IDF cannot: the query and document 3 share no term.
    retrieval::lsa_options full;
    full.dimensions = corpus.size();
    full.oversampling = 100;
    auto const exact = retrieval::lsa_model::fit(corpus, full);
    BOOST_TEST(std::abs(cosine(exact.embed(query), exact.embed(corpus[3]))) < 1e-4);
}

BOOST_AUTO_TEST_CASE(terms_and_weights)
{
    auto const& corpus = toy_corpus();
    auto const model = retrieval::lsa_model::fit(corpus);
    BOOST_TEST(model.documents() == corpus.size());
    BOOST_TEST(model.dimensions() == corpus.size()); // 256 asked, 11 documents
    std::vector<std::string> const unknown{"avión", ""};
    auto const none = model.embed(unknown);
    BOOST_TEST(none.size() == model.dimensions());
    for(float x : none)
        BOOST_TEST(x == 0.0f);
    // Unknown terms are ignored; the vector is normalised.
    std::vector<std::string> const mixed{"avión", "motor", "motor", "tomate"};
    std::vector<std::string> const known{"motor", "motor", "tomate"};
    auto const a = model.embed(mixed);
    BOOST_TEST(a == model.embed(known), boost::test_tools::per_element());
    double norm = 0;
    for(float x : a)
        norm += double(x) * x;
    BOOST_TEST(norm == 1.0, boost::test_tools::tolerance(1e-6));

    // Vocabulary filters: rare terms; terms in more than half the documents.
    std::vector<std::vector<std::string>> docs;
    for(int i = 0; i < 40; ++i)
    {
        std::string only(4, 'o');
        only += std::to_string(i);
        docs.push_back({"everywhere", i % 2 ? "odd" : "even", i < 30 ? "most" : "few", only});
    }
    retrieval::lsa_options options;
    options.min_document_frequency = 2;
    auto const filtered = retrieval::lsa_model::fit(docs, options);
    BOOST_TEST(filtered.vocabulary_size() == 3u); // odd, even, few (10)
    options.max_document_fraction = 1;
    BOOST_TEST(retrieval::lsa_model::fit(docs, options).vocabulary_size() == 5u);
    options.max_fraction_min_documents = 41; // the corpus is too small for the rule
    options.max_document_fraction = 0.5;
    BOOST_TEST(retrieval::lsa_model::fit(docs, options).vocabulary_size() == 5u);
}

BOOST_AUTO_TEST_CASE(dimensions_are_clamped_and_empty_models_work)
{
    std::vector<std::vector<std::string>> const three{{"a", "b"}, {"b", "c"}, {"c", "d", "a"}};
    auto const m3 = retrieval::lsa_model::fit(three);
    BOOST_TEST(m3.dimensions() == 3u);
    BOOST_TEST(m3.vocabulary_size() == 4u);
    BOOST_TEST(!m3.empty());
    BOOST_TEST(m3.embed(three[0]).size() == 3u);

    // Five documents over two distinct terms.
    std::vector<std::vector<std::string>> const two{{"x"}, {"y"}, {"x", "y"}, {"x", "x"}, {"y"}};
    auto const m2 = retrieval::lsa_model::fit(two);
    BOOST_TEST(m2.dimensions() == 2u);
    BOOST_TEST(m2.singular_values().size() == 2u);
    BOOST_TEST(m2.singular_values()[0] >= m2.singular_values()[1]);

    // Duplicate documents: rank 1, the other dimension is zero.
    std::vector<std::vector<std::string>> const same{{"p", "q"}, {"p", "q"}, {"q", "p"}};
    auto const m1 = retrieval::lsa_model::fit(same);
    BOOST_TEST(m1.dimensions() == 2u);
    BOOST_TEST(m1.singular_values()[1] == 0.0f);
    BOOST_TEST(std::abs(cosine(m1.embed(same[0]), m1.embed(same[2]))) == 1.0, boost::test_tools::tolerance(1e-6));

    for(auto const& empty : {retrieval::lsa_model{}, retrieval::lsa_model::fit({}),
            retrieval::lsa_model::fit(std::vector<std::vector<std::string>>{{}, {}})})
    {
        BOOST_TEST(empty.empty());
        BOOST_TEST(empty.dimensions() == 0u);
        BOOST_TEST(empty.embed(three[0]).empty());
        auto const parsed = retrieval::lsa_model::parse(empty.serialize());
        BOOST_TEST_REQUIRE(parsed.has_value());
        BOOST_TEST(parsed->empty());
    }
}

BOOST_AUTO_TEST_CASE(fit_is_deterministic)
{
    // Gaussian draws are fixed by the seed on every machine (no libm).
    detail::gaussian_source gaussian(0x5eed);
    BOOST_TEST(gaussian() == 0x1.1746c1ee16d5dp-2);
    BOOST_TEST(gaussian() == -0x1.fb42e7212eddbp-3);
    BOOST_TEST(gaussian() == 0x1.24009b619b357p-1);
    BOOST_TEST(gaussian() == -0x1.7684649f507dfp-4);

    // More terms than documents, and more documents than terms.
    for(auto const& corpus : {zipf_corpus(150, 40, 2000, 1), zipf_corpus(700, 30, 300, 2)})
    {
        retrieval::lsa_options options;
        options.dimensions = 24;
        std::string const first = retrieval::lsa_model::fit(corpus, options).serialize();
        std::string const second = retrieval::lsa_model::fit(corpus, options).serialize();
        BOOST_TEST((first == second));
    }
}

BOOST_AUTO_TEST_CASE(serialize_parse_round_trip)
{
    auto const corpus = zipf_corpus(120, 30, 500, 3);
    retrieval::lsa_options options;
    options.dimensions = 16;
    options.scale_by_inverse_singular_values = true;
    auto const model = retrieval::lsa_model::fit(corpus, options);
    std::string const bytes = model.serialize();
    auto const parsed = retrieval::lsa_model::parse(bytes);
    BOOST_TEST_REQUIRE(parsed.has_value());
    BOOST_TEST((parsed->serialize() == bytes));
    BOOST_TEST(parsed->dimensions() == model.dimensions());
    BOOST_TEST(parsed->vocabulary_size() == model.vocabulary_size());
    BOOST_TEST(parsed->documents() == model.documents());
    BOOST_TEST(parsed->options().scale_by_inverse_singular_values);
    BOOST_TEST(parsed->options().dimensions == 16u);
    for(std::size_t i = 0; i < corpus.size(); i += 7)
        BOOST_TEST(parsed->embed(corpus[i]) == model.embed(corpus[i]), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(parse_rejects_truncated_and_corrupt_input)
{
    retrieval::lsa_options options;
    options.dimensions = 2;
    auto const model = retrieval::lsa_model::fit(toy_corpus(), options);
    std::string const bytes = model.serialize();
    BOOST_TEST_REQUIRE(retrieval::lsa_model::parse(bytes).has_value());
    for(std::size_t n = 0; n < bytes.size(); ++n)
        BOOST_TEST(!retrieval::lsa_model::parse(std::string_view(bytes).substr(0, n)).has_value(), "length " << n);
    BOOST_TEST(!retrieval::lsa_model::parse(bytes + '\0').has_value());
    for(std::size_t i = 0; i < bytes.size(); ++i)
    {
        std::string corrupt = bytes;
        corrupt[i] = char(corrupt[i] ^ 0x10);
        BOOST_TEST(!retrieval::lsa_model::parse(corrupt).has_value(), "byte " << i);
    }
}

BOOST_AUTO_TEST_CASE(embedding_a_document_gives_its_svd_row)
{
    // Terms the smaller side, then documents the smaller side.
    for(auto const& corpus : {zipf_corpus(400, 40, 300, 4), zipf_corpus(120, 40, 1500, 5)})
    {
        retrieval::lsa_options options;
        options.dimensions = 32;
        for(bool scaled : {false, true})
        {
            options.scale_by_inverse_singular_values = scaled;
            std::vector<float> rows;
            auto const model = retrieval::lsa_model::fit(corpus, options, &rows);
            std::size_t const d = model.dimensions();
            BOOST_TEST_REQUIRE(d == 32u);
            BOOST_TEST_REQUIRE(rows.size() == corpus.size() * d);
            double worst = 1;
            for(std::size_t i = 0; i < corpus.size(); ++i)
                worst = std::min(worst, cosine(model.embed(corpus[i]), std::span(rows).subspan(i * d, d)));
            BOOST_TEST(worst > 0.999);
        }
    }
}

BOOST_AUTO_TEST_CASE(singular_values_match_a_dense_decomposition)
{
    // The TF-IDF matrix built here as the documentation says, and the
    // eigenvalues of A·Aᵀ by the dense solver: σ² = λ.
    auto const corpus = zipf_corpus(40, 20, 150, 6);
    retrieval::lsa_options options;
    options.dimensions = 10;
    options.oversampling = 100; // the whole space: exact
    options.max_document_fraction = 1;
    auto const model = retrieval::lsa_model::fit(corpus, options);

    std::map<std::string, std::size_t> df;
    for(auto const& doc : corpus)
    {
        std::map<std::string, int> seen;
        for(auto const& t : doc)
            if(seen[t]++ == 0)
                ++df[t];
    }
    double const n = double(corpus.size());
    std::vector<std::map<std::string, double>> a(corpus.size());
    for(std::size_t i = 0; i < corpus.size(); ++i)
    {
        std::map<std::string, int> tf;
        for(auto const& t : corpus[i])
            ++tf[t];
        double norm = 0;
        for(auto const& [t, f] : tf)
        {
            double const idf = float(std::log((1 + n) / (1 + double(df[t]))) + 1);
            a[i][t] = (1 + std::log(double(f))) * idf;
            norm += a[i][t] * a[i][t];
        }
        for(auto& [t, w] : a[i])
            w /= std::sqrt(norm);
    }
    BOOST_TEST(model.vocabulary_size() == df.size());
    detail::dense_matrix gram(corpus.size(), corpus.size());
    for(std::size_t i = 0; i < corpus.size(); ++i)
        for(std::size_t j = 0; j < corpus.size(); ++j)
            for(auto const& [t, w] : a[i])
                if(auto const it = a[j].find(t); it != a[j].end())
                    gram(i, j) += w * it->second;
    std::vector<double> lambda;
    detail::dense_matrix vectors;
    detail::symmetric_eigen(gram, lambda, vectors);
    for(std::size_t j = 0; j < model.dimensions(); ++j)
        BOOST_TEST(model.singular_values()[j] == std::sqrt(lambda[j]), boost::test_tools::tolerance(1e-5));

    // The default oversampling (10) with 4 power rounds is close too.
    options.oversampling = 10;
    auto const approximate = retrieval::lsa_model::fit(corpus, options);
    for(std::size_t j = 0; j < 5; ++j)
        BOOST_TEST(approximate.singular_values()[j] == std::sqrt(lambda[j]), boost::test_tools::tolerance(1e-3));
}

BOOST_AUTO_TEST_CASE(simd_and_baseline_kernels_round_alike)
{
    // Both builds of the dense kernels must give the same bits, or a model
    // fitted on a machine without AVX2 would differ.
    detail::gaussian_source gaussian(9);
    detail::xoshiro256 random(10);
    detail::csr_matrix a;
    a.rows = 97;
    a.cols = 61;
    a.offsets.push_back(0);
    for(std::size_t i = 0; i < a.rows; ++i)
    {
        std::vector<std::uint32_t> cols;
        for(std::size_t k = random() % 9; k > 0; --k)
            cols.push_back(std::uint32_t(random() % a.cols));
        std::sort(cols.begin(), cols.end());
        cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
        for(auto c : cols)
        {
            a.columns.push_back(c);
            a.values.push_back(gaussian());
        }
        a.offsets.push_back(a.columns.size());
    }
    detail::dense_matrix p(a.cols, 13), m(13, 5);
    for(double& x : p.values)
        x = gaussian();
    for(double& x : m.values)
        x = gaussian();
    auto const run = [&](bool portable) {
        detail::dense_algebra const la(detail::select_dense_kernels(portable));
        detail::dense_matrix c, z;
        la.gather_product(a, p, c);
        la.scatter_product(a, c, z);
        la.orthonormalize(z, 2);
        auto out = la.gram(z).values;
        auto const y = la.multiply(z, m).values;
        out.insert(out.end(), y.begin(), y.end());
        out.insert(out.end(), z.values.begin(), z.values.end());
        return out;
    };
    auto const base = run(true);
    auto const fast = run(false);
    BOOST_TEST_REQUIRE(base.size() == fast.size());
    BOOST_TEST(std::memcmp(base.data(), fast.data(), base.size() * sizeof(double)) == 0);
}

BOOST_AUTO_TEST_SUITE_END()
