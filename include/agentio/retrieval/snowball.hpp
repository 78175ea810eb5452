//
// agentio/retrieval/snowball.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Snowball stemmers (libstemmer, Debian's libstemmer-dev) for an analyzer:
//
//   retrieval::analyzer text({.stop_words = words, .stem = *retrieval::snowball_stemmer("spanish")});
//
// "vacaciones" and "vacación" meet at "vacacion", "despedir" and "despido"
// at "desped"/"desp…": the index and the queries share the stems.
//

#ifndef AGENTIO_RETRIEVAL_SNOWBALL_HPP
#define AGENTIO_RETRIEVAL_SNOWBALL_HPP

#include <libstemmer.h>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace agentio::retrieval {

/** The Snowball stemmer of `language` ("spanish", "english", ... as
    libstemmer names them) reading UTF-8, or nothing if libstemmer has none.
    A stemmer object is not safe for concurrent use: the function keeps one
    per thread. */
inline std::optional<std::function<std::string(std::string_view)>> snowball_stemmer(std::string language)
{
    struct closer
    {
        void operator()(sb_stemmer* s) const noexcept { sb_stemmer_delete(s); }
    };
    using handle = std::unique_ptr<sb_stemmer, closer>;
    if(!handle(sb_stemmer_new(language.c_str(), "UTF_8")))
        return std::nullopt;
    return [language](std::string_view word) -> std::string {
        thread_local std::map<std::string, handle, std::less<>> stemmers;
        auto it = stemmers.find(language);
        if(it == stemmers.end())
            it = stemmers.emplace(language, handle(sb_stemmer_new(language.c_str(), "UTF_8"))).first;
        auto const* out = sb_stemmer_stem(it->second.get(), reinterpret_cast<sb_symbol const*>(word.data()),
            static_cast<int>(word.size()));
        if(!out) // out of memory: the word unstemmed
            return std::string(word);
        return std::string(reinterpret_cast<char const*>(out),
            static_cast<std::size_t>(sb_stemmer_length(it->second.get())));
    };
}

} // namespace agentio::retrieval

#endif
