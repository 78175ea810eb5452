//
// agentio/http/detail/client_proxy.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Proxy URLs and NO_PROXY matching; the Basic credentials a proxy URL carries.
//

#ifndef AGENTIO_HTTP_DETAIL_CLIENT_PROXY_HPP
#define AGENTIO_HTTP_DETAIL_CLIENT_PROXY_HPP

#include <agentio/detail/ascii.hpp>
#include <agentio/detail/base64.hpp>

#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/network_v4.hpp>
#include <boost/asio/ip/network_v6.hpp>
#include <boost/url/parse.hpp>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace agentio::http::detail {

// The port of a URL, 1 to 65535; 0 if it is not one (Boost.URL 1.81's
// port_number() wraps 99999 to 34463).
inline std::uint16_t parse_port(std::string_view text) noexcept
{
    unsigned n = 0;
    auto const [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if(text.empty() || ec != std::errc{} || ptr != text.data() + text.size() || n == 0 || n > 65535)
        return 0;
    return static_cast<std::uint16_t>(n);
}

// Where a proxy is and how to authenticate to it.
struct proxy_route
{
    std::string host; // without brackets
    std::uint16_t port = 0;
    std::string authorization; // "Basic …" or empty
    std::string display;       // host:port, for messages and pool keys
};

// "host:port" with brackets around IPv6 addresses.
inline std::string host_port(std::string_view host, std::uint16_t port)
{
    std::string s;
    bool const v6 = host.find(':') != std::string_view::npos;
    if(v6)
        s += '[';
    s += host;
    if(v6)
        s += ']';
    s += ':';
    s += std::to_string(port);
    return s;
}

enum class proxy_parse
{
    ok,
    bad_url,
    unsupported_scheme
};

// Reads "http://user:pw@host:port", "host:port" or "host" (port 1080, as curl).
inline proxy_parse parse_proxy_url(std::string_view text, proxy_route& out)
{
    std::string owned(text);
    if(owned.find("://") == std::string::npos)
        owned.insert(0, "http://");
    auto parsed = boost::urls::parse_uri(owned);
    if(!parsed || parsed->host_address().empty())
        return proxy_parse::bad_url;
    std::string scheme(parsed->scheme());
    std::transform(scheme.begin(), scheme.end(), scheme.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    if(scheme != "http")
        return proxy_parse::unsupported_scheme;
    out.host = parsed->host_address();
    out.port = parsed->has_port() ? parse_port(parsed->port()) : 1080;
    if(out.port == 0)
        return proxy_parse::bad_url;
    if(parsed->has_userinfo())
        out.authorization = "Basic " + agentio::detail::base64_encode(parsed->user() + ":" + parsed->password());
    out.display = host_port(out.host, out.port);
    return proxy_parse::ok;
}

// One NO_PROXY entry against a host (brackets removed, IPs in text form).
inline bool no_proxy_entry_matches(std::string_view entry, std::string_view host, std::uint16_t port)
{
    // A port suffix: "host:port", "[v6]:port", "1.2.3.4:port" (a bare IPv6
    // address has several colons and no brackets, and is not split).
    if(entry.front() == '[')
    {
        auto const close = entry.find(']');
        if(close == std::string_view::npos)
            return false;
        auto const rest = entry.substr(close + 1);
        if(!rest.empty())
        {
            if(rest.front() != ':')
                return false;
            unsigned p = 0;
            auto const digits = rest.substr(1);
            auto const [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), p);
            if(ec != std::errc{} || ptr != digits.data() + digits.size() || p != port)
                return false;
        }
        entry = entry.substr(1, close - 1);
    }
    else if(std::count(entry.begin(), entry.end(), ':') == 1)
    {
        auto const colon = entry.find(':');
        unsigned p = 0;
        auto const digits = entry.substr(colon + 1);
        auto const [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), p);
        if(ec != std::errc{} || ptr != digits.data() + digits.size() || p != port)
            return false;
        entry = entry.substr(0, colon);
    }
    if(entry.empty())
        return false;

    boost::system::error_code ec;
    auto const host_ip = boost::asio::ip::make_address(std::string(host), ec);
    bool const host_is_ip = !ec;

    if(auto const slash = entry.find('/'); slash != std::string_view::npos)
    {
        if(!host_is_ip)
            return false;
        std::string const cidr(entry);
        if(host_ip.is_v4())
        {
            auto const net = boost::asio::ip::make_network_v4(cidr, ec);
            return !ec &&
                boost::asio::ip::make_network_v4(host_ip.to_v4(), net.prefix_length()).canonical() == net.canonical();
        }
        auto const net = boost::asio::ip::make_network_v6(cidr, ec);
        return !ec &&
            boost::asio::ip::make_network_v6(host_ip.to_v6(), net.prefix_length()).canonical() == net.canonical();
    }

    auto const entry_ip = boost::asio::ip::make_address(std::string(entry), ec);
    if(!ec)
        return host_is_ip && entry_ip == host_ip;
    if(host_is_ip)
        return false;

    // A domain: itself and its subdomains; a leading dot changes nothing.
    if(entry.front() == '.')
        entry.remove_prefix(1);
    if(!host.empty() && host.back() == '.')
        host.remove_suffix(1); // "example.com." is example.com
    if(agentio::detail::iequal(entry, host))
        return true;
    return host.size() > entry.size() && host[host.size() - entry.size() - 1] == '.' &&
        agentio::detail::iequal(host.substr(host.size() - entry.size()), entry);
}

inline bool no_proxy_matches(std::string_view list, std::string_view host, std::uint16_t port)
{
    if(host.size() >= 2 && host.front() == '[' && host.back() == ']')
        host = host.substr(1, host.size() - 2);
    while(!list.empty())
    {
        auto const comma = list.find(',');
        auto entry = list.substr(0, comma);
        list = comma == std::string_view::npos ? std::string_view{} : list.substr(comma + 1);
        while(!entry.empty() && (entry.front() == ' ' || entry.front() == '\t'))
            entry.remove_prefix(1);
        while(!entry.empty() && (entry.back() == ' ' || entry.back() == '\t'))
            entry.remove_suffix(1);
        if(entry.empty())
            continue;
        if(entry == "*")
            return true;
        if(no_proxy_entry_matches(entry, host, port))
            return true;
    }
    return false;
}

} // namespace agentio::http::detail

#endif
