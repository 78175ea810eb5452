//
// agentio/detail/ascii.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// ASCII helpers for protocol text (header names, tokens), usable in constant
// expressions, where <cctype> is not and locales must not matter.
//

#ifndef AGENTIO_DETAIL_ASCII_HPP
#define AGENTIO_DETAIL_ASCII_HPP

#include <cstddef>
#include <string>
#include <string_view>

namespace agentio::detail {

constexpr char ascii_lower(char c) noexcept
{
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c;
}

/// `s` in lower case (ASCII letters only).
inline std::string ascii_lower(std::string_view s)
{
    std::string out(s);
    for(char& c : out)
        c = ascii_lower(c);
    return out;
}

/// Whether `a` and `b` are equal but for the case of ASCII letters.
constexpr bool iequal(std::string_view a, std::string_view b) noexcept
{
    if(a.size() != b.size())
        return false;
    for(std::size_t i = 0; i < a.size(); ++i)
        if(ascii_lower(a[i]) != ascii_lower(b[i]))
            return false;
    return true;
}

/// RFC 9110 §5.6.2: whether `s` is a token (what an HTTP field name is made of).
constexpr bool is_http_token(std::string_view s) noexcept
{
    if(s.empty())
        return false;
    for(char c : s)
        if(!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos))
            return false;
    return true;
}

} // namespace agentio::detail

#endif
