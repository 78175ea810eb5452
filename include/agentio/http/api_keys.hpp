//
// agentio/http/api_keys.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Who is calling, by API key: each configured key names an owner (a digest
// of the key, so what is stored with a thread never reveals the key), and a
// request's key is looked up in constant time. No keys configured: one
// user, who owns everything (the empty owner).
//
//   http::api_keys keys({"k1", "k2"});
//   auto owner = keys.owner_of(req);    // nullopt: 401
//

#ifndef AGENTIO_HTTP_API_KEYS_HPP
#define AGENTIO_HTTP_API_KEYS_HPP

#include <agentio/http/server.hpp>

#include <openssl/crypto.h>
#include <openssl/sha.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agentio::http {

/// API keys and the owners they name.
class api_keys
{
public:
    /// No keys: every request is the single user's.
    api_keys() = default;

    explicit api_keys(std::vector<std::string> const& keys)
    {
        for(auto const& k : keys)
            if(!k.empty())
                owners_.push_back(owner_for(k));
    }

    /// Whether any key is required.
    bool required() const noexcept { return !owners_.empty(); }

    /// The owner a key names: "key:" and 24 hex digits of its SHA-256.
    static std::string owner_for(std::string_view key)
    {
        unsigned char digest[SHA256_DIGEST_LENGTH];
        SHA256(reinterpret_cast<unsigned char const*>(key.data()), key.size(), digest);
        static constexpr char hex[] = "0123456789abcdef";
        std::string out = "key:";
        for(std::size_t i = 0; i < 12; ++i)
        {
            out += hex[digest[i] >> 4];
            out += hex[digest[i] & 15];
        }
        return out;
    }

    /// The owner of `key` if it is one of the keys; the empty owner when none are required.
    std::optional<std::string> owner_of_key(std::string_view key) const
    {
        if(owners_.empty())
            return std::string();
        if(key.empty())
            return std::nullopt;
        auto const owner = owner_for(key);
        // Every owner compared, in constant time: the answer's timing says nothing of the keys.
        std::optional<std::string> found;
        for(auto const& o : owners_)
            if(o.size() == owner.size() && CRYPTO_memcmp(o.data(), owner.data(), o.size()) == 0)
                found = o;
        return found;
    }

    /** The owner of a request's key: `Authorization: Bearer KEY`, else the
        header `header` (`X-API-Key` by default). */
    std::optional<std::string> owner_of(request const& req, std::string_view header = "X-API-Key") const
    {
        std::string_view key;
        if(auto const auth = req[boost::beast::http::field::authorization];
            auth.size() > 7 && auth.starts_with("Bearer "))
            key = auth.substr(7);
        else
            key = req[header];
        return owner_of_key(key);
    }

private:
    std::vector<std::string> owners_;
};

} // namespace agentio::http

#endif
