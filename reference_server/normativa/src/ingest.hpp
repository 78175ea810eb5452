// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// `agentio-normativa ingest`: law files → chunks → the index (sparse text,
// the latent-semantic model refitted on the whole corpus and every chunk's
// vector; with RAG_EMBEDDER=openai, that service's vectors of new chunks too).
// The files and how they are read are this program's; the writing is the
// library's `index_writer` and its pipelines, whichever database.
#pragma once

#include "settings.hpp"

#include <agentio/retrieval.hpp>

#include <boost/system/result.hpp>

#include <filesystem>
#include <iosfwd>
#include <string_view>
#include <string>
#include <vector>

namespace normativa {

struct ingest_options
{
    std::filesystem::path index;
    std::string law;
    std::string collection = "normativa";
    std::vector<std::filesystem::path> inputs; ///< files, or folders of .txt / .md files
    bool progress = false;                     ///< a progress bar (on a terminal)
    bool stemming = true;                      ///< Snowball stems in both halves (off: to measure what they bring)
};

struct ingest_outcome
{
    std::size_t files = 0;   ///< files read into the index
    std::size_t skipped = 0; ///< files named in a warning and left out
    std::size_t chunks = 0;
    std::size_t articles = 0;
    agentio::retrieval::ingest_report report;
    bool refitted = false; ///< the latent-semantic model was fitted again
    double seconds = 0;
};

/** Reads the inputs and makes the law's chunks in the index exactly theirs.
    Warnings (a file not UTF-8, without an "Artículo N." heading) go to
    `log`; the error is for what stops everything (no file at all, the
    index unwritable, the embeddings service failing). */
boost::system::result<ingest_outcome, std::string> ingest(ingest_options const& options, settings const& config,
    std::ostream& log);

/// Whether `index` names a PostgreSQL database (`postgresql://…`) rather than a SQLite file.
inline bool is_postgres(std::string_view index)
{
    return index.starts_with("postgresql://") || index.starts_with("postgres://");
}

/// The name of the stored latent-semantic model.
inline constexpr char const* lsa_model_name = "lsa";

} // namespace normativa
