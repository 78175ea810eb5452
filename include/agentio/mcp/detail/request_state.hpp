//
// agentio/mcp/detail/request_state.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// A tool's requestState as a 2026-07-28 client carries it between rounds of
// multi-round input (SEP-2322): the state, then its HMAC-SHA256 under a key
// only the server knows, so the client can give it back but not forge it.
//

#ifndef AGENTIO_MCP_DETAIL_REQUEST_STATE_HPP
#define AGENTIO_MCP_DETAIL_REQUEST_STATE_HPP

#include <boost/algorithm/hex.hpp>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <array>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace agentio::mcp::detail {

using state_key = std::array<unsigned char, 32>;

inline state_key new_state_key()
{
    state_key key{};
    if(RAND_bytes(key.data(), static_cast<int>(key.size())) != 1)
        throw std::runtime_error("RAND_bytes failed");
    return key;
}

inline std::string state_mac(state_key const& key, std::string_view state)
{
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<unsigned char const*>(state.data()),
        state.size(), mac, &size);
    std::string out;
    boost::algorithm::hex_lower(mac, mac + size, std::back_inserter(out));
    return out;
}

// `<state in hex>.<its MAC in hex>`
inline std::string seal_state(state_key const& key, std::string_view state)
{
    std::string out;
    boost::algorithm::hex_lower(state.begin(), state.end(), std::back_inserter(out));
    return out + "." + state_mac(key, state);
}

// The state a sealed text carries, or nothing when it is not one this key sealed.
inline std::optional<std::string> open_state(state_key const& key, std::string_view sealed)
{
    auto const dot = sealed.find('.');
    if(dot == std::string_view::npos)
        return std::nullopt;
    std::string state;
    try
    {
        boost::algorithm::unhex(sealed.begin(), sealed.begin() + static_cast<std::ptrdiff_t>(dot),
            std::back_inserter(state));
    }
    catch(boost::algorithm::hex_decode_error const&)
    {
        return std::nullopt;
    }
    auto const mac = sealed.substr(dot + 1);
    auto const expected = state_mac(key, state);
    if(mac.size() != expected.size() || CRYPTO_memcmp(mac.data(), expected.data(), mac.size()) != 0)
        return std::nullopt;
    return state;
}

} // namespace agentio::mcp::detail

#endif
