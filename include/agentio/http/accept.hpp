//
// agentio/http/accept.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// RFC 9110 §12.5 content negotiation, the part servers need: whether an
// Accept or Accept-Encoding list allows a media type or a coding, with
// q-values (q=0 refuses), wildcards, and the most specific entry winning.
//

#ifndef AGENTIO_HTTP_ACCEPT_HPP
#define AGENTIO_HTTP_ACCEPT_HPP

#include <agentio/detail/ascii.hpp>

#include <optional>
#include <string_view>

namespace agentio::http::detail {

inline std::string_view trim_ows(std::string_view s) noexcept
{
    while(!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while(!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

// Calls f(value, acceptable) for each element of a list header: `value` without
// its parameters, `acceptable` false when its q is zero (q=0, 0.0, 0.000).
template<class F>
void for_each_preference(std::string_view header, F&& f)
{
    while(!header.empty())
    {
        auto const comma = header.find(',');
        auto const item = trim_ows(header.substr(0, comma));
        header = comma == std::string_view::npos ? std::string_view() : header.substr(comma + 1);
        if(item.empty())
            continue;
        auto const semi = item.find(';');
        bool acceptable = true;
        for(auto params = semi == std::string_view::npos ? std::string_view() : item.substr(semi + 1); !params.empty();)
        {
            auto const next = params.find(';');
            auto const param = trim_ows(params.substr(0, next));
            params = next == std::string_view::npos ? std::string_view() : params.substr(next + 1);
            if(param.size() >= 2 && (param[0] | 0x20) == 'q' && param[1] == '=')
                acceptable = param.substr(2).find_first_not_of("0.") != std::string_view::npos;
        }
        f(trim_ows(item.substr(0, semi)), acceptable);
    }
}

} // namespace agentio::http::detail

namespace agentio::http {

/// Whether an Accept-Encoding list allows `coding` (`x-gzip` counts as
/// `gzip`): named with a non-zero q, or `*` with one and not refused by name.
inline bool accepts_coding(std::string_view header, std::string_view coding)
{
    std::optional<bool> named, any;
    detail::for_each_preference(header, [&](std::string_view value, bool acceptable) {
        if(agentio::detail::iequal(value, coding) ||
            (agentio::detail::iequal(coding, "gzip") && agentio::detail::iequal(value, "x-gzip")))
            named = acceptable;
        else if(value == "*")
            any = acceptable;
    });
    return named.value_or(any.value_or(false));
}

/// Whether an Accept list allows the media type `type` (`text/event-stream`):
/// the most specific entry that matches it (`type/subtype`, `type/*`, `*/*`)
/// decides. An empty list allows nothing: callers that must treat a missing
/// header as "anything" say so themselves.
inline bool accepts_media_type(std::string_view header, std::string_view type)
{
    auto const slash = type.find('/');
    std::string_view const major = type.substr(0, slash);
    std::optional<bool> exact, range, any;
    detail::for_each_preference(header, [&](std::string_view value, bool acceptable) {
        if(agentio::detail::iequal(value, type))
            exact = acceptable;
        else if(value.size() == major.size() + 2 && value.ends_with("/*") &&
            agentio::detail::iequal(value.substr(0, major.size()), major))
            range = acceptable;
        else if(value == "*/*")
            any = acceptable;
    });
    return exact.value_or(range.value_or(any.value_or(false)));
}

} // namespace agentio::http

#endif
