//
// agentio/http/detail/client_error.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// The client's error category and the pieces its messages are made of.
//

#ifndef AGENTIO_HTTP_DETAIL_CLIENT_ERROR_HPP
#define AGENTIO_HTTP_DETAIL_CLIENT_ERROR_HPP

#include <boost/system/error_category.hpp>

#include <cctype>
#include <chrono>
#include <string>

namespace agentio::http {

enum class client_errc;

namespace detail {

class client_category_impl final : public boost::system::error_category
{
public:
    char const* name() const noexcept override { return "agentio.http.client"; }

    std::string message(int ev) const override
    {
        switch(ev)
        {
        case 1: return "malformed URL";
        case 2: return "unsupported URL scheme";
        case 3: return "timed out connecting";
        case 4: return "timed out waiting for data";
        case 5: return "request exceeded its total timeout";
        case 6: return "response body too large";
        case 7: return "response header too large";
        case 8: return "proxy refused the CONNECT request";
        case 9: return "certificate verify failed";
        case 10: return "server closed the connection before responding";
        case 11: return "server closed the connection mid-body";
        case 12: return "internal error";
        }
        return "unknown agentio.http.client error";
    }
};

// "10 s", "250 ms": durations as people write them in messages.
inline std::string describe_duration(std::chrono::steady_clock::duration d)
{
    auto const ms = std::chrono::duration_cast<std::chrono::milliseconds>(d).count();
    if(ms >= 1000 && ms % 1000 == 0)
        return std::to_string(ms / 1000) + " s";
    return std::to_string(ms) + " ms";
}

// System messages start with a capital ("Connection refused"); ours continue
// them mid-sentence ("connection refused to 127.0.0.1:8080").
inline std::string lower_first(std::string s)
{
    if(!s.empty())
        s[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(s[0])));
    return s;
}

} // namespace detail
} // namespace agentio::http

#endif
