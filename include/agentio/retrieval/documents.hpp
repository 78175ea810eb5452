//
// agentio/retrieval/documents.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Documents into an index: the text of a PDF, DOCX, text, Markdown or JSON
// file taken out in a sandbox (a hostile file attacks its parser, so the
// parser runs isolated: pdftotext, Python's zipfile and expat), cut into
// overlapping chunks that name their place (a page, a section, a key path),
// and written through any index_writer with the dense half: vectors of the
// index's latent-semantic model (fitted on the first document).
//

#ifndef AGENTIO_RETRIEVAL_DOCUMENTS_HPP
#define AGENTIO_RETRIEVAL_DOCUMENTS_HPP

#include <agentio/config.hpp>
#include <agentio/retrieval/index.hpp>
#include <agentio/retrieval/index_writer.hpp>
#include <agentio/sandbox.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/system/result.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace agentio::retrieval {

/// A passage of a document where the document puts it.
struct document_part
{
    /// "page 3", "section Vacaciones", "$.pedidos[2]", "text".
    std::string place;
    std::string text;
};

/// A document to index.
struct document
{
    /// The set it is searched in ("uploads/ana", say).
    std::string collection;
    /// Unique in the collection; re-ingesting the key replaces the document.
    std::string key;
    /// How a passage names it (its file name).
    std::string title;
    std::vector<document_part> parts;
};

/// How documents are cut.
struct chunking
{
    /// About this many bytes a chunk, cut at a paragraph, a sentence or a word.
    std::size_t target_bytes = 1200;
    /// What consecutive chunks of a part share, so a sentence across a cut is found whole in one of them.
    std::size_t overlap_bytes = 200;
};

/** The chunks of `doc`: each part cut with overlap, never across parts.
    A chunk's `law` is the document's key, `title` its title, `section` its
    place, `collection` the document's, `key` "key/part/piece", `ordinal` its
    position. Valid UTF-8 in, valid UTF-8 out (no character is split). */
AGENTIO_DECL std::vector<chunk> chunk_document(document const& doc, chunking const& how = {});

/// How @ref ingest_document writes.
struct document_ingest_options
{
    chunking chunks = {};
    /// The latent-semantic model's name in the index (fitted when the index has none).
    std::string model_name = std::string(lsa_model_name);
};

/** Writes `doc`'s chunks (replacing an earlier version of its key) and their
    vectors: folded into the index's latent-semantic model, or, when the
    index has none yet, a model fitted on every chunk (`refresh_lsa_vectors`).
    @return what the chunks' write changed, or the writer's error. */
AGENTIO_DECL boost::asio::awaitable<result<ingest_report>> ingest_document(index_writer& writer, document doc,
    document_ingest_options options);

/// The bounds of taking a document's text out.
struct extraction_limits
{
    std::chrono::seconds wall_time{30};
    std::uint64_t memory_bytes = std::uint64_t(1) << 30;
    /// The most a file may expand to (a DOCX's zip entries, together): a zip bomb is refused before it inflates.
    std::uint64_t expanded_bytes = std::uint64_t(256) << 20;
    /// The text kept.
    std::size_t text_bytes = 32 * 1024 * 1024;
};

/** The parts of a file's text, taken out in `sandbox`: a PDF's pages
    (pdftotext, Debian's poppler-utils), a DOCX's sections (by its heading
    styles; a zip bomb or XML with entities refused), a JSON document's
    values by key path, a text's or Markdown's sections (by `#` headings).
    @param media_type as `chat_completions::sniff_file_type` names it
    @return the parts, or a sentence that names the file and what is wrong
    with it (a malformed file, a limit hit) */
AGENTIO_DECL boost::asio::awaitable<boost::system::result<std::vector<document_part>, std::string>> extract_document(
    sandbox::runner& sandbox, std::string content, std::string media_type, std::string name, extraction_limits limits);

} // namespace agentio::retrieval

#ifdef AGENTIO_HEADER_ONLY
#include <agentio/retrieval/impl/documents.ipp>
#endif

#endif
