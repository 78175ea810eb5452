//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_TOOLS_IMPL_WIKIPEDIA_IPP
#define AGENTIO_TOOLS_IMPL_WIKIPEDIA_IPP

#include <agentio/tools/detail/reading.hpp>
#include <agentio/tools/wikipedia.hpp>

#include <boost/json.hpp>

#include <string>
#include <utility>
#include <vector>

namespace agentio::tools {

namespace detail {

// A Wikipedia subdomain: checked before it becomes part of a host name.
inline bool is_language_code(std::string_view s)
{
    if(s.size() < 2 || s.size() > 12 || !(s[0] >= 'a' && s[0] <= 'z'))
        return false;
    for(char c : s)
        if(!((c >= 'a' && c <= 'z') || c == '-'))
            return false;
    return true;
}

inline std::string wiki_url(std::string const& api_url, std::string const& language,
    std::initializer_list<std::pair<std::string_view, std::string_view>> params)
{
    std::string url = api_url;
    for(auto at = url.find("{lang}"); at != std::string::npos; at = url.find("{lang}", at))
        url.replace(at, 6, language);
    char sep = url.find('?') == std::string::npos ? '?' : '&';
    for(auto const& [key, value] : params)
    {
        url += sep;
        url += key;
        url += '=';
        url += url_encode(value);
        sep = '&';
    }
    return url;
}

// The JSON of a MediaWiki answer, or why it is not one: an HTTP failure, not
// JSON, or an API error (which comes as a 200).
inline boost::system::result<boost::json::object, std::string> wiki_answer(fetched const& got)
{
    auto const& r = got.response;
    if(r.status != 200)
        return describe_failure("Wikipedia", r);
    boost::system::error_code ec;
    auto v = boost::json::parse(r.body, ec);
    if(ec || !v.is_object())
        return std::string("Wikipedia's answer is not the API's JSON (") +
            (ec ? ec.message() : std::string("not an object")) + ")";
    auto& o = v.as_object();
    if(auto const* e = o.if_contains("error"); e && e->is_object())
        return "Wikipedia answered an error: " + text_at(e->as_object(), "code") + ": " +
            text_at(e->as_object(), "info");
    return std::move(o);
}

} // namespace detail

AGENTIO_DECL wikipedia::wikipedia(http::client& client, wikipedia_options options)
    : options_(std::make_shared<wikipedia_options const>(std::move(options)))
    , service_(client, "Wikipedia", options_->service)
{
}

AGENTIO_DECL boost::asio::awaitable<tool_result> wikipedia::operator()(args a, tool_context& ctx) const
{
    return look_up(std::move(a), std::string(ctx.traceparent));
}

AGENTIO_DECL boost::asio::awaitable<tool_result> wikipedia::look_up(args a, std::string traceparent) const
{
    namespace json = boost::json;
    std::string const language = a.language.empty() ? options_->default_language : a.language;
    if(!detail::is_language_code(language))
        co_return tool_result::error("language: '" + language +
            "' is not a Wikipedia language code (two to twelve lower-case letters: es, en, de, zh-yue, ...)");
    web_service service = service_;
    service.set_traceparent(traceparent);

    // The search: the best titles for the words.
    http::client_request search;
    search.url = detail::wiki_url(options_->api_url, language,
        {{"action", "query"}, {"list", "search"}, {"srsearch", a.query}, {"srlimit", "5"}, {"srprop", ""},
            {"format", "json"}, {"formatversion", "2"}});
    auto searched = co_await service.fetch(search);
    if(!searched)
        co_return tool_result::error(searched.error());
    auto found = detail::wiki_answer(*searched);
    if(!found)
        co_return tool_result::error(found.error());
    std::vector<std::string> titles;
    std::string suggestion;
    if(auto const* q = found->if_contains("query"); q && q->is_object())
    {
        if(auto const* hits = q->as_object().if_contains("search"); hits && hits->is_array())
            for(auto const& hit : hits->as_array())
                if(hit.is_object())
                    if(auto title = detail::text_at(hit.as_object(), "title"); !title.empty())
                        titles.push_back(std::move(title));
        if(auto const* info = q->as_object().if_contains("searchinfo"); info && info->is_object())
            suggestion = detail::text_at(info->as_object(), "suggestion");
    }
    else
        co_return tool_result::error("Wikipedia's search answer has no 'query' object");
    if(!searched->cached)
        service.remember(search, searched->response);
    if(titles.empty())
    {
        json::object none{{"found", false}, {"query", a.query}, {"language", language}};
        if(!suggestion.empty())
            none["suggestion"] = suggestion;
        auto r = tool_result::json(std::move(none));
        r.summary = "wikipedia: nothing found for '" + a.query + "'";
        co_return r;
    }

    // The best match's first sentences, its URL, and whether it only lists meanings.
    http::client_request page;
    auto const sentences = std::to_string(a.sentences);
    page.url = detail::wiki_url(options_->api_url, language,
        {{"action", "query"}, {"prop", "extracts|info|pageprops"}, {"exsentences", sentences}, {"explaintext", "1"},
            {"exsectionformat", "plain"}, {"inprop", "url"}, {"ppprop", "disambiguation"}, {"redirects", "1"},
            {"titles", titles.front()}, {"format", "json"}, {"formatversion", "2"}});
    auto read = co_await service.fetch(page);
    if(!read)
        co_return tool_result::error(read.error());
    auto answer = detail::wiki_answer(*read);
    if(!answer)
        co_return tool_result::error(answer.error());
    json::object const* first = nullptr;
    if(auto const* q = answer->if_contains("query"); q && q->is_object())
        if(auto const* pages = q->as_object().if_contains("pages"))
        {
            // formatversion 2: an array; 1 (a server that ignores the parameter): an object keyed by page id.
            if(pages->is_array() && !pages->as_array().empty() && pages->as_array()[0].is_object())
                first = &pages->as_array()[0].as_object();
            else if(pages->is_object() && !pages->as_object().empty() &&
                pages->as_object().begin()->value().is_object())
                first = &pages->as_object().begin()->value().as_object();
        }
    if(!first)
        co_return tool_result::error("Wikipedia's page answer has no page in 'query.pages'");
    json::array others;
    for(std::size_t i = 1; i < titles.size(); ++i)
        others.push_back(json::value(titles[i]));
    std::string const title = detail::text_at(*first, "title").empty() ? titles.front()
                                                                       : detail::text_at(*first, "title");
    if(first->contains("missing") || first->contains("invalid"))
    {
        auto r = tool_result::json(json::object{{"found", false}, {"query", a.query}, {"language", language},
            {"title", title}, {"other_titles", std::move(others)}});
        r.summary = "wikipedia: no page '" + title + "'";
        co_return r;
    }
    if(!read->cached)
        service.remember(page, read->response);
    json::object out{{"found", true}, {"title", title}, {"language", language},
        {"url", detail::text_at(*first, "fullurl")}};
    auto const* props = first->if_contains("pageprops");
    if(props && props->is_object() && props->as_object().contains("disambiguation"))
    {
        out["disambiguation"] = true;
        out["note"] = "This title has several meanings; ask again with one of the other titles, or a more precise one.";
        out["other_titles"] = std::move(others);
        auto r = tool_result::json(std::move(out));
        r.summary = "wikipedia: '" + title + "' has several meanings";
        co_return r;
    }
    out["extract"] = detail::text_at(*first, "extract");
    out["other_titles"] = std::move(others);
    auto r = tool_result::json(std::move(out));
    r.summary = "wikipedia: " + title + " (" + language + ")";
    co_return r;
}

} // namespace agentio::tools

#endif
