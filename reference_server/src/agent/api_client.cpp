#include "agent/api_client.hpp"

#include <agentio/json_text.hpp>

#include <boost/asio/use_awaitable.hpp>
#include <boost/json/parse.hpp>

namespace portfolio::agent {

namespace asio = boost::asio;
namespace json = boost::json;

api_client::api_client(agentio::http::client& http, std::string base_url) : http_(&http), base_url_(std::move(base_url))
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
    auto [err, res] = co_await http_->async_request(std::move(req), asio::use_awaitable);
    if(err)
        co_return api_result{{}, "No se pudo consultar la API: " + err.message};
    boost::system::error_code ec;
    auto body = json::parse(res.body, ec);
    if(res.status >= 200 && res.status < 300 && !ec)
        co_return api_result{std::move(body), {}};
    if(!ec && body.is_object())
        if(auto const* detail = body.get_object().if_contains("detail"); detail && detail->is_string())
            co_return api_result{{}, std::string(detail->get_string())};
    co_return api_result{{}, "La API respondió " + std::to_string(res.status)};
}

} // namespace portfolio::agent
