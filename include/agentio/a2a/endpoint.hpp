//
// agentio/a2a/endpoint.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// A2A 1.0's front door over the runs of an ag_ui::endpoint: the agent card
// at `/.well-known/agent-card.json` and the JSON-RPC binding (`POST /a2a`):
// SendMessage, SendStreamingMessage, GetTask, ListTasks, CancelTask and
// SubscribeToTask. A task is one question in a context (a stored thread):
// its first run has the task's id, and a message that answers the task's
// `INPUT_REQUIRED` (an approval) starts the task's next run. The task is the
// view of those runs' journal (a2a::task_view), so A2A keeps nothing of its
// own: whatever AG-UI sees, A2A sees, and a task outlives its streams.
//
//   ag_ui::endpoint runs(models, {.store = &threads});
//   a2a::endpoint a2a(runs, {.card = {.name = "my-agent", ...}, .skills = ...});
//   a2a.add_routes(routes);
//

#ifndef AGENTIO_A2A_ENDPOINT_HPP
#define AGENTIO_A2A_ENDPOINT_HPP

#include <agentio/a2a/protocol.hpp>
#include <agentio/ag_ui/endpoint.hpp>
#include <agentio/config.hpp>
#include <agentio/http/any_stream.hpp>
#include <agentio/http/router.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/beast/http/message_generator.hpp>

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace agentio::a2a {

namespace asio = boost::asio;
namespace beast = boost::beast;

namespace detail {
class task_index;
} // namespace detail

/// How the A2A endpoint behaves.
struct endpoint_options
{
    /// The JSON-RPC route (`POST`), and the card's interface URL's path.
    std::string path = "/a2a";
    /// Where the agent card is (`GET`).
    std::string card_path = "/.well-known/agent-card.json";
    /// The model that answers (a model of the Chat Completions endpoint); empty: the AG-UI endpoint's default.
    std::string agent = {};
    /** What the card says. An empty `card.url` is made from the request's
        `Host` and `path` (`http://host/a2a`): set it when clients reach the
        server through another address (a proxy, TLS). */
    card_options card = {};
    /// The card's skills: one per tool, typically (an empty list gives one `chat` skill).
    std::vector<skill> skills = {};
    /** The skills as they are when the card is asked for, instead of
        `skills`: for an agent whose tools are known only once it runs. */
    std::function<std::vector<skill>()> list_skills = {};
    /// Who is asking; empty: the AG-UI endpoint's `authenticate` (so the application's other doors').
    chat_completions::authenticator authenticate = {};
    /// The card's `Cache-Control: max-age`.
    std::chrono::seconds card_max_age = std::chrono::seconds(300);
    /// The largest body read, in bytes.
    std::size_t max_body_bytes = 8 * 1024 * 1024;
    /// How long `CancelTask` waits for the run to stop before answering the task as it is.
    std::chrono::milliseconds cancel_wait = std::chrono::seconds(10);
};

/** Serves an agent over A2A 1.0 (JSON-RPC), over the runs of an
    @ref ag_ui::endpoint and with its store: the same users, threads and
    journal. Errors are the specification's: JSON-RPC errors with
    `google.rpc` details (an unknown or another user's task is `-32001`, a
    bad parameter `-32602` naming it, a request without `A2A-Version: 1.0`
    `-32009`); a caller who is not authenticated gets the application's 401.
    The endpoint must outlive its routes; the AG-UI endpoint must outlive it.
*/
class endpoint
{
public:
    AGENTIO_DECL explicit endpoint(ag_ui::endpoint const& runs, endpoint_options options = {});
    AGENTIO_DECL ~endpoint();

    endpoint(endpoint const&) = delete;
    endpoint& operator=(endpoint const&) = delete;

    /// Adds `GET {card_path}` and `POST {path}`.
    AGENTIO_DECL void add_routes(http::router<>& routes) const;

    /// Answers a JSON-RPC request (what `POST {path}` calls); the streaming methods write their events.
    AGENTIO_DECL asio::awaitable<std::optional<beast::http::message_generator>> rpc(http::request&& req,
        http::any_stream& stream) const;

    /// The agent card, with `url` as its interface's address.
    AGENTIO_DECL json::object card(std::string_view url) const;

    endpoint_options const& options() const noexcept { return options_; }

private:
    ag_ui::endpoint const& runs_;
    endpoint_options options_;
    std::shared_ptr<detail::task_index> tasks_;
};

} // namespace agentio::a2a

#ifdef AGENTIO_HEADER_ONLY
#include <agentio/a2a/impl/endpoint.ipp>
#endif

#endif
