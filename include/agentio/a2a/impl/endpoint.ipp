//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_A2A_IMPL_ENDPOINT_IPP
#define AGENTIO_A2A_IMPL_ENDPOINT_IPP

#include <agentio/a2a/endpoint.hpp>
#include <agentio/chat_completions/serving.hpp>
#include <agentio/http/json_response.hpp>
#include <agentio/json_text.hpp>
#include <agentio/sse/writer.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/json/parse.hpp>
#include <boost/uuid/random_generator.hpp>
#include <boost/uuid/uuid_io.hpp>

#include <algorithm>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <utility>

namespace agentio::a2a {

namespace detail {

namespace cc = chat_completions;

// The tasks this process started, by user, newest last: what ListTasks lists.
class task_index
{
public:
    struct entry
    {
        std::string task_id;
        std::string context_id;
    };

    void add(std::string const& user, entry e)
    {
        std::lock_guard lock(mutex_);
        auto& list = by_user_[user];
        list.push_back(std::move(e));
        if(list.size() > max_per_user)
            list.pop_front();
    }

    std::vector<entry> of(std::string const& user) const
    {
        std::lock_guard lock(mutex_);
        auto const it = by_user_.find(user);
        if(it == by_user_.end())
            return {};
        return {it->second.rbegin(), it->second.rend()};
    }

    static constexpr std::size_t max_per_user = 1000;

private:
    mutable std::mutex mutex_;
    std::map<std::string, std::deque<entry>, std::less<>> by_user_;
};

inline std::string new_id()
{
    return boost::uuids::to_string(boost::uuids::random_generator()());
}

// The id of a task's n-th run (from 1): the task's own id, then "<task>.<n>".
inline std::string run_of(std::string const& task_id, std::size_t n)
{
    return n == 1 ? task_id : task_id + "." + std::to_string(n);
}

// An AG-UI event of the journal, read into the view: the question a run of the task asked joins its history.
inline void fold(task_view& view, threads::event_record const& e, std::vector<json::object>& out, bool with_question)
{
    boost::system::error_code ec;
    auto v = json::parse(e.data, ec);
    if(ec || !v.is_object())
        return;
    auto const& event = v.get_object();
    if(with_question && e.type == "RUN_STARTED")
        if(auto const* meta = event.if_contains("metadata"); meta && meta->is_object())
            if(auto const* mine = meta->get_object().if_contains("agentio"); mine && mine->is_object())
                if(auto const* a2a = mine->get_object().if_contains("a2a"); a2a && a2a->is_object())
                    if(auto const* message = a2a->get_object().if_contains("message"); message && message->is_object())
                        view.asked(message->get_object());
    view.take(event, out);
}

// A task as its runs' journal tells it.
struct loaded_task
{
    task_view view;
    std::size_t runs = 0;
    std::string last_run;
    std::int64_t last_event = 0;
    bool last_over = true;
};

inline asio::awaitable<boost::system::result<std::optional<loaded_task>, std::string>>
load_task(ag_ui::endpoint const& runs, std::string const& task_id, std::string const& user)
{
    using result_type = boost::system::result<std::optional<loaded_task>, std::string>;
    std::optional<loaded_task> task;
    for(std::size_t n = 1;; ++n)
    {
        auto const run_id = run_of(task_id, n);
        auto snap = co_await runs.find(run_id, user);
        if(!snap)
            co_return result_type(boost::system::in_place_error, snap.error());
        if(!*snap)
            break;
        if(!task)
            task.emplace(loaded_task{task_view(task_id, (*snap)->thread_id), 0, {}, 0, true});
        std::vector<json::object> ignored;
        task->last_event = 0;
        for(auto const& e : (*snap)->events)
        {
            fold(task->view, e, ignored, true);
            ignored.clear();
            if(e.id > 0)
                task->last_event = e.id;
        }
        task->runs = n;
        task->last_run = run_id;
        task->last_over = (*snap)->over;
        if(!(*snap)->over)
            break; // a later run cannot have begun
    }
    co_return result_type(std::move(task));
}

inline beast::http::message_generator rpc_answer(http::request const& req, json::object const& body)
{
    return http::json_response(beast::http::status::ok, body, req);
}

// A refusal of the runs' engine (an AG-UI RUN_ERROR) as A2A's error.
inline rpc_error from_run_error(json::object const& e, std::string_view context_id)
{
    auto const text = [&](std::string_view key) {
        auto const* v = e.if_contains(key);
        return v && v->is_string() ? std::string(v->get_string()) : std::string();
    };
    auto const code = text("code");
    auto const message = text("message");
    if(code == "invalid_input")
    {
        std::string field = "message";
        if(auto const* meta = e.if_contains("metadata"); meta && meta->is_object())
            if(auto const* mine = meta->get_object().if_contains("agentio"); mine && mine->is_object())
                if(auto const* f = mine->get_object().if_contains("field"); f && f->is_string())
                    field = std::string(f->get_string());
        auto const colon = message.find(": ");
        return invalid_params(field, colon == std::string::npos ? message : message.substr(colon + 2));
    }
    if(code == "thread_not_found")
        return invalid_params("message.contextId", "no context '" + std::string(context_id) + "' of yours");
    if(code == "thread_busy")
        return unsupported_operation("The context '" + std::string(context_id) +
            "' is answering another task; send this message when that task ends.");
    return rpc_error{error_code::internal_error, message.empty() ? std::string("The task could not start.") : message,
        {}};
}

struct rpc_call
{
    ag_ui::endpoint const& runs;
    endpoint_options const& options;
    task_index& tasks;
    std::string user;
    json::value id;
    http::request const& req;
    http::any_stream& stream;
};

// Where a stream's results go (false: the client has gone), and what writes them.
using results_sink = std::function<asio::awaitable<bool>(json::object)>;
using results_source = std::function<asio::awaitable<void>(results_sink const&)>;

// Writes a stream of JSON-RPC results: the first, then whatever `more` gives, until it ends.
inline asio::awaitable<void> stream_results(rpc_call& call, json::object first, results_source more)
{
    sse::basic_writer<http::any_stream> out(call.stream);
    if(auto ec = co_await out.start(call.req.version()))
    {
        co_await out.finish();
        co_return;
    }
    results_sink const send = [&](json::object result) -> asio::awaitable<bool> {
        std::string const frame = to_json_text(result_response(call.id, std::move(result))); // named: GCC 12
        auto const failed = co_await out.send("", frame);
        co_return !failed;
    };
    if(co_await send(std::move(first)))
    {
        try
        {
            auto const ex = co_await asio::this_coro::executor;
            co_await asio::co_spawn(ex, more(send),
                asio::bind_cancellation_slot(out.disconnect_slot(), asio::use_awaitable));
        }
        catch(boost::system::system_error const&)
        {
        }
    }
    co_await out.finish();
}

// Follows a run of a task from `after`, its events folded into the view; each response to `emit` (none: kept).
inline asio::awaitable<void> follow_task(rpc_call& call, task_view& view, std::string const& run_id, std::int64_t after,
    results_sink const* emit)
{
    std::function<asio::awaitable<bool>(threads::event_record const&)> on_event =
        [&view, emit](threads::event_record const& e) -> asio::awaitable<bool> {
        std::vector<json::object> out;
        fold(view, e, out, false);
        if(emit)
            for(auto& r : out)
                if(!co_await (*emit)(std::move(r)))
                    co_return false;
        co_return true;
    };
    co_await call.runs.follow(run_id, call.user, after, std::move(on_event));
}

inline std::optional<std::size_t> history_length(json::object const& params, std::optional<rpc_error>& bad)
{
    auto const* n = params.if_contains("historyLength");
    if(!n || n->is_null())
        return std::nullopt;
    auto const* count = n->if_int64();
    if(!count || *count < 0)
    {
        bad = invalid_params("historyLength", "expected a whole number, 0 or more");
        return std::nullopt;
    }
    return static_cast<std::size_t>(*count);
}

inline std::optional<std::string> task_id_of(json::object const& params, std::optional<rpc_error>& bad)
{
    auto const* id = params.if_contains("id");
    if(!id || !id->is_string() || id->get_string().empty())
    {
        bad = invalid_params("id", "the task's id is required");
        return std::nullopt;
    }
    return std::string(id->get_string());
}

inline asio::awaitable<std::optional<beast::http::message_generator>> send_message(rpc_call& call,
    json::object const& params, bool streaming)
{
    auto const fail = [&](rpc_error const& e) { return rpc_answer(call.req, error_response(call.id, e)); };
    auto parsed = parse_send_params(params);
    if(!parsed)
        co_return fail(parsed.error());
    auto& p = *parsed;

    ag_ui::run_request r;
    r.user = call.user;
    r.agent = call.options.agent;
    r.decision_field = "message.parts.data.decisions[{i}].toolCallId";
    r.decisions_field = "message";
    r.cancel_when_unfollowed = false;
    std::optional<loaded_task> task;
    if(!p.task_id.empty())
    {
        // The next message of a task: it answers the task's question (its approvals).
        auto loaded = co_await load_task(call.runs, p.task_id, call.user);
        if(!loaded)
            co_return fail({error_code::internal_error, "The thread store failed: " + loaded.error(), {}});
        if(!*loaded)
            co_return fail(task_not_found(p.task_id));
        task = std::move(**loaded);
        if(!p.context_id.empty() && p.context_id != task->view.context_id())
            co_return fail(invalid_params("message.contextId",
                "the task '" + p.task_id + "' is of the context '" + task->view.context_id() + "'"));
        auto const state = task->view.state();
        if(is_terminal(state))
            co_return fail(unsupported_operation("The task '" + p.task_id + "' is " + std::string(to_string(state)) +
                ": send the message without taskId, as a new task of its context."));
        if(state != task_state::input_required || !task->last_over)
            co_return fail(unsupported_operation("The task '" + p.task_id +
                "' is working: follow it with SubscribeToTask, and answer when it asks for input."));
        r.request.decisions = std::move(p.decisions);
        if(r.request.decisions.empty())
        {
            // Words instead of decisions: each call waiting is rejected, the words its reason for the model.
            auto const reason = p.content.text();
            for(auto const& waiting : task->view.waiting_calls())
                r.request.decisions.push_back({waiting, false, reason});
        }
        p.context_id = task->view.context_id();
        r.run_id = run_of(p.task_id, task->runs + 1);
    }
    else
    {
        if(!p.decisions.empty())
            co_return fail(invalid_params("message.taskId", "decisions answer a task: name it"));
        if(p.content.content.empty())
            co_return fail(invalid_params("message.parts", "the message says nothing (no text or data)"));
        if(!p.context_id.empty() && !cc::serving::valid_session_id(p.context_id))
            co_return fail(invalid_params("message.contextId",
                "use 1 to 128 letters, digits and the characters - _ . :"));
        p.task_id = new_id();
        if(p.context_id.empty())
            p.context_id = new_id();
        task.emplace(loaded_task{task_view(p.task_id, p.context_id), 0, {}, 0, true});
        r.request.messages.push_back(p.content);
        r.run_id = p.task_id;
    }
    r.thread_id = p.context_id;
    auto asked = p.message;
    asked["taskId"] = p.task_id;
    asked["contextId"] = p.context_id;
    r.started_metadata = json::object{{"a2a", json::object{{"taskId", p.task_id}, {"message", asked}}}};
    auto started = co_await call.runs.start(std::move(r), call.req);
    if(!started)
        co_return fail(from_run_error(started.error(), p.context_id));
    if(task->runs == 0)
        call.tasks.add(call.user, {p.task_id, p.context_id});
    auto& view = task->view;
    view.asked(std::move(asked));
    auto const run_id = run_of(p.task_id, task->runs + 1);
    if(!streaming)
    {
        // Blocking unless asked not to: the task as it ends, or as it asks for input.
        if(!p.return_immediately)
            co_await follow_task(call, view, run_id, 0, nullptr);
        co_return rpc_answer(call.req, result_response(call.id, json::object{{"task", view.task(p.history_length)}}));
    }
    auto first = json::object{{"task", view.task(p.history_length)}};
    results_source more = [&](results_sink const& send) -> asio::awaitable<void> {
        co_await follow_task(call, view, run_id, 0, &send);
    };
    co_await stream_results(call, std::move(first), std::move(more));
    co_return std::nullopt;
}

inline asio::awaitable<std::optional<beast::http::message_generator>> get_task(rpc_call& call,
    json::object const& params)
{
    auto const fail = [&](rpc_error const& e) { return rpc_answer(call.req, error_response(call.id, e)); };
    std::optional<rpc_error> bad;
    auto const id = task_id_of(params, bad);
    auto const history = history_length(params, bad);
    if(bad)
        co_return fail(*bad);
    auto loaded = co_await load_task(call.runs, *id, call.user);
    if(!loaded)
        co_return fail({error_code::internal_error, "The thread store failed: " + loaded.error(), {}});
    if(!*loaded)
        co_return fail(task_not_found(*id));
    co_return rpc_answer(call.req, result_response(call.id, (*loaded)->view.task(history)));
}

inline asio::awaitable<std::optional<beast::http::message_generator>> cancel_task(rpc_call& call,
    json::object const& params)
{
    auto const fail = [&](rpc_error const& e) { return rpc_answer(call.req, error_response(call.id, e)); };
    std::optional<rpc_error> bad;
    auto const id = task_id_of(params, bad);
    if(bad)
        co_return fail(*bad);
    auto loaded = co_await load_task(call.runs, *id, call.user);
    if(!loaded)
        co_return fail({error_code::internal_error, "The thread store failed: " + loaded.error(), {}});
    if(!*loaded)
        co_return fail(task_not_found(*id));
    auto& task = **loaded;
    auto const state = task.view.state();
    if(state == task_state::canceled)
        co_return rpc_answer(call.req, result_response(call.id, task.view.task()));
    if(is_terminal(state))
        co_return fail(task_not_cancelable(*id, state));
    std::string run_id = task.last_run;
    std::int64_t after = task.last_event;
    if(task.last_over)
    {
        // It waits for input: a last run answers its calls no and ends cancelled, so its context waits no more.
        ag_ui::run_request r;
        r.user = call.user;
        r.agent = call.options.agent;
        r.thread_id = task.view.context_id();
        r.run_id = run_id = run_of(*id, task.runs + 1);
        for(auto const& waiting : task.view.waiting_calls())
            r.request.decisions.push_back({waiting, false, "the task was canceled"});
        r.cancel_at_once = true;
        r.started_metadata = json::object{{"a2a", json::object{{"taskId", *id}}}};
        auto started = co_await call.runs.start(std::move(r), call.req);
        if(!started)
            co_return fail(from_run_error(started.error(), task.view.context_id()));
        after = 0;
    }
    else
    {
        auto stopped = co_await call.runs.stop(run_id, call.user);
        if(!stopped)
            co_return fail({error_code::internal_error, "The thread store failed: " + stopped.error(), {}});
    }
    // The task as its run ends (in another process sharing the store, at its next lease renewal).
    using namespace asio::experimental::awaitable_operators;
    asio::steady_timer patience(co_await asio::this_coro::executor, call.options.cancel_wait);
    co_await (follow_task(call, task.view, run_id, after, nullptr) ||
        patience.async_wait(asio::as_tuple(asio::use_awaitable)));
    co_return rpc_answer(call.req, result_response(call.id, task.view.task()));
}

inline asio::awaitable<std::optional<beast::http::message_generator>> subscribe(rpc_call& call,
    json::object const& params)
{
    auto const fail = [&](rpc_error const& e) { return rpc_answer(call.req, error_response(call.id, e)); };
    std::optional<rpc_error> bad;
    auto const id = task_id_of(params, bad);
    if(bad)
        co_return fail(*bad);
    auto loaded = co_await load_task(call.runs, *id, call.user);
    if(!loaded)
        co_return fail({error_code::internal_error, "The thread store failed: " + loaded.error(), {}});
    if(!*loaded)
        co_return fail(task_not_found(*id));
    auto task = std::move(**loaded);
    auto const state = task.view.state();
    if(is_terminal(state))
        co_return fail(unsupported_operation("The task '" + *id + "' is " + std::string(to_string(state)) +
            ": there is nothing to follow."));
    auto first = json::object{{"task", task.view.task()}};
    // Waiting for input, the Task says so and the stream ends there, as a task's stream does.
    bool const waits = task.last_over;
    results_source more = [&](results_sink const& send) -> asio::awaitable<void> {
        if(!waits)
            co_await follow_task(call, task.view, task.last_run, task.last_event, &send);
    };
    co_await stream_results(call, std::move(first), std::move(more));
    co_return std::nullopt;
}

// The ids of the user's latest tasks, newest change first: from the store when it can list runs (every process's,
// across restarts: a task's runs are `<task>`, `<task>.2`, ...), else those this process started.
inline asio::awaitable<boost::system::result<std::vector<std::string>, std::string>> recent_tasks(rpc_call& call,
    std::string const& context)
{
    using result_type = boost::system::result<std::vector<std::string>, std::string>;
    std::vector<std::string> ids;
    if(auto* store = call.runs.options().store)
    {
        threads::run_listing which;
        which.thread_id = context;
        which.turns_only = true;
        which.limit = task_index::max_per_user;
        auto const scoped = store->under(cc::serving::request_traceparent(call.req));
        auto runs = co_await scoped->list_runs(call.user, which);
        if(runs)
        {
            if(runs->size() > which.limit)
                runs->pop_back();
            std::set<std::string, std::less<>> listed;
            for(auto const& r : *runs)
                listed.insert(r.id);
            std::set<std::string, std::less<>> seen;
            for(auto const& r : *runs)
            {
                std::string task = r.id;
                // `<task>.<n>` continues the task `<task>` when that run is the user's.
                if(auto const dot = r.id.rfind('.'); dot != std::string::npos && dot + 1 < r.id.size() &&
                    r.id.find_first_not_of("0123456789", dot + 1) == std::string::npos)
                {
                    auto const first = r.id.substr(0, dot);
                    bool known = listed.contains(first);
                    if(!known)
                    {
                        auto found = co_await scoped->find_run(first, call.user);
                        if(!found)
                            co_return result_type(boost::system::in_place_error, found.error().message);
                        known = found->has_value();
                    }
                    if(known)
                        task = first;
                }
                if(seen.insert(task).second)
                    ids.push_back(std::move(task));
            }
            co_return result_type(boost::system::in_place_value, std::move(ids));
        }
        if(runs.error().code != threads::make_error_code(threads::errc::not_supported))
            co_return result_type(boost::system::in_place_error, runs.error().message);
    }
    for(auto const& e : call.tasks.of(call.user))
        if(context.empty() || e.context_id == context)
            ids.push_back(e.task_id);
    co_return result_type(boost::system::in_place_value, std::move(ids));
}

inline asio::awaitable<std::optional<beast::http::message_generator>> list_tasks(rpc_call& call,
    json::object const& params)
{
    auto const fail = [&](rpc_error const& e) { return rpc_answer(call.req, error_response(call.id, e)); };
    std::optional<rpc_error> bad;
    auto const history = history_length(params, bad);
    if(bad)
        co_return fail(*bad);
    std::string context;
    if(auto const* c = params.if_contains("contextId"); c && !c->is_null())
    {
        if(!c->is_string())
            co_return fail(invalid_params("contextId", "expected a string"));
        context = std::string(c->get_string());
    }
    std::optional<task_state> wanted;
    // No filter: unset, the enum's zero, or what @a2a-js/sdk 1.3.0 sends for an unset one ("UNRECOGNIZED").
    if(auto const* st = params.if_contains("status"); st && !st->is_null() &&
        !(st->is_string() && (st->get_string() == "TASK_STATE_UNSPECIFIED" || st->get_string() == "UNRECOGNIZED")))
    {
        wanted = st->is_string() ? parse_task_state(st->get_string()) : std::nullopt;
        if(!wanted)
            co_return fail(invalid_params("status", "expected a TaskState name, such as TASK_STATE_COMPLETED"));
    }
    std::size_t page_size = 50;
    if(auto const* n = params.if_contains("pageSize"); n && !n->is_null())
    {
        auto const* count = n->if_int64();
        if(!count || *count < 1 || *count > 100)
            co_return fail(invalid_params("pageSize", "expected a whole number from 1 to 100"));
        page_size = static_cast<std::size_t>(*count);
    }
    std::size_t from = 0; // the page token: how many tasks come before the page
    if(auto const* t = params.if_contains("pageToken"); t && t->is_string() && !t->get_string().empty())
    {
        auto const token = std::string(t->get_string());
        if(token.find_first_not_of("0123456789") != std::string::npos || token.size() > 9)
            co_return fail(invalid_params("pageToken", "not a token this server gave"));
        from = std::stoul(token);
    }
    bool const artifacts = [&] {
        auto const* a = params.if_contains("includeArtifacts");
        return a && a->is_bool() && a->get_bool();
    }();
    auto ids = co_await recent_tasks(call, context);
    if(!ids)
        co_return fail({error_code::internal_error, "The thread store failed: " + ids.error(), {}});
    std::vector<loaded_task> found;
    for(auto const& task_id : *ids)
    {
        auto loaded = co_await load_task(call.runs, task_id, call.user);
        if(!loaded)
            co_return fail({error_code::internal_error, "The thread store failed: " + loaded.error(), {}});
        // A turn whose journal is not AG-UI's (a Chat Completions session's) never started as a task.
        if(!*loaded || (*loaded)->view.state() == task_state::submitted ||
            (!context.empty() && (*loaded)->view.context_id() != context) ||
            (wanted && (*loaded)->view.state() != *wanted))
            continue;
        found.push_back(std::move(**loaded));
    }
    std::stable_sort(found.begin(), found.end(),
        [](loaded_task const& a, loaded_task const& b) { return a.view.updated() > b.view.updated(); });
    json::array page;
    for(std::size_t i = from; i < found.size() && page.size() < page_size; ++i)
        page.push_back(found[i].view.task(history.value_or(0), artifacts));
    std::size_t const next = from + page.size();
    json::object result{{"tasks", std::move(page)},
        {"nextPageToken", next < found.size() ? std::to_string(next) : std::string()}, {"pageSize", page_size},
        {"totalSize", found.size()}};
    co_return rpc_answer(call.req, result_response(call.id, std::move(result)));
}

inline asio::awaitable<std::optional<beast::http::message_generator>> serve_rpc(ag_ui::endpoint const& runs,
    endpoint_options const& options, task_index& tasks, http::request&& req, http::any_stream& stream)
{
    auto who = cc::serving::who_asks(options.authenticate, req);
    if(!who)
        co_return cc::serving::error_response(who.error(), req);
    json::value id;
    if(req.body().size() > options.max_body_bytes)
        co_return rpc_answer(req,
            error_response(id,
                {error_code::invalid_request,
                    "The body is larger than " + std::to_string(options.max_body_bytes) + " bytes.", {}}));
    auto parsed = parse_request(req.body(), id);
    if(!parsed)
        co_return rpc_answer(req, error_response(id, parsed.error()));
    std::optional<std::string_view> version;
    if(auto const h = req.find("A2A-Version"); h != req.end())
        version = std::string_view(h->value().data(), h->value().size());
    if(auto refused = check_version(version))
        co_return rpc_answer(req, error_response(id, *refused));
    rpc_call call{runs, options, tasks, std::move(*who), parsed->id, req, stream};
    auto const& method = parsed->method;
    auto const& params = parsed->params;
    if(method == "SendMessage")
        co_return co_await send_message(call, params, false);
    if(method == "SendStreamingMessage")
        co_return co_await send_message(call, params, true);
    if(method == "GetTask")
        co_return co_await get_task(call, params);
    if(method == "CancelTask")
        co_return co_await cancel_task(call, params);
    if(method == "SubscribeToTask")
        co_return co_await subscribe(call, params);
    if(method == "ListTasks")
        co_return co_await list_tasks(call, params);
    if(method == "CreateTaskPushNotificationConfig" || method == "GetTaskPushNotificationConfig" ||
        method == "ListTaskPushNotificationConfigs" || method == "ListTaskPushNotificationConfig" ||
        method == "DeleteTaskPushNotificationConfig")
        co_return rpc_answer(req, error_response(call.id, push_notification_not_supported()));
    if(method == "GetExtendedAgentCard")
        co_return rpc_answer(req,
            error_response(call.id,
                rpc_error{error_code::extended_card_not_configured, "This agent has no extended card.",
                    json::array{json::object{{"@type", "type.googleapis.com/google.rpc.ErrorInfo"},
                        {"reason", "EXTENDED_AGENT_CARD_NOT_CONFIGURED"}, {"domain", "a2a-protocol.org"}}}}));
    co_return rpc_answer(req,
        error_response(call.id, rpc_error{error_code::method_not_found, "Method not found: '" + method + "'.", {}}));
}

inline std::string quoted_hash(std::string const& text)
{
    // FNV-1a: a validator, not a secret.
    std::uint64_t h = 1469598103934665603ull;
    for(unsigned char c : text)
        h = (h ^ c) * 1099511628211ull;
    char out[24];
    std::snprintf(out, sizeof out, "\"%016llx\"", static_cast<unsigned long long>(h));
    return out;
}

} // namespace detail

AGENTIO_DECL endpoint::endpoint(ag_ui::endpoint const& runs, endpoint_options options)
    : runs_(runs)
    , options_(std::move(options))
    , tasks_(std::make_shared<detail::task_index>())
{
    if(!options_.authenticate)
        options_.authenticate = runs_.options().authenticate;
}

AGENTIO_DECL endpoint::~endpoint() = default;

AGENTIO_DECL json::object endpoint::card(std::string_view url) const
{
    auto o = options_.card;
    if(o.url.empty())
        o.url = std::string(url);
    return agent_card(o, options_.list_skills ? options_.list_skills() : options_.skills);
}

AGENTIO_DECL void endpoint::add_routes(http::router<>& routes) const
{
    routes.get(options_.card_path,
        [this](http::request&& req, http::route_params const&) -> asio::awaitable<beast::http::message_generator> {
            std::string host = "127.0.0.1";
            if(auto const h = req.find(beast::http::field::host); h != req.end())
                host = std::string(h->value());
            auto const body = to_json_text(card("http://" + host + options_.path));
            auto const tag = detail::quoted_hash(body);
            if(auto const seen = req.find(beast::http::field::if_none_match); seen != req.end() && seen->value() == tag)
            {
                beast::http::response<beast::http::empty_body> res{beast::http::status::not_modified, req.version()};
                res.set(beast::http::field::etag, tag);
                res.keep_alive(req.keep_alive());
                co_return res;
            }
            beast::http::response<beast::http::string_body> res{beast::http::status::ok, req.version()};
            res.set(beast::http::field::content_type, "application/json");
            res.set(beast::http::field::cache_control,
                "public, max-age=" + std::to_string(options_.card_max_age.count()));
            res.set(beast::http::field::etag, tag);
            res.keep_alive(req.keep_alive());
            res.body() = body;
            res.prepare_payload();
            co_return res;
        });
    routes.post(options_.path, [this](http::request&& req, http::route_params const&, http::any_stream& stream) {
        return rpc(std::move(req), stream);
    });
}

AGENTIO_DECL asio::awaitable<std::optional<beast::http::message_generator>> endpoint::rpc(http::request&& req,
    http::any_stream& stream) const
{
    return detail::serve_rpc(runs_, options_, *tasks_, std::move(req), stream);
}

} // namespace agentio::a2a

#endif
