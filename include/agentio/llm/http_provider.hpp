//
// agentio/llm/http_provider.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// A model provider over HTTP: opens a streamed call with the official SDKs'
// retry policy, then decodes the body as it arrives. The wire format is a
// template parameter (anthropic.hpp, openai.hpp); everything else — retries,
// timeouts, cancellation, the streaming loop — is shared.
//

#ifndef AGENTIO_LLM_HTTP_PROVIDER_HPP
#define AGENTIO_LLM_HTTP_PROVIDER_HPP

#include <agentio/http/client.hpp>
#include <agentio/json_text.hpp>
#include <agentio/llm/provider.hpp>
#include <agentio/llm/retry.hpp>
#include <agentio/sse/parser.hpp>

#include <boost/asio/steady_timer.hpp>
#include <boost/json/parse.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace agentio::llm {

/// How a provider waits before a retry; tests inject one that records.
using sleep_function = std::function<asio::awaitable<void>(std::chrono::milliseconds)>;

/// Settings shared by the HTTP providers.
struct provider_options
{
    /// The API key; sent as the wire format says.
    std::string api_key = {};

    /// The base URL, as the official SDKs take it (Anthropic without `/v1`,
    /// OpenAI with it). Empty: the provider's default.
    std::string base_url = {};

    /// Retries of a call that failed before its answer started.
    retry_policy retry = {};

    /// Waits between retries; empty: a steady_timer on the current executor.
    sleep_function sleep = {};

    /// A number in [0, 1) for the jitter; empty: a per-provider generator.
    std::function<double()> random = {};

    /// Longest silence while waiting for, or reading, an answer.
    std::chrono::steady_clock::duration idle_timeout = std::chrono::minutes(5);

    /// A whole call, the streamed answer included (the SDKs' default).
    std::chrono::steady_clock::duration total_timeout = std::chrono::minutes(10);

    /// Extra request headers (`anthropic-beta`, `OpenAI-Organization`...).
    std::vector<std::pair<std::string, std::string>> extra_headers = {};

    /** Told of each retry before its wait (for a log line and a metric):
        the model, the retry's number (1 for the first), and the failure
        retried. Called on the caller's executor; must not block. */
    std::function<void(std::string_view model, unsigned retry, error const& failure)> on_retry = {};
};

namespace detail {

inline error error_from_client(http::client_error const& e)
{
    error out;
    using http::client_errc;
    if(e.code == asio::error::operation_aborted)
        out.what = error::kind::cancelled;
    else if(e.code == asio::error::no_descriptors || e.code == boost::system::errc::too_many_files_open_in_system ||
        e.code == asio::error::no_memory || e.code == asio::error::no_buffer_space)
        out.what = error::kind::overloaded;
    else if(e.code == client_errc::connect_timeout || e.code == client_errc::idle_timeout ||
        e.code == client_errc::total_timeout)
        out.what = error::kind::timeout;
    else
        out.what = error::kind::connection;
    out.message = e.message;
    out.retryable = e.retryable();
    return out;
}

/** Sends a request until a 2xx response header arrives, retrying as the
    official SDKs do (see retry.hpp): the loop shared by @ref http_provider
    and the embedders (openai_embeddings.hpp).

    @param client the HTTP client
    @param options retries, waits, timeouts and extra headers (the key and the
    URL are already in `prototype`)
    @param prototype the request; each attempt sends a copy with
    `x-stainless-retry-count`, the extra headers and the timeouts added
    @param error_from_body the wire format's reading of an error body
    @param request_id_header the response header naming the request, for errors
    @param model the model asked for, given to `options.on_retry`
    @return the response with its body unread, or the last error
*/
inline asio::awaitable<boost::system::result<http::response_stream, error>> open_with_retries(http::client& client,
    provider_options const& options, http::client_request const& prototype,
    error (*error_from_body)(unsigned, std::string_view), std::string_view request_id_header,
    std::string_view model = {});

/// Waits before retry number `retries_done + 1`: the server's delay when
/// acceptable, else backoff with jitter (see @ref retry_delay).
inline asio::awaitable<void> retry_wait(provider_options const& options, unsigned retries_done,
    std::optional<std::chrono::milliseconds> server_delay);

} // namespace detail

/** A streamed answer being read.

    Move-only; owns the HTTP response while it lasts. Read until `done()`,
    then `finish`.
*/
template<class Wire>
class model_stream
{
public:
    model_stream() = default;
    explicit model_stream(http::response_stream body) : body_(std::move(body)) {}

    /** Reads what arrived next and decodes it.

        @param out receives the text, thinking and tool starts decoded
        @return the error that ended the stream, if any (an `error` event, a
        broken connection, a malformed event)
    */
    asio::awaitable<std::optional<error>> read(std::vector<stream_event>& out);

    /// Whether the body ended (or failed).
    bool done() const noexcept { return done_; }

    /// Whether any output (text, blocks) was decoded.
    bool produced_output() const noexcept { return decoder_.produced_output(); }

    /// The answer; an error when the stream ended before its end marker.
    std::optional<response> finish(error& failure) { return decoder_.finish(failure); }

private:
    http::response_stream body_;
    sse::parser parser_;
    typename Wire::decoder decoder_;
    bool done_ = false;
};

/** A provider speaking wire format `Wire` over an agentio HTTP client.

    `Wire` supplies the endpoint path, headers, body, error parsing and the
    stream decoder (see `anthropic_wire` and `openai_wire`).
*/
template<class Wire>
class http_provider
{
public:
    using stream_type = model_stream<Wire>;
    using wire_options = typename Wire::options;

    /** @param client the HTTP client (shared: connections are pooled)
        @param options key, base URL, retries, timeouts
        @param wire settings of the wire format
    */
    http_provider(http::client& client, provider_options options, wire_options wire = {});

    provider_options const& options() const noexcept { return options_; }

    /// The provider as the GenAI conventions name it (`gen_ai.provider.name`): `anthropic` or `openai`.
    static constexpr std::string_view name() noexcept { return Wire::name; }

    /** Starts a streamed call, retrying as the official SDKs do.

        Connection errors, timeouts and the statuses of @ref status_is_retryable
        are retried `options().retry.max_retries` times with their delays;
        other failures come back at once.

        @return the stream, once a 2xx header arrived; or the last error.
    */
    asio::awaitable<boost::system::result<stream_type, error>> open(request const& r);

    /** Counts a request's input tokens as the provider's tokenizer does,
        without calling the model (Anthropic's `POST /v1/messages/count_tokens`;
        its system prompt, tools and messages), retried as `open` is. Only for
        a wire format that has such an endpoint. */
    asio::awaitable<boost::system::result<std::uint64_t, error>> count_tokens(request const& r) requires requires
    {
        Wire::count_tokens_path;
    };

    /// Waits before retry number `retries_done + 1` (also used by the
    /// orchestrator to retry a round that failed mid-stream).
    asio::awaitable<void> backoff(unsigned retries_done, std::optional<std::chrono::milliseconds> server_delay = {});

private:
    // A POST of `body` to the API's `path`, with its authentication.
    http::client_request post(std::string_view path, std::string_view accept, json::object const& body) const;

    http::client* client_;
    provider_options options_;
    wire_options wire_;
};

} // namespace agentio::llm

#include <agentio/llm/impl/http_provider.hpp>

#endif
