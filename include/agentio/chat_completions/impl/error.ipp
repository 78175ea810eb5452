//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_CHAT_COMPLETIONS_IMPL_ERROR_IPP
#define AGENTIO_CHAT_COMPLETIONS_IMPL_ERROR_IPP

#include <agentio/chat_completions/error.hpp>
#include <agentio/json_text.hpp>

namespace agentio::chat_completions {

AGENTIO_DECL std::string_view error_type_for(unsigned status) noexcept
{
    switch(status)
    {
    case 401: return "authentication_error";
    case 403: return "permission_error";
    case 404: return "not_found_error";
    case 409: return "conflict_error";
    case 413: return "invalid_request_error";
    case 422: return "unprocessable_entity_error";
    case 429: return "rate_limit_error";
    default: return status >= 500 ? "server_error" : "invalid_request_error";
    }
}

AGENTIO_DECL json::object to_json(api_error const& e)
{
    auto const type = e.type.empty() ? error_type_for(e.status) : std::string_view(e.type);
    auto text_or_null = [](std::string const& s) { return s.empty() ? json::value(nullptr) : json::value(s); };
    return json::object{{"error",
        json::object{{"message", e.message}, {"type", type}, {"param", text_or_null(e.param)},
            {"code", text_or_null(e.code)}}}};
}

AGENTIO_DECL api_error invalid_request(std::string message, std::string param, std::string code)
{
    return {400, std::move(message), "invalid_request_error", std::move(param), std::move(code)};
}

AGENTIO_DECL void write_error_body(http::response& res, std::string_view detail)
{
    api_error const e{res.result_int(), std::string(detail), {}, {}, {}};
    res.set(boost::beast::http::field::content_type, "application/json");
    res.body() = to_json_text(to_json(e));
}

} // namespace agentio::chat_completions

#endif
