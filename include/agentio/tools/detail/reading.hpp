//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Lenient reads of a service's JSON: a key that is absent, null or of another
// type reads as nothing, never as an exception (services omit empty fields).

#ifndef AGENTIO_TOOLS_DETAIL_READING_HPP
#define AGENTIO_TOOLS_DETAIL_READING_HPP

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace agentio::tools::detail {

inline std::string text_at(boost::json::object const& o, std::string_view key)
{
    auto const* v = o.if_contains(key);
    return v && v->is_string() ? std::string(v->get_string()) : std::string();
}

inline std::optional<double> number_of(boost::json::value const& v)
{
    if(v.is_double())
        return v.get_double();
    if(v.is_int64())
        return static_cast<double>(v.get_int64());
    if(v.is_uint64())
        return static_cast<double>(v.get_uint64());
    return std::nullopt;
}

inline std::optional<double> number_at(boost::json::object const& o, std::string_view key)
{
    auto const* v = o.if_contains(key);
    return v ? number_of(*v) : std::nullopt;
}

} // namespace agentio::tools::detail

#endif
