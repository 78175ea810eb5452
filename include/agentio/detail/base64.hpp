//
// agentio/detail/base64.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// RFC 4648 §4 base64 through OpenSSL's EVP block coder, with a strict decoder:
// only the canonical encoding of some bytes is accepted (right length, `=`
// only as padding, every character in the alphabet, no bits left over), which
// a round trip through the encoder decides. Also RFC 4648 §5 base64url
// without padding (what JOSE and JWT use), as strict.
//

#ifndef AGENTIO_DETAIL_BASE64_HPP
#define AGENTIO_DETAIL_BASE64_HPP

#include <openssl/evp.h>

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace agentio::detail {

/// The base64 encoding of `bytes`, padded.
inline std::string base64_encode(std::string_view bytes)
{
    // EVP_EncodeBlock writes a final NUL; the buffer is on the heap, never in
    // the string object itself (a write the sanitizers cannot follow).
    std::string out;
    out.reserve(std::max<std::size_t>(32, 4 * ((bytes.size() + 2) / 3) + 1));
    out.resize(4 * ((bytes.size() + 2) / 3) + 1, '\0');
    int const n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
        reinterpret_cast<unsigned char const*>(bytes.data()), static_cast<int>(bytes.size()));
    out.resize(static_cast<std::size_t>(n));
    return out;
}

/// The bytes `text` encodes, or nothing when it is not canonical padded base64.
inline std::optional<std::string> base64_decode(std::string_view text)
{
    if(text.size() % 4 != 0)
        return std::nullopt;
    std::string out(text.size() / 4 * 3, '\0');
    int const n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
        reinterpret_cast<unsigned char const*>(text.data()), static_cast<int>(text.size()));
    if(n < 0)
        return std::nullopt;
    // EVP_DecodeBlock counts the padding as zero bytes, and forgives blanks
    // around the text: drop the padding, then keep only a canonical input.
    std::size_t const padding = text.ends_with("==") ? 2 : text.ends_with('=') ? 1 : 0;
    out.resize(static_cast<std::size_t>(n) - padding);
    if(base64_encode(out) != text)
        return std::nullopt;
    return out;
}

/// The base64url encoding of `bytes`, without padding (RFC 7515 §2).
inline std::string base64url_encode(std::string_view bytes)
{
    std::string out = base64_encode(bytes);
    while(!out.empty() && out.back() == '=')
        out.pop_back();
    for(char& c : out)
        c = c == '+' ? '-' : c == '/' ? '_' : c;
    return out;
}

/** The bytes `text` encodes, or nothing when it is not canonical unpadded
    base64url: padding, `+`, `/`, blanks and bits left over are all refused,
    so each byte string has exactly one accepted encoding. */
inline std::optional<std::string> base64url_decode(std::string_view text)
{
    if(text.size() % 4 == 1)
        return std::nullopt;
    std::string padded;
    padded.reserve(text.size() + 3);
    for(char c : text)
    {
        if((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
            padded += c;
        else if(c == '-')
            padded += '+';
        else if(c == '_')
            padded += '/';
        else
            return std::nullopt;
    }
    padded.append((4 - padded.size() % 4) % 4, '=');
    return base64_decode(padded);
}

} // namespace agentio::detail

#endif
