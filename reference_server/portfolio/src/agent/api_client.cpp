// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "agent/api_client.hpp"

#include <agentio/json_text.hpp>

#include <boost/asio/use_awaitable.hpp>
#include <boost/json/parse.hpp>
#include <boost/url/encode.hpp>
#include <boost/url/parse.hpp>
#include <boost/url/rfc/unreserved_chars.hpp>

namespace portfolio::agent {

namespace asio = boost::asio;
namespace json = boost::json;

api_client::api_client(agentio::http::client& http, std::string base_url, std::chrono::steady_clock::duration timeout)
    : http_(&http)
    , base_url_(std::move(base_url))
    , timeout_(timeout)
{
    while(!base_url_.empty() && base_url_.back() == '/')
        base_url_.pop_back();
    if(auto parsed = boost::urls::parse_absolute_uri(base_url_))
        base_.emplace(*parsed);
}

boost::urls::url api_client::url(std::initializer_list<std::string_view> segments,
    std::initializer_list<boost::urls::param_view> params) const
{
    if(!base_)
        return {};
    boost::urls::url u = *base_;
    for(auto s : segments)
    {
        // Boost.URL keeps "." and ".." as they are, which anything normalizing
        // the path on the way would take for dot-segments: escaped, they are data.
        if(s == "." || s == "..")
            u.encoded_segments().push_back(s == "." ? "%2E" : "%2E%2E");
        else
            u.segments().push_back(s);
    }
    // Every byte of a key or value outside the unreserved set is escaped:
    // Boost.URL's params().append would leave '+' as it is, and the server,
    // like any form decoder, reads a '+' in a query as a space.
    for(auto const& p : params)
    {
        auto const key = boost::urls::encode(p.key, boost::urls::unreserved_chars);
        auto const value = boost::urls::encode(p.value, boost::urls::unreserved_chars);
        u.encoded_params().append(boost::urls::param_pct_view(boost::urls::pct_string_view(key),
            boost::urls::pct_string_view(value)));
    }
    return u;
}

asio::awaitable<api_result> api_client::get(boost::urls::url target, std::string_view traceparent) const
{
    agentio::http::client_request req;
    req.method = boost::beast::http::verb::get;
    req.url = target.buffer();
    co_return co_await call(std::move(req), traceparent);
}

asio::awaitable<api_result> api_client::get(std::string encoded_target) const
{
    boost::urls::url u;
    auto rel = boost::urls::parse_relative_ref(encoded_target);
    if(base_ && rel)
    {
        u = *base_;
        for(auto s : rel->encoded_segments())
            u.encoded_segments().push_back(s);
        if(rel->has_query())
            u.set_encoded_query(rel->encoded_query());
    }
    co_return co_await get(std::move(u));
}

asio::awaitable<api_result> api_client::post(boost::urls::url target, json::value const& body,
    std::string_view traceparent) const
{
    agentio::http::client_request req;
    req.method = boost::beast::http::verb::post;
    req.url = target.buffer();
    req.headers.set(boost::beast::http::field::content_type, "application/json");
    req.body = agentio::to_json_text(body);
    co_return co_await call(std::move(req), traceparent);
}

asio::awaitable<api_result> api_client::call(agentio::http::client_request req, std::string_view traceparent) const
{
    req.total_timeout = timeout_;
    if(!traceparent.empty())
        req.headers.set("traceparent", traceparent);
    auto [err, res] = co_await http_->async_request(std::move(req), asio::use_awaitable);
    api_result out;
    if(err)
    {
        out.failure = api_failure::unreachable;
        out.detail = err.message;
        co_return out;
    }
    out.status = static_cast<int>(res.status);
    boost::system::error_code ec;
    auto body = json::parse(res.body, ec);
    if(out.status >= 200 && out.status < 300)
    {
        if(ec)
        {
            out.failure = api_failure::unexpected;
            out.detail = "respuesta que no es JSON";
        }
        else
            out.body = std::move(body);
        co_return out;
    }
    if(!ec && body.is_object())
        if(auto const* detail = body.get_object().if_contains("detail"); detail && detail->is_string())
            out.detail = detail->get_string();
    if(out.status == 404)
        out.failure = api_failure::not_found;
    else if(out.status == 400 || out.status == 413 || out.status == 422)
        out.failure = api_failure::invalid;
    else if(out.status >= 500)
        out.failure = api_failure::server_error;
    else
        out.failure = api_failure::unexpected;
    if(out.detail.empty())
        out.detail = "estado HTTP " + std::to_string(out.status);
    co_return out;
}

} // namespace portfolio::agent
