//
// agentio/testing/fake_llm.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// A fake LLM provider on loopback: an HTTP server that answers
// `POST /v1/messages` (Anthropic Messages) and `POST /v1/messages/count_tokens`
// (its token counting), `POST /v1/chat/completions` (OpenAI Chat
// Completions) and `POST /v1/embeddings` (OpenAI embeddings)
// with the providers' wire format, byte for byte where it matters (headers,
// SSE framing, JSON shapes, error bodies), from scripted scenarios: per
// conversation round, text streamed in token-sized pieces at a set rate, tool
// calls with their arguments streamed as fragments, answers conditioned on the
// last tool result, deterministic (hashed, not semantic) embeddings, and
// faults (HTTP 429/529, an error event mid-stream, a truncated stream, a
// stall, an abrupt disconnect, slow tokens).
//
// For tests (point a client at it and assert on what it sent), for demos
// without an API key, and for load tests: a stream costs two small coroutine
// frames and a timer, never a thread.
//
// The scenario file format is documented in docs/guide/12-fake-llm.md.
//

#ifndef AGENTIO_TESTING_FAKE_LLM_HPP
#define AGENTIO_TESTING_FAKE_LLM_HPP

#include <agentio/config.hpp>
#include <agentio/http/server.hpp>
#include <agentio/http/url.hpp>
#include <agentio/testing/detail/fake_llm_handler.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/http/fields.hpp>
#include <boost/json/value.hpp>
#include <boost/system/result.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace agentio::testing {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace json = boost::json;
namespace system = boost::system;
using tcp = asio::ip::tcp;

/// Settings of a @ref fake_llm.
struct fake_llm_options
{
    /** The API key clients must send, as `x-api-key: K` or
        `Authorization: Bearer K` (either header, on either endpoint).
        Empty: any key, or none, is accepted. A missing or wrong key is
        answered with 401 and the provider's `authentication_error` body.
    */
    std::string api_key;

    /** Default delay before each streamed piece (text, thinking or tool
        argument fragment). Zero: as fast as the client reads. A scenario's
        `token_interval_ms` and a `slow_tokens` fault take precedence.
    */
    std::chrono::milliseconds token_interval{0};

    /** How text is cut into pieces. 0: like the providers (a few words per
        piece, pieces start with the space before their first word, at most
        32 code points). Otherwise: pieces of exactly this many code points
        (the last may be shorter). A UTF-8 sequence is never split.
        Tool argument fragments are cut the same way (0: 9 to 16 bytes).
    */
    std::size_t piece_chars = 0;

    /** How many requests `requests()` keeps (the most recent ones); 0 keeps
        none. Bounds memory in load tests.
    */
    std::size_t max_recorded_requests = 1000;

    /** Limits and timeouts of the HTTP server. The body limit is raised to
        32 MiB, the Messages API's own limit; every client of a fake is on
        loopback, so there is no per-address bound (load tests open thousands
        of streams from 127.0.0.1).
    */
    http::server_options server{.max_body_bytes = 32 * 1024 * 1024, .max_connections_per_address = 0};
};

/** Text the fake sends in a content block, either whole (cut into pieces by
    the fake, see @ref fake_llm_options::piece_chars) or as exact pieces.

    In a scenario file: a JSON string, or an array of strings (the pieces).
*/
struct scripted_text
{
    /// The pieces; a single whole text when `split` is true.
    std::vector<std::string> pieces;

    /// Whether the fake cuts the text into pieces itself.
    bool split = true;

    scripted_text() = default;

    /// Whole text, cut by the fake.
    scripted_text(std::string whole) : pieces{std::move(whole)} {}

    /// Whole text, cut by the fake.
    scripted_text(char const* whole) : pieces{std::string(whole)} {}

    /// Streamed exactly as these pieces, one per event.
    static scripted_text exact(std::vector<std::string> pieces)
    {
        scripted_text t;
        t.pieces = std::move(pieces);
        t.split = false;
        return t;
    }

    /// No text at all (no content block is sent for it).
    bool empty() const noexcept
    {
        for(auto const& p : pieces)
            if(!p.empty())
                return false;
        return true;
    }
};

/// A tool call the fake makes.
struct scripted_tool_call
{
    /// The tool's name.
    std::string name;

    /// The arguments (a JSON object).
    json::value input = json::object();

    /** The argument text exactly as streamed, one fragment per event (after
        the provider's initial empty fragment). May be cut short to mimic a
        `max_tokens` stop. Empty: the fake renders `input` as
        `{"key": "value", ...}` and cuts it into fragments.
    */
    std::vector<std::string> input_fragments;

    /// The call's id; empty: generated (`toolu_01…` or `call_…`).
    std::string id;
};

/// What a @ref fault does.
enum class fault_kind
{
    /// Answer with an HTTP error instead (429 with `retry-after`, 529, 500…).
    http_error,

    /// Stream an error event after `after_events` events and end the stream.
    midstream_error,

    /// End the response body cleanly after `after_events` events, without
    /// the stream's final events (`message_stop` / `[DONE]`).
    truncate,

    /// Stop sending after `after_events` events, keep the connection open
    /// for `duration` (zero: until the client leaves), then go on.
    stall,

    /// Close the connection after `after_events` events, without ending the body.
    disconnect,

    /// Stream pieces at one per `duration` instead.
    slow_tokens
};

/** A fault injected into some attempts of a turn.

    An attempt is a request that the fake answers with the turn: a retry is
    a new attempt. The fault applies to the first `times` attempts of the
    turn in a conversation (counted per fake, per scenario, per round and per
    request `messages`, so that parallel conversations with different
    messages keep separate counts), then the turn answers normally; `times`
    0 means every attempt. Of several faults that apply to one attempt, the
    first `http_error` wins; otherwise the first of the ending faults
    (midstream_error, truncate, stall, disconnect) applies, slowed by any
    `slow_tokens`.
*/
struct fault
{
    fault_kind kind = fault_kind::http_error;

    /// http_error: the status, e.g. 429, 500, 529.
    unsigned status = 529;

    /// http_error: headers to send when not empty (`retry-after`,
    /// `retry-after-ms`, `x-should-retry`).
    std::string retry_after;
    std::string retry_after_ms;
    std::string x_should_retry;

    /** http_error, midstream_error: `error.type` of the body. Empty: the
        provider's type for the status (429 `rate_limit_error`, 529
        `overloaded_error`…); mid-stream, `overloaded_error` (Anthropic) or
        `server_error` (OpenAI).
    */
    std::string error_type;

    /// http_error, midstream_error: `error.message`; empty: the provider's usual text.
    std::string error_message;

    /// midstream_error, truncate, stall, disconnect: events sent before the fault.
    std::size_t after_events = 0;

    /// stall: how long (zero: until the client leaves); slow_tokens: the piece interval.
    std::chrono::milliseconds duration{0};

    /// disconnect: reset the connection (RST) instead of closing it (FIN).
    bool reset = false;

    /// Attempts the fault applies to; 0: all.
    std::size_t times = 0;
};

/** One answer of the fake: optional thinking, text, tool calls, the stop
    reason, token counts and faults.

    Text, and the strings of a tool call's input, may contain
    `{{last_tool_result}}`, replaced by the text of the request's last tool
    result, and `{{user_word:PREFIX}}`, replaced by the first word of the
    last user message that starts with PREFIX (letters, digits, `-`, `_`; an
    id the question names, as `{{user_word:file-}}`), or nothing.
*/
struct scripted_response
{
    /// Only chosen when the last tool result contains this text; empty: always.
    std::string when_last_tool_result_contains;

    /** Only chosen when the last user message (not one of only tool results)
        contains this text; empty: always. Both conditions must hold. Lets one
        scenario answer many questions, each by its own words. */
    std::string when_user_message_contains;

    /** And each of these too (a scenario's `"when_user_message_contains": ["Your step:", "python"]`): one
        question's words and the prompt of a strategy's stage, say. */
    std::vector<std::string> when_user_message_also_contains;

    /** Only chosen when the request offers tools (true) or offers none
        (false); unset: either. Tells a tool loop's call from plain chat's. */
    std::optional<bool> when_tools_offered;

    /// Extended thinking (Anthropic only; OpenAI clients do not see it).
    scripted_text thinking;

    /// The thinking block's signature; empty: generated.
    std::string thinking_signature;

    /// The answer's text; empty: no text block.
    scripted_text text;

    std::vector<scripted_tool_call> tool_calls;

    /** Anthropic vocabulary: `end_turn`, `tool_use`, `max_tokens`,
        `stop_sequence`, `pause_turn`, `refusal`. OpenAI clients get the
        matching `finish_reason` (`stop`, `tool_calls`, `length`, `stop`,
        `stop`, `content_filter`); any other value is sent as it is to both.
        Empty: `tool_use` with tool calls, else `end_turn`.

        With `max_tokens`, a last block that is a tool call gets no
        `content_block_stop` (its input was cut), as the API does.
    */
    std::string stop_reason;

    /// Token counts; unset: estimated (4 bytes a token).
    std::optional<std::uint64_t> input_tokens;
    std::optional<std::uint64_t> output_tokens;

    std::vector<fault> faults;
};

/** An embedding model: answers `POST /v1/embeddings` as OpenAI does.

    The vectors are feature hashing of the words of each input, not meaning:
    every lower-cased word (a run of ASCII letters and digits, or of non-ASCII
    UTF-8 bytes) adds ±1 to one component (its FNV-1a hash modulo the
    dimensions, the sign from the hash's top bit), and the sum is scaled to
    unit length. Deterministic: the same text always gets the same vector, and
    texts sharing words get close vectors; a text without words gets zeros.
    `usage.prompt_tokens` counts the words.
*/
struct scripted_embeddings
{
    /// The length of the vectors, and the most a request's `dimensions` may ask for.
    unsigned dimensions = 256;

    /** Faults, as for a non-streamed chat answer (`http_error`,
        `midstream_error` as a 500/529, `truncate`, `stall`, `disconnect`);
        attempts are counted per scenario and per request `input`.
    */
    std::vector<fault> faults;
};

/** A scripted model: requests whose `model` is `name` are answered by it.

    `turns[r]` answers round `r` of a conversation, where `r` is the number
    of assistant messages after the last user message that is not only tool
    results; beyond the last turn, the last turn answers. Each turn is a list
    of alternatives: the first whose condition matches answers.

    A scenario with `embeddings` (and no turns) is an embedding model instead:
    it answers `POST /v1/embeddings`, and chat requests for it get a 404.
*/
struct scenario
{
    std::string name;

    /// The `model` reported in responses; empty: the request's.
    std::string model;

    /// Interval between streamed pieces; unset: the fake's default.
    std::optional<std::chrono::milliseconds> token_interval;

    /** The model's context window, enforced as the providers do: a request
        whose input (its body's bytes / 4, the tokens the fake reports)
        exceeds it, or with its `max_tokens` does, is refused with the
        provider's own error for size (Anthropic's "prompt is too long: N
        tokens > M maximum", OpenAI's `context_length_exceeded`). Unset: any
        size is answered. In a scenario file: `context_window`. */
    std::optional<std::uint64_t> context_window;

    std::vector<std::vector<scripted_response>> turns;

    /// Set: an embedding model (see @ref scripted_embeddings).
    std::optional<scripted_embeddings> embeddings;
};

/// A scenario that could not be read: where, and why.
class scenario_error : public std::runtime_error
{
public:
    scenario_error(std::string file, std::string pointer, std::string const& message)
        : std::runtime_error((file.empty() ? std::string() : file + ": ") +
              (pointer.empty() ? std::string() : pointer + ": ") + message)
        , file_(std::move(file))
        , pointer_(std::move(pointer))
    {
    }

    /// The file, if the scenario came from one.
    std::string const& file() const noexcept { return file_; }

    /// JSON Pointer (RFC 6901) to the offending value, e.g. `/turns/0/faults/1/kind`.
    std::string const& pointer() const noexcept { return pointer_; }

private:
    std::string file_;
    std::string pointer_;
};

/** Reads one scenario from its JSON form (docs/guide/12-fake-llm.md).

    Unknown keys are errors, so that a typo does not silently change a test.

    @throws scenario_error naming the offending value by JSON Pointer.
*/
scenario parse_scenario(json::value const& jv);

/** Reads scenarios from a file (one scenario object, or an array of them) or
    from every `*.json` file of a directory.

    @throws scenario_error with the file and JSON Pointer of the first
    problem, also for a name defined twice.
*/
std::vector<scenario> read_scenarios(std::filesystem::path const& path);

/// A request the fake received, for tests to assert on.
struct recorded_request
{
    std::string method;
    std::string target;
    beast::http::fields headers;

    /// The body parsed as JSON; null if it was not JSON.
    json::value body;

    /// When it arrived (to measure retry delays).
    std::chrono::steady_clock::time_point received;
};

/** The fake LLM server.

    @code
    asio::io_context ioc;
    agentio::testing::fake_llm fake(ioc.get_executor());
    fake.load_scenarios("tests/fixtures/scenarios");
    fake.start().value();
    // ANTHROPIC_BASE_URL=fake.anthropic_base_url(), model "anthropic-tool-use"
    ioc.run();
    @endcode

    Every member function may be called from any thread. Scenarios may be
    added while the server runs.

    @note Destroy it after the io_context stopped running (or after every
    connection ended): connections keep its state alive, but the listening
    socket is a member.
*/
class fake_llm
{
public:
    /** @param ex The executor of an io_context (each connection gets a strand on it).
        @param options Key, pacing, limits.
    */
    explicit fake_llm(asio::any_io_executor ex, fake_llm_options options = {});

    fake_llm(fake_llm const&) = delete;
    fake_llm& operator=(fake_llm const&) = delete;

    /// Adds a scenario, replacing one of the same name.
    void add_scenario(scenario s);

    /** Adds the scenarios of a file or directory (see @ref read_scenarios).

        @return How many were added.
        @throws scenario_error Nothing is added then.
    */
    std::size_t load_scenarios(std::filesystem::path const& path);

    /// The names of the scenarios, sorted.
    std::vector<std::string> scenario_names() const;

    /** Listens and starts serving.

        @param endpoint Where; port 0 picks a free port.
        @return The endpoint bound, or the error (e.g. address in use).
    */
    system::result<tcp::endpoint> start(tcp::endpoint const& endpoint = tcp::endpoint(asio::ip::address_v4::loopback(),
                                            0));

    /// The endpoint bound by `start`.
    tcp::endpoint endpoint() const;

    /// Stops accepting connections; streams in progress go on until they end.
    void stop();

    /// `http://127.0.0.1:PORT`, the Anthropic SDKs' base URL convention (no `/v1`).
    std::string anthropic_base_url() const;

    /// `http://127.0.0.1:PORT/v1`, the OpenAI SDKs' base URL convention.
    std::string openai_base_url() const;

    /// Connections open right now, streams in progress included.
    std::size_t connection_count() const noexcept;

    /// The requests received so far, oldest first (at most `max_recorded_requests`).
    std::vector<recorded_request> requests() const;

    /// Forgets recorded requests and fault attempt counts.
    void reset();

private:
    std::shared_ptr<detail::fake_llm_state> state_;
    http::server<detail::fake_llm_handler> server_;
};

} // namespace agentio::testing

#ifdef AGENTIO_HEADER_ONLY
#include <agentio/testing/impl/fake_llm.ipp>
#endif

#endif
