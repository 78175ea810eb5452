//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_CHAT_COMPLETIONS_IMPL_ENDPOINT_IPP
#define AGENTIO_CHAT_COMPLETIONS_IMPL_ENDPOINT_IPP

#include <agentio/chat_completions/endpoint.hpp>
#include <agentio/chat_completions/serving.hpp>
#include <agentio/http/json_response.hpp>
#include <agentio/json_text.hpp>
#include <agentio/llm/message_json.hpp>
#include <agentio/sse/relay.hpp>
#include <agentio/text.hpp>
#include <agentio/threads/turn.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/json/parse.hpp>
#include <boost/url/parse.hpp>

#include <openssl/rand.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <stdexcept>

namespace agentio::chat_completions {

namespace detail {

using serving::completion_id;
using serving::unix_now;
using serving::usage_json;
using serving::answer;
using serving::error_response;
using serving::is_cancellation;
using serving::run_until_stopped;
using serving::run_watching;
using serving::valid_session_id;
using serving::request_traceparent;
using serving::memory_window;

inline json::object card_json(model_card const& c)
{
    json::object o{{"id", c.id}, {"object", "model"}, {"created", c.created}, {"owned_by", c.owned_by}};
    for(auto const& [k, v] : c.extra)
        o[k] = v;
    return o;
}
} // namespace detail

AGENTIO_DECL authenticator key_authenticator(http::api_keys keys, std::string header, std::string message)
{
    return
        [keys = std::move(keys), header = std::move(header),
            message = std::move(message)](http::request const& req) -> boost::system::result<std::string, api_error> {
            auto owner = keys.owner_of(req, header);
            if(!owner)
                return api_error{401, message, "authentication_error", {}, "invalid_api_key"};
            return std::move(*owner);
        };
}

AGENTIO_DECL endpoint::endpoint(endpoint_options options) : options_(std::move(options)) {}

AGENTIO_DECL void endpoint::add(std::shared_ptr<model> m)
{
    if(!m || m->card().id.empty())
        throw std::invalid_argument("a model needs an id");
    if(find(m->card().id))
        throw std::invalid_argument("a model is already named '" + m->card().id + "'");
    models_.push_back(std::move(m));
}

AGENTIO_DECL std::shared_ptr<model> endpoint::find(std::string_view id) const noexcept
{
    for(auto const& m : models_)
        if(m->card().id == id)
            return m;
    return nullptr;
}

AGENTIO_DECL json::object endpoint::list() const
{
    json::array data;
    for(auto const& m : models_)
        data.push_back(detail::card_json(m->card()));
    return json::object{{"object", "list"}, {"data", std::move(data)}};
}

namespace detail {

// --- the caller's sessions (session_options::routes) -------------------------

inline std::int64_t unix_seconds(threads::timestamp at)
{
    return std::chrono::duration_cast<std::chrono::seconds>(at.time_since_epoch()).count();
}

inline json::object session_json(threads::thread_info const& t)
{
    return json::object{{"id", t.id}, {"object", "session"}, {"model", t.agent}, {"title", t.title},
        {"created_at", unix_seconds(t.created_at)}, {"updated_at", unix_seconds(t.updated_at)},
        {"metadata", t.metadata}};
}

// A stored message in Chat Completions' shapes: a user's text (with its
// images as content parts), an assistant's text and tool calls, and each
// tool result as a `tool` message.
inline void append_chat_messages(json::array& out, threads::item const& item)
{
    auto const& m = item.message;
    auto const at = unix_seconds(item.created_at);
    json::array parts;
    json::array calls;
    bool images = false;
    for(auto const& block : m.content)
    {
        if(auto const* said = std::get_if<llm::text_block>(&block))
            parts.push_back(json::object{{"type", "text"}, {"text", said->text}});
        else if(auto const* i = std::get_if<llm::image_block>(&block))
        {
            images = true;
            parts.push_back(json::object{{"type", "image_url"},
                {"image_url", json::object{{"url", "data:" + i->media_type + ";base64," + i->base64_data}}}});
        }
        else if(auto const* u = std::get_if<llm::tool_use_block>(&block))
            calls.push_back(json::object{{"id", u->id}, {"type", "function"},
                {"function",
                    json::object{{"name", u->name},
                        {"arguments", u->raw_input.empty() ? agentio::to_json_text(u->input) : u->raw_input}}}});
        else if(auto const* r = std::get_if<llm::tool_result_block>(&block))
        {
            std::string text;
            for(auto const& c : r->content)
                if(auto const* t = std::get_if<llm::text_block>(&c))
                    text += t->text;
            out.push_back(json::object{{"seq", item.seq}, {"role", "tool"}, {"tool_call_id", r->tool_use_id},
                {"content", std::move(text)}, {"created_at", at}});
        }
    }
    if(parts.empty() && calls.empty())
        return; // only tool results (above), or only reasoning
    json::object o{{"seq", item.seq}, {"role", m.role == llm::role::user ? "user" : "assistant"}};
    if(images)
        o["content"] = std::move(parts);
    else
        o["content"] = m.text();
    if(!calls.empty())
        o["tool_calls"] = std::move(calls);
    o["created_at"] = at;
    out.push_back(std::move(o));
}

// `limit` of a query: a whole number from 1 to `max`, or the error naming it.
inline boost::system::result<std::size_t, api_error> query_limit(std::string_view value, std::size_t max)
{
    std::size_t n = 0;
    auto const [end, err] = std::from_chars(value.data(), value.data() + value.size(), n);
    using result_type = boost::system::result<std::size_t, api_error>;
    if(err != std::errc() || end != value.data() + value.size() || n < 1 || n > max)
        return result_type(boost::system::in_place_error,
            api_error{400,
                "Invalid value for 'limit': '" + std::string(value) + "'. Expected a whole number from 1 to " +
                    std::to_string(max) + ".",
                "invalid_request_error", "limit", "invalid_value"});
    return result_type(boost::system::in_place_value, n);
}

inline api_error no_such_session(std::string_view id)
{
    return api_error{404, "The session '" + std::string(id) + "' does not exist.", "invalid_request_error", "id",
        "session_not_found"};
}

inline api_error store_failed(threads::error const& e)
{
    return api_error{500, "The session store failed: " + e.message, "server_error", {}, {}};
}

// GET {base}/sessions?limit=&after=: the caller's sessions, most recently updated first.
inline asio::awaitable<beast::http::message_generator> list_sessions(endpoint const& api, http::request req)
{
    auto const& options = api.options();
    auto who = serving::who_asks(options.authenticate, req);
    if(!who)
        co_return error_response(who.error(), req);
    std::string user = std::move(*who);
    threads::thread_listing which;
    which.limit = 20;
    auto const url = boost::urls::parse_origin_form(req.target());
    if(!url)
        co_return error_response({400, "The request target is malformed.", "invalid_request_error", {}, {}}, req);
    for(auto const& p : url->params())
    {
        if(p.key == "after")
            which.after = p.value;
        else if(p.key == "limit")
        {
            auto n = query_limit(p.value, 100);
            if(!n)
                co_return error_response(n.error(), req);
            which.limit = *n;
        }
    }
    auto const store = options.sessions.store->under(request_traceparent(req));
    auto found = co_await store->list_threads(user, which);
    if(!found)
        co_return error_response(store_failed(found.error()), req);
    bool const more = found->size() > which.limit;
    if(more)
        found->resize(which.limit);
    json::array data;
    for(auto const& t : *found)
        data.push_back(session_json(t));
    json::object const body{{"object", "list"}, {"data", std::move(data)},
        {"first_id", found->empty() ? json::value(nullptr) : json::value(found->front().id)},
        {"last_id", found->empty() ? json::value(nullptr) : json::value(found->back().id)}, {"has_more", more}};
    co_return http::json_response(beast::http::status::ok, body, req);
}

// GET {base}/sessions/{id}?limit=: the session and its latest messages, oldest first.
inline asio::awaitable<beast::http::message_generator> read_session(endpoint const& api, http::request req,
    std::string id)
{
    auto const& options = api.options();
    auto who = serving::who_asks(options.authenticate, req);
    if(!who)
        co_return error_response(who.error(), req);
    std::string user = std::move(*who);
    std::size_t limit = 100;
    auto const url = boost::urls::parse_origin_form(req.target());
    if(!url)
        co_return error_response({400, "The request target is malformed.", "invalid_request_error", {}, {}}, req);
    for(auto const& p : url->params())
        if(p.key == "limit")
        {
            auto n = query_limit(p.value, 1000);
            if(!n)
                co_return error_response(n.error(), req);
            limit = *n;
        }
    if(!valid_session_id(id))
        co_return error_response(no_such_session(id), req);
    auto const traced = options.sessions.store->under(request_traceparent(req));
    auto& store = *traced;
    auto found = co_await store.find_thread(id, user);
    if(!found)
        co_return error_response(store_failed(found.error()), req);
    if(!*found)
        co_return error_response(no_such_session(id), req); // another user's too
    auto items = co_await store.load_items(id);
    if(!items)
        co_return error_response(store_failed(items.error()), req);
    std::size_t const first = items->size() > limit ? items->size() - limit : 0;
    json::array messages;
    for(std::size_t i = first; i < items->size(); ++i)
        append_chat_messages(messages, (*items)[i]);
    auto body = session_json(**found);
    body["messages"] = std::move(messages);
    body["has_more"] = first > 0; // older messages than these
    co_return http::json_response(beast::http::status::ok, body, req);
}

// DELETE {base}/sessions/{id}: the session, its messages and runs.
inline asio::awaitable<beast::http::message_generator> delete_session(endpoint const& api, http::request req,
    std::string id)
{
    auto const& options = api.options();
    auto who = serving::who_asks(options.authenticate, req);
    if(!who)
        co_return error_response(who.error(), req);
    std::string user = std::move(*who);
    if(!valid_session_id(id))
        co_return error_response(no_such_session(id), req);
    auto const store = options.sessions.store->under(request_traceparent(req));
    auto deleted = co_await store->delete_thread(id, user);
    if(!deleted)
        co_return error_response(store_failed(deleted.error()), req);
    if(!*deleted)
        co_return error_response(no_such_session(id), req);
    json::object const body{{"id", id}, {"object", "session.deleted"}, {"deleted", true}};
    co_return http::json_response(beast::http::status::ok, body, req);
}

} // namespace detail

AGENTIO_DECL void endpoint::add_routes(http::router<>& routes) const
{
    routes.post(options_.base_path + "/chat/completions",
        [this](http::request&& req, http::route_params const&, http::any_stream& stream) {
            return chat(std::move(req), stream);
        });
    routes.get(options_.base_path + "/models",
        [this](http::request&& req, http::route_params const&) -> asio::awaitable<beast::http::message_generator> {
            if(options_.authenticate)
                if(auto user = options_.authenticate(req); !user)
                    co_return detail::error_response(user.error(), req);
            co_return http::json_response(beast::http::status::ok, list(), req);
        });
    routes.get(options_.base_path + "/models/{id}",
        [this](http::request&& req,
            http::route_params const& params) -> asio::awaitable<beast::http::message_generator> {
            if(options_.authenticate)
                if(auto user = options_.authenticate(req); !user)
                    co_return detail::error_response(user.error(), req);
            auto const m = find(params["id"]);
            if(!m)
                co_return detail::error_response({404, "The model '" + std::string(params["id"]) + "' does not exist.",
                                                     "invalid_request_error", "model", "model_not_found"},
                    req);
            co_return http::json_response(beast::http::status::ok, detail::card_json(m->card()), req);
        });
    if(!options_.sessions.routes || !options_.sessions.store)
        return;
    auto const sessions = options_.base_path + "/sessions";
    routes.get(sessions, [this](http::request&& req, http::route_params const&) {
        return detail::list_sessions(*this, std::move(req));
    });
    routes.get(sessions + "/{id}", [this](http::request&& req, http::route_params const& p) {
        return detail::read_session(*this, std::move(req), std::string(p["id"]));
    });
    routes.route(beast::http::verb::delete_, sessions + "/{id}",
        [this](http::request&& req, http::route_params const& p) {
            return detail::delete_session(*this, std::move(req), std::string(p["id"]));
        });
}

namespace detail {

// A request's session: its id, the turn that holds it, and the messages to
// store with the answer.
struct session_state
{
    std::string id;
    threads::turn turn;
    std::vector<llm::message> fresh;
    /// The history's index of the request's first message.
    std::size_t start = 0;
    /// The session's summary, as the request's messages see it.
    std::optional<llm::conversation_summary> summary = {};
    /// A summary the model wrote, as the request's messages see it.
    std::optional<llm::conversation_summary> compacted = {};
};

// Finds or creates the session the request names, and attaches its memory.
inline asio::awaitable<boost::system::result<std::optional<session_state>, api_error>>
open_session(session_options const& options, request& r, http::request const& req, std::string const& user)
{
    using result_type = boost::system::result<std::optional<session_state>, api_error>;
    if(!options.store)
        co_return result_type(std::nullopt);
    std::string id;
    if(auto const* field = r.extra.if_contains(options.field); field && !field->is_null())
    {
        if(!field->is_string())
            co_return result_type(invalid_request("Invalid type for '" + options.field + "': expected a string.",
                options.field, "invalid_type"));
        id = std::string(field->get_string());
    }
    else if(auto const header = req.find(options.header); header != req.end())
        id = std::string(header->value());
    if(id.empty() && !options.start_unnamed)
        co_return result_type(std::nullopt);
    if(!id.empty() && !valid_session_id(id))
        co_return result_type(invalid_request(
            "Invalid '" + options.field + "': use 1 to 128 letters, digits and the characters - _ . :", options.field,
            "invalid_value"));
    threads::turn_request wanted;
    wanted.thread_id = id; // empty: a new session, its id a random UUID
    wanted.owner = user;
    wanted.agent = r.model;
    for(auto m = r.messages.rbegin(); m != r.messages.rend() && wanted.title.empty(); ++m)
        if(m->role == llm::role::user)
            wanted.title = threads::make_title(m->text()); // what a list of sessions shows
    wanted.when_busy = options.when_busy;
    wanted.traceparent = request_traceparent(req);
    if(auto const* field = r.extra.if_contains(options.busy_field); field && !field->is_null())
    {
        auto const policy = field->is_string() ? threads::parse_busy_policy(field->get_string()) : std::nullopt;
        if(!policy)
            co_return result_type(invalid_request("Invalid '" + options.busy_field +
                    "': expected 'reject', 'enqueue' or 'interrupt'.",
                options.busy_field, "invalid_value"));
        wanted.when_busy = *policy;
    }
    auto begun = co_await threads::begin_turn(*options.store, std::move(wanted));
    if(!begun)
    {
        auto const& e = begun.error();
        // Another user's session is not found, as if it did not exist.
        if(e.code == threads::errc::not_found)
            co_return result_type(api_error{404, "The session '" + id + "' does not exist.", "invalid_request_error",
                options.field, "session_not_found"});
        if(e.code == threads::errc::thread_busy)
            co_return result_type(api_error{409,
                "The session '" + id +
                    "' is answering another message; send this one when that answer ends, or with \"" +
                    options.busy_field + "\": \"enqueue\" or \"interrupt\".",
                "invalid_request_error", options.field, "session_busy"});
        co_return result_type(api_error{500, "The session store failed: " + e.message, "server_error", {}, {}});
    }
    id = begun->thread().id;
    session_state state{id, std::move(*begun), r.messages};
    if(options.memory)
    {
        // A summary stands for the session's older messages: the window begins after them.
        auto const summary = state.turn.summary();
        std::size_t const summarized = summary ? summary->covers : 0;
        auto* items = &state.turn.history();
        // A client that sends the whole conversation again: only its tail is new.
        std::size_t const all = items->size();
        bool repeated = !items->empty() && r.messages.size() > all;
        for(std::size_t i = 0; i < all && repeated; ++i)
            repeated = llm::to_json((*items)[i].message) == llm::to_json(r.messages[i]);
        if(repeated)
        {
            state.fresh.assign(r.messages.begin() + static_cast<std::ptrdiff_t>(all), r.messages.end());
            state.summary = summary;
        }
        else
        {
            auto stored = memory_window(*items, options.max_messages, summarized, state.start);
            stored.insert(stored.end(), r.messages.begin(), r.messages.end());
            r.messages = std::move(stored);
            if(summary)
                state.summary = llm::conversation_summary{summary->text, 0};
        }
    }
    co_return result_type(std::move(state));
}

// Stores the request's new messages and the answer in the session (nothing
// when the answer failed), and ends the turn.
inline asio::awaitable<std::optional<std::string>> store_answer(session_state& session, answer const& written)
{
    bool const failed = written.outcome() == "error" || written.outcome().empty();
    if(session.compacted)
    {
        // Kept beside the messages; should that fail, the next request summarizes again.
        llm::conversation_summary const absolute{session.compacted->text, session.start + session.compacted->covers};
        (void)co_await session.turn.save_summary(absolute);
    }
    if(!failed)
        session.fresh.push_back(written.assistant_message());
    std::span<llm::message const> const kept = failed ? std::span<llm::message const>() : session.fresh;
    auto stored = co_await session.turn.finish(kept,
        failed ? threads::run_status::failed : threads::run_status::completed);
    if(!stored)
        co_return stored.error().message;
    co_return std::nullopt;
}

// The body of endpoint::chat, inline so that its lambdas have linkage (they
// are members of the coroutine's frame).
inline asio::awaitable<std::optional<beast::http::message_generator>> serve_chat(endpoint const& api,
    http::request&& req, http::any_stream& stream)
{
    auto const& options = api.options();
    auto const started = std::chrono::steady_clock::now();
    call_context ctx{{}, {}, &req};
    auto who = serving::who_asks(options.authenticate, req);
    if(!who)
        co_return detail::error_response(who.error(), req);
    ctx.user = std::move(*who);
    auto parsed = parse_request(req.body(), options.limits);
    if(!parsed)
        co_return detail::error_response(parsed.error(), req);
    auto const m = api.find(parsed->model);
    if(!m)
    {
        std::string names;
        for(auto const& known : api.models())
            names.append(names.empty() ? "" : ", ").append(known->card().id);
        co_return detail::error_response(
            {404, "The model '" + parsed->model + "' does not exist. Available models: " + names + ".",
                "invalid_request_error", "model", "model_not_found"},
            req);
    }

    auto session = co_await open_session(options.sessions, *parsed, req, ctx.user);
    if(!session)
        co_return detail::error_response(session.error(), req);

    auto written = std::make_shared<detail::answer>(*parsed);
    written->hold_done(session->has_value());
    completion_record record{parsed->model, ctx.user, parsed->stream, {}, {}, {}, {}, {}};
    if(*session)
    {
        record.session = (*session)->id;
        ctx.session = (*session)->id;
        ctx.summary = (*session)->summary;
        ctx.compacted = &(*session)->compacted;
    }
    auto report = [&](bool cancelled) {
        if(!options.on_complete)
            return;
        record.outcome = cancelled ? "cancelled" : written->outcome();
        if(written->error())
            record.error = written->error()->message;
        record.usage = written->usage();
        record.duration = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() -
            started);
        options.on_complete(record);
    };
    // A model that returns without an end failed; say so rather than leave the client waiting.
    auto unfinished = [] {
        return failed{api_error{500, "The model ended its answer without finishing it.", "server_error", {}, {}}};
    };

    auto const ex = co_await asio::this_coro::executor;
    // A stop sequence ends the answer: the sink cancels this timer, which stops the run.
    asio::steady_timer stop(ex, std::chrono::steady_clock::time_point::max());
    // So does a message that interrupts this one: the answer ends with what it had said.
    bool interrupted = false;
    struct interruption
    {
        asio::cancellation_slot slot;
        ~interruption()
        {
            if(slot.is_connected())
                slot.clear();
        }
    } interrupt_here;
    if(*session)
    {
        interrupt_here.slot = (*session)->turn.interruption_slot(ex);
        interrupt_here.slot.assign([&stop, &interrupted](asio::cancellation_type) {
            interrupted = true;
            stop.cancel();
        });
    }
    auto const end_of_answer = [&interrupted, &unfinished]() -> output {
        if(interrupted)
            return finished{finish_reason::stop, {}};
        return unfinished();
    };
    auto const internal_error = [] {
        return failed{api_error{500, "The model failed with an internal error.", "server_error", {}, {}}};
    };

    if(!parsed->stream)
    {
        output_sink sink = [written, &stop](output o) {
            bool const was_ended = written->ended();
            written->take(std::move(o), nullptr);
            if(!was_ended && written->stopped_by_sequence())
                stop.cancel();
        };
        auto task = m->complete(std::move(*parsed), ctx, std::move(sink));
        auto work = [&]() -> asio::awaitable<void> {
            auto const e = co_await detail::run_until_stopped(task, stop);
            if(e && detail::is_cancellation(e))
                std::rethrow_exception(e);
            if(e)
                written->take(internal_error(), nullptr);
        };
        auto watched = work();
        bool const completed = co_await detail::run_watching(stream, std::move(watched));
        if(!completed)
        {
            if(*session)
                (void)co_await (*session)->turn.finish({}, threads::run_status::cancelled);
            report(true);
            stream.close();
            co_return std::nullopt; // nobody to answer
        }
        if(!written->ended())
            written->take(end_of_answer(), nullptr);
        if(*session)
            if(auto failure = co_await store_answer(**session, *written))
                record.error = "the session was not stored: " + *failure;
        report(false);
        auto res = written->error() ? http::json_response(static_cast<beast::http::status>(written->error()->status),
                                          to_json(*written->error()), req)
                                    : http::json_response(beast::http::status::ok, written->completion(), req);
        if(*session)
            res.set(options.sessions.header, (*session)->id); // a session the server started is named here
        co_return res;
    }

    bool cancelled = false;
    auto produce = [&](sse::event_sink send) -> asio::awaitable<void> {
        output_sink sink = [written, &stop, send](output o) {
            bool const was_ended = written->ended();
            std::vector<std::string> lines;
            written->take(std::move(o), &lines);
            for(auto& line : lines)
                send(sse::relayed_event{{}, std::move(line)});
            if(!was_ended && written->stopped_by_sequence())
                stop.cancel();
        };
        auto task = m->complete(std::move(*parsed), ctx, sink);
        auto const e = co_await detail::run_until_stopped(task, stop);
        auto const state = co_await asio::this_coro::cancellation_state;
        if(state.cancelled() != asio::cancellation_type::none || (e && detail::is_cancellation(e)))
        {
            cancelled = true; // the client left: nobody reads what would follow
            co_return;
        }
        if(e)
            sink(internal_error());
        if(!written->ended())
            sink(end_of_answer());
        if(*session)
        {
            // Stored before [DONE]: the client's next message finds it.
            if(auto failure = co_await store_answer(**session, *written))
                record.error = "the session was not stored: " + *failure;
            if(written->outcome() != "error")
                send(sse::relayed_event{{}, "[DONE]"});
        }
    };
    beast::http::fields head;
    if(*session)
        head.set(options.sessions.header, (*session)->id);
    co_await sse::relay(stream, req.version(), produce, head);
    if(*session && !(*session)->turn.finished()) // the client left, or the answer did not end
        (void)co_await (*session)->turn.finish({},
            cancelled ? threads::run_status::cancelled : threads::run_status::failed);
    report(cancelled);
    co_return std::nullopt;
}

} // namespace detail

AGENTIO_DECL asio::awaitable<std::optional<beast::http::message_generator>> endpoint::chat(http::request&& req,
    http::any_stream& stream) const
{
    return detail::serve_chat(*this, std::move(req), stream);
}

} // namespace agentio::chat_completions

#endif
