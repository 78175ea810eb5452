//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// DuckDuckGo's HTML results page read with a real HTML parser (gumbo, from
// Debian's libgumbo-dev), never with patterns over the text: the result
// cards of `div.result` (ads dropped), their `a.result__a` title, target URL
// (the `//duckduckgo.com/l/?uddg=` redirect undone) and `.result__snippet`;
// the no-results card; and the anomaly page it shows a client it takes for a
// bot.

#ifndef AGENTIO_TOOLS_DETAIL_DUCKDUCKGO_HPP
#define AGENTIO_TOOLS_DETAIL_DUCKDUCKGO_HPP

#include <agentio/config.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace agentio::tools::detail {

struct search_card
{
    std::string title;
    std::string url;
    std::string snippet;
};

/// What a results page is.
struct results_page
{
    enum class kind
    {
        results,     ///< cards (possibly fewer than asked)
        no_results,  ///< the page's own "No results" card
        blocked,     ///< the anomaly (bot challenge) page
        unrecognized ///< neither cards nor a no-results card: the markup changed, or it is another page
    };
    kind what = kind::unrecognized;
    std::vector<search_card> cards;
};

/// Reads `html`, a results page served with HTTP `status`.
AGENTIO_DECL results_page read_results_page(std::string_view html, unsigned status);

/// The target of a result link: `uddg` of a `/l/?` redirect, or the link itself (scheme-relative made https).
AGENTIO_DECL std::string result_target(std::string_view href);

} // namespace agentio::tools::detail

#ifdef AGENTIO_HEADER_ONLY
#include <agentio/tools/impl/duckduckgo.ipp>
#endif

#endif
