//
// agentio/llm/impl/http_provider.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Out of the class bodies, so that `extern template` (separate compilation)
// really keeps them out of the translation units that use a provider.
//

#ifndef AGENTIO_LLM_IMPL_HTTP_PROVIDER_HPP
#define AGENTIO_LLM_IMPL_HTTP_PROVIDER_HPP

namespace agentio::llm {

template<class Wire>
asio::awaitable<std::optional<error>> model_stream<Wire>::read(std::vector<stream_event>& out)
{
    if(done_)
        co_return std::nullopt;
    auto [err, chunk] = co_await body_.async_read_some(asio::use_awaitable);
    if(err)
    {
        done_ = true;
        co_return detail::error_from_client(err);
    }
    if(chunk.empty())
    {
        done_ = true;
        parser_.finish(); // a partial last event is discarded, and the decoder tells what is missing
        co_return std::nullopt;
    }
    std::optional<error> failure;
    parser_.feed(chunk, [&](sse::event const& e) {
        if(!failure)
            failure = decoder_.feed(e, out);
    });
    if(parser_.failed() && !failure)
        failure = error{error::kind::protocol, 0, {}, "an event of the stream is too large", false, {}, {}};
    if(failure)
    {
        done_ = true;
        body_.close();
    }
    co_return failure;
}

namespace detail {

// A number in [0, 1) for the jitter, per thread: a provider is shared by the
// threads of an io_context.
inline double default_random()
{
    thread_local std::minstd_rand engine(std::random_device{}());
    return std::uniform_real_distribution<double>(0.0, 1.0)(engine);
}

inline asio::awaitable<boost::system::result<http::response_stream, error>> open_with_retries(http::client& client,
    provider_options const& options, http::client_request const& prototype,
    error (*error_from_body)(unsigned, std::string_view), std::string_view request_id_header, std::string_view model)
{
    for(unsigned retries = 0;; ++retries)
    {
        http::client_request req = prototype;
        // The SDKs' retry counter: handy for servers and tests alike.
        req.headers.set("x-stainless-retry-count", std::to_string(retries));
        for(auto const& [name, value] : options.extra_headers)
            req.headers.set(name, value);
        req.idle_timeout = options.idle_timeout;
        req.total_timeout = options.total_timeout;

        auto [err, stream] = co_await client.async_open(std::move(req), asio::use_awaitable);
        error failure;
        std::optional<std::chrono::milliseconds> server_delay;
        if(err)
            failure = error_from_client(err);
        else if(stream.status() >= 200 && stream.status() < 300)
            co_return std::move(stream);
        else
        {
            auto [read_err, text] = co_await stream.async_read_all(asio::use_awaitable);
            failure = error_from_body(stream.status(), read_err ? std::string_view() : std::string_view(text));
            auto const& headers = stream.headers(); // a lambda cannot capture a structured binding in clang 14
            auto header = [&headers](std::string_view name) -> std::string_view {
                auto it = headers.find(name);
                return it == headers.end() ? std::string_view() : std::string_view(it->value());
            };
            failure.retryable = status_is_retryable(stream.status(), header("x-should-retry"));
            server_delay = parse_retry_after(header("retry-after-ms"), header("retry-after"));
            failure.retry_after = server_delay;
            if(failure.request_id.empty())
                failure.request_id = header(request_id_header);
        }
        if(!failure.retryable || retries >= options.retry.max_retries)
            co_return failure;
        if(options.on_retry)
            options.on_retry(model, retries + 1, failure);
        co_await retry_wait(options, retries, server_delay);
    }
}

inline asio::awaitable<void> retry_wait(provider_options const& options, unsigned retries_done,
    std::optional<std::chrono::milliseconds> server_delay)
{
    auto const delay = retry_delay(options.retry, retries_done, server_delay,
        options.random ? options.random() : default_random());
    if(options.sleep)
    {
        co_await options.sleep(delay);
        co_return;
    }
    asio::steady_timer timer(co_await asio::this_coro::executor, delay);
    co_await timer.async_wait(asio::use_awaitable);
}

} // namespace detail

template<class Wire>
http_provider<Wire>::http_provider(http::client& client, provider_options options, wire_options wire)
    : client_(&client)
    , options_(std::move(options))
    , wire_(std::move(wire))
{
    if(options_.base_url.empty())
        options_.base_url = Wire::default_base_url;
    while(!options_.base_url.empty() && options_.base_url.back() == '/')
        options_.base_url.pop_back();
    if(!options_.random)
        options_.random = detail::default_random;
}

template<class Wire>
asio::awaitable<boost::system::result<typename http_provider<Wire>::stream_type, error>>
http_provider<Wire>::open(request const& r)
{
    auto req = post(Wire::path, "text/event-stream", Wire::make_body(r, wire_));
    if(!r.traceparent.empty())
        req.headers.set("traceparent", r.traceparent);
    auto opened = co_await detail::open_with_retries(*client_, options_, req, &Wire::error_from_body,
        Wire::request_id_header, r.model);
    if(!opened)
        co_return opened.error();
    co_return stream_type(std::move(*opened));
}

template<class Wire>
asio::awaitable<boost::system::result<std::uint64_t, error>>
http_provider<Wire>::count_tokens(request const& r) requires requires
{
    Wire::count_tokens_path;
}
{
    auto const req = post(Wire::count_tokens_path, "application/json", Wire::make_count_tokens_body(r, wire_));
    auto opened = co_await detail::open_with_retries(*client_, options_, req, &Wire::error_from_body,
        Wire::request_id_header);
    if(!opened)
        co_return opened.error();
    auto [read_err, text] = co_await opened->async_read_all(asio::use_awaitable);
    if(read_err)
        co_return detail::error_from_client(read_err);
    boost::system::error_code ec;
    auto const answer = json::parse(text, ec);
    auto const* fields = ec ? nullptr : answer.if_object();
    auto const* tokens = fields ? fields->if_contains("input_tokens") : nullptr;
    if(!tokens || !(tokens->is_uint64() || (tokens->is_int64() && tokens->get_int64() >= 0)))
        co_return error{error::kind::protocol, 0, {}, "the token count has no input_tokens", false, {}, {}};
    co_return tokens->is_uint64() ? tokens->get_uint64() : static_cast<std::uint64_t>(tokens->get_int64());
}

template<class Wire>
http::client_request http_provider<Wire>::post(std::string_view path, std::string_view accept,
    json::object const& body) const
{
    http::client_request req;
    req.method = boost::beast::http::verb::post;
    req.url = options_.base_url + std::string(path);
    req.headers.set(boost::beast::http::field::content_type, "application/json");
    req.headers.set(boost::beast::http::field::accept, accept);
    Wire::set_headers(req.headers, options_.api_key, wire_);
    req.body = to_json_text(body);
    return req;
}

template<class Wire>
asio::awaitable<void> http_provider<Wire>::backoff(unsigned retries_done,
    std::optional<std::chrono::milliseconds> server_delay)
{
    co_await detail::retry_wait(options_, retries_done, server_delay);
}

} // namespace agentio::llm

#endif
