//
// agentio/http/url.hpp
// ~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// The URL a listening socket is reached at, built with Boost.URL: servers
// bound to port 0 (tests, the fake LLM) tell their clients where they are.
//

#ifndef AGENTIO_HTTP_URL_HPP
#define AGENTIO_HTTP_URL_HPP

#include <boost/asio/ip/tcp.hpp>
#include <boost/url/ipv4_address.hpp>
#include <boost/url/ipv6_address.hpp>
#include <boost/url/url.hpp>

#include <string>
#include <string_view>

namespace agentio::http {

/** The URL of `path` on a server listening on `endpoint`, e.g.
    `http://127.0.0.1:8080/api/v1` or `http://[::1]:8080/api/v1`.

    An unspecified address (`0.0.0.0`, `::`) becomes the loopback address of
    its family: where a client on the same machine connects.

    @param path an absolute path, or empty for none (`http://127.0.0.1:8080`)
    @param scheme `http` or `https`
*/
inline std::string url_of(boost::asio::ip::tcp::endpoint const& endpoint, std::string_view path = {},
    std::string_view scheme = "http")
{
    auto address = endpoint.address();
    if(address.is_unspecified())
        address = address.is_v6() ? boost::asio::ip::address(boost::asio::ip::address_v6::loopback())
                                  : boost::asio::ip::address(boost::asio::ip::address_v4::loopback());
    boost::urls::url url;
    url.set_scheme(scheme);
    if(address.is_v6())
        url.set_host_ipv6(boost::urls::ipv6_address(address.to_v6().to_bytes()));
    else
        url.set_host_ipv4(boost::urls::ipv4_address(address.to_v4().to_bytes()));
    url.set_port_number(endpoint.port());
    // Boost.URL 1.81 writes a lone "/" as "/./" here: that one is appended.
    url.set_path(path == "/" ? std::string_view{} : path);
    std::string out(url.buffer());
    if(path == "/")
        out += '/';
    return out;
}

} // namespace agentio::http

#endif
