// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// agentio-normativa measured (plain chrono harness; bench/normativa_bench.sh):
//
//   normativa_bench --corpus DIR --questions FILE [--synthetic N] [--repeat R] [--keep-index PATH]
//
// 1. ingest of the corpus (the Estatuto: 93 files), median of 3 fresh runs;
// 2. search latency, median and p99 over every question in both forms, each
//    asked R times, for sparse, dense and hybrid;
// 3. recall@5 and MRR per method and form, with and without Snowball stemming;
// 4. a synthetic corpus of N chunks (sentences of the Estatuto recombined,
//    seeded): ingest, the latent-semantic fit, search latency;
// 5. the agent's own cost per round: a question answered through
//    rag_service (search, then the answer) against a zero-delay fake LLM.
#include "agent.hpp"
#include "app.hpp"
#include "corpus.hpp"
#include "ingest.hpp"
#include "quality.hpp"

#include <agentio/llm/anthropic.hpp>
#include <agentio/threads/sqlite_store.hpp>
#include <agentio/testing/fake_llm.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_future.hpp>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <thread>

namespace asio = boost::asio;
namespace fs = std::filesystem;
namespace retrieval = agentio::retrieval;
using clock_type = std::chrono::steady_clock;

namespace {

double ms_since(clock_type::time_point t)
{
    return std::chrono::duration<double, std::milli>(clock_type::now() - t).count();
}

struct percentiles
{
    double median = 0;
    double p99 = 0;
};

percentiles summarize(std::vector<double> v)
{
    if(v.empty())
        return {};
    std::sort(v.begin(), v.end());
    // Nearest rank, as the peer computes it.
    auto const at = [&](double q) {
        auto const rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(v.size())));
        return v[std::min(v.size() - 1, rank == 0 ? 0 : rank - 1)];
    };
    return {at(0.5), at(0.99)};
}

template<class T>
T run_on(asio::io_context& ioc, asio::awaitable<T> work)
{
    auto f = asio::co_spawn(ioc, std::move(work), asio::use_future);
    return f.get();
}

// Runs every query of `queries` `repeat` times in each mode; prints median and p99 per mode.
void latency(asio::io_context& ioc, retrieval::searcher& search, std::vector<std::string> const& queries, int repeat,
    char const* corpus)
{
    static constexpr std::pair<char const*, retrieval::search_mode> modes[] = {
        {"sparse", retrieval::search_mode::sparse}, {"dense", retrieval::search_mode::dense},
        {"hybrid", retrieval::search_mode::hybrid}};
    for(auto [name, mode] : modes)
    {
        std::vector<double> times;
        times.reserve(queries.size() * static_cast<std::size_t>(repeat));
        auto work = [&]() -> asio::awaitable<void> {
            for(auto const& q : queries)
                for(int i = 0; i < repeat; ++i)
                {
                    auto const t = clock_type::now();
                    retrieval::search_request r{.text = q, .top_k = 8, .mode = mode};
                    auto found = co_await search.search(r);
                    times.push_back(ms_since(t));
                    if(!found)
                        throw std::runtime_error(found.error().message);
                }
        };
        run_on(ioc, work());
        auto const p = summarize(times);
        std::printf("search  %-10s %-7s median %7.3f ms  p99 %7.3f ms  (%zu searches, top 8 with chunks)\n", corpus,
            name, p.median, p.p99, times.size());
    }
}

// A synthetic corpus: each chunk one or two sentences of the Estatuto and 40
// words of a Zipf-distributed vocabulary of 50 000 (a real corpus of this size
// has far more words than one law; recombined sentences alone would make
// every query word match a third of the chunks).
std::vector<retrieval::chunk> synthetic_corpus(std::vector<retrieval::chunk> const& source, std::size_t n)
{
    std::vector<std::string> sentences;
    for(auto const& c : source)
    {
        std::size_t start = 0;
        for(std::size_t i = 0; i + 1 < c.text.size(); ++i)
            if(c.text[i] == '.' && c.text[i + 1] == ' ')
            {
                sentences.push_back(c.text.substr(start, i + 1 - start));
                start = i + 2;
            }
        if(start < c.text.size())
            sentences.push_back(c.text.substr(start));
    }
    std::uint64_t state = 0x5eed;
    auto next = [&state] {
        std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    };
    // Zipf(1.1) over 50 000 pseudo-words, by inverting the cumulative weights.
    constexpr std::size_t vocabulary = 50000;
    std::vector<double> cumulative(vocabulary);
    double total = 0;
    for(std::size_t r = 0; r < vocabulary; ++r)
        cumulative[r] = total += 1.0 / std::pow(static_cast<double>(r + 1), 1.1);
    auto zipf_word = [&] {
        auto const u = static_cast<double>(next() >> 11) / 9007199254740992.0 * total;
        auto const r = static_cast<std::size_t>(std::lower_bound(cumulative.begin(), cumulative.end(), u) -
            cumulative.begin());
        std::string w = "voc";
        for(auto v = r; v; v /= 26)
            w += static_cast<char>('a' + v % 26);
        return w;
    };
    std::vector<retrieval::chunk> out(n);
    for(std::size_t i = 0; i < n; ++i)
    {
        auto& c = out[i];
        c.key = std::string("sintetico/").append(std::to_string(i));
        c.article_number = std::to_string(i / 8 + 1);
        c.paragraph = std::to_string(i % 8 + 1);
        c.title = source[next() % source.size()].title;
        auto const k = 1 + next() % 2;
        for(std::size_t s = 0; s < k; ++s)
        {
            if(s)
                c.text += ' ';
            c.text += sentences[next() % sentences.size()];
        }
        for(int w = 0; w < 40; ++w)
        {
            c.text += ' ';
            c.text += zipf_word();
        }
        c.ordinal = static_cast<std::int32_t>(i);
    }
    return out;
}

} // namespace

int main(int argc, char** argv)
{
    std::setvbuf(stdout, nullptr, _IOLBF, 0); // each figure as soon as it is measured, through a pipe too
    fs::path corpus, questions_path, keep;
    std::size_t synthetic = 100000;
    int repeat = 20;
    for(int i = 1; i + 1 < argc; i += 2)
    {
        std::string_view const flag = argv[i];
        if(flag == "--corpus")
            corpus = argv[i + 1];
        else if(flag == "--questions")
            questions_path = argv[i + 1];
        else if(flag == "--synthetic")
            synthetic = std::stoul(argv[i + 1]);
        else if(flag == "--repeat")
            repeat = std::stoi(argv[i + 1]);
        else if(flag == "--keep-index")
            keep = argv[i + 1];
    }
    if(corpus.empty() || questions_path.empty())
    {
        std::fprintf(stderr,
            "usage: normativa_bench --corpus DIR --questions FILE [--synthetic N] [--repeat R] "
            "[--keep-index PATH]\n");
        return 2;
    }
    auto const loaded_questions = normativa::load_questions(questions_path);
    if(!loaded_questions)
    {
        std::fprintf(stderr, "normativa_bench: %s\n", loaded_questions.error().c_str());
        return 1;
    }
    auto const& questions = *loaded_questions;
    std::vector<std::string> queries;
    for(auto const& q : questions)
    {
        queries.push_back(q.question);
        queries.push_back(q.keywords);
    }
    auto const dir = fs::temp_directory_path() / ("normativa_bench_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    std::ostringstream quiet;

    // 1. Ingest.
    std::vector<double> ingest_ms;
    normativa::ingest_outcome outcome;
    for(int run = 0; run < 3; ++run)
    {
        fs::remove(dir / "estatuto.db");
        auto const t = clock_type::now();
        normativa::ingest_options o{dir / "estatuto.db", normativa::estatuto, "normativa", {corpus}, false};
        auto done = normativa::ingest(o, normativa::settings{}, quiet);
        if(!done)
        {
            std::fprintf(stderr, "normativa_bench: %s\n", done.error().c_str());
            return 1;
        }
        outcome = *done;
        ingest_ms.push_back(ms_since(t));
    }
    std::printf("ingest  estatuto   %zu files, %zu chunks: median %.0f ms (of 3; parse, FTS5, latent-semantic fit, "
                "vectors)\n",
        outcome.files, outcome.chunks, summarize(ingest_ms).median);
    if(!keep.empty())
        fs::copy_file(dir / "estatuto.db", keep, fs::copy_options::overwrite_existing);

    asio::io_context ioc;
    auto guard = asio::make_work_guard(ioc);
    std::thread runner([&] { ioc.run(); });
    agentio::http::client http(ioc.get_executor());
    {
        // 2. Latency, 3. quality.
        auto loaded = run_on(ioc, normativa::open_index((dir / "estatuto.db").string(), normativa::settings{}, http));
        latency(ioc, *loaded->searcher, queries, repeat, "estatuto");
        auto const rows = run_on(ioc, normativa::measure_quality(*loaded->searcher, questions)).value();
        std::printf("\nquality with Snowball stemming (%zu questions)\n%s", questions.size(),
            normativa::quality_table(rows).c_str());

        normativa::ingest_options plain{dir / "plain.db", normativa::estatuto, "normativa", {corpus}, false, false};
        if(auto done = normativa::ingest(plain, normativa::settings{}, quiet); !done)
            throw std::runtime_error(done.error());
        auto plain_index = retrieval::sqlite_index::open(dir / "plain.db").value();
        auto model_bytes = run_on(ioc, plain_index->load_model(normativa::lsa_model_name)).value();
        auto model = std::make_shared<retrieval::lsa_model const>(*retrieval::lsa_model::parse(*model_bytes));
        retrieval::lsa_embedder embed(model, normativa::spanish_analyzer(false));
        auto vectors = run_on(ioc, plain_index->load_vectors(embed.model_id())).value();
        retrieval::searcher plain_search(*plain_index, normativa::spanish_analyzer(false), &embed, std::move(vectors));
        auto const plain_rows = run_on(ioc, normativa::measure_quality(plain_search, questions)).value();
        std::printf("\nquality without stemming\n%s\n", normativa::quality_table(plain_rows).c_str());
    }

    // 4. The synthetic corpus.
    if(synthetic > 0)
    {
        auto source = retrieval::sqlite_index_writer::open(dir / "estatuto.db", normativa::spanish_analyzer())
                          .value()
                          .all_chunks()
                          .value();
        auto chunks = synthetic_corpus(source, synthetic);
        auto const t = clock_type::now();
        auto writer = retrieval::sqlite_index_writer::open(dir / "synthetic.db", normativa::spanish_analyzer()).value();
        writer.replace("normativa", "Sintético", chunks).value();
        auto const stored_ms = ms_since(t);
        auto const t_fit = clock_type::now();
        auto const text = normativa::spanish_analyzer();
        std::vector<std::vector<std::string>> documents;
        documents.reserve(chunks.size());
        for(auto const& c : chunks)
            documents.push_back(text.terms(c.title + "\n" + c.text));
        std::vector<float> values;
        auto model = std::make_shared<retrieval::lsa_model const>(retrieval::lsa_model::fit(documents, {}, &values));
        auto const fit_ms = ms_since(t_fit);
        retrieval::lsa_embedder embed(model, text);
        std::vector<std::int64_t> ids;
        for(auto const& c : chunks)
            ids.push_back(c.id);
        auto const t_vec = clock_type::now();
        writer.store_vectors(embed.model_id(), ids, values, model->dimensions(), true).value();
        auto const bytes = model->serialize();
        writer.store_model(normativa::lsa_model_name, std::as_bytes(std::span(bytes))).value();
        auto const vec_ms = ms_since(t_vec);
        std::printf("ingest  synthetic  %zu chunks: chunks + FTS5 %.0f ms, latent-semantic fit (%zu terms, %zu "
                    "dimensions) %.0f ms, vectors stored %.0f ms\n",
            chunks.size(), stored_ms, model->vocabulary_size(), model->dimensions(), fit_ms, vec_ms);
        auto const t_open = clock_type::now();
        auto loaded = run_on(ioc, normativa::open_index((dir / "synthetic.db").string(), normativa::settings{}, http));
        std::printf("open    synthetic  %.0f ms (model and vectors loaded)\n", ms_since(t_open));
        latency(ioc, *loaded->searcher, queries, std::max(1, repeat / 4), "synthetic");
    }

    // 5. The agent's own cost per round.
    {
        asio::io_context fake_ioc;
        agentio::testing::fake_llm fake(fake_ioc.get_executor());
        agentio::testing::scenario sc;
        sc.name = "normativa-bench";
        sc.token_interval = std::chrono::milliseconds(0);
        agentio::testing::scripted_response search;
        search.tool_calls.push_back({"search_normativa", boost::json::object{{"query", "vacaciones anuales"}}, {}, {}});
        agentio::testing::scripted_response answer;
        answer.text = "Según el artículo 38, treinta días naturales.";
        sc.turns = {{search}, {answer}};
        fake.add_scenario(sc);
        auto const ep = fake.start().value();
        std::thread fake_thread([&] { fake_ioc.run(); });
        auto loaded = run_on(ioc, normativa::open_index((dir / "estatuto.db").string(), normativa::settings{}, http));
        agentio::llm::provider_options po;
        po.api_key = "k";
        po.base_url = "http://127.0.0.1:" + std::to_string(ep.port());
        agentio::llm::any_provider provider(agentio::llm::anthropic_provider(http, po));
        auto store = agentio::sqlite::thread_store::open(dir / "threads.db").value();
        normativa::settings s;
        s.model.anthropic_api_key = "k";
        s.model.model = "normativa-bench";
        normativa::rag_service service(s, &provider, *store, loaded->tools);
        constexpr int questions_asked = 200;
        std::vector<double> per_question;
        auto work = [&]() -> asio::awaitable<void> {
            for(int i = 0; i < questions_asked; ++i)
            {
                auto const t = clock_type::now();
                normativa::agent_request question{"¿Cuántos días de vacaciones?", std::nullopt};
                auto run = co_await service.prepare(std::move(question), "bench");
                std::size_t events = 0;
                normativa::event_sink count = [&events](normativa::sse_event const&) { ++events; };
                co_await service.run(std::move(run.value()), std::move(count));
                per_question.push_back(ms_since(t));
            }
        };
        run_on(ioc, work());
        auto const p = summarize(per_question);
        std::printf("agent   a question in 2 rounds (search_normativa, then the answer), zero-delay fake LLM: median "
                    "%.2f ms, p99 %.2f ms, so %.2f ms a round (thread store writes included)\n",
            p.median, p.p99, p.median / 2);
        fake.stop();
        fake_ioc.stop();
        fake_thread.join();
    }
    guard.reset();
    runner.join();
    fs::remove_all(dir);
    return 0;
}
