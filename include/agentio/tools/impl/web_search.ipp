//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_TOOLS_IMPL_WEB_SEARCH_IPP
#define AGENTIO_TOOLS_IMPL_WEB_SEARCH_IPP

#include <agentio/tools/detail/duckduckgo.hpp>
#include <agentio/tools/detail/reading.hpp>
#include <agentio/tools/web_search.hpp>

#include <boost/json.hpp>

#include <optional>
#include <string>

namespace agentio::tools {

/// One engine's results, or why it gave none.
struct web_search::outcome
{
    std::optional<boost::json::object> answer;
    std::string failure;
    /// A refusal that another try of the same engine would not change (a bad request is our own error).
    bool ours = false;
};

AGENTIO_DECL web_search::web_search(http::client& client, web_search_options options)
    : options_(std::make_shared<web_search_options const>(std::move(options)))
    , tavily_(client, "Tavily", options_->tavily)
    , fallback_(client, "DuckDuckGo", options_->fallback)
{
}

AGENTIO_DECL boost::asio::awaitable<tool_result> web_search::operator()(args a, tool_context& ctx) const
{
    return search(std::move(a), std::string(ctx.traceparent));
}

AGENTIO_DECL boost::asio::awaitable<web_search::outcome> web_search::ask_tavily(args const& a,
    std::string_view traceparent) const
{
    namespace json = boost::json;
    auto const& o = *options_;
    json::object body{{"query", a.query}, {"max_results", a.max_results}, {"search_depth", o.search_depth},
        {"topic", o.topic}, {"include_answer", o.include_answer}};
    if(!o.time_range.empty())
        body["time_range"] = o.time_range;
    if(!o.include_domains.empty())
        body["include_domains"] = json::value_from(o.include_domains);
    if(!o.exclude_domains.empty())
        body["exclude_domains"] = json::value_from(o.exclude_domains);
    http::client_request request;
    request.method = boost::beast::http::verb::post;
    request.url = o.tavily_base_url;
    while(!request.url.empty() && request.url.back() == '/')
        request.url.pop_back();
    request.url += "/search";
    request.headers.set(boost::beast::http::field::content_type, "application/json");
    request.headers.set(boost::beast::http::field::authorization, "Bearer " + o.tavily_api_key);
    request.body = json::serialize(body);

    web_service service = tavily_;
    service.set_traceparent(traceparent);
    outcome out;
    auto got = co_await service.fetch(request);
    if(!got)
    {
        out.failure = got.error();
        co_return out;
    }
    auto const& r = got->response;
    boost::system::error_code ec;
    auto parsed = json::parse(r.body, ec);
    if(r.status != 200)
    {
        // Tavily's errors: {"detail": {"error": "…"}}.
        std::string why;
        if(!ec && parsed.is_object())
            if(auto const* detail = parsed.as_object().if_contains("detail"); detail && detail->is_object())
                why = detail::text_at(detail->as_object(), "error");
        out.failure = why.empty() ? describe_failure("Tavily", r)
                                  : "Tavily answered HTTP " + std::to_string(r.status) + ": " + why;
        out.ours = r.status == 400 || r.status == 422;
        co_return out;
    }
    if(ec || !parsed.is_object())
    {
        out.failure = "Tavily's answer is not JSON (" + (ec ? ec.message() : std::string("not an object")) + ")";
        co_return out;
    }
    auto const& answer = parsed.as_object();
    json::array results;
    if(auto const* list = answer.if_contains("results"); list && list->is_array())
        for(auto const& item : list->as_array())
        {
            if(!item.is_object())
                continue;
            auto const& i = item.as_object();
            json::object one{{"title", detail::text_at(i, "title")}, {"url", detail::text_at(i, "url")},
                {"content", detail::text_at(i, "content")}};
            if(auto score = detail::number_at(i, "score"))
                one["score"] = *score;
            if(!one["url"].as_string().empty())
                results.push_back(std::move(one));
        }
    json::object found{{"engine", "tavily"}, {"query", a.query}};
    if(auto const text = detail::text_at(answer, "answer"); !text.empty())
        found["answer"] = text;
    found["results"] = std::move(results);
    if(!got->cached)
        service.remember(request, r);
    out.answer = std::move(found);
    co_return out;
}

AGENTIO_DECL boost::asio::awaitable<web_search::outcome> web_search::ask_fallback(args const& a,
    std::string_view traceparent) const
{
    namespace json = boost::json;
    auto const& o = *options_;
    http::client_request request;
    request.url = o.fallback_url + (o.fallback_url.find('?') == std::string::npos ? "?" : "&") +
        "q=" + url_encode(a.query);
    web_service service = fallback_;
    service.set_traceparent(traceparent);
    outcome out;
    auto got = co_await service.fetch(request);
    if(!got)
    {
        out.failure = got.error();
        co_return out;
    }
    auto const& r = got->response;
    if(r.status != 200 && r.status != 202)
    {
        out.failure = describe_failure("DuckDuckGo", r);
        co_return out;
    }
    auto const page = detail::read_results_page(r.body, r.status);
    using kind = detail::results_page::kind;
    if(page.what == kind::blocked)
    {
        out.failure = "DuckDuckGo took the request for a bot's and answered with a challenge page";
        co_return out;
    }
    if(page.what == kind::unrecognized)
    {
        out.failure = "DuckDuckGo's answer is not a results page it knows (no result cards, no 'no results')";
        co_return out;
    }
    json::array results;
    for(auto const& card : page.cards)
    {
        if(results.size() >= a.max_results)
            break;
        results.push_back(json::object{{"title", card.title}, {"url", card.url}, {"content", card.snippet}});
    }
    if(!got->cached)
        service.remember(request, r);
    out.answer = json::object{{"engine", "duckduckgo"}, {"query", a.query}, {"results", std::move(results)}};
    co_return out;
}

AGENTIO_DECL boost::asio::awaitable<tool_result> web_search::search(args a, std::string traceparent) const
{
    auto const& o = *options_;
    bool const tavily = !o.tavily_api_key.empty();
    bool const fallback = !o.fallback_url.empty();
    if(!tavily && !fallback)
        co_return tool_result::error(
            "Web search is not configured on this server: it has neither a Tavily key (TAVILY_API_KEY) nor a "
            "fallback (WEB_SEARCH_FALLBACK_URL). Answer without it, and say so.");
    std::string first_failure;
    if(tavily)
    {
        auto got = co_await ask_tavily(a, traceparent);
        if(got.answer)
        {
            auto r = tool_result::json(std::move(*got.answer));
            r.summary = "web_search (tavily): " + a.query;
            co_return r;
        }
        if(got.ours || !fallback)
            co_return tool_result::error(got.failure);
        first_failure = got.failure;
    }
    auto got = co_await ask_fallback(a, traceparent);
    if(!got.answer)
    {
        std::string why = got.failure;
        if(!first_failure.empty())
            why = first_failure + "; the fallback failed too: " + got.failure;
        co_return tool_result::error(why);
    }
    if(!first_failure.empty())
        (*got.answer)["note"] = "Tavily failed (" + first_failure + "); these results are DuckDuckGo's.";
    auto r = tool_result::json(std::move(*got.answer));
    r.summary = "web_search (duckduckgo): " + a.query;
    co_return r;
}

} // namespace agentio::tools

#endif
