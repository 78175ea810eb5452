//
// agentio/detail/log_text.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Text from clients written into log lines: control characters escaped, so
// that nothing a client sends can end a line and forge the next one.
//

#ifndef AGENTIO_DETAIL_LOG_TEXT_HPP
#define AGENTIO_DETAIL_LOG_TEXT_HPP

#include <string>
#include <string_view>

namespace agentio::detail {

/** Appends `text` to `out` with C0 controls and DEL written as `\n`, `\r`,
    `\t` or `\xHH`, and the Unicode line breaks U+0085, U+2028 and U+2029 as
    `\u0085`, `\u2028`, `\u2029`. Everything else, UTF-8 included, is kept.
*/
inline void append_log_text(std::string& out, std::string_view text)
{
    static constexpr char hex[] = "0123456789abcdef";
    for(std::size_t i = 0; i < text.size(); ++i)
    {
        auto const c = static_cast<unsigned char>(text[i]);
        if(c == '\n')
            out += "\\n";
        else if(c == '\r')
            out += "\\r";
        else if(c == '\t')
            out += "\\t";
        else if(c < 0x20 || c == 0x7f)
        {
            out += "\\x";
            out.push_back(hex[c >> 4]);
            out.push_back(hex[c & 15]);
        }
        else if(c == 0xc2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) == 0x85)
        {
            out += "\\u0085";
            ++i;
        }
        else if(c == 0xe2 && i + 2 < text.size() && static_cast<unsigned char>(text[i + 1]) == 0x80 &&
            (static_cast<unsigned char>(text[i + 2]) == 0xa8 || static_cast<unsigned char>(text[i + 2]) == 0xa9))
        {
            out += static_cast<unsigned char>(text[i + 2]) == 0xa8 ? "\\u2028" : "\\u2029";
            i += 2;
        }
        else
            out.push_back(static_cast<char>(c));
    }
}

/// `text` as append_log_text writes it.
inline std::string log_text(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    append_log_text(out, text);
    return out;
}

} // namespace agentio::detail

#endif
