//
// agentio/testing/detail/fake_web_faults.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// The answers of the faults that still answer: each service's own error
// body, HTML where JSON was expected, invalid JSON, DuckDuckGo's bot check,
// MediaWiki's internal error, Open-Meteo's error inside a streamed body.
// (truncate, stall and disconnect act on the connection: impl/fake_web.ipp.)
//

#ifndef AGENTIO_TESTING_DETAIL_FAKE_WEB_FAULTS_HPP
#define AGENTIO_TESTING_DETAIL_FAKE_WEB_FAULTS_HPP

#include <agentio/detail/utf8.hpp>
#include <agentio/testing/detail/fake_web_mediawiki.hpp>
#include <agentio/testing/detail/fake_web_open_meteo.hpp>
#include <agentio/testing/detail/fake_web_search.hpp>
#include <agentio/testing/detail/fake_web_text.hpp>

#include <boost/beast/http/status.hpp>

#include <string>
#include <string_view>

namespace agentio::testing::detail {

inline std::string reason_of(unsigned status)
{
    auto const reason = beast::http::obsolete_reason(static_cast<beast::http::status>(status));
    return reason == "<unknown-status>" ? std::string("Error") : std::string(reason);
}

// The page a front proxy (nginx, Cloudflare) answers with.
inline std::string proxy_page(unsigned status, std::string_view server, std::string_view sentence)
{
    std::string const line = std::to_string(status) + " " + reason_of(status);
    std::string page = "<html>\r\n<head><title>" + line + "</title></head>\r\n<body>\r\n<center><h1>" + line +
        "</h1></center>\r\n";
    if(!sentence.empty())
        page.append("<center><p>").append(sentence).append("</p></center>\r\n");
    page.append("<hr><center>").append(server).append("</center>\r\n</body>\r\n</html>\r\n");
    return page;
}

inline std::string open_meteo_reason(unsigned status)
{
    switch(status)
    {
    case 429: return "Minutely API request limit exceeded. Please try again in one minute.";
    case 503: return "The service is overloaded";
    case 500: return "Something went wrong.";
    default: return reason_of(status);
    }
}

// A fault's answer for a service; `normal` is the answer it replaces
// (stream_error cuts it), `query` what DuckDuckGo was asked.
inline web_answer fault_answer(web_fault const& f, web_answer const& normal, mediawiki_call const& wiki,
    std::string_view query)
{
    std::string_view const s = f.service;
    bool const open_meteo = s == "geocoding" || s == "forecast";
    if(f.kind == "http_error")
    {
        web_answer a;
        if(s == "tavily")
            a = tavily_error(f.status, tavily_message(f.status));
        else if(open_meteo)
            a = open_meteo_error(f.status, open_meteo_reason(f.status));
        else if(s == "wikipedia")
            a = html_answer(f.status, wikimedia_error_page(f.status, wikimedia_message(f.status)));
        else
            a = html_answer(f.status, proxy_page(f.status, "nginx", {}));
        if(f.retry_after_seconds)
            a.headers.emplace_back("Retry-After", std::to_string(*f.retry_after_seconds));
        return a;
    }
    if(f.kind == "garbage")
    {
        if(s == "duckduckgo")
            return html_answer(200,
                "<!DOCTYPE html>\n<html>\n<head>\n<title>Welcome to nginx!</title>\n</head>\n<body>\n"
                "<h1>Welcome to nginx!</h1>\n<p>If you see this page, the nginx web server is successfully installed "
                "and working. Further configuration is required.</p>\n</body>\n</html>\n");
        // A proxy's comment where the data should be: not JSON.
        return json_answer(200, "{\"ok\":true,\"data\":<!-- upstream cache miss -->}");
    }
    if(f.kind == "html_page")
    {
        if(s == "wikipedia")
            return html_answer(f.status, wikimedia_error_page(f.status, wikimedia_message(503)));
        return html_answer(f.status,
            proxy_page(f.status, s == "tavily" ? "cloudflare" : "nginx",
                "The service is down for maintenance. Please try again in a few minutes."));
    }
    if(f.kind == "blocked")
        return duckduckgo_anomaly(f.status == 200 ? 200 : 202, query);
    if(f.kind == "api_error")
    {
        std::string const id = ddg_token(query).substr(0, 24);
        json::object extra;
        extra["errorclass"] = "Wikimedia\\Rdbms\\DBQueryError";
        return mediawiki_error(wiki, "internal_api_error_DBQueryError",
            "[" + id + "] Caught exception of type Wikimedia\\Rdbms\\DBQueryError", std::move(extra));
    }
    // stream_error: the body cut where the server failed, then its message, with 200 already sent.
    web_answer a = normal;
    a.status = 200;
    a.chunked = true;
    a.body = a.body.substr(0, agentio::detail::utf8_floor(a.body, a.body.size() / 2));
    a.body.append("Unexpected error while streaming data: Abort: The operation couldn’t be completed. (Connection "
                  "reset by peer)");
    return a;
}

} // namespace agentio::testing::detail

#endif
