//
// agentio/llm/anthropic.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// The Anthropic Messages API as a provider: `POST {base}/v1/messages` with
// `stream: true`, both API versions.
//

#ifndef AGENTIO_LLM_ANTHROPIC_HPP
#define AGENTIO_LLM_ANTHROPIC_HPP

#include <agentio/llm/anthropic_codec.hpp>
#include <agentio/llm/http_provider.hpp>

namespace agentio::llm {

/// The Anthropic wire format for @ref http_provider.
struct anthropic_wire
{
    /// Settings of the wire format.
    struct options
    {
        anthropic::api_version version = anthropic::api_version::v2023_06_01;
    };

    using decoder = anthropic::stream_decoder;

    static constexpr std::string_view default_base_url = "https://api.anthropic.com";
    static constexpr std::string_view name = "anthropic";
    static constexpr std::string_view path = "/v1/messages";
    static constexpr std::string_view request_id_header = "request-id";

    static json::object make_body(request const& r, options const& o)
    {
        return anthropic::make_request_body(r, o.version, true);
    }

    /// Token counting: the request's input without the answer's settings.
    static constexpr std::string_view count_tokens_path = "/v1/messages/count_tokens";

    static json::object make_count_tokens_body(request const& r, options const& o)
    {
        auto body = anthropic::make_request_body(r, o.version, false);
        for(std::string_view const answer_setting : {"max_tokens", "stream", "stop_sequences", "temperature"})
            body.erase(answer_setting);
        return body;
    }

    static void set_headers(boost::beast::http::fields& h, std::string_view api_key, options const& o)
    {
        h.set("anthropic-version", anthropic::to_string(o.version));
        auto [name, value] = anthropic::auth_header(o.version, api_key);
        h.set(name, value);
    }

    static error error_from_body(unsigned status, std::string_view body)
    {
        return anthropic::error_from_body(status, body);
    }
};

/// An Anthropic provider.
using anthropic_provider = http_provider<anthropic_wire>;

#ifndef AGENTIO_HEADER_ONLY
// Instantiated once, by <agentio/http/src.hpp>.
extern template class model_stream<anthropic_wire>;
extern template class http_provider<anthropic_wire>;
#endif

} // namespace agentio::llm

#endif
