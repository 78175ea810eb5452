//
// agentio/detail/utf8.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// UTF-8 at the library's edges: cutting text without splitting a character,
// and decoding as the WHATWG Encoding standard does (for event streams).
//

#ifndef AGENTIO_DETAIL_UTF8_HPP
#define AGENTIO_DETAIL_UTF8_HPP

#include <cstddef>
#include <string>
#include <string_view>

namespace agentio::detail {

inline bool is_utf8_continuation(char c) noexcept
{
    return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

// Appends `in` to `out`, replacing each maximal invalid subsequence with
// U+FFFD exactly as the WHATWG Encoding standard's UTF-8 decoder does.
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
