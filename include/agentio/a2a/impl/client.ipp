//
// agentio/a2a/impl/client.ipp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_A2A_IMPL_CLIENT_IPP
#define AGENTIO_A2A_IMPL_CLIENT_IPP

#include <agentio/a2a/client.hpp>
#include <agentio/json_text.hpp>
#include <agentio/sse/parser.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <atomic>
#include <mutex>
#include <random>
#include <utility>

namespace agentio::a2a {

namespace detail {

struct a2a_client_state
{
    a2a_client_state(http::client& h, client_options o) : http(h), options(std::move(o)) {}

    http::client& http;
    client_options options;
    std::mutex mutex; // guards card and etag
    std::optional<remote_card> card;
    std::string etag;
    std::atomic<std::uint64_t> next_id{1};
    // Message ids unique across processes that talk to the same agent.
    std::string message_prefix = "agentio-" + std::to_string(std::random_device{}()) + "-";
};

using task_result = boost::system::result<remote_task, remote_error>;

inline remote_error failure(remote_failure kind, int code, std::string message)
{
    return remote_error{kind, code, std::move(message)};
}

inline std::string text_member(json::object const& o, std::string_view key)
{
    auto const* v = o.if_contains(key);
    return v && v->is_string() ? std::string(v->get_string()) : std::string();
}

// The text parts of a message or an artifact, joined.
inline std::string text_of_parts(json::value const* parts)
{
    std::string out;
    if(!parts || !parts->is_array())
        return out;
    for(auto const& p : parts->get_array())
        if(auto const* o = p.if_object())
            if(auto const* t = o->if_contains("text"); t && t->is_string())
                out.append(t->get_string());
    return out;
}

inline std::string card_url(std::string const& url)
{
    if(url.ends_with(".json"))
        return url;
    std::string base = url;
    while(!base.empty() && base.back() == '/')
        base.pop_back();
    return base + "/.well-known/agent-card.json";
}

// What an HTTP client failure is to the caller: a deadline, the caller gone, or the network.
inline remote_error from_client_error(http::client_error const& err, bool cancelled, std::string_view what)
{
    if(cancelled)
        return failure(remote_failure::cancelled, 0, std::string(what) + ": cancelled");
    if(err.code == http::client_errc::total_timeout)
        return failure(remote_failure::timeout, 0, std::string(what) + ": " + err.message);
    return failure(remote_failure::transport, 0, std::string(what) + ": " + err.message);
}

inline bool is_cancelled(asio::cancellation_state const& state) noexcept
{
    return state.cancelled() != asio::cancellation_type::none;
}

inline http::client_request rpc_post(a2a_client_state const& s, std::string const& url, std::string body,
    bool streaming)
{
    http::client_request req;
    req.method = beast::http::verb::post;
    req.url = url;
    req.headers = s.options.headers;
    req.headers.set(beast::http::field::content_type, "application/json");
    req.headers.set(beast::http::field::accept, streaming ? "text/event-stream" : "application/json");
    req.headers.set("A2A-Version", protocol_version);
    req.body = std::move(body);
    req.total_timeout = s.options.timeout;
    return req;
}

inline std::string rpc_body(std::uint64_t id, std::string_view method, json::object params)
{
    return json::serialize(json::object{{"jsonrpc", "2.0"}, {"id", id}, {"method", method},
        {"params", std::move(params)}});
}

// A JSON-RPC response read: its result, or the error it is, checked to answer request `id`.
inline boost::system::result<json::object, remote_error> read_response(std::string_view body, std::uint64_t id,
    std::string_view what)
{
    boost::system::error_code ec;
    auto v = json::parse(body, ec);
    if(ec || !v.is_object())
        return failure(remote_failure::bad_response, 0, std::string(what) + ": the answer is not a JSON-RPC object");
    auto& o = v.get_object();
    auto const* answered = o.if_contains("id");
    if(auto const* error = o.if_contains("error"); error && error->is_object())
    {
        auto const& e = error->get_object();
        int code = 0;
        if(auto const* c = e.if_contains("code"); c && c->is_int64())
            code = static_cast<int>(c->get_int64());
        return failure(remote_failure::rpc, code, std::string(what) + ": " + text_member(e, "message"));
    }
    if(!answered || !answered->is_number() || answered->to_number<std::uint64_t>() != id)
        return failure(remote_failure::bad_response, 0, std::string(what) + ": an answer to another request");
    auto* result = o.if_contains("result");
    if(!result || !result->is_object())
        return failure(remote_failure::bad_response, 0, std::string(what) + ": no result object");
    return std::move(result->get_object());
}

inline asio::awaitable<boost::system::result<remote_card, remote_error>>
resolve_card(std::shared_ptr<a2a_client_state> s, bool refresh)
{
    using card_result = boost::system::result<remote_card, remote_error>;
    std::string etag;
    {
        std::lock_guard lock(s->mutex);
        if(s->card && !refresh)
            co_return card_result(boost::system::in_place_value, *s->card);
        etag = s->etag;
    }
    http::client_request req;
    req.url = card_url(s->options.url);
    req.headers = s->options.headers;
    req.headers.set(beast::http::field::accept, "application/json");
    if(!etag.empty())
        req.headers.set(beast::http::field::if_none_match, etag);
    req.total_timeout = s->options.timeout;
    std::string const what = "the agent card at " + req.url;
    auto [err, res] = co_await s->http.async_request(std::move(req), asio::use_awaitable);
    if(err)
    {
        bool const cancelled = is_cancelled(co_await asio::this_coro::cancellation_state);
        co_return card_result(boost::system::in_place_error, from_client_error(err, cancelled, what));
    }
    if(res.status == 304)
    {
        std::lock_guard lock(s->mutex);
        if(s->card)
            co_return card_result(boost::system::in_place_value, *s->card);
    }
    if(!res.ok())
        co_return card_result(boost::system::in_place_error,
            failure(remote_failure::http_status, static_cast<int>(res.status),
                what + ": HTTP " + std::to_string(res.status)));
    boost::system::error_code ec;
    auto v = json::parse(res.body, ec);
    if(ec || !v.is_object())
        co_return card_result(boost::system::in_place_error,
            failure(remote_failure::bad_response, 0, what + ": not a JSON object"));
    auto card = read_card(std::move(v.get_object()));
    if(!card)
        co_return card_result(boost::system::in_place_error,
            failure(remote_failure::bad_response, 0, what + ": " + card.error()));
    std::lock_guard lock(s->mutex);
    s->card = *card;
    s->etag = std::string(res.header("ETag"));
    co_return card_result(boost::system::in_place_value, std::move(*card));
}

// A unary JSON-RPC call to the agent's interface.
inline asio::awaitable<boost::system::result<json::object, remote_error>> call(std::shared_ptr<a2a_client_state> s,
    std::string method, json::object params, std::optional<std::chrono::steady_clock::duration> timeout = {})
{
    using call_result = boost::system::result<json::object, remote_error>;
    auto card = co_await resolve_card(s, false);
    if(!card)
        co_return call_result(boost::system::in_place_error, card.error());
    auto const id = s->next_id++;
    auto req = rpc_post(*s, card->endpoint, rpc_body(id, method, std::move(params)), false);
    if(timeout)
        req.total_timeout = *timeout;
    std::string const what = method + " to " + card->endpoint;
    auto [err, res] = co_await s->http.async_request(std::move(req), asio::use_awaitable);
    if(err)
    {
        bool const cancelled = is_cancelled(co_await asio::this_coro::cancellation_state);
        co_return call_result(boost::system::in_place_error, from_client_error(err, cancelled, what));
    }
    if(!res.ok())
        co_return call_result(boost::system::in_place_error,
            failure(remote_failure::http_status, static_cast<int>(res.status),
                what + ": HTTP " + std::to_string(res.status)));
    co_return read_response(res.body, id, what);
}

// The task of a result that is a Task (GetTask, CancelTask).
inline task_result as_task(boost::system::result<json::object, remote_error> r)
{
    if(!r)
        return r.error();
    remote_task t;
    auto taken = t.take(json::object{{"task", std::move(*r)}});
    if(!taken)
        return failure(remote_failure::bad_response, 0, taken.error());
    return t;
}

inline asio::awaitable<task_result> task_call(std::shared_ptr<a2a_client_state> s, std::string method,
    json::object params)
{
    std::optional<std::chrono::steady_clock::duration> no_timeout;
    auto r = co_await call(std::move(s), std::move(method), std::move(params), no_timeout);
    co_return as_task(std::move(r));
}

// Whether following the task can stop: it ended, or waits for what this call cannot give.
inline bool settled(task_state s) noexcept
{
    return is_terminal(s) || s == task_state::input_required || s == task_state::auth_required;
}

// The task cancelled for a caller that stopped or a deadline that passed: nobody reads its answer. On its
// own coroutine: the caller's is cancelled (its next co_await would throw), and its stop is not to wait.
inline asio::awaitable<void> cancel_remote_task(std::shared_ptr<a2a_client_state> s, std::string task_id)
{
    std::optional<std::chrono::steady_clock::duration> timeout = s->options.cancel_timeout;
    std::string method = "CancelTask";
    json::object params{{"id", std::move(task_id)}};
    auto cancelled = co_await call(s, std::move(method), std::move(params), timeout);
    (void)cancelled; // best effort: the task may have ended meanwhile
}

inline void abandon(asio::any_io_executor ex, std::shared_ptr<a2a_client_state> s, std::string task_id)
{
    if(!task_id.empty())
        asio::co_spawn(std::move(ex), cancel_remote_task(std::move(s), std::move(task_id)), asio::detached);
}

inline asio::awaitable<task_result> send_message(std::shared_ptr<a2a_client_state> s, std::string text,
    message_options options, update_handler on_update)
{
    auto card = co_await resolve_card(s, false);
    if(!card)
        co_return task_result(boost::system::in_place_error, card.error());
    json::array parts;
    if(!text.empty())
        parts.push_back(json::object{{"text", std::move(text)}});
    for(auto& p : options.parts)
        parts.push_back(std::move(p));
    json::object message{{"messageId", s->message_prefix + std::to_string(s->next_id++)}, {"role", "ROLE_USER"},
        {"parts", std::move(parts)}};
    if(!options.context_id.empty())
        message["contextId"] = options.context_id;
    if(!options.task_id.empty())
        message["taskId"] = options.task_id;
    json::object params{{"message", std::move(message)}};
    if(options.history_length)
        params["configuration"] = json::object{{"historyLength", *options.history_length}};

    auto const id = s->next_id++;
    bool const streaming = card->streaming;
    std::string const method = streaming ? "SendStreamingMessage" : "SendMessage";
    std::string const what = method + " to " + card->endpoint;
    auto req = rpc_post(*s, card->endpoint, rpc_body(id, method, std::move(params)), streaming);
    if(!options.traceparent.empty())
        req.headers.set("traceparent", options.traceparent);
    if(!streaming)
    {
        auto [err, res] = co_await s->http.async_request(std::move(req), asio::use_awaitable);
        if(err)
        {
            bool const cancelled = is_cancelled(co_await asio::this_coro::cancellation_state);
            co_return task_result(boost::system::in_place_error, from_client_error(err, cancelled, what));
        }
        if(!res.ok())
            co_return task_result(boost::system::in_place_error,
                failure(remote_failure::http_status, static_cast<int>(res.status),
                    what + ": HTTP " + std::to_string(res.status)));
        auto result = read_response(res.body, id, what);
        if(!result)
            co_return task_result(boost::system::in_place_error, result.error());
        remote_task task;
        if(auto taken = task.take(*result); !taken)
            co_return task_result(boost::system::in_place_error,
                failure(remote_failure::bad_response, 0, what + ": " + taken.error()));
        if(on_update)
            on_update(task, *result);
        co_return task_result(boost::system::in_place_value, std::move(task));
    }

    auto [err, stream] = co_await s->http.async_open(std::move(req), asio::use_awaitable);
    if(err)
    {
        bool const cancelled = is_cancelled(co_await asio::this_coro::cancellation_state);
        co_return task_result(boost::system::in_place_error, from_client_error(err, cancelled, what));
    }
    if(stream.status() < 200 || stream.status() >= 300)
        co_return task_result(boost::system::in_place_error,
            failure(remote_failure::http_status, static_cast<int>(stream.status()),
                what + ": HTTP " + std::to_string(stream.status())));
    auto const type = stream.headers()[beast::http::field::content_type];
    if(!type.starts_with("text/event-stream"))
    {
        // An error before the stream (or an agent that answers at once): one JSON-RPC response.
        auto [read_err, body] = co_await stream.async_read_all(asio::use_awaitable);
        if(read_err)
        {
            bool const cancelled = is_cancelled(co_await asio::this_coro::cancellation_state);
            co_return task_result(boost::system::in_place_error, from_client_error(read_err, cancelled, what));
        }
        auto result = read_response(body, id, what);
        if(!result)
            co_return task_result(boost::system::in_place_error, result.error());
        remote_task task;
        if(auto taken = task.take(*result); !taken)
            co_return task_result(boost::system::in_place_error,
                failure(remote_failure::bad_response, 0, what + ": " + taken.error()));
        co_return task_result(boost::system::in_place_value, std::move(task));
    }

    remote_task task;
    sse::parser parser;
    std::vector<std::string> frames;
    for(;;)
    {
        auto [read_err, chunk] = co_await stream.async_read_some(asio::use_awaitable);
        if(read_err)
        {
            bool const cancelled = is_cancelled(co_await asio::this_coro::cancellation_state);
            auto e = from_client_error(read_err, cancelled, what);
            if(e.kind == remote_failure::cancelled || e.kind == remote_failure::timeout)
                abandon(co_await asio::this_coro::executor, s, task.id());
            co_return task_result(boost::system::in_place_error, std::move(e));
        }
        if(chunk.empty())
            break;
        frames.clear();
        bool const fits = parser.feed(chunk, [&frames](sse::event const& e) { frames.push_back(e.data); });
        if(!fits)
        {
            abandon(co_await asio::this_coro::executor, s, task.id());
            co_return task_result(boost::system::in_place_error,
                failure(remote_failure::bad_response, 0, what + ": an event larger than the parser takes"));
        }
        for(auto const& data : frames)
        {
            auto response = read_response(data, id, what);
            if(!response)
                co_return task_result(boost::system::in_place_error, response.error());
            if(auto taken = task.take(*response); !taken)
                co_return task_result(boost::system::in_place_error,
                    failure(remote_failure::bad_response, 0, what + ": " + taken.error()));
            if(on_update)
                on_update(task, *response);
            if(settled(task.state()))
                co_return task_result(boost::system::in_place_value, std::move(task));
        }
    }
    co_return task_result(boost::system::in_place_error,
        failure(remote_failure::bad_response, 0, what + ": the stream ended before the task did"));
}

inline std::string approvals_line(json::array const& data)
{
    std::string out;
    for(auto const& d : data)
    {
        auto const* o = d.if_object();
        auto const* list = o ? o->if_contains("approvals") : nullptr;
        if(!list || !list->is_array())
            continue;
        for(auto const& a : list->get_array())
            if(auto const* call = a.if_object())
                out.append(out.empty() ? "" : ", ")
                    .append(text_member(*call, "tool"))
                    .append(call->contains("input") ? "(" + to_json_text(call->at("input")) + ")" : "()");
    }
    return out;
}

// Why a task that did not complete is no answer, in a sentence naming the agent and the task.
inline std::string not_completed(std::string_view agent, remote_task const& t)
{
    std::string out = "The agent '" + std::string(agent) + "' ";
    switch(t.state())
    {
    case task_state::input_required: out += "waits for input"; break;
    case task_state::auth_required: out += "waits for authorization"; break;
    case task_state::failed: out += "failed"; break;
    case task_state::rejected: out += "rejected the task"; break;
    case task_state::canceled: out += "cancelled the task"; break;
    default: out += "did not finish"; break;
    }
    out += " (task " + t.id() + ", " + std::string(to_string(t.state())) + ")";
    if(auto const reason = t.status_text(); !reason.empty())
        out += ": " + reason;
    if(auto const calls = approvals_line(t.status_data()); !calls.empty())
        out += "; calls awaiting a person's approval there: " + calls;
    return out;
}

inline asio::awaitable<tool_result> call_agent(client remote, std::string name, json::value arguments,
    std::string traceparent)
{
    auto const& args = arguments.as_object();
    std::string text(args.at("message").as_string());
    message_options options;
    if(auto const* c = args.if_contains("contextId"); c && c->is_string())
        options.context_id = std::string(c->get_string());
    options.traceparent = std::move(traceparent);
    update_handler no_updates;
    auto task = co_await remote.send(std::move(text), std::move(options), std::move(no_updates));
    if(!task)
        co_return tool_result::error("The agent '" + name + "' could not be asked: " + task.error().message);
    if(task->state() != task_state::completed)
        co_return tool_result::error(not_completed(name, *task));
    auto answer = task->text();
    tool_result r = tool_result::text(answer.empty() ? std::string("(no text)") : std::move(answer));
    r.content.emplace_back(text_content{"contextId: " + task->context_id()});
    r.structured = json::object{{"taskId", task->id()}, {"contextId", task->context_id()}, {"text", task->text()}};
    co_return r;
}

} // namespace detail

// --- the card ------------------------------------------------------------------

AGENTIO_DECL boost::system::result<remote_card, std::string> read_card(json::object card)
{
    remote_card out;
    out.name = detail::text_member(card, "name");
    if(out.name.empty())
        return boost::system::result<remote_card, std::string>(boost::system::in_place_error, "the card has no name");
    out.description = detail::text_member(card, "description");
    out.version = detail::text_member(card, "version");
    if(auto const* i = card.if_contains("supportedInterfaces"); i && i->is_array())
        for(auto const& entry : i->get_array())
        {
            auto const* o = entry.if_object();
            if(!o || detail::text_member(*o, "protocolBinding") != "JSONRPC")
                continue;
            if(!detail::text_member(*o, "protocolVersion").starts_with("1."))
                continue;
            out.endpoint = detail::text_member(*o, "url");
            if(!out.endpoint.empty())
                break;
        }
    if(out.endpoint.empty())
        return boost::system::result<remote_card, std::string>(boost::system::in_place_error,
            "the card lists no JSON-RPC interface at protocol version 1.x");
    if(auto const* c = card.if_contains("capabilities"); c && c->is_object())
        if(auto const* s = c->get_object().if_contains("streaming"); s && s->is_bool())
            out.streaming = s->get_bool();
    if(auto const* skills = card.if_contains("skills"); skills && skills->is_array())
        for(auto const& entry : skills->get_array())
            if(auto const* o = entry.if_object())
            {
                skill s{detail::text_member(*o, "id"), detail::text_member(*o, "name"),
                    detail::text_member(*o, "description"), {}, {}};
                if(auto const* tags = o->if_contains("tags"); tags && tags->is_array())
                    for(auto const& t : tags->get_array())
                        if(t.is_string())
                            s.tags.emplace_back(t.get_string());
                out.skills.push_back(std::move(s));
            }
    out.card = std::move(card);
    return out;
}

AGENTIO_DECL std::string tool_name_of(std::string_view agent_name)
{
    std::string out;
    for(char c : agent_name)
    {
        if(out.size() == 64)
            break;
        bool const fits = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
            c == '-';
        out.push_back(fits ? c : '_');
    }
    return out.empty() ? std::string("remote_agent") : out;
}

AGENTIO_DECL std::string describe(remote_card const& card)
{
    std::string out = card.description.empty() ? "The remote agent '" + card.name + "'." : card.description;
    if(!card.skills.empty())
    {
        out += " Skills:";
        for(auto const& s : card.skills)
            out += " " + (s.name.empty() ? s.id : s.name) + (s.description.empty() ? "" : " (" + s.description + ")") +
                ";";
        out.back() = '.';
    }
    out += " Send it a message in words; it answers in words.";
    return out;
}

// --- the task as seen ------------------------------------------------------------

AGENTIO_DECL std::string remote_task::status_text() const
{
    auto const* message = status_.if_contains("message");
    if(!message || !message->is_object())
        return {};
    return detail::text_of_parts(message->get_object().if_contains("parts"));
}

AGENTIO_DECL json::array remote_task::status_data() const
{
    json::array out;
    auto const* message = status_.if_contains("message");
    if(!message || !message->is_object())
        return out;
    if(auto const* parts = message->get_object().if_contains("parts"); parts && parts->is_array())
        for(auto const& p : parts->get_array())
            if(auto const* o = p.if_object())
                if(auto const* d = o->if_contains("data"))
                    out.push_back(*d);
    return out;
}

AGENTIO_DECL std::string remote_task::text() const
{
    if(direct_)
        return direct_text_;
    std::string out;
    for(auto const& a : artifacts_)
        if(auto const* o = a.if_object())
        {
            auto piece = detail::text_of_parts(o->if_contains("parts"));
            if(!piece.empty() && !out.empty())
                out += "\n\n";
            out += piece;
        }
    return out;
}

AGENTIO_DECL void remote_task::take_artifact(json::object const& artifact, bool append)
{
    std::string const id = detail::text_member(artifact, "artifactId");
    for(auto& a : artifacts_)
    {
        auto& o = a.as_object();
        if(detail::text_member(o, "artifactId") != id)
            continue;
        if(!append)
        {
            o = artifact;
            return;
        }
        auto& parts = o["parts"];
        if(!parts.is_array())
            parts = json::array{};
        if(auto const* more = artifact.if_contains("parts"); more && more->is_array())
            for(auto const& p : more->get_array())
                parts.get_array().push_back(p);
        return;
    }
    artifacts_.push_back(artifact);
}

AGENTIO_DECL void remote_task::take_task(json::object const& task)
{
    id_ = detail::text_member(task, "id");
    context_id_ = detail::text_member(task, "contextId");
    if(auto const* s = task.if_contains("status"); s && s->is_object())
        status_ = s->get_object();
    artifacts_.clear();
    if(auto const* a = task.if_contains("artifacts"); a && a->is_array())
        for(auto const& artifact : a->get_array())
            if(artifact.is_object())
                take_artifact(artifact.get_object(), false);
}

AGENTIO_DECL boost::system::result<void, std::string> remote_task::take(json::object const& response)
{
    auto read_state = [this]() -> boost::system::result<void, std::string> {
        auto const name = detail::text_member(status_, "state");
        auto const s = parse_task_state(name);
        if(!s)
            return "an unknown task state '" + name + "'";
        state_ = *s;
        return {};
    };
    if(auto const* t = response.if_contains("task"); t && t->is_object())
    {
        auto const& task = t->get_object();
        if(detail::text_member(task, "id").empty() || detail::text_member(task, "contextId").empty())
            return std::string("a task without its id or contextId");
        take_task(task);
        return read_state();
    }
    if(auto const* m = response.if_contains("message"); m && m->is_object())
    {
        auto const& message = m->get_object();
        direct_ = true;
        direct_text_ += detail::text_of_parts(message.if_contains("parts"));
        if(id_.empty())
            context_id_ = detail::text_member(message, "contextId");
        state_ = task_state::completed;
        return {};
    }
    auto check_ids = [this](json::object const& update) -> boost::system::result<void, std::string> {
        auto const task = detail::text_member(update, "taskId");
        if(task.empty())
            return std::string("an update without its taskId");
        if(id_.empty())
        {
            id_ = task;
            context_id_ = detail::text_member(update, "contextId");
        }
        else if(task != id_)
            return "an update of the task '" + task + "' in the stream of '" + id_ + "'";
        return {};
    };
    if(auto const* u = response.if_contains("statusUpdate"); u && u->is_object())
    {
        auto const& update = u->get_object();
        if(auto ok = check_ids(update); !ok)
            return ok;
        auto const* s = update.if_contains("status");
        if(!s || !s->is_object())
            return std::string("a status update without its status");
        status_ = s->get_object();
        return read_state();
    }
    if(auto const* u = response.if_contains("artifactUpdate"); u && u->is_object())
    {
        auto const& update = u->get_object();
        if(auto ok = check_ids(update); !ok)
            return ok;
        auto const* a = update.if_contains("artifact");
        if(!a || !a->is_object())
            return std::string("an artifact update without its artifact");
        bool append = false;
        if(auto const* flag = update.if_contains("append"); flag && flag->is_bool())
            append = flag->get_bool();
        take_artifact(a->get_object(), append);
        return {};
    }
    return std::string("a response with none of task, message, statusUpdate, artifactUpdate");
}

// --- the client --------------------------------------------------------------------

AGENTIO_DECL client::client(http::client& http, client_options options)
    : state_(std::make_shared<detail::a2a_client_state>(http, std::move(options)))
{
}

AGENTIO_DECL client_options const& client::options() const noexcept
{
    return state_->options;
}

AGENTIO_DECL asio::awaitable<boost::system::result<remote_card, remote_error>> client::card(bool refresh)
{
    return detail::resolve_card(state_, refresh);
}

AGENTIO_DECL asio::awaitable<boost::system::result<remote_task, remote_error>> client::send(std::string text,
    message_options options, update_handler on_update)
{
    return detail::send_message(state_, std::move(text), std::move(options), std::move(on_update));
}

AGENTIO_DECL asio::awaitable<boost::system::result<remote_task, remote_error>> client::get_task(std::string id,
    std::optional<std::size_t> history_length)
{
    json::object params{{"id", std::move(id)}};
    if(history_length)
        params["historyLength"] = *history_length;
    return detail::task_call(state_, "GetTask", std::move(params));
}

AGENTIO_DECL asio::awaitable<boost::system::result<remote_task, remote_error>> client::cancel_task(std::string id)
{
    return detail::task_call(state_, "CancelTask", json::object{{"id", std::move(id)}});
}

// --- as a tool ---------------------------------------------------------------------

AGENTIO_DECL dynamic_tools::definition agent_tool(client remote, std::string name, std::string description,
    bool requires_approval)
{
    dynamic_tools::definition def;
    def.name = name;
    def.description = std::move(description);
    def.input_schema = json::object{{"type", "object"},
        {"properties",
            json::object{{"message",
                             json::object{{"type", "string"}, {"minLength", 1},
                                 {"description", "What to ask or tell the agent, in words"}}},
                {"contextId",
                    json::object{{"type", "string"},
                        {"description",
                            "Go on with an earlier conversation with this agent (the contextId a call "
                            "returned); leave out to start one"}}}}},
        {"required", json::array{"message"}}, {"additionalProperties", false}};
    def.requires_approval = requires_approval;
    def.handler = [remote = std::move(remote), name = std::move(name)](json::value const& arguments,
                      tool_context& ctx) {
        return detail::call_agent(remote, name, arguments, std::string(ctx.traceparent));
    };
    return def;
}

// --- as a model ----------------------------------------------------------------------

AGENTIO_DECL remote_model::remote_model(client remote, remote_model_options options)
    : remote_(std::move(remote))
    , options_(std::move(options))
{
}

namespace detail {

// A remote call or result in a status message, as the activity line a Chat Completions client shows.
inline std::string activity_line(json::array const& data)
{
    std::string out;
    for(auto const& d : data)
    {
        auto const* o = d.if_object();
        if(!o)
            continue;
        if(auto const* call = o->if_contains("toolCall"); call && call->is_object())
        {
            auto const& c = call->get_object();
            std::string arguments = c.contains("arguments") ? to_json_text(c.at("arguments")) : std::string("{}");
            if(arguments.size() > 200)
                arguments = arguments.substr(0, 197) + "...";
            out += "→ " + text_member(c, "name") + "(" + arguments + ")\n";
        }
    }
    return out;
}

inline asio::awaitable<void> complete_remotely(client remote, remote_model_options const& options,
    chat_completions::request r, std::string traceparent, chat_completions::output_sink sink)
{
    namespace cc = chat_completions;
    std::size_t last_user = r.messages.size();
    for(std::size_t i = r.messages.size(); i-- > 0;)
        if(r.messages[i].role == llm::role::user)
        {
            last_user = i;
            break;
        }
    if(last_user == r.messages.size())
    {
        sink(cc::failed{
            cc::api_error{400, "A remote agent answers a user message: the request has none", {}, "messages", {}}});
        co_return;
    }
    message_options o;
    o.traceparent = std::move(traceparent); // the remote agent's spans join the request's trace
    if(last_user > 0)
    {
        std::string transcript = options.transcript_heading + "\n";
        for(std::size_t i = 0; i < last_user; ++i)
        {
            auto const text = r.messages[i].text();
            if(text.empty())
                continue;
            transcript += std::string(r.messages[i].role == llm::role::user ? "user" : "assistant") + ": " + text +
                "\n";
        }
        o.parts.push_back(json::object{{"text", std::move(transcript)}});
    }
    std::string question = r.messages[last_user].text();
    std::string sent; // the answer as streamed so far
    auto on_update = [&sink, &sent](remote_task const& task, json::object const& response) {
        if(response.contains("statusUpdate") && task.state() == task_state::working)
        {
            auto line = activity_line(task.status_data());
            if(!line.empty())
                sink(cc::reasoning_delta{std::move(line), true});
        }
        auto text = task.text();
        // The last chunk repeats the answer whole: only what is new goes out.
        if(text.size() > sent.size() && text.starts_with(sent))
        {
            sink(cc::content_delta{text.substr(sent.size())});
            sent = std::move(text);
        }
    };
    // The question goes after the transcript: the message's text first, then its parts.
    o.parts.push_back(json::object{{"text", std::move(question)}});
    std::string no_text;
    update_handler forward = on_update;
    auto task = co_await remote.send(std::move(no_text), std::move(o), std::move(forward));
    if(!task)
    {
        if(task.error().kind == remote_failure::cancelled)
            co_return;
        sink(cc::failed{cc::api_error{502, task.error().message, "server_error", {}, "remote_agent_error"}});
        co_return;
    }
    if(task->state() != task_state::completed)
    {
        sink(cc::failed{
            cc::api_error{502, not_completed(options.card.id, *task), "server_error", {}, "remote_agent_error"}});
        co_return;
    }
    auto const text = task->text();
    if(text.size() > sent.size() && text.starts_with(sent))
        sink(cc::content_delta{text.substr(sent.size())});
    sink(cc::finished{cc::finish_reason::stop, {}});
}

} // namespace detail

AGENTIO_DECL asio::awaitable<void> remote_model::complete(chat_completions::request r,
    chat_completions::call_context const& ctx, chat_completions::output_sink sink)
{
    return detail::complete_remotely(remote_, options_, std::move(r), std::string(ctx.traceparent()), std::move(sink));
}

} // namespace agentio::a2a

#endif
