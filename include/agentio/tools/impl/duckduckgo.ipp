//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_TOOLS_IMPL_DUCKDUCKGO_IPP
#define AGENTIO_TOOLS_IMPL_DUCKDUCKGO_IPP

#include <agentio/tools/detail/duckduckgo.hpp>

#include <boost/url/parse.hpp>

#include <gumbo.h>

#include <cctype>
#include <memory>

namespace agentio::tools::detail {

namespace html {

inline bool has_class(GumboElement const& el, std::string_view wanted)
{
    GumboAttribute const* a = gumbo_get_attribute(&el.attributes, "class");
    if(!a)
        return false;
    std::string_view classes = a->value;
    while(!classes.empty())
    {
        auto const start = classes.find_first_not_of(" \t\r\n\f");
        if(start == std::string_view::npos)
            return false;
        classes.remove_prefix(start);
        auto const end = std::min(classes.find_first_of(" \t\r\n\f"), classes.size());
        if(classes.substr(0, end) == wanted)
            return true;
        classes.remove_prefix(end);
    }
    return false;
}

inline std::string_view attribute(GumboElement const& el, char const* name)
{
    GumboAttribute const* a = gumbo_get_attribute(&el.attributes, name);
    return a ? std::string_view(a->value) : std::string_view();
}

// The text of a node, entity-decoded by gumbo, whitespace collapsed.
inline void append_text(GumboNode const* n, std::string& out)
{
    if(n->type == GUMBO_NODE_TEXT || n->type == GUMBO_NODE_WHITESPACE || n->type == GUMBO_NODE_CDATA)
    {
        for(char const* p = n->v.text.text; *p; ++p)
        {
            bool const space = std::isspace(static_cast<unsigned char>(*p)) != 0;
            if(space && (out.empty() || out.back() == ' '))
                continue;
            out.push_back(space ? ' ' : *p);
        }
        return;
    }
    if(n->type != GUMBO_NODE_ELEMENT)
        return;
    auto const& children = n->v.element.children;
    for(unsigned i = 0; i < children.length; ++i)
        append_text(static_cast<GumboNode const*>(children.data[i]), out);
}

inline std::string text_of(GumboNode const* n)
{
    std::string out;
    append_text(n, out);
    while(!out.empty() && out.back() == ' ')
        out.pop_back();
    return out;
}

// The first element below `n` (itself included) with class `wanted`.
inline GumboNode const* find_class(GumboNode const* n, std::string_view wanted)
{
    if(n->type != GUMBO_NODE_ELEMENT)
        return nullptr;
    if(has_class(n->v.element, wanted))
        return n;
    auto const& children = n->v.element.children;
    for(unsigned i = 0; i < children.length; ++i)
        if(auto const* found = find_class(static_cast<GumboNode const*>(children.data[i]), wanted))
            return found;
    return nullptr;
}

struct page_walk
{
    results_page& page;
    bool no_results = false;
    bool anomaly = false;

    void visit(GumboNode const* n)
    {
        if(n->type != GUMBO_NODE_ELEMENT)
            return;
        auto const& el = n->v.element;
        if(attribute(el, "id") == "challenge-form" || attribute(el, "data-testid") == "anomaly-modal" ||
            attribute(el, "action").find("anomaly.js") != std::string_view::npos)
            anomaly = true;
        if(el.tag == GUMBO_TAG_DIV && has_class(el, "result"))
        {
            card(n);
            return;
        }
        for(unsigned i = 0; i < el.children.length; ++i)
            visit(static_cast<GumboNode const*>(el.children.data[i]));
    }

    void card(GumboNode const* n)
    {
        auto const& el = n->v.element;
        if(has_class(el, "result--no-result"))
        {
            no_results = true;
            return;
        }
        if(has_class(el, "result--ad"))
            return;
        GumboNode const* link = find_class(n, "result__a");
        if(!link)
            return;
        auto const href = attribute(link->v.element, "href");
        // Ads that lost their class, and the search engine's own links.
        if(href.starts_with("https://duckduckgo.com/y.js") || href.starts_with("//duckduckgo.com/y.js"))
            return;
        search_card c;
        c.title = text_of(link);
        c.url = result_target(href);
        if(GumboNode const* snippet = find_class(n, "result__snippet"))
            c.snippet = text_of(snippet);
        if(c.title.empty() || c.url.empty() || c.url.starts_with("http://www.google.com/search"))
            return;
        page.cards.push_back(std::move(c));
    }
};

struct gumbo_output_deleter
{
    void operator()(GumboOutput* out) const noexcept { gumbo_destroy_output(&kGumboDefaultOptions, out); }
};

} // namespace html

AGENTIO_DECL std::string result_target(std::string_view href)
{
    if(href.empty())
        return {};
    auto parsed = boost::urls::parse_uri_reference(href);
    if(!parsed)
        return {};
    auto const encoded = parsed->encoded_path();
    std::string_view const path(encoded.data(), encoded.size());
    if(path.ends_with("/l/") || path == "/l")
    {
        auto const params = parsed->params();
        auto const it = params.find("uddg");
        if(it == params.end())
            return {};
        std::string target((*it).value);
        return target.starts_with("http://") || target.starts_with("https://") ? target : std::string();
    }
    if(href.starts_with("//"))
        return "https:" + std::string(href);
    if(href.starts_with("http://") || href.starts_with("https://"))
        return std::string(href);
    return {};
}

AGENTIO_DECL results_page read_results_page(std::string_view html, unsigned status)
{
    results_page page;
    GumboOptions options = kGumboDefaultOptions;
    options.max_errors = 0; // parse errors are not kept: a results page has many
    std::unique_ptr<GumboOutput, html::gumbo_output_deleter> const out(gumbo_parse_with_options(&options, html.data(),
        html.size()));
    html::page_walk walk{page};
    if(out)
        walk.visit(out->root);
    if(status == 202 || walk.anomaly)
        page.what = results_page::kind::blocked;
    else if(!page.cards.empty())
        page.what = results_page::kind::results;
    else if(walk.no_results)
        page.what = results_page::kind::no_results;
    else
        page.what = results_page::kind::unrecognized;
    return page;
}

} // namespace agentio::tools::detail

#endif
