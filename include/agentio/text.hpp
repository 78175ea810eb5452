//
// agentio/text.hpp
// ~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Text at the edges of a program: cutting UTF-8 without splitting a
// character, repairing it, folding it the way words are compared, and writing what clients
// send into log lines so that nothing they send can end a line and forge the
// next one.
//

#ifndef AGENTIO_TEXT_HPP
#define AGENTIO_TEXT_HPP

#include <agentio/detail/utf8.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace agentio {

namespace detail {

// U+00C0..U+00FF folded: the base letters in lower case (the multiplication
// and division signs become separators).
inline constexpr char const* latin1_folds[64] = {"a", "a", "a", "a", "a", "a", "ae", "c", "e", "e", "e", "e", "i", "i",
    "i", "i",                                                                         // C0
    "d", "n", "o", "o", "o", "o", "o", " ", "o", "u", "u", "u", "u", "y", "th", "ss", // D0
    "a", "a", "a", "a", "a", "a", "ae", "c", "e", "e", "e", "e", "i", "i", "i", "i",  // E0
    "d", "n", "o", "o", "o", "o", "o", " ", "o", "u", "u", "u", "u", "y", "th", "y"}; // F0

} // namespace detail

/** Text as words are compared, whatever their case and accents: ASCII and
    the Latin-1 letters (U+00C0..U+00FF) in lower case without their accents
    ("Á" → "a", "ß" → "ss", "ª" → "a"); Latin-1's signs (¿ ¡ « » ° §…) and
    bytes that are not UTF-8 become spaces; other characters are kept.
    Used by retrieval's analysis and by the keyword router alike, so that a
    word folds the same everywhere.
*/
inline std::string fold_text(std::string_view utf8)
{
    std::string out;
    out.reserve(utf8.size());
    for(std::size_t i = 0; i < utf8.size();)
    {
        std::size_t n = 0;
        auto const cp = detail::decode_utf8(utf8, i, n);
        if(n == 0)
        {
            out += ' ';
            ++i;
            continue;
        }
        if(cp < 0x80)
            out += (cp >= 'A' && cp <= 'Z') ? static_cast<char>(cp - 'A' + 'a') : static_cast<char>(cp);
        else if(cp >= 0xC0 && cp <= 0xFF)
            out += detail::latin1_folds[cp - 0xC0];
        else if(cp == 0xAA) // ª, as in "1.ª"
            out += 'a';
        else if(cp == 0xBA) // º
            out += 'o';
        else if(cp < 0xC0)
            out += ' ';
        else
            out.append(utf8.substr(i, n));
        i += n;
    }
    return out;
}

/// The length of the longest prefix of `s` of at most `max_bytes` bytes that
/// ends on a code point boundary (`s` is assumed to be UTF-8).
inline std::size_t utf8_byte_prefix(std::string_view s, std::size_t max_bytes) noexcept
{
    return detail::utf8_floor(s, max_bytes);
}

/// The length in bytes of the first `n` code points of `s` (all of it if shorter).
inline std::size_t utf8_code_point_prefix(std::string_view s, std::size_t n) noexcept
{
    std::size_t i = 0;
    for(std::size_t cp = 0; i < s.size() && cp < n; ++cp)
    {
        ++i;
        while(i < s.size() && detail::is_utf8_continuation(s[i]))
            ++i;
    }
    return i;
}

/** Appends `text` to `out` as valid UTF-8: each ill-formed sequence (a
    program's output, a file's bytes) becomes U+FFFD, as WHATWG's decoder
    does. What goes into JSON for a model or a client must be valid.
*/
inline void append_valid_utf8(std::string& out, std::string_view text)
{
    detail::append_utf8_replacing_errors(out, text);
}

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

} // namespace agentio

#endif
