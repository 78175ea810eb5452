//
// agentio/retrieval/impl/analysis_profile.ipp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_RETRIEVAL_IMPL_ANALYSIS_PROFILE_IPP
#define AGENTIO_RETRIEVAL_IMPL_ANALYSIS_PROFILE_IPP

#include <agentio/retrieval/analysis_profile.hpp>
#include <agentio/retrieval/snowball.hpp>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <cstdint>
#include <string>

namespace agentio::retrieval {

namespace detail {

inline error bad_profile(std::string what)
{
    return {make_error_code(errc::corrupt_data), "analysis profile: " + std::move(what)};
}

} // namespace detail

AGENTIO_DECL boost::json::value analysis_profile::to_json() const
{
    boost::json::array words;
    words.reserve(stop_words.size());
    for(auto const& w : stop_words)
        words.emplace_back(w);
    boost::json::object out;
    out["version"] = version;
    out["stop_words"] = std::move(words);
    out["min_length"] = static_cast<std::uint64_t>(min_length);
    out["stemmer"] = stemmer;
    return out;
}

AGENTIO_DECL result<analysis_profile> analysis_profile::from_json(boost::json::value const& json)
{
    auto const* o = json.if_object();
    if(!o)
        return detail::bad_profile("not a JSON object");
    auto const* v = o->if_contains("version");
    if(!v)
        return detail::bad_profile("\"version\" is missing");
    if(!v->is_int64() && !v->is_uint64())
        return detail::bad_profile("\"version\" is not an integer");
    if(v->is_uint64() || v->get_int64() > version)
        return error{make_error_code(errc::schema_too_new),
            "analysis profile: \"version\" " + boost::json::serialize(*v) + " is newer than this program's (" +
                std::to_string(version) + ")"};
    if(v->get_int64() < 1)
        return detail::bad_profile("\"version\" must be at least 1");

    analysis_profile out;
    auto const* words = o->if_contains("stop_words");
    if(!words)
        return detail::bad_profile("\"stop_words\" is missing");
    if(!words->is_array())
        return detail::bad_profile("\"stop_words\" is not an array");
    out.stop_words.reserve(words->get_array().size());
    for(std::size_t i = 0; i < words->get_array().size(); ++i)
    {
        auto const& w = words->get_array()[i];
        if(!w.is_string())
            return detail::bad_profile("\"stop_words\"[" + std::to_string(i) + "] is not a string");
        out.stop_words.emplace_back(w.get_string());
    }

    auto const* min = o->if_contains("min_length");
    if(!min)
        return detail::bad_profile("\"min_length\" is missing");
    if(min->is_uint64())
        out.min_length = static_cast<std::size_t>(min->get_uint64());
    else if(min->is_int64() && min->get_int64() >= 0)
        out.min_length = static_cast<std::size_t>(min->get_int64());
    else
        return detail::bad_profile("\"min_length\" is not a non-negative integer");

    auto const* stem = o->if_contains("stemmer");
    if(!stem)
        return detail::bad_profile("\"stemmer\" is missing");
    if(!stem->is_string())
        return detail::bad_profile("\"stemmer\" is not a string");
    out.stemmer = stem->get_string();
    return out;
}

AGENTIO_DECL result<analysis_profile> analysis_profile::from_json_text(std::string_view text)
{
    system::error_code ec;
    auto const json = boost::json::parse(text, ec);
    if(ec)
        return detail::bad_profile("not JSON (" + ec.message() + ")");
    return from_json(json);
}

AGENTIO_DECL result<analyzer> analysis_profile::make_analyzer() const
{
    analyzer_options options;
    options.stop_words = stop_words;
    options.min_length = min_length;
    if(!stemmer.empty())
    {
        auto stem = snowball_stemmer(stemmer);
        if(!stem)
            return error{make_error_code(errc::unknown_stemmer),
                "analysis profile: libstemmer has no stemmer for \"" + stemmer + "\""};
        options.stem = std::move(*stem);
    }
    return analyzer(std::move(options));
}

AGENTIO_DECL asio::awaitable<result<std::optional<analysis_profile>>> load_analysis(index& idx)
{
    std::string name(analysis_model_name);
    auto stored = co_await idx.load_model(std::move(name));
    if(!stored)
        co_return stored.error();
    if(!*stored)
        co_return std::optional<analysis_profile>();
    auto profile = analysis_profile::from_json_text(**stored);
    if(!profile)
        co_return profile.error();
    co_return std::optional<analysis_profile>(std::move(*profile));
}

} // namespace agentio::retrieval

#endif
