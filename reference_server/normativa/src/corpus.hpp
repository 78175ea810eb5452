// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The law's text as Spanish statutes are written: "Artículo N. Título."
// headings, numbered paragraphs, TÍTULO / CAPÍTULO / Sección headings (in
// the BOE files, the ones opening an article sit at the end of the file
// before it), disposiciones, and references such as "artículos 40 y 41".
#pragma once

#include <agentio/retrieval.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace normativa {

/// The Spanish words the indexes leave out (articles, prepositions, pronouns, question words).
std::vector<std::string> const& stop_words();

/** The analysis of the index and of queries, as ingest stores it in the
    index (without stemming: for measuring what it brings). */
agentio::retrieval::analysis_profile spanish_profile(bool stemming = true);

/// The analyzer `spanish_profile(stemming)` describes.
agentio::retrieval::analyzer spanish_analyzer(bool stemming = true);

/// An article (or disposición) as read from the text.
struct article_text
{
    std::string number;  ///< "48", "disposición adicional décima"
    std::string heading; ///< "Artículo 48. Suspensión con reserva de puesto de trabajo."
    std::string part;    ///< "TÍTULO I. De la relación individual de trabajo"
    std::string chapter; ///< "CAPÍTULO III. Modificación, suspensión y extinción del contrato de trabajo"
    std::string section; ///< "Sección 3.ª Suspensión del contrato"
    std::string body;    ///< the text after the heading, headings of what follows removed
};

/// The structure headings in force, carried from one file to the next.
struct structure_state
{
    std::string part;
    std::string chapter;
    std::string section;
};

/// What reading one file gave.
struct parsed_file
{
    std::vector<article_text> articles;
    /// The number of the first article, for ordering files (none: a preamble).
    std::optional<long> first_number;
};

/** Splits a file's text into articles and disposiciones. Headings update
    `state` as they appear; an article takes the state in force at its heading. */
parsed_file parse_law_text(std::string_view text, structure_state& state);

/// The number on the file's first "Artículo N." line, without parsing the rest.
std::optional<long> first_article_number(std::string_view text);

/// Whether `text` is valid UTF-8.
bool is_utf8(std::string_view text);

/** References to articles of the same law in `text`: "48", "48.4"; those
    followed by another law's name ("artículo 139 de la Ley 36/2011") and
    those to `own_article` are left out. In order, each once. */
std::vector<std::string> find_references(std::string_view text, std::string_view own_article);

/// Chunk keys are "<law slug>/<article slug>/<paragraph>[#part]".
std::string slug(std::string_view text);

/** An article's chunks: one per numbered paragraph (long ones cut into
    passages), the text before the first paragraph as its own. */
std::vector<agentio::retrieval::chunk> chunk_article(article_text const& article, std::string_view law,
    std::int32_t& ordinal);

/// The law `name` names, folded and matched against known names and aliases
/// ("ET", "Estatuto", "RDL 2/2015"); `known` are the laws the index holds.
std::optional<std::string> resolve_law(std::string_view name, std::vector<std::string> const& known);

} // namespace normativa
