// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Documents into an index: a 100-page PDF and a DOCX of 100 sections, each
// taken out in the sandbox (pdftotext; zipfile and expat), chunked and
// written with their vectors into a SQLite index. Pages (or sections) a
// second, for the extraction alone and for the whole ingest.
//
//   agentio_documents_bench [pages] [runs]     (default 100 pages, 5 runs)
#include <agentio/retrieval.hpp>
#include <agentio/retrieval/open_index_writer.hpp>
#include <agentio/sandbox.hpp>

#include "bench_support.hpp"
#include "documents.hpp"
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_future.hpp>

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace asio = boost::asio;
namespace retrieval = agentio::retrieval;
using clock_type = std::chrono::steady_clock;

namespace {

std::string sentence(std::size_t i)
{
    static char const* words[] = {"contrato", "vacaciones", "jornada", "salario", "despido", "permiso", "descanso",
        "turno", "horas", "convenio", "empresa", "trabajador", "periodo", "prueba", "anual", "semanal"};
    std::string out;
    for(std::size_t w = 0; w < 60; ++w)
        out.append(words[(i * 7 + w * 3) % 16]).append(w % 12 == 11 ? ". " : " ");
    return out;
}

template<class T>
T wait(asio::io_context& ioc, asio::awaitable<T> work)
{
    ioc.restart();
    auto done = asio::co_spawn(ioc, std::move(work), asio::use_future);
    ioc.run();
    return done.get();
}

} // namespace

int main(int argc, char** argv)
{
    std::size_t const pages = argc > 1 ? std::stoul(argv[1]) : 100;
    int const runs = argc > 2 ? std::atoi(argv[2]) : 5;
    auto const dir = std::filesystem::temp_directory_path() / ("agentio-documents-bench-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);

    std::vector<std::string> texts;
    for(std::size_t i = 0; i < pages; ++i)
        texts.push_back("Pagina " + std::to_string(i + 1) + ": " + sentence(i));
    std::string const pdf = agentio_test::make_pdf(texts);
    // The DOCX: written by Debian's python3 (the bench's own file, trusted).
    {
        std::ofstream script(dir / "docx.py");
        script << "import sys, zipfile\nW='http://schemas.openxmlformats.org/wordprocessingml/2006/main'\nbody=''\n";
        script
            << "for i in range(" << pages << "):\n"
            << "    body += '<w:p><w:pPr><w:pStyle w:val=\"Heading1\"/></w:pPr><w:r><w:t>Seccion %d</w:t></w:r></w:p>' "
               "% i\n"
            << "    body += '<w:p><w:r><w:t>' + ('contrato vacaciones jornada salario despido permiso. ' * 10) + "
               "'</w:t></w:r></w:p>'\n"
            << "z = zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED)\n"
            << "z.writestr('[Content_Types].xml', '<Types/>')\n"
            << "z.writestr('word/document.xml', '<?xml version=\"1.0\"?><w:document xmlns:w=\"' + W + '\"><w:body>' + "
               "body + '</w:body></w:document>')\nz.close()\n";
    }
    if(std::system(("/usr/bin/python3 " + (dir / "docx.py").string() + " " + (dir / "in.docx").string()).c_str()) != 0)
        return 1;
    std::ifstream in(dir / "in.docx", std::ios::binary);
    std::string const docx((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());

    asio::io_context ioc;
    agentio::sandbox::runner sandbox(ioc.get_executor());
    retrieval::analysis_profile const profile;
    auto writer = wait(ioc,
        retrieval::open_index_writer((dir / "index.db").string(), profile.make_analyzer().value(), {}))
                      .value();
    wait(ioc, writer->store_analysis(profile)).value();

    std::printf("documents bench: %zu pages (PDF %.0f KB) and %zu sections (DOCX %.0f KB), %d runs, pages/s p50\n",
        pages, static_cast<double>(pdf.size()) / 1024, pages, static_cast<double>(docx.size()) / 1024, runs);
    for(auto const& [label, bytes, type] : {std::tuple{"PDF", &pdf, "application/pdf"},
            std::tuple{"DOCX", &docx, "application/vnd.openxmlformats-officedocument.wordprocessingml.document"}})
    {
        std::vector<double> extract_rate, ingest_rate;
        std::size_t parts = 0, chunks = 0;
        for(int r = 0; r < runs; ++r)
        {
            auto began = clock_type::now();
            auto extracted = wait(ioc, retrieval::extract_document(sandbox, *bytes, type, label, {}));
            if(!extracted)
            {
                std::fprintf(stderr, "%s\n", extracted.error().c_str());
                return 1;
            }
            auto got = std::move(*extracted);
            double const extract_s = std::chrono::duration<double>(clock_type::now() - began).count();
            parts = got.size();
            retrieval::document doc{"uploads/bench", std::string(label) + std::to_string(r), label, std::move(got)};
            auto const indexed = wait(ioc, retrieval::ingest_document(*writer, std::move(doc), {})).value();
            double const total_s = std::chrono::duration<double>(clock_type::now() - began).count();
            chunks = indexed.added;
            extract_rate.push_back(static_cast<double>(pages) / extract_s);
            ingest_rate.push_back(static_cast<double>(pages) / total_s);
        }
        std::printf("  %-4s %zu parts, %zu chunks: extraction in the sandbox %.0f pages/s; extraction + chunks + "
                    "index + vectors %.0f pages/s\n",
            label, parts, chunks, bench::percentiles_of(extract_rate).median,
            bench::percentiles_of(ingest_rate).median);
    }
    writer.reset();
    std::filesystem::remove_all(dir);
    return 0;
}
