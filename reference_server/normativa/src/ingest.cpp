// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "ingest.hpp"

#include "corpus.hpp"

#include <agentio/llm/openai_embeddings.hpp>
#include <agentio/retrieval/open_index_writer.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_future.hpp>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <ostream>
#include <sstream>

namespace normativa {

namespace asio = boost::asio;
namespace retrieval = agentio::retrieval;

namespace {

struct input_file
{
    std::filesystem::path path;
    std::string text;
    std::optional<long> number;
};

std::vector<std::filesystem::path> expand(std::vector<std::filesystem::path> const& inputs, std::ostream& log)
{
    std::vector<std::filesystem::path> out;
    for(auto const& p : inputs)
    {
        std::error_code ec;
        if(std::filesystem::is_directory(p, ec))
        {
            std::vector<std::filesystem::path> inside;
            for(auto const& e : std::filesystem::directory_iterator(p, ec))
                if(e.is_regular_file() && (e.path().extension() == ".txt" || e.path().extension() == ".md"))
                    inside.push_back(e.path());
            std::sort(inside.begin(), inside.end());
            out.insert(out.end(), inside.begin(), inside.end());
        }
        else if(std::filesystem::is_regular_file(p, ec))
            out.push_back(p);
        else
            log << "aviso: " << p.string() << ": no existe o no es un fichero; se omite\n";
    }
    return out;
}

void draw_progress(std::ostream& log, std::size_t done, std::size_t total, std::string const& name)
{
    constexpr std::size_t width = 30;
    auto const filled = total ? done * width / total : width;
    std::string bar(filled, '#');
    bar.append(width - filled, '.');
    log << "\r[" << bar << "] " << done << "/" << total << " " << name << "\x1b[K" << std::flush;
}

// The chunks into the index, then the model and the vectors if anything changed.
asio::awaitable<boost::system::result<void, std::string>> write_index(retrieval::index_writer& writer,
    ingest_options const& options, settings const& config, std::vector<retrieval::chunk>& chunks, ingest_outcome& out,
    std::ostream& log)
{
    using written = boost::system::result<void, std::string>;
    auto report = co_await writer.replace(options.collection, options.law, chunks);
    if(!report)
        co_return written("no se pudo escribir el índice: " + report.error().message);
    out.report = *report;
    out.chunks = chunks.size();
    // How the text was analysed, for whoever searches the index (serve, or another program).
    auto const profile = spanish_profile(options.stemming);
    if(auto r = co_await writer.store_analysis(profile); !r)
        co_return written("no se pudo guardar en el índice cómo se analiza el texto: " + r.error().message);
    bool const changed = report->added + report->changed + report->removed > 0;
    auto stored = co_await writer.load_model(lsa_model_name);
    if(!stored)
        co_return written(stored.error().message);
    if(changed || !*stored)
    {
        // The model fitted on the whole corpus again, each chunk's vector with it.
        retrieval::lsa_refresh_options refresh;
        refresh.model_name = lsa_model_name;
        auto refreshed = co_await retrieval::refresh_lsa_vectors(writer, std::move(refresh));
        if(!refreshed)
            co_return written("no se pudo calcular el modelo latente: " + refreshed.error().message);
        out.refitted = true;
    }
    if(config.embedder == embedder_kind::openai)
    {
        // The embeddings service's vectors for the chunks that have none of its model.
        agentio::llm::openai_embedder_options o;
        o.base_url = config.embedding_base_url;
        o.api_key = config.embedding_api_key;
        o.model = config.embedding_model;
        o.dimensions = config.embedding_dimensions;
        auto const ex = co_await asio::this_coro::executor;
        agentio::llm::openai_embedder embed(ex, o);
        auto const model_id = embed.model_id();
        retrieval::embed_missing_options missing;
        missing.before_embedding = [&log, &model_id](std::size_t n) {
            log << "Calculando " << n << " vectores con " << model_id << "…\n";
        };
        auto embedded = co_await retrieval::embed_missing_vectors(writer, embed, std::move(missing));
        if(!embedded && embedded.error().code == retrieval::errc::embedding_failed)
            co_return written("el servicio de embeddings falló: " + embedded.error().message);
        if(!embedded)
            co_return written(embedded.error().message);
    }
    co_return written();
}

// The index `options.index` names opened for writing, and the chunks written.
asio::awaitable<boost::system::result<void, std::string>> open_and_write(ingest_options const& options,
    settings const& config, std::vector<retrieval::chunk>& chunks, ingest_outcome& out, std::ostream& log)
{
    using written = boost::system::result<void, std::string>;
    auto const where = options.index.string();
    // Named before the co_await: no temporary argument of a coroutine inside it (GCC 12).
    auto text = spanish_analyzer(options.stemming);
    retrieval::open_index_writer_options open;
    auto writer = co_await retrieval::open_index_writer(where, std::move(text), std::move(open));
    if(!writer && is_postgres(where))
        co_return written("no se puede abrir el índice en PostgreSQL: " + writer.error().message);
    if(!writer)
        co_return written("no se puede abrir el índice '" + where + "': " + writer.error().message);
    auto done = co_await write_index(**writer, options, config, chunks, out, log);
    co_return done;
}

} // namespace

boost::system::result<ingest_outcome, std::string> ingest(ingest_options const& options, settings const& config,
    std::ostream& log)
{
    auto const started = std::chrono::steady_clock::now();
    ingest_outcome out;
    auto const paths = expand(options.inputs, log);
    if(paths.empty())
        return std::string("no hay ficheros que leer");

    // Read and check every file; order by the article each starts with (file
    // names sort "articulo_10" before "articulo_9"), preambles first.
    std::vector<input_file> files;
    for(std::size_t i = 0; i < paths.size(); ++i)
    {
        if(options.progress)
            draw_progress(log, i, paths.size(), paths[i].filename().string());
        std::ifstream in(paths[i], std::ios::binary);
        std::stringstream buffer;
        buffer << in.rdbuf();
        auto text = buffer.str();
        if(!in && !in.eof())
        {
            log << "\naviso: " << paths[i].string() << ": no se puede leer; se omite\n";
            ++out.skipped;
            continue;
        }
        if(!is_utf8(text))
        {
            log << (options.progress ? "\n" : "") << "aviso: " << paths[i].string() << ": no es UTF-8; se omite\n";
            ++out.skipped;
            continue;
        }
        if(text.starts_with("\xEF\xBB\xBF"))
            text.erase(0, 3);
        auto const number = first_article_number(text);
        files.push_back({paths[i], std::move(text), number});
    }
    std::stable_sort(files.begin(), files.end(),
        [](input_file const& a, input_file const& b) { return a.number.value_or(-1) < b.number.value_or(-1); });

    structure_state state;
    std::vector<retrieval::chunk> chunks;
    std::int32_t ordinal = 0;
    for(auto const& f : files)
    {
        // A file may end in a line without its newline: one file's last line
        // and the next one's first never join, since each is parsed apart.
        auto parsed = parse_law_text(f.text, state);
        if(!f.number)
        {
            // Its headings count (a preamble ends with the first article's), its text does not.
            log << (options.progress ? "\n" : "") << "aviso: " << f.path.string()
                << ": sin encabezado «Artículo N.»; solo se leen sus títulos, capítulos y secciones\n";
            ++out.skipped;
            continue;
        }
        ++out.files;
        for(auto const& a : parsed.articles)
        {
            auto part = chunk_article(a, options.law, ordinal);
            ++out.articles;
            for(auto& c : part)
                chunks.push_back(std::move(c));
        }
    }
    if(options.progress)
        draw_progress(log, paths.size(), paths.size(), "");
    if(options.progress)
        log << '\n';
    if(out.files == 0)
        return std::string("ningún fichero tiene un encabezado «Artículo N.»: nada que ingerir");

    asio::io_context ioc;
    auto work = open_and_write(options, config, chunks, out, log);
    auto writing = asio::co_spawn(ioc, std::move(work), asio::use_future);
    ioc.run();
    if(auto written = writing.get(); !written)
        return written.error();
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return out;
}

} // namespace normativa
