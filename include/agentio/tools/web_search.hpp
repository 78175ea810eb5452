//
// agentio/tools/web_search.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// `web_search(query, max_results)`: a ready-made tool that searches the web
// with Tavily's `POST /search` (title, URL, content and score of each result,
// and Tavily's short answer), and, when no key is set or Tavily fails,
// without a key through DuckDuckGo's HTML results page read with a real HTML
// parser (gumbo). The answer names the engine that gave it; a search without
// results is an answer; both engines failing is an error naming each reason.
//

#ifndef AGENTIO_TOOLS_WEB_SEARCH_HPP
#define AGENTIO_TOOLS_WEB_SEARCH_HPP

#include <agentio/config.hpp>
#include <agentio/tool.hpp>
#include <agentio/tools/web_service.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/describe/class.hpp>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace agentio::tools {

/// Where and how `web_search` searches.
struct web_search_options
{
    /// Tavily's key (`tvly-…`); empty: the fallback only.
    std::string tavily_api_key;
    std::string tavily_base_url = "https://api.tavily.com";
    /// `basic` (one credit) or `advanced` (two).
    std::string search_depth = "basic";
    /// `general`, `news` or `finance`.
    std::string topic = "general";
    /// Tavily's own short answer, given with the results.
    bool include_answer = true;
    /// `day`, `week`, `month`, `year`; empty: any time.
    std::string time_range;
    std::vector<std::string> include_domains;
    std::vector<std::string> exclude_domains;
    /// The keyless fallback: a DuckDuckGo HTML results page; empty: none.
    std::string fallback_url = "https://html.duckduckgo.com/html/";
    service_options tavily = {};
    service_options fallback = [] {
        service_options o;
        o.max_concurrent = 1; // DuckDuckGo takes bursts from one address for a bot
        return o;
    }();
};

/// Searches the web.
class web_search
{
public:
    static constexpr std::string_view name = "web_search";
    static constexpr std::string_view description =
        "Searches the web and returns the best pages: title, URL and the relevant text of each (and sometimes a "
        "short answer). For news, recent events, prices, products, and anything that changes or is not in an "
        "encyclopedia. Cite the URLs you use.";

    struct args
    {
        std::string query;
        unsigned max_results = 5;
    };

    AGENTIO_DECL explicit web_search(http::client& client, web_search_options options = {});

    AGENTIO_DECL boost::asio::awaitable<tool_result> operator()(args a, tool_context& ctx) const;

    web_service const& tavily_service() const noexcept { return tavily_; }
    web_service const& fallback_service() const noexcept { return fallback_; }

private:
    struct outcome;
    AGENTIO_DECL boost::asio::awaitable<tool_result> search(args a, std::string traceparent) const;
    AGENTIO_DECL boost::asio::awaitable<outcome> ask_tavily(args const& a, std::string_view traceparent) const;
    AGENTIO_DECL boost::asio::awaitable<outcome> ask_fallback(args const& a, std::string_view traceparent) const;

    std::shared_ptr<web_search_options const> options_;
    web_service tavily_;
    web_service fallback_;
};

BOOST_DESCRIBE_STRUCT(web_search::args, (), (query, max_results))

} // namespace agentio::tools

template<>
struct agentio::field_traits<agentio::tools::web_search::args>
{
    static constexpr agentio::field_info fields[] = {
        {.name = "query",
            .description = "What to search for, as you would type it in a search engine",
            .min_length = 1,
            .max_length = 400},
        {.name = "max_results",
            .description = "How many results to return",
            .minimum = 1,
            .maximum = 10,
            .default_value = "5"},
    };
};

#ifdef AGENTIO_HEADER_ONLY
#include <agentio/tools/impl/web_search.ipp>
#endif

#endif
