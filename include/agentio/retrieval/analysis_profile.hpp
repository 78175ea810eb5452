//
// agentio/retrieval/analysis_profile.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// An analyzer as data, stored with the index it wrote: a program that did
// not build an index (and does not know its language) reads how queries
// must be analysed from the index itself.
//
//   retrieval::analysis_profile profile{.stop_words = words, .stemmer = "spanish"};
//   auto writer = retrieval::sqlite_index_writer::open(path, profile.make_analyzer().value()).value();
//   writer.store_analysis(profile).value();
//   ...
//   auto stored = (co_await retrieval::load_analysis(index)).value(); // elsewhere, later
//

#ifndef AGENTIO_RETRIEVAL_ANALYSIS_PROFILE_HPP
#define AGENTIO_RETRIEVAL_ANALYSIS_PROFILE_HPP

#include <agentio/config.hpp>
#include <agentio/retrieval/analysis.hpp>
#include <agentio/retrieval/index.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/json/value.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agentio::retrieval {

/** The name the index writers store an @ref analysis_profile under, among
    the models (`store_model`, `load_model`): reserved for it. */
inline constexpr std::string_view analysis_model_name = "agentio.analysis";

/** What an @ref analyzer does, as data that can be stored and read back:
    the `analyzer_options` of the analyzer @ref make_analyzer builds, with
    the stemmer named instead of given as a function.

    Its JSON (what the writers store):

        {"version":1,"stop_words":["el","la"],"min_length":2,"stemmer":"spanish"}
*/
struct analysis_profile
{
    /// The JSON layout this library writes; a newer one is refused (`errc::schema_too_new`).
    static constexpr int version = 1;

    /// Folded words left out (`analyzer_options::stop_words`).
    std::vector<std::string> stop_words = {};
    /// Words shorter than this are left out, numbers never (`analyzer_options::min_length`).
    std::size_t min_length = 2;
    /** The Snowball stemmer's language as libstemmer names it ("spanish",
        "english"...): see `snowball_stemmer`. Empty: words are kept whole. */
    std::string stemmer = {};

    /// The profile as a JSON object, with its `version`.
    AGENTIO_DECL boost::json::value to_json() const;

    /** A profile from its JSON. Every field is required; unknown fields are
        ignored (a later version adding one that changes the analysis raises
        `version`).

        @return the profile, or `errc::corrupt_data` with a message naming
        the field that is missing or of the wrong type, or
        `errc::schema_too_new` for a newer `version`.
    */
    AGENTIO_DECL static result<analysis_profile> from_json(boost::json::value const& json);

    /// @ref from_json of JSON text; text that is not JSON is `errc::corrupt_data`.
    AGENTIO_DECL static result<analysis_profile> from_json_text(std::string_view text);

    /** The analyzer this profile describes.

        @return it, or `errc::unknown_stemmer` when libstemmer has no
        stemmer of that language (an index written by a program that had one).
    */
    AGENTIO_DECL result<analyzer> make_analyzer() const;

    friend bool operator==(analysis_profile const&, analysis_profile const&) = default;
};

/** The analysis profile stored in `idx` (under @ref analysis_model_name),
    or nothing when the index stores none (written before profiles existed,
    or by a writer never given one).

    @return the database's error, or `errc::corrupt_data` /
    `errc::schema_too_new` as @ref analysis_profile::from_json_text says.
*/
AGENTIO_DECL asio::awaitable<result<std::optional<analysis_profile>>> load_analysis(index& idx);

} // namespace agentio::retrieval

#ifdef AGENTIO_HEADER_ONLY
#include <agentio/retrieval/impl/analysis_profile.ipp>
#endif

#endif
