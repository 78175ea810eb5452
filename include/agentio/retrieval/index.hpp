//
// agentio/retrieval/index.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Chunks and what a search backend does with them. A chunk is a passage of
// a document with the metadata a law needs (its law, article, paragraph,
// chapter and section, the articles it cites); `index` is the read side a
// searcher and an agent's tools use, with a backend per database
// (<agentio/retrieval/sqlite_index.hpp>).
//

#ifndef AGENTIO_RETRIEVAL_INDEX_HPP
#define AGENTIO_RETRIEVAL_INDEX_HPP

#include <agentio/config.hpp>
#include <agentio/retrieval/vector_store.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/assert/source_location.hpp>
#include <boost/system/error_code.hpp>
#include <boost/system/result.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace agentio::retrieval {

namespace asio = boost::asio;
namespace system = boost::system;

/// Failures of an index beyond its database's own.
enum class errc
{
    /// The database failed (its message says how).
    storage_failed = 1,
    /// The data stored is not what this library writes.
    corrupt_data,
    /// The schema is newer than this program knows.
    schema_too_new,
    /// Vectors or a model of another embedder than the one given.
    model_mismatch,
    /// The index stores no analysis profile, and no analyzer was given instead.
    no_analysis,
    /// An analysis profile names a stemmer libstemmer does not have.
    unknown_stemmer,
    /// The embedder failed, or gave another number of vectors than texts (its message says how).
    embedding_failed
};

/// The error category of @ref errc.
AGENTIO_DECL system::error_category const& error_category() noexcept;

inline system::error_code make_error_code(errc e) noexcept
{
    return {static_cast<int>(e), error_category()};
}

/// What went wrong, with the database's words.
struct error
{
    system::error_code code = {};
    std::string message = {};
};

/// An index operation's outcome.
template<class T>
using result = system::result<T, error>;

/// Throws a `system_error` carrying the message (what `result::value()` does on error).
[[noreturn]] AGENTIO_DECL void throw_exception_from_error(error const& e, boost::source_location const& loc);

/// A passage of a document and where it sits.
struct chunk
{
    /// Given by the index, kept while the chunk's key is re-ingested.
    std::int64_t id = 0;
    /// Stable and unique: what re-ingesting matches on ("estatuto/48/4").
    std::string key = {};
    /// A set of documents searched together or apart ("normativa", "sentencias").
    std::string collection = {};
    /// The law (or document) it belongs to.
    std::string law = {};
    /// Its article ("48", "disposición adicional primera"); empty outside articles.
    std::string article_number = {};
    /// Its numbered paragraph in the article ("4"); empty for the article's head or all of it.
    std::string paragraph = {};
    /// The article's heading ("Artículo 48. Suspensión con reserva de puesto de trabajo.").
    std::string title = {};
    /// The chapter and section it sits in, as the document names them.
    std::string chapter = {};
    std::string section = {};
    /// The passage.
    std::string text = {};
    /// Articles of the same law it cites: "48" or "48.4" (article.paragraph).
    std::vector<std::string> refs = {};
    /// Its position in its law, for returning an article in order.
    std::int32_t ordinal = 0;
};

/// How many chunks an index holds, by collection.
struct index_stats
{
    std::size_t chunks = 0;
    std::map<std::string, std::size_t, std::less<>> per_collection = {};
};

/** The vectors of one embedder, in memory, with each chunk's collection:
    what dense search scores against. */
struct dense_corpus
{
    std::string model_id = {};
    std::shared_ptr<vector_store const> vectors = {};
    std::unordered_map<std::int64_t, std::uint32_t> collection_of = {};
    std::vector<std::string> collections = {};
};

/** The read side of an index, with one implementation per database.

    Every call is a coroutine that does not block its caller's thread (the
    SQLite backend runs on a `sqlite::query_pool`).
*/
class index
{
public:
    virtual ~index() = default;

    /** Chunks whose text holds any of `terms` (analysed as the index stored
        them), best first by the backend's relevance (BM25 for SQLite),
        at most `limit`, only of `collections` unless it is empty. */
    virtual asio::awaitable<result<std::vector<ranked>>> sparse(std::vector<std::string> terms,
        std::vector<std::string> collections, std::size_t limit) = 0;

    /// The chunks of these ids, in that order; unknown ids are left out.
    virtual asio::awaitable<result<std::vector<chunk>>> chunks(std::vector<std::int64_t> ids) = 0;

    /** An article's chunks in order, by exact metadata: `paragraph` empty for
        all of them. The law is matched exactly (callers resolve aliases). */
    virtual asio::awaitable<result<std::vector<chunk>>> article(std::string law, std::string article_number,
        std::string paragraph) = 0;

    /// The laws the index holds, each with its number of chunks.
    virtual asio::awaitable<result<std::map<std::string, std::size_t, std::less<>>>> laws() = 0;

    virtual asio::awaitable<result<index_stats>> stats() = 0;

    /// Every stored vector of the embedder `model_id` (none: an empty store).
    virtual asio::awaitable<result<dense_corpus>> load_vectors(std::string model_id) = 0;

    /// A model stored with the index (the latent-semantic model's bytes), if any.
    virtual asio::awaitable<result<std::optional<std::string>>> load_model(std::string name) = 0;
};

/** The chunks `from` cites, at most `limit`: for each reference in order,
    the cited paragraph, or the first chunk of the cited article. */
AGENTIO_DECL asio::awaitable<result<std::vector<chunk>>> related_chunks(index& idx, chunk const& from,
    std::size_t limit);

} // namespace agentio::retrieval

namespace boost::system {
template<>
struct is_error_code_enum<agentio::retrieval::errc> : std::true_type
{
};
} // namespace boost::system

#ifdef AGENTIO_HEADER_ONLY
#include <agentio/retrieval/impl/index.ipp>
#endif

#endif
