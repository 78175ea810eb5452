//
// agentio/llm/detail/json_fields.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Lenient reads of a provider's JSON fields, shared by the codecs: a field
// that is missing or of another type reads as empty (or the fallback), since
// providers add, drop and null fields between versions.
//

#ifndef AGENTIO_LLM_DETAIL_JSON_FIELDS_HPP
#define AGENTIO_LLM_DETAIL_JSON_FIELDS_HPP

#include <boost/json/object.hpp>

#include <cstdint>
#include <string_view>

namespace agentio::llm::detail {

namespace json = boost::json;

inline std::string_view string_at(json::object const& o, std::string_view key)
{
    if(auto const* v = o.if_contains(key))
        if(auto const* s = v->if_string())
            return {s->data(), s->size()};
    return {};
}

inline std::uint64_t count_at(json::object const& o, std::string_view key, std::uint64_t fallback)
{
    if(auto const* v = o.if_contains(key))
    {
        if(auto const* u = v->if_uint64())
            return *u;
        if(auto const* i = v->if_int64(); i && *i >= 0)
            return static_cast<std::uint64_t>(*i);
    }
    return fallback;
}

} // namespace agentio::llm::detail

#endif
