// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "ingest.hpp"

#include "corpus.hpp"

#include <agentio/llm/openai_embeddings.hpp>
#include <agentio/retrieval/postgres_index.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
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

// Where ingest writes, the same calls whichever database holds the index.
class sqlite_target
{
public:
    explicit sqlite_target(retrieval::sqlite_index_writer w) : writer_(std::move(w)) {}
    auto replace(std::string_view c, std::string_view l, std::span<retrieval::chunk> chunks)
    {
        return writer_.replace(c, l, chunks);
    }
    auto all_chunks() { return writer_.all_chunks(); }
    auto missing_vectors(std::string_view model) { return writer_.missing_vectors(model); }
    auto store_vectors(std::string_view model, std::span<std::int64_t const> ids, std::span<float const> values,
        std::size_t dimensions, bool replace_all)
    {
        return writer_.store_vectors(model, ids, values, dimensions, replace_all);
    }
    auto store_model(std::string_view name, std::span<std::byte const> bytes)
    {
        return writer_.store_model(name, bytes);
    }
    auto load_model(std::string_view name) { return writer_.load_model(name); }
    auto store_analysis(retrieval::analysis_profile const& profile) { return writer_.store_analysis(profile); }
    // One model's vectors at a time: those of an older fit mean nothing now.
    boost::system::result<void, std::string> drop_lsa_vectors()
    {
        if(!writer_.connection().execute("DELETE FROM rag_vectors WHERE model LIKE 'lsa:%'"))
            return writer_.connection().last_error_message();
        return {};
    }

private:
    retrieval::sqlite_index_writer writer_;
};

// The PostgreSQL writer's coroutines, each run to its end on a context of ingest's own.
class postgres_target
{
public:
    static boost::system::result<std::unique_ptr<postgres_target>, std::string> open(std::string const& conninfo,
        bool stemming)
    {
        auto t = std::unique_ptr<postgres_target>(new postgres_target(conninfo));
        auto writer = t->run(retrieval::postgres_index_writer::open(*t->pool_, spanish_analyzer(stemming)));
        if(!writer)
            return writer.error().message;
        t->writer_.emplace(std::move(*writer));
        return t;
    }
    auto replace(std::string_view c, std::string_view l, std::span<retrieval::chunk> chunks)
    {
        return run(writer_->replace(c, l, chunks));
    }
    auto all_chunks() { return run(writer_->all_chunks()); }
    auto missing_vectors(std::string_view model) { return run(writer_->missing_vectors(model)); }
    auto store_vectors(std::string_view model, std::span<std::int64_t const> ids, std::span<float const> values,
        std::size_t dimensions, bool replace_all)
    {
        return run(writer_->store_vectors(model, ids, values, dimensions, replace_all));
    }
    auto store_model(std::string_view name, std::span<std::byte const> bytes)
    {
        return run(writer_->store_model(name, bytes));
    }
    auto load_model(std::string_view name) { return run(writer_->load_model(name)); }
    auto store_analysis(retrieval::analysis_profile const& profile) { return run(writer_->store_analysis(profile)); }
    boost::system::result<void, std::string> drop_lsa_vectors()
    {
        auto done = run(pool_->execute("DELETE FROM rag_vectors WHERE model LIKE 'lsa:%'"));
        if(!done)
            return done.error().message;
        return {};
    }

private:
    explicit postgres_target(std::string const& conninfo)
        : pool_(std::make_unique<agentio::postgres::pool>(ioc_.get_executor(), conninfo))
    {
    }

    // Through an optional: a result of a writer has no default value for use_future to hold.
    template<class T>
    static asio::awaitable<void> into(asio::awaitable<T> work, std::optional<T>& out)
    {
        out.emplace(co_await std::move(work));
    }

    template<class T>
    T run(asio::awaitable<T> work)
    {
        std::optional<T> out;
        auto f = asio::co_spawn(ioc_, into(std::move(work), out), asio::use_future);
        ioc_.restart();
        ioc_.run();
        f.get();
        return std::move(*out);
    }

    asio::io_context ioc_;
    std::unique_ptr<agentio::postgres::pool> pool_;
    std::optional<retrieval::postgres_index_writer> writer_;
};

// Fits the latent-semantic model on every chunk of the index and stores it
// with each chunk's vector.
template<class Target>
boost::system::result<void, std::string> refit_lsa(Target& writer, bool stemming)
{
    auto chunks = writer.all_chunks();
    if(!chunks)
        return chunks.error().message;
    auto const text = spanish_analyzer(stemming);
    std::vector<std::vector<std::string>> documents;
    documents.reserve(chunks->size());
    for(auto const& c : *chunks)
        documents.push_back(text.terms(c.title + "\n" + c.text));
    auto model = std::make_shared<retrieval::lsa_model const>(retrieval::lsa_model::fit(documents));
    auto const bytes = model->serialize();
    if(auto r = writer.store_model(lsa_model_name, std::as_bytes(std::span(bytes))); !r)
        return r.error().message;
    retrieval::lsa_embedder embed(model, text);
    std::vector<std::int64_t> ids;
    std::vector<float> values;
    values.reserve(chunks->size() * model->dimensions());
    for(auto const& c : *chunks)
    {
        ids.push_back(c.id);
        auto const v = model->embed(documents[ids.size() - 1]);
        values.insert(values.end(), v.begin(), v.end());
    }
    if(auto r = writer.drop_lsa_vectors(); !r)
        return r.error();
    if(auto r = writer.store_vectors(embed.model_id(), ids, values, model->dimensions(), true); !r)
        return r.error().message;
    return {};
}

// Vectors of an embeddings service for the chunks that have none of its model.
template<class Target>
boost::system::result<void, std::string> embed_missing(Target& writer, settings const& config, std::ostream& log)
{
    asio::io_context ioc;
    agentio::llm::openai_embedder_options o;
    o.base_url = config.embedding_base_url;
    o.api_key = config.embedding_api_key;
    o.model = config.embedding_model;
    o.dimensions = config.embedding_dimensions;
    agentio::llm::openai_embedder embed(ioc.get_executor(), o);
    auto missing = writer.missing_vectors(embed.model_id());
    if(!missing)
        return missing.error().message;
    if(missing->empty())
        return {};
    auto chunks = writer.all_chunks();
    if(!chunks)
        return chunks.error().message;
    std::vector<std::string> texts;
    std::vector<std::int64_t> ids;
    for(auto const& c : *chunks)
        if(std::binary_search(missing->begin(), missing->end(), c.id))
        {
            ids.push_back(c.id);
            texts.push_back(c.title + "\n" + c.text);
        }
    log << "Calculando " << texts.size() << " vectores con " << embed.model_id() << "…\n";
    auto work = embed.embed(texts);
    auto done = asio::co_spawn(ioc, std::move(work), asio::use_future);
    ioc.run();
    auto vectors = done.get();
    if(!vectors)
        return "el servicio de embeddings falló: " + vectors.error().message;
    if(auto r = writer.store_vectors(embed.model_id(), ids, vectors->values, vectors->dimensions, false); !r)
        return r.error().message;
    return {};
}

// The chunks into the index, then the model and the vectors if anything changed.
template<class Target>
boost::system::result<void, std::string> write_index(Target& target, ingest_options const& options,
    settings const& config, std::vector<retrieval::chunk>& chunks, ingest_outcome& out, std::ostream& log)
{
    auto report = target.replace(options.collection, options.law, chunks);
    if(!report)
        return "no se pudo escribir el índice: " + report.error().message;
    out.report = *report;
    out.chunks = chunks.size();
    // How the text was analysed, for whoever searches the index (serve, or another program).
    if(auto r = target.store_analysis(spanish_profile(options.stemming)); !r)
        return "no se pudo guardar en el índice cómo se analiza el texto: " + r.error().message;
    bool const changed = report->added + report->changed + report->removed > 0;
    auto stored = target.load_model(lsa_model_name);
    if(!stored)
        return stored.error().message;
    if(changed || !*stored)
    {
        if(auto r = refit_lsa(target, options.stemming); !r)
            return "no se pudo calcular el modelo latente: " + r.error();
        out.refitted = true;
    }
    if(config.embedder == embedder_kind::openai)
        if(auto r = embed_missing(target, config, log); !r)
            return r.error();
    return {};
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

    if(is_postgres(options.index.string()))
    {
        auto target = postgres_target::open(options.index.string(), options.stemming);
        if(!target)
            return "no se puede abrir el índice en PostgreSQL: " + target.error();
        if(auto r = write_index(**target, options, config, chunks, out, log); !r)
            return r.error();
    }
    else
    {
        std::error_code ec;
        if(auto const dir = options.index.parent_path(); !dir.empty())
            std::filesystem::create_directories(dir, ec);
        auto writer = retrieval::sqlite_index_writer::open(options.index, spanish_analyzer(options.stemming));
        if(!writer)
            return "no se puede abrir el índice '" + options.index.string() + "': " + writer.error().message;
        sqlite_target target(std::move(*writer));
        if(auto r = write_index(target, options, config, chunks, out, log); !r)
            return r.error();
    }
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return out;
}

} // namespace normativa
