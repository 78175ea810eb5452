// The REST API as the tools see it: JSON over agentio's HTTP client, as the
// seeds prescribe (one place for business logic; the tools are clients of the
// same API as everybody else). Errors come back as text for the model.
#pragma once

#include <agentio/http/client.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/json/value.hpp>

#include <string>

namespace portfolio::agent {

/// The body of a successful call, or why it failed (the API's own `detail`
/// when it answered 4xx, so the model reads the same message a user would).
struct api_result
{
    boost::json::value body;
    std::string error;

    bool ok() const noexcept { return error.empty(); }
};

class api_client
{
public:
    /// @param base_url e.g. "http://127.0.0.1:8080/api/v1"
    api_client(agentio::http::client& http, std::string base_url);

    boost::asio::awaitable<api_result> get(std::string path) const;
    boost::asio::awaitable<api_result> post(std::string path, boost::json::value const& body) const;

    std::string const& base_url() const noexcept { return base_url_; }

private:
    boost::asio::awaitable<api_result> call(agentio::http::client_request req) const;

    agentio::http::client* http_;
    std::string base_url_;
};

} // namespace portfolio::agent
