//
// agentio/chat_completions/endpoint.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// OpenAI's Chat Completions API in front of any set of models:
// `POST /v1/chat/completions` (a `chat.completion`, or a stream of
// `chat.completion.chunk` events ending with `data: [DONE]`), `GET
// /v1/models` and `GET /v1/models/{id}`. The wire is the one the official
// clients and the reference servers agree on: the role in the first delta,
// an `index` on every tool-call delta, a last chunk with the
// `finish_reason`, with `stream_options.include_usage` a usage chunk with
// no choices, and errors as `{"error": {...}}` with the right status (or as
// a `data:` line once a stream has begun).
//
//   chat_completions::endpoint api;
//   api.add(std::make_shared<my_agent_model>(...));
//   http::router<> routes;
//   api.add_routes(routes);
//

#ifndef AGENTIO_CHAT_COMPLETIONS_ENDPOINT_HPP
#define AGENTIO_CHAT_COMPLETIONS_ENDPOINT_HPP

#include <agentio/chat_completions/error.hpp>
#include <agentio/chat_completions/model.hpp>
#include <agentio/chat_completions/request.hpp>
#include <agentio/config.hpp>
#include <agentio/http/any_stream.hpp>
#include <agentio/http/api_keys.hpp>
#include <agentio/http/router.hpp>
#include <agentio/http/server.hpp>
#include <agentio/threads.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/beast/http/message_generator.hpp>
#include <boost/system/result.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agentio::chat_completions {

/// Who is asking, or the 401 to answer: what `endpoint_options::authenticate` holds.
using authenticator = std::function<boost::system::result<std::string, api_error>(http::request const&)>;

/** An @ref authenticator from API keys: the owner a request's key names
    (`Authorization: Bearer KEY`, else the header `header`), or a 401
    (`authentication_error`) saying `message`. Without keys everyone is the
    one (empty) user, as `http::api_keys` has it. */
AGENTIO_DECL authenticator key_authenticator(http::api_keys keys, std::string header = "X-API-Key",
    std::string message = "Missing or invalid API key: send it as 'Authorization: Bearer KEY'.");

/// What a finished request did, for the application's log.
struct completion_record
{
    std::string model = {};
    std::string user = {};
    bool stream = false;
    /// `stop`, `length`, `tool_calls`, `content_filter`, `error` or `cancelled`.
    std::string outcome = {};
    /// The session, if the request named one.
    std::string session = {};
    /// The error's message when the outcome is `error`.
    std::string error = {};
    llm::usage usage = {};
    std::chrono::microseconds duration{};
};

/** Conversations the server keeps: a session is a thread of a thread
    store, named by the client (`session_id` in the body, or the
    `X-Session-Id` header) and owned by the authenticated user. Each
    finished answer is stored with the messages that led to it. With
    `memory`, the stored conversation comes before the request's messages,
    so a client may send only its new message; a client that sends the whole
    conversation again (it begins with what is stored) is not repeated.
    Another user's session is a 404.

    An answer in a session names it in its `X-Session-Id` response header.
    With `start_unnamed`, a request that names no session starts one. With
    `routes`, the caller's sessions are served too:
    `GET {base}/sessions?limit=&after=` (most recently updated first, paged
    as OpenAI's lists are), `GET {base}/sessions/{id}?limit=` (the session
    and its latest messages) and `DELETE {base}/sessions/{id}`. */
struct session_options
{
    /// Where sessions live; null: no sessions (a session id is ignored).
    threads::thread_store* store = nullptr;
    /// Whether the stored conversation is attached to a request.
    bool memory = true;
    /// The most stored messages attached: the latest, starting at a question.
    std::size_t max_messages = 40;
    /// The body field that names the session.
    std::string field = "session_id";
    /// The header that names the session (the body's field wins).
    std::string header = "X-Session-Id";
    /** What a message does while its session answers another (`AGENT_BUSY_POLICY`):
        refused with a 409 (`session_busy`), waits its turn, or interrupts the
        answer in progress (which ends there, what it had said kept). A
        request may choose its own with the body field `busy_field`. */
    threads::busy_policy when_busy = threads::busy_policy::reject;
    /// The body field with a request's own busy policy: "reject", "enqueue" or "interrupt".
    std::string busy_field = "busy_policy";
    /// Whether a request that names no session starts one (its id in the response's `header`).
    bool start_unnamed = false;
    /// Whether `add_routes` adds the routes that list, read and delete the caller's sessions.
    bool routes = false;
};

/// How the endpoint behaves.
struct endpoint_options
{
    /// Where the routes go: `{base}/chat/completions`, `{base}/models`.
    std::string base_path = "/v1";
    /// Bounds of a request body.
    parse_options limits = {};
    /** Who is asking: the user, or the error to answer (a 401). Empty:
        everyone may, and the user is empty. Called before the body is read. */
    authenticator authenticate = {};
    /// Called when a request ends (logs, metrics), on the connection's executor.
    std::function<void(completion_record const&)> on_complete = {};
    /// Server-side conversations.
    chat_completions::session_options sessions = {};
};

/** Serves models over OpenAI's Chat Completions API.

    Models are added before serving; the endpoint must outlive the routes it
    adds. A client that disconnects cancels the model's run, streaming or not.
*/
class endpoint
{
public:
    explicit endpoint(endpoint_options options = {});

    /// Adds a model. Throws `std::invalid_argument` when its id is taken or empty.
    void add(std::shared_ptr<model> m);

    /// The model named `id`, or null.
    std::shared_ptr<model> find(std::string_view id) const noexcept;

    /// The models, in the order they were added.
    std::vector<std::shared_ptr<model>> const& models() const noexcept { return models_; }

    /// The `/v1/models` body: `{"object": "list", "data": [...]}`.
    json::object list() const;

    /** Adds `POST {base}/chat/completions`, `GET {base}/models` and `GET
        {base}/models/{id}`; with `sessions.routes` and a store, the
        sessions' routes. */
    void add_routes(http::router<>& routes) const;

    /// Answers `POST /v1/chat/completions` (what the route calls).
    asio::awaitable<std::optional<beast::http::message_generator>> chat(http::request&& req,
        http::any_stream& stream) const;

    endpoint_options const& options() const noexcept { return options_; }

private:
    endpoint_options options_;
    std::vector<std::shared_ptr<model>> models_;
};

} // namespace agentio::chat_completions

#ifdef AGENTIO_HEADER_ONLY
#include <agentio/chat_completions/impl/endpoint.ipp>
#endif

#endif
