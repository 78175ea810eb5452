// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "agent/api_client.hpp"

#include <agentio/json_text.hpp>

#include <boost/asio/use_awaitable.hpp>
#include <boost/json/parse.hpp>

namespace portfolio::agent {

namespace asio = boost::asio;
namespace json = boost::json;

api_client::api_client(agentio::http::client& http, std::string base_url, std::chrono::steady_clock::duration timeout)
    : http_(&http), base_url_(std::move(base_url)), timeout_(timeout)
{
    while(!base_url_.empty() && base_url_.back() == '/')
        base_url_.pop_back();
}

asio::awaitable<api_result> api_client::get(std::string path) const
{
    agentio::http::client_request req;
    req.method = boost::beast::http::verb::get;
    req.url = base_url_ + path;
    co_return co_await call(std::move(req));
}

asio::awaitable<api_result> api_client::post(std::string path, json::value const& body) const
{
    agentio::http::client_request req;
    req.method = boost::beast::http::verb::post;
    req.url = base_url_ + path;
    req.headers.set(boost::beast::http::field::content_type, "application/json");
    req.body = agentio::to_json_text(body);
    co_return co_await call(std::move(req));
}

asio::awaitable<api_result> api_client::call(agentio::http::client_request req) const
{
    req.total_timeout = timeout_;
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

std::string path_segment(std::string_view s)
{
    static constexpr char hex[] = "0123456789ABCDEF";
    std::string out;
    out.reserve(s.size());
    for(unsigned char c : s)
    {
        bool const unreserved = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
            c == '-' || c == '.' || c == '_' || c == '~';
        if(unreserved)
            out.push_back(static_cast<char>(c));
        else
        {
            out.push_back('%');
            out.push_back(hex[c >> 4]);
            out.push_back(hex[c & 15]);
        }
    }
    return out;
}

} // namespace portfolio::agent
