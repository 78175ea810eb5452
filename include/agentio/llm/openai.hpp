//
// agentio/llm/openai.hpp
// ~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// OpenAI-compatible Chat Completions as a provider: `POST {base}/chat/completions`
// (the base URL includes `/v1`, as the SDKs take it). OpenAI, Groq, Ollama,
// vLLM and llama.cpp speak it; `wire_options` covers their differences.
//

#ifndef AGENTIO_LLM_OPENAI_HPP
#define AGENTIO_LLM_OPENAI_HPP

#include <agentio/llm/openai_codec.hpp>
#include <agentio/llm/http_provider.hpp>

namespace agentio::llm {

/// The OpenAI wire format for @ref http_provider.
struct openai_wire
{
    using options = openai::wire_options;
    using decoder = openai::stream_decoder;

    static constexpr std::string_view default_base_url = "https://api.openai.com/v1";
    static constexpr std::string_view name = "openai";
    static constexpr std::string_view path = "/chat/completions";
    static constexpr std::string_view request_id_header = "x-request-id";

    static json::object make_body(request const& r, options const& o) { return openai::make_request_body(r, o, true); }

    static void set_headers(boost::beast::http::fields& h, std::string_view api_key, options const&)
    {
        if(!api_key.empty()) // local servers need none
            h.set(boost::beast::http::field::authorization, "Bearer " + std::string(api_key));
    }

    static error error_from_body(unsigned status, std::string_view body)
    {
        return openai::error_from_body(status, body);
    }
};

/// An OpenAI-compatible provider.
using openai_provider = http_provider<openai_wire>;

#ifndef AGENTIO_HEADER_ONLY
// Instantiated once, by <agentio/http/src.hpp>.
extern template class model_stream<openai_wire>;
extern template class http_provider<openai_wire>;
#endif

} // namespace agentio::llm

#endif
