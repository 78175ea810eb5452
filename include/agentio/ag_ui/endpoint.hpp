//
// agentio/ag_ui/endpoint.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// AG-UI's front door over the models of a Chat Completions endpoint: any
// agent an application serves as a `chat_completions::model` (the tool loop,
// ReAct, plan-and-execute, a pipeline) answers `POST /ag-ui` with AG-UI's
// event stream, for `@ag-ui/client`'s `HttpAgent` and the front ends built
// on it (CopilotKit's among them).
//
// A run outlives its request: it runs on its own, holding its thread, and
// the request only follows its events. A client that leaves cancels nothing
// until `detach_grace` has passed with nobody following; it may follow the
// run again from where it left (`POST /ag-ui/connect`, `Last-Event-ID`).
// With a thread store the events are journaled with the run, so that any
// process sharing the store can replay them, and the thread keeps each
// question and its answer.
//
//   chat_completions::endpoint models(...);
//   models.add(my_agent);
//   ag_ui::endpoint ag_ui(models, {.store = &threads});
//   ag_ui.add_routes(routes);
//

#ifndef AGENTIO_AG_UI_ENDPOINT_HPP
#define AGENTIO_AG_UI_ENDPOINT_HPP

#include <agentio/ag_ui/protocol.hpp>
#include <agentio/chat_completions/endpoint.hpp>
#include <agentio/config.hpp>
#include <agentio/http/any_stream.hpp>
#include <agentio/http/router.hpp>
#include <agentio/threads.hpp>
#include <agentio/threads/turn.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/beast/http/message_generator.hpp>
#include <boost/system/result.hpp>

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agentio::ag_ui {

namespace asio = boost::asio;
namespace beast = boost::beast;

namespace detail {
class run_registry;
} // namespace detail

/// How the AG-UI endpoint behaves.
struct endpoint_options
{
    /** Where the routes go: `POST {path}` (the default agent), `POST
        {path}/agents/{id}` (any model of the endpoint), `POST {path}/connect`
        (follow a run again) and `POST {path}/cancel` (stop one). */
    std::string path = "/ag-ui";
    /// The model `POST {path}` runs; empty: the endpoint's first.
    std::string default_agent = {};
    /** Who is asking: the user, or the error to answer (a 401). Empty: the
        Chat Completions endpoint's own `authenticate`, so both doors ask the
        same. Called before the body is read. */
    chat_completions::authenticator authenticate = {};
    /** Where threads, runs and their journals are kept; null: the Chat
        Completions endpoint's session store, and with none, runs live in
        memory only (no thread is kept, and a run is followed again only
        while this process holds it). */
    threads::thread_store* store = nullptr;
    /** How a run holds its thread. The lease is renewed every `check_every`,
        which is also how soon a cancel sent to another process sharing the
        store reaches the run (in this process it does at once): one write
        per run each time, so fewer for many runs at once. */
    threads::turn_options turn = {.lease = std::chrono::seconds(30), .check_every = std::chrono::seconds(5)};
    /** How long a run's events gather before they are journaled in one write
        (followers in this process read them at once; elsewhere, this late). */
    std::chrono::milliseconds journal_gather = std::chrono::milliseconds(100);
    /// Bounds on a `RunAgentInput`.
    input_limits limits = {};
    /// The largest body read, in bytes.
    std::size_t max_body_bytes = 8 * 1024 * 1024;
    /** With an empty `messages`, the stored messages of the thread a run
        reads: the latest ones, starting at a question. */
    std::size_t max_stored_messages = 40;
    /// A run nobody follows for this long is cancelled.
    std::chrono::milliseconds detach_grace = std::chrono::seconds(30);
    /// How long an ended run's events stay in memory for `connect`.
    std::chrono::milliseconds keep_ended = std::chrono::seconds(60);
    /// How long a reader waits for a wake-up before looking at the journal anyway.
    std::chrono::milliseconds reader_poll = std::chrono::seconds(1);
    /** Called when a run ends (logs, metrics); `stream` is always true and
        `session` is the thread. Empty: the Chat Completions endpoint's own. */
    std::function<void(chat_completions::completion_record const&)> on_complete = {};
};

/** A run started by a protocol served over the endpoint's runs (A2A's
    tasks): the same runs, journal, followers and cancels as AG-UI's. */
struct run_request
{
    /// Who asks (the thread's owner).
    std::string user = {};
    /// The model; empty: the endpoint's default agent.
    std::string agent = {};
    std::string thread_id = {};
    std::string run_id = {};
    /** The new messages, read after the thread as stored (with a store;
        without one, they are the conversation), and the decisions on the
        calls the thread's last turn waits for. */
    chat_completions::request request = {};
    /** How a refusal of the decisions names its fields: `{i}` stands for
        the decision's index. */
    std::string decision_field = "decisions[{i}].toolCallId";
    std::string decisions_field = "decisions";
    /// `RUN_STARTED`'s `metadata.agentio`: what the protocol finds again in the journal.
    json::object started_metadata = {};
    /// False: the run is never cancelled for having nobody following it.
    bool cancel_when_unfollowed = false;
    /** Answer the calls the thread waits for as rejected and end the run
        cancelled without asking the model: the thread waits no more. */
    bool cancel_at_once = false;
};

/// A run as it stands: its thread, its events so far, whether they are all.
struct run_snapshot
{
    std::string thread_id = {};
    std::vector<threads::event_record> events = {};
    bool over = false;
};

/** Serves the models of a @ref chat_completions::endpoint over AG-UI.

    Each run is a new AG-UI `runId` on a `threadId`: a stored thread owned
    by the authenticated user (created on first use; another user's is not
    found). The thread keeps what each run was asked and answered; the
    client's `messages` are the conversation the model reads (an empty list
    reads the thread as stored). The client's `tools` are offered to the
    model beside the agent's own; a call of one ends the run with
    `outcome.pendingToolCallIds`, and the next run carries its result.

    Errors are the protocol's own: a `RUN_ERROR` frame naming the field of
    a malformed input (`code` `invalid_input`), the thread busy
    (`thread_busy`), another user's or an unknown run (`run_not_found`); a
    401 as the application's other routes answer it. The endpoint must
    outlive its routes and the Chat Completions endpoint it serves from;
    destroying it cancels the runs in progress.
*/
class endpoint
{
public:
    AGENTIO_DECL explicit endpoint(chat_completions::endpoint const& models, endpoint_options options = {});
    AGENTIO_DECL ~endpoint();

    endpoint(endpoint const&) = delete;
    endpoint& operator=(endpoint const&) = delete;

    /// Adds `POST {path}`, `POST {path}/agents/{id}`, `POST {path}/connect` and `POST {path}/cancel`.
    AGENTIO_DECL void add_routes(http::router<>& routes) const;

    /** Answers a `RunAgentInput` with the run's events (what `POST {path}`
        calls): `agent` names the model, empty for the default one. */
    AGENTIO_DECL asio::awaitable<std::optional<beast::http::message_generator>> run(http::request&& req,
        http::any_stream& stream, std::string_view agent) const;

    /** Follows a run again (`{threadId, runId}`, or the thread's latest run
        without `runId`): its events after `Last-Event-ID` (from its
        `RUN_STARTED` without), then live to its end. */
    AGENTIO_DECL asio::awaitable<std::optional<beast::http::message_generator>> connect(http::request&& req,
        http::any_stream& stream) const;

    /** Stops a run (`{threadId, runId}`): its followers see `RUN_FINISHED`
        with `outcome.type` `cancelled`. A JSON answer; 404 when the run is
        unknown, another user's, or over. */
    AGENTIO_DECL asio::awaitable<beast::http::message_generator> cancel(http::request&& req) const;

    /// Runs of this process in progress.
    AGENTIO_DECL std::size_t running() const;

    /** Starts a run (for another protocol over these runs): nothing, or the
        `RUN_ERROR` event that refuses it (`code`: `invalid_input` with
        `metadata.agentio.field`, `agent_not_found`, `thread_not_found`,
        `thread_busy`, `run_exists`, `store_failed`). `req` is the request
        that asks (its `traceparent`). */
    AGENTIO_DECL asio::awaitable<boost::system::result<void, json::object>> start(run_request r,
        http::request const& req) const;

    /** A run of `user` as it stands, from this process's memory or the
        store; none when there is no such run (or it is another user's). */
    AGENTIO_DECL asio::awaitable<boost::system::result<std::optional<run_snapshot>, std::string>>
    find(std::string_view run_id, std::string_view user) const;

    /** Follows a run of `user`: `on_event` for each event after `after`,
        live, until its last (a `RUN_ERROR` without id when it is lost) or
        until `on_event` returns false. Following keeps a run that
        @ref run_request::cancel_when_unfollowed from being cancelled. */
    AGENTIO_DECL asio::awaitable<void> follow(std::string_view run_id, std::string_view user, std::int64_t after,
        std::function<asio::awaitable<bool>(threads::event_record const&)> on_event) const;

    /** Stops a run of `user`: true when it was in progress (its followers
        then see it cancelled), false when it is over or unknown. */
    AGENTIO_DECL asio::awaitable<boost::system::result<bool, std::string>> stop(std::string_view run_id,
        std::string_view user) const;

    endpoint_options const& options() const noexcept { return options_; }

private:
    chat_completions::endpoint const& models_;
    endpoint_options options_;
    std::shared_ptr<detail::run_registry> runs_;
};

} // namespace agentio::ag_ui

#ifdef AGENTIO_HEADER_ONLY
#include <agentio/ag_ui/impl/endpoint.ipp>
#endif

#endif
