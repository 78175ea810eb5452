//
// agentio/retrieval/analysis.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Text to terms, one way for every index: the sparse index stores the
// analysed text (so SQLite's tokenizer only splits on spaces of what we
// wrote) and the latent-semantic model learns from the same terms, so a
// query and a document meet on identical words. The language lives in the
// options an application passes (its stop words, its stemmer), not here.
//

#ifndef AGENTIO_RETRIEVAL_ANALYSIS_HPP
#define AGENTIO_RETRIEVAL_ANALYSIS_HPP

#include <agentio/config.hpp>

#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace agentio::retrieval {

/** Lower case with the diacritics of Latin-1 letters removed ("Índole" →
    "indole", "Ñandú" → "nandu", "ª" → "a"), as SQLite FTS5's
    `unicode61 remove_diacritics 2` folds them. Other code points are kept;
    invalid UTF-8 bytes become spaces. */
AGENTIO_DECL std::string fold(std::string_view utf8);

/** The words of `text` after folding: runs of ASCII letters and digits and
    of non-ASCII code points; everything else separates ("fijo-discontinuo"
    → "fijo", "discontinuo"; "48.4" → "48", "4"). */
AGENTIO_DECL std::vector<std::string> words(std::string_view text);

/** Lower case, accents kept (Latin-1 capitals lowered, other code points
    kept), punctuation as `fold` treats it: what a stemmer reads. */
AGENTIO_DECL std::string lower(std::string_view utf8);

/// How text becomes terms.
struct analyzer_options
{
    /// Folded words left out (articles, prepositions...): the application's language.
    std::vector<std::string> stop_words = {};
    /// Words shorter than this are left out, numbers never (an article number is one digit).
    std::size_t min_length = 2;
    /** Reduces a word (lower case, accents kept) to its stem, folded after;
        empty: words are kept whole. Stop words are checked before stemming. */
    std::function<std::string(std::string_view)> stem = {};
};

/// Turns text into the terms both indexes use.
class analyzer
{
public:
    analyzer() = default;
    AGENTIO_DECL explicit analyzer(analyzer_options options);

    /// The terms of `text`, in order, repeats kept (term frequency counts them).
    AGENTIO_DECL std::vector<std::string> terms(std::string_view text) const;

    /// The terms joined by spaces: what the sparse index stores and matches.
    AGENTIO_DECL std::string indexed_text(std::string_view text) const;

private:
    struct string_hash
    {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
    };
    std::unordered_set<std::string, string_hash, std::equal_to<>> stop_;
    std::size_t min_length_ = 2;
    std::function<std::string(std::string_view)> stem_;
};

/** An FTS5 query matching any of `terms` (`"a" OR "b"`), each quoted so no
    term is read as an operator (`NEAR`, `OR`, `*`, a column filter), and
    each once. Empty when there are no terms. A question of a person ANDed
    would find only passages with every word of it: OR and BM25 rank instead. */
AGENTIO_DECL std::string fts5_any_of(std::span<std::string const> terms);

/// Passage sizes for @ref split_passages.
struct passage_options
{
    /// A passage longer than this is cut at a line, else at a sentence, else at a space.
    std::size_t max_chars = 1400;
    /// A passage shorter than this is joined to the next one of the same text.
    std::size_t min_chars = 200;
};

/** Cuts text into passages at line breaks, joining short lines and cutting
    long ones, so each passage is a readable unit near the target size.
    The views point into `text`; leading and trailing blanks are trimmed. */
AGENTIO_DECL std::vector<std::string_view> split_passages(std::string_view text, passage_options const& options = {});

} // namespace agentio::retrieval

#ifdef AGENTIO_HEADER_ONLY
#include <agentio/retrieval/impl/analysis.ipp>
#endif

#endif
