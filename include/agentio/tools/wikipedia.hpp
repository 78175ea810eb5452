//
// agentio/tools/wikipedia.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// `wikipedia(query, language, sentences)`: a ready-made tool over the
// MediaWiki action API. It searches (`list=search`), then reads the best
// match's first sentences as plain text (`prop=extracts`), following
// redirects, with the page's URL for citation. A disambiguation page, a
// missing page and a search without results are answers, not errors; a
// service that fails is an error the model can read.
//
//   tools::wikipedia wiki(http_client, {.default_language = "es"});
//   auto tools = agentio::toolset{wiki, ...};
//

#ifndef AGENTIO_TOOLS_WIKIPEDIA_HPP
#define AGENTIO_TOOLS_WIKIPEDIA_HPP

#include <agentio/config.hpp>
#include <agentio/tool.hpp>
#include <agentio/tools/web_service.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/describe/class.hpp>

#include <string>
#include <string_view>

namespace agentio::tools {

/// Where and how `wikipedia` asks.
struct wikipedia_options
{
    /// The action API's URL; `{lang}` is replaced by the language (a self-hosted MediaWiki may have none).
    std::string api_url = "https://{lang}.wikipedia.org/w/api.php";
    /// The language when the model gives none.
    std::string default_language = "en";
    /// Pages change slowly: an hour.
    service_options service = [] {
        service_options o;
        o.cache_ttl = std::chrono::hours(1);
        return o;
    }();
};

/// Searches Wikipedia and reads the best match's first sentences.
class wikipedia
{
public:
    static constexpr std::string_view name = "wikipedia";
    static constexpr std::string_view description =
        "Looks a subject up in Wikipedia: searches for it and returns the first sentences of the best matching "
        "article as plain text, with its title and URL (cite it), and the other matching titles. For facts about "
        "people, places, things, history and science; not for news or today's events (use web search) nor for "
        "the weather. A disambiguation page lists the meanings to choose from: ask again with one of them.";

    struct args
    {
        std::string query;
        /// A Wikipedia language code (es, en, de, fr, ...); empty: the tool's default.
        std::string language;
        unsigned sentences = 3;
    };

    AGENTIO_DECL explicit wikipedia(http::client& client, wikipedia_options options = {});

    AGENTIO_DECL boost::asio::awaitable<tool_result> operator()(args a, tool_context& ctx) const;

    /// The service it speaks to (its counters, its cache).
    web_service const& service() const noexcept { return service_; }

private:
    AGENTIO_DECL boost::asio::awaitable<tool_result> look_up(args a, std::string traceparent) const;

    std::shared_ptr<wikipedia_options const> options_;
    web_service service_;
};

BOOST_DESCRIBE_STRUCT(wikipedia::args, (), (query, language, sentences))

} // namespace agentio::tools

template<>
struct agentio::field_traits<agentio::tools::wikipedia::args>
{
    static constexpr agentio::field_info fields[] = {
        {.name = "query",
            .description = "What to look up: a title or a few words (Bilbao, Ada Lovelace, teoría de la relatividad)",
            .min_length = 1,
            .max_length = 300},
        {.name = "language",
            .description = "The Wikipedia to read, by language code (es, en, de, fr, ...); empty: the default",
            .max_length = 12,
            .default_value = R"("")"},
        {.name = "sentences",
            .description = "How many sentences of the article to return",
            .minimum = 1,
            .maximum = 10,
            .default_value = "3"},
    };
};

#ifdef AGENTIO_HEADER_ONLY
#include <agentio/tools/impl/wikipedia.ipp>
#endif

#endif
