//
// agentio/llm/impl/openai_embeddings.ipp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_LLM_IMPL_OPENAI_EMBEDDINGS_IPP
#define AGENTIO_LLM_IMPL_OPENAI_EMBEDDINGS_IPP

#include <agentio/config.hpp>
#include <agentio/json_text.hpp>
#include <agentio/llm/openai_codec.hpp>

#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/http/field.hpp>
#include <boost/beast/http/verb.hpp>

#include <algorithm>

namespace agentio::llm {

AGENTIO_DECL openai_embedder::openai_embedder(asio::any_io_executor ex, openai_embedder_options options)
    : options_(std::move(options))
{
    http::client_options co;
    co.connect_timeout = options_.connect_timeout;
    co.idle_timeout = options_.idle_timeout;
    co.total_timeout = options_.total_timeout;
    co.tls = options_.tls;
    co.proxy = options_.proxy;
    own_client_ = std::make_unique<http::client>(std::move(ex), std::move(co));
    client_ = own_client_.get();
    normalize();
}

AGENTIO_DECL openai_embedder::openai_embedder(http::client& client, openai_embedder_options options)
    : client_(&client)
    , options_(std::move(options))
{
    normalize();
}

AGENTIO_DECL void openai_embedder::normalize()
{
    if(options_.base_url.empty())
        options_.base_url = "https://api.openai.com/v1";
    while(!options_.base_url.empty() && options_.base_url.back() == '/')
        options_.base_url.pop_back();
    options_.batch_size = std::max<std::size_t>(options_.batch_size, 1);
    call_.api_key = options_.api_key;
    call_.base_url = options_.base_url;
    call_.retry = options_.retry;
    call_.sleep = options_.sleep;
    call_.random = options_.random;
    call_.idle_timeout = options_.idle_timeout;
    call_.total_timeout = options_.total_timeout;
    call_.extra_headers = options_.extra_headers;
}

AGENTIO_DECL std::string openai_embedder::model_id() const
{
    std::string id = "openai:" + options_.model;
    if(options_.dimensions)
        id += "@" + std::to_string(*options_.dimensions);
    return id;
}

AGENTIO_DECL asio::awaitable<boost::system::result<embeddings, error>>
openai_embedder::embed(std::span<std::string const> texts)
{
    embeddings out;
    if(texts.empty())
    {
        out.dimensions = options_.dimensions.value_or(0);
        co_return out;
    }
    if(options_.model.empty())
    {
        error const failure{error::kind::configuration, 0, {}, "openai_embedder: no model", false, {}, {}};
        co_return failure;
    }

    http::client_request req;
    req.method = boost::beast::http::verb::post;
    req.url = options_.base_url + "/embeddings";
    req.headers.set(boost::beast::http::field::content_type, "application/json");
    req.headers.set(boost::beast::http::field::accept, "application/json");
    if(!options_.api_key.empty())
        req.headers.set(boost::beast::http::field::authorization, "Bearer " + options_.api_key);

    for(std::size_t first = 0; first < texts.size(); first += options_.batch_size)
    {
        auto const batch = texts.subspan(first, std::min(options_.batch_size, texts.size() - first));
        req.body = to_json_text(openai::make_embeddings_body(options_.model, batch, options_.dimensions));
        auto opened = co_await detail::open_with_retries(*client_, call_, req, &openai::error_from_body,
            "x-request-id");
        if(!opened)
            co_return opened.error();
        auto [read_err, text] = co_await opened->async_read_all(asio::use_awaitable);
        if(read_err)
        {
            error const failure = detail::error_from_client(read_err);
            co_return failure;
        }
        auto part = openai::parse_embeddings_body(text, batch.size(), options_.dimensions);
        if(!part)
        {
            error failure = part.error();
            if(auto const it = opened->headers().find("x-request-id"); it != opened->headers().end())
                failure.request_id = std::string(it->value());
            co_return failure;
        }
        if(out.dimensions == 0)
        {
            out.dimensions = part->dimensions;
            out.values.reserve(texts.size() * out.dimensions);
        }
        else if(part->dimensions != out.dimensions)
        {
            error const failure{error::kind::protocol, 0, {},
                "the embeddings answer has vectors of " + std::to_string(part->dimensions) +
                    " dimensions, an earlier batch had " + std::to_string(out.dimensions),
                false, {}, {}};
            co_return failure;
        }
        out.values.insert(out.values.end(), part->values.begin(), part->values.end());
        out.prompt_tokens += part->prompt_tokens;
    }
    co_return out;
}

} // namespace agentio::llm

#endif
