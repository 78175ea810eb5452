//
// agentio/llm/openai_embeddings.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// An embedder over the OpenAI-compatible `POST {base}/embeddings` (the base
// URL includes `/v1`, as the SDKs take it): OpenAI, Ollama, vLLM, llama.cpp.
// It sends the inputs in batches through the agentio HTTP client with the
// official SDKs' retries (the same loop as the chat providers), asks for
// base64 vectors as openai-node does, and decodes them.
//

#ifndef AGENTIO_LLM_OPENAI_EMBEDDINGS_HPP
#define AGENTIO_LLM_OPENAI_EMBEDDINGS_HPP

#include <agentio/config.hpp>
#include <agentio/http/client.hpp>
#include <agentio/llm/embeddings.hpp>
#include <agentio/llm/http_provider.hpp>
#include <agentio/llm/retry.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/ssl/context.hpp>

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace agentio::llm {

/// Settings of an @ref openai_embedder.
struct openai_embedder_options
{
    /// The base URL with `/v1` (`http://localhost:11434/v1` for Ollama); a
    /// trailing slash is ignored. Empty: OpenAI's.
    std::string base_url = "https://api.openai.com/v1";

    /// Sent as `Authorization: Bearer`; empty: no header (local servers need none).
    std::string api_key = {};

    /// The embedding model, e.g. `text-embedding-3-small`, `nomic-embed-text`. Required.
    std::string model = {};

    /// Shortens the vectors (text-embedding-3 models; servers that support it); unset: not sent.
    std::optional<unsigned> dimensions = {};

    /// Inputs per request; more are sent in several requests, one after the
    /// other, and the vectors concatenated in order (0 counts as 1). OpenAI
    /// takes at most 2048 inputs and 300 000 tokens per request.
    std::size_t batch_size = 256;

    /// Retries of a request that failed before its answer, as the SDKs do.
    retry_policy retry = {};

    /// Waits between retries; empty: a steady_timer on the current executor.
    sleep_function sleep = {};

    /// A number in [0, 1) for the jitter; empty: a per-thread generator.
    std::function<double()> random = {};

    /// Longest silence while waiting for, or reading, an answer.
    std::chrono::steady_clock::duration idle_timeout = std::chrono::minutes(5);

    /// One request, its answer included (the SDKs' default).
    std::chrono::steady_clock::duration total_timeout = std::chrono::minutes(10);

    /// Connecting (with the TLS handshake), when the embedder has its own client.
    std::chrono::steady_clock::duration connect_timeout = std::chrono::seconds(10);

    /// TLS context when the embedder has its own client; null: the system's
    /// certificate store, peer and host name verification (see http::client_options::tls).
    std::shared_ptr<asio::ssl::context> tls = {};

    /// Proxies when the embedder has its own client; none by default.
    http::proxy_settings proxy = {};

    /// Extra request headers (`OpenAI-Organization`, `OpenAI-Project`...).
    std::vector<std::pair<std::string, std::string>> extra_headers = {};
};

/** An @ref embedder speaking the OpenAI-compatible embeddings API.

    @code
    llm::openai_embedder e(ioc.get_executor(), {.api_key = key, .model = "text-embedding-3-small", .dimensions = 256});
    auto got = co_await e.embed(texts);                 // result<embeddings, llm::error>
    if(got) use(got->dimensions, (*got)[0]);
    @endcode

    Each request is `{"model", "input": [...], "encoding_format": "base64",
    "dimensions"?}`; error statuses come back as the chat providers report them
    (kind `http_status`, the API's `type` and `message`), after the retries of
    @ref status_is_retryable. A malformed answer is an error of kind `protocol`
    (see @ref openai::parse_embeddings_body). One `embed` call at a time is not
    required: calls share only the HTTP client's pool.
*/
class openai_embedder final : public embedder
{
public:
    /** An embedder with its own HTTP client.

        @param ex the executor of the client's I/O (an io_context's)
        @param options URL, key, model, batching, retries, timeouts, TLS
    */
    openai_embedder(asio::any_io_executor ex, openai_embedder_options options);

    /** An embedder on a shared HTTP client (connections pooled with a chat
        provider, say). `tls`, `proxy` and `connect_timeout` are the client's then.

        @param client the client; it must outlive the embedder
        @param options URL, key, model, batching, retries, timeouts
    */
    openai_embedder(http::client& client, openai_embedder_options options);

    /// The options, base URL without its trailing slash.
    openai_embedder_options const& options() const noexcept { return options_; }

    /// `"openai:" + model`, and `"@" + dimensions` when set.
    std::string model_id() const override;

    /** The vectors of `texts`, in order: `ceil(size / batch_size)` requests,
        one after the other; none for no texts (an empty result).

        @return the vectors, or the first failure (nothing of the batches
        that went well is returned then)
    */
    asio::awaitable<boost::system::result<embeddings, error>> embed(std::span<std::string const> texts) override;

private:
    void normalize();

    std::unique_ptr<http::client> own_client_;
    http::client* client_;
    openai_embedder_options options_;
    provider_options call_; // what the retry loop needs, taken from options_
};

} // namespace agentio::llm

#ifdef AGENTIO_HEADER_ONLY
#include <agentio/llm/impl/openai_embeddings.ipp>
#endif

#endif
