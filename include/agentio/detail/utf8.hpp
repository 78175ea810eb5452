//
// agentio/detail/utf8.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// UTF-8, in one place: validating and decoding one character, cutting text
// without splitting one, counting them, and decoding with replacement as the
// WHATWG Encoding standard does (for event streams).
//

#ifndef AGENTIO_DETAIL_UTF8_HPP
#define AGENTIO_DETAIL_UTF8_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace agentio::detail {

inline bool is_utf8_continuation(char c) noexcept
{
    return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

// Appends `in` to `out`, replacing each maximal invalid subsequence with
// U+FFFD exactly as the WHATWG Encoding standard's UTF-8 decoder does.
/** The length of the UTF-8 sequence at `s[i]`, or 0 when it is not valid
    (overlong forms, surrogates and code points past U+10FFFF included). */
inline std::size_t utf8_sequence_length(std::string_view s, std::size_t i) noexcept
{
    auto const at = [&](std::size_t k) { return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0u; };
    auto const cont = [](unsigned b) { return b >= 0x80 && b <= 0xbf; };
    unsigned const b0 = at(0);
    if(i < s.size() && b0 < 0x80)
        return 1;
    if(b0 >= 0xc2 && b0 <= 0xdf)
        return cont(at(1)) ? 2 : 0;
    if(b0 >= 0xe0 && b0 <= 0xef)
    {
        unsigned const lo = b0 == 0xe0 ? 0xa0 : 0x80, hi = b0 == 0xed ? 0x9f : 0xbf;
        return at(1) >= lo && at(1) <= hi && cont(at(2)) ? 3 : 0;
    }
    if(b0 >= 0xf0 && b0 <= 0xf4)
    {
        unsigned const lo = b0 == 0xf0 ? 0x90 : 0x80, hi = b0 == 0xf4 ? 0x8f : 0xbf;
        return at(1) >= lo && at(1) <= hi && cont(at(2)) && cont(at(3)) ? 4 : 0;
    }
    return 0;
}

/// Decodes the character at `s[i]`; `length` is its size in bytes, 0 when it is not valid UTF-8.
inline std::uint32_t decode_utf8(std::string_view s, std::size_t i, std::size_t& length) noexcept
{
    length = utf8_sequence_length(s, i);
    if(length == 0)
        return 0;
    auto const b = static_cast<unsigned char>(s[i]);
    static constexpr unsigned char lead_bits[5] = {0, 0x7F, 0x1F, 0x0F, 0x07};
    std::uint32_t cp = b & lead_bits[length];
    for(std::size_t k = 1; k < length; ++k)
        cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    return cp;
}

/// The largest character boundary at or before byte `i` (of text that is UTF-8).
inline std::size_t utf8_floor(std::string_view s, std::size_t i) noexcept
{
    if(i >= s.size())
        return s.size();
    while(i > 0 && is_utf8_continuation(s[i]))
        --i;
    return i;
}

/// The smallest character boundary at or after byte `i` (of text that is UTF-8).
inline std::size_t utf8_ceil(std::string_view s, std::size_t i) noexcept
{
    while(i < s.size() && is_utf8_continuation(s[i]))
        ++i;
    return i < s.size() ? i : s.size();
}

/// How many characters UTF-8 text holds (its bytes that begin one).
inline std::size_t utf8_code_points(std::string_view s) noexcept
{
    std::size_t n = 0;
    for(char c : s)
        n += !is_utf8_continuation(c);
    return n;
}

inline void append_utf8_replacing_errors(std::string& out, std::string_view in)
{
    std::size_t i = 0;
    while(i < in.size() && static_cast<unsigned char>(in[i]) < 0x80)
        ++i;
    out.append(in.data(), i); // the common all-ASCII case ends here
    if(i == in.size())
        return;

    constexpr std::string_view replacement = "\xEF\xBF\xBD";
    unsigned needed = 0, seen = 0;
    unsigned char lower = 0x80, upper = 0xBF;
    std::size_t start = 0; // first byte of the sequence being decoded
    while(i < in.size())
    {
        auto const b = static_cast<unsigned char>(in[i]);
        if(needed == 0)
        {
            start = i++;
            if(b <= 0x7F)
                out.push_back(static_cast<char>(b));
            else if(b >= 0xC2 && b <= 0xDF)
                needed = 1;
            else if(b >= 0xE0 && b <= 0xEF)
            {
                lower = b == 0xE0 ? 0xA0 : 0x80;
                upper = b == 0xED ? 0x9F : 0xBF;
                needed = 2;
            }
            else if(b >= 0xF0 && b <= 0xF4)
            {
                lower = b == 0xF0 ? 0x90 : 0x80;
                upper = b == 0xF4 ? 0x8F : 0xBF;
                needed = 3;
            }
            else
                out.append(replacement);
            continue;
        }
        if(b < lower || b > upper)
        {
            // The sequence so far is one error; this byte is looked at afresh.
            needed = seen = 0;
            lower = 0x80;
            upper = 0xBF;
            out.append(replacement);
            continue;
        }
        lower = 0x80;
        upper = 0xBF;
        ++i;
        if(++seen == needed)
        {
            out.append(in.data() + start, i - start);
            needed = seen = 0;
        }
    }
    if(needed != 0)
        out.append(replacement); // cut short by the end of the value
}

} // namespace agentio::detail

#endif
