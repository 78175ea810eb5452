//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_AG_UI_IMPL_ENDPOINT_IPP
#define AGENTIO_AG_UI_IMPL_ENDPOINT_IPP

#include <agentio/ag_ui/endpoint.hpp>
#include <agentio/chat_completions/serving.hpp>
#include <agentio/http/json_response.hpp>
#include <agentio/json_text.hpp>
#include <agentio/sse/writer.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/json/parse.hpp>

#include <charconv>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

namespace agentio::ag_ui {

namespace detail {

namespace cc = chat_completions;

// A run of this process: what it runs with (on its strand) and what its
// followers read (under the registry's mutex).
struct live_run
{
    live_run(asio::any_io_executor const& ex, cc::request const& asked)
        : strand(asio::make_strand(ex))
        , stop(strand, std::chrono::steady_clock::time_point::max())
        , grace(strand)
        , journal_idle(strand)
        , gather(strand)
        , answer(asked)
    {
        answer.serve_approvals(true);
    }

    std::string id;
    std::string thread_id;
    std::string owner;
    std::string agent;
    asio::strand<asio::any_io_executor> strand;

    // On the strand.
    asio::steady_timer stop; // expires to stop the model (a timer expired before its wait is waited at once)
    asio::steady_timer grace;
    asio::steady_timer journal_idle;
    asio::steady_timer gather; // lets events gather before a journal write
    std::string stop_reason;   // "cancelled" or "detached"; empty: not stopped
    bool interrupted = false;
    std::optional<threads::turn> turn;
    std::optional<run_events> writer;
    cc::serving::answer answer;
    std::vector<threads::event_record> unjournaled;
    // The run's last event, held until the thread is stored: a client that
    // sends its next run on seeing it finds the thread free.
    std::vector<json::object> held_final;
    bool journaling = false;
    bool journal_broken = false;
    bool ending = false;
    http::request http;
    cc::request request;
    cc::call_context ctx;
    std::vector<llm::message> fresh;
    // A run that resumes a turn: the ids of that turn's calls, and what each gave (in their order).
    std::vector<std::string> resumed_calls;
    std::map<std::string, llm::tool_result_block, std::less<>> resumed_results;
    json::object started_metadata;               // RUN_STARTED's metadata.agentio
    std::optional<json::object> thread_snapshot; // MESSAGES_SNAPSHOT after RUN_STARTED: a run on the stored thread
    bool cancel_when_unfollowed = true;          // see run_start
    bool cancel_at_once = false;
    std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();

    // Under the registry's mutex.
    std::vector<threads::event_record> events;
    bool over = false;
    std::size_t readers = 0;
};

// The runs of an endpoint, shared with them: a run still unwinding keeps it.
class run_registry : public std::enable_shared_from_this<run_registry>
{
public:
    explicit run_registry(endpoint_options const& o)
        : detach_grace(o.detach_grace)
        , journal_gather(o.journal_gather)
        , keep_ended(o.keep_ended)
        , reader_poll(o.reader_poll)
        , on_complete(o.on_complete)
    {
    }

    std::chrono::milliseconds detach_grace;
    std::chrono::milliseconds journal_gather;
    std::chrono::milliseconds keep_ended;
    std::chrono::milliseconds reader_poll;
    std::function<void(cc::completion_record const&)> on_complete;
    threads::event_hub hub; // wakes the followers of runs of this process

    // False when the id is taken (a run of this process has it).
    bool add(std::shared_ptr<live_run> const& run)
    {
        std::lock_guard lock(mutex_);
        if(closed_)
            return false;
        auto const [it, added] = runs_.try_emplace(run->id, run);
        (void)it;
        if(added)
            latest_[run->thread_id] = run->id;
        return added;
    }

    std::shared_ptr<live_run> find(std::string_view id) const
    {
        std::lock_guard lock(mutex_);
        auto const it = runs_.find(id);
        return it == runs_.end() ? nullptr : it->second;
    }

    // The latest run of this process on a thread.
    std::shared_ptr<live_run> latest_on(std::string_view thread_id) const
    {
        std::lock_guard lock(mutex_);
        auto const t = latest_.find(thread_id);
        if(t == latest_.end())
            return nullptr;
        auto const it = runs_.find(t->second);
        return it == runs_.end() ? nullptr : it->second;
    }

    std::size_t running() const
    {
        std::lock_guard lock(mutex_);
        return static_cast<std::size_t>(std::count_if(runs_.begin(), runs_.end(),
            [](auto const& r) { return !r.second->over; }));
    }

    bool is_over(live_run const& run) const
    {
        std::lock_guard lock(mutex_);
        return run.over || !run.held_final.empty(); // its last event is said, or being stored
    }

    // The events a follower has not seen, and whether the run is over.
    std::vector<threads::event_record> events_after(live_run const& run, std::int64_t after, bool& over) const
    {
        std::lock_guard lock(mutex_);
        over = run.over;
        auto const from = static_cast<std::size_t>(std::max<std::int64_t>(after, 0));
        if(from >= run.events.size())
            return {};
        return {run.events.begin() + static_cast<std::ptrdiff_t>(from), run.events.end()};
    }

    // On the run's strand: events join its record (and its journal's queue);
    // the last one waits in `held_final` for `release_final`.
    void record(std::shared_ptr<live_run> const& run, std::vector<json::object> const& out)
    {
        if(out.empty())
            return;
        std::int64_t last = 0;
        {
            std::lock_guard lock(mutex_);
            for(auto const& ev : out)
            {
                auto const type = ev.at("type").as_string();
                if(type == "RUN_FINISHED" || type == "RUN_ERROR" || !run->held_final.empty())
                {
                    run->held_final.push_back(ev);
                    continue;
                }
                threads::event_record e{static_cast<std::int64_t>(run->events.size()) + 1,
                    std::string(ev.at("type").as_string()), to_json_text(ev)};
                if(run->turn && !run->journal_broken)
                    run->unjournaled.push_back(e);
                run->events.push_back(std::move(e));
            }
            last = static_cast<std::int64_t>(run->events.size());
        }
        hub.publish(run->id, last);
        write_journal(run);
    }

    // The held events as the journal's records, ids continuing it.
    std::vector<threads::event_record> final_records(live_run const& run) const
    {
        std::lock_guard lock(mutex_);
        std::vector<threads::event_record> out;
        auto id = static_cast<std::int64_t>(run.events.size());
        for(auto const& ev : run.held_final)
            out.push_back({++id, std::string(ev.at("type").as_string()), to_json_text(ev)});
        return out;
    }

    // The held events sent, once the thread is stored; the run is over.
    void release_final(std::shared_ptr<live_run> const& run, std::vector<threads::event_record> last)
    {
        {
            std::lock_guard lock(mutex_);
            for(auto& e : last)
                run->events.push_back(std::move(e));
            run->held_final.clear();
            run->over = true;
        }
        hub.wake_all(run->id);
    }

    void attach(std::shared_ptr<live_run> const& run)
    {
        std::lock_guard lock(mutex_);
        if(run->readers++ == 0)
            asio::post(run->strand, [run] { run->grace.cancel(); });
    }

    void detach(std::shared_ptr<live_run> const& run)
    {
        {
            std::lock_guard lock(mutex_);
            if(--run->readers > 0 || run->over || !run->cancel_when_unfollowed)
                return;
        }
        asio::post(run->strand, [self = shared_from_this(), run] {
            run->grace.expires_after(self->detach_grace);
            run->grace.async_wait([self, run](boost::system::error_code ec) {
                if(ec)
                    return;
                {
                    std::lock_guard lock(self->mutex_);
                    if(run->readers > 0 || run->over)
                        return;
                }
                stop(run, "detached");
            });
        });
    }

    // Stops a run's model, from any thread; its followers see it cancelled.
    static void stop(std::shared_ptr<live_run> const& run, std::string reason)
    {
        asio::post(run->strand, [run, why = std::move(reason)] {
            if(run->stop_reason.empty())
                run->stop_reason = why;
            run->stop.expires_at(std::chrono::steady_clock::time_point::min());
        });
    }

    // On the run's strand, once its last event is out.
    void end(std::shared_ptr<live_run> const& run)
    {
        // Kept a while for `connect`; then the store (if any) answers for it.
        auto keep = std::make_shared<asio::steady_timer>(run->strand, keep_ended);
        keep->async_wait([self = shared_from_this(), run, keep](boost::system::error_code) {
            std::lock_guard lock(self->mutex_);
            if(auto it = self->runs_.find(run->id); it != self->runs_.end() && it->second == run)
                self->runs_.erase(it);
            if(auto t = self->latest_.find(run->thread_id); t != self->latest_.end() && t->second == run->id)
                self->latest_.erase(t);
        });
    }

    void close()
    {
        std::vector<std::shared_ptr<live_run>> all;
        {
            std::lock_guard lock(mutex_);
            closed_ = true;
            for(auto const& [id, run] : runs_)
                all.push_back(run);
        }
        for(auto const& run : all)
            stop(run, "cancelled");
    }

private:
    // Journals what is queued, one write at a time, on the run's strand.
    void write_journal(std::shared_ptr<live_run> const& run)
    {
        if(run->journaling || run->ending || run->unjournaled.empty() || !run->turn)
            return;
        run->journaling = true;
        asio::co_spawn(run->strand, journal_loop(run, journal_gather), asio::detached);
    }

    static asio::awaitable<void> journal_loop(std::shared_ptr<live_run> run, std::chrono::milliseconds gather)
    {
        while(!run->unjournaled.empty() && !run->journal_broken)
        {
            if(!run->ending && gather.count() > 0)
            {
                // One write for what comes meanwhile; the run's end cuts the wait short.
                run->gather.expires_after(gather);
                auto [ec] = co_await run->gather.async_wait(asio::as_tuple(asio::use_awaitable));
                (void)ec;
            }
            auto batch = std::exchange(run->unjournaled, {});
            auto written = co_await run->turn->journal(batch);
            if(!written)
            {
                // Ids must continue the journal exactly: once a write failed it stays as far as it got.
                run->journal_broken = true;
                run->unjournaled.clear();
            }
        }
        run->journaling = false;
        run->journal_idle.expires_at(std::chrono::steady_clock::time_point::min());
    }

    mutable std::mutex mutex_;
    std::map<std::string, std::shared_ptr<live_run>, std::less<>> runs_;
    std::map<std::string, std::string, std::less<>> latest_; // thread -> its latest run here
    bool closed_ = false;
};

inline json::object run_error(std::string message, std::string_view code)
{
    auto ev = detail::event("RUN_ERROR");
    ev["message"] = std::move(message);
    ev["code"] = code;
    return ev;
}

// An answer that is one event: the protocol's error before any run began.
inline beast::http::message_generator one_event(http::request const& req, json::object const& ev)
{
    beast::http::response<beast::http::string_body> res{beast::http::status::ok, req.version()};
    res.set(beast::http::field::content_type, "text/event-stream");
    res.set(beast::http::field::cache_control, "no-cache");
    res.keep_alive(req.keep_alive());
    res.body() = frame(ev);
    res.prepare_payload();
    return res;
}

inline bool final_event(threads::event_record const& e)
{
    return e.type == "RUN_FINISHED" || e.type == "RUN_ERROR";
}

// The outputs of the model, as events and as the answer kept.
inline void take(std::shared_ptr<run_registry> const& reg, std::shared_ptr<live_run> const& run, cc::output o)
{
    // The resumed turn's calls as they end: the thread keeps their results before the answer.
    if(auto const* a = std::get_if<cc::tool_activity>(&o); a && a->what == cc::tool_activity::phase::finished &&
        std::find(run->resumed_calls.begin(), run->resumed_calls.end(), a->id) != run->resumed_calls.end())
        run->resumed_results.insert_or_assign(a->id,
            llm::tool_result_block{a->id, {llm::text_block{a->result}}, a->is_error});
    std::vector<json::object> out;
    run->answer.take(o, nullptr);
    run->writer->take(std::move(o), out);
    reg->record(run, out);
}

inline asio::awaitable<void> finish_run(std::shared_ptr<run_registry> reg, std::shared_ptr<live_run> run,
    bool cancelled);

// Runs the model to its end, on the run's strand, whoever follows.
inline asio::awaitable<void> execute(std::shared_ptr<run_registry> reg, std::shared_ptr<live_run> run,
    std::shared_ptr<cc::model> model)
{
    auto started = run->writer->started();
    if(!run->started_metadata.empty())
        started["metadata"] = json::object{{"agentio", run->started_metadata}};
    std::vector<json::object> first{std::move(started)};
    if(run->thread_snapshot)
        first.push_back(std::move(*run->thread_snapshot));
    reg->record(run, std::move(first));
    if(run->cancel_at_once)
    {
        // The calls the turn waited for are answered no; the model is not asked.
        for(auto const& id : run->resumed_calls)
            run->resumed_results.insert_or_assign(id,
                llm::tool_result_block{id, {llm::text_block{"Not run: the task was canceled."}}, true});
        std::vector<json::object> out;
        run->writer->end_abruptly(true, out);
        reg->record(run, out);
        co_await finish_run(reg, run, true);
        co_return;
    }
    struct interruption
    {
        asio::cancellation_slot slot;
        ~interruption()
        {
            if(slot.is_connected())
                slot.clear();
        }
    } interrupt_here;
    if(run->turn)
    {
        // A message sent to the thread with `interrupt`, or a cancel from another process.
        interrupt_here.slot = run->turn->interruption_slot(run->strand);
        interrupt_here.slot.assign([run](asio::cancellation_type) {
            run->interrupted = true;
            run->stop.expires_at(std::chrono::steady_clock::time_point::min());
        });
    }
    cc::output_sink sink = [reg, run](cc::output o) { take(reg, run, std::move(o)); };
    auto task = model->complete(std::move(run->request), run->ctx, sink);
    auto const failure = co_await cc::serving::run_until_stopped(task, run->stop);
    std::string().swap(run->http.body()); // the input is read; the run's record may stay a while (keep_ended)

    // Stopped here (cancel, nobody following), or through the thread's turn (a cancel sent to another
    // process sharing the store, or a message on the thread that interrupts): cancelled, as the cancel route says.
    // An answer that ended before the stop came stands.
    bool const cancelled = (!run->stop_reason.empty() || run->interrupted) && !run->writer->ended();
    if(!run->writer->ended())
    {
        std::vector<json::object> out;
        if(cancelled)
            run->writer->end_abruptly(true, out);
        else if(failure)
            take(reg, run,
                cc::failed{cc::api_error{500, "The model failed with an internal error.", "server_error", {}, {}}});
        else
            run->writer->end_abruptly(false, out);
        reg->record(run, out);
    }
    co_await finish_run(reg, run, cancelled);
}

// On the run's strand, once its last event is written: the thread stored, then that event sent.
inline asio::awaitable<void> finish_run(std::shared_ptr<run_registry> reg, std::shared_ptr<live_run> run,
    bool cancelled)
{
    // The journal caught up, then its last events go with the end.
    run->ending = true;
    run->gather.cancel();
    while(run->journaling)
    {
        run->journal_idle.expires_at(std::chrono::steady_clock::time_point::max());
        auto [ec] = co_await run->journal_idle.async_wait(asio::as_tuple(asio::use_awaitable));
        (void)ec;
    }
    auto final_records = reg->final_records(*run);
    std::string outcome = cancelled ? "cancelled" : run->answer.outcome();
    if(outcome.empty())
        outcome = "error";
    std::string failure_text;
    if(run->answer.error())
        failure_text = run->answer.error()->message;
    if(run->turn)
    {
        auto const status = cancelled ? threads::run_status::cancelled
            : outcome == "error"      ? threads::run_status::failed
                                      : threads::run_status::completed;
        if(status != threads::run_status::completed)
            run->fresh.clear(); // the question stays only with its answer, as the Chat Completions sessions keep it
        if(status == threads::run_status::completed || run->cancel_at_once)
        {
            if(!run->resumed_calls.empty())
            {
                // The resumed turn's results, then what came after: the thread reads as the model did.
                llm::message results{llm::role::user, {}};
                for(auto const& id : run->resumed_calls)
                    if(auto r = run->resumed_results.find(id); r != run->resumed_results.end())
                        results.content.emplace_back(std::move(r->second));
                if(!results.content.empty())
                    run->fresh.insert(run->fresh.begin(), std::move(results));
            }
            if(status == threads::run_status::completed)
                run->fresh.push_back(run->answer.assistant_message());
        }
        auto last = std::exchange(run->unjournaled, {});
        if(!run->journal_broken)
            for(auto& e : final_records)
                last.push_back(e);
        auto stored = co_await run->turn->finish(run->fresh, status, last);
        if(!stored && failure_text.empty())
            failure_text = "the thread was not stored: " + stored.error().message;
    }
    reg->release_final(run, std::move(final_records));
    reg->end(run);
    if(reg->on_complete)
    {
        cc::completion_record r{run->agent, run->owner, true, outcome, run->thread_id, failure_text,
            run->answer.usage(),
            std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - run->started)};
        reg->on_complete(r);
    }
}

// Where a follower's events go: false when it wants no more (its client left).
using event_emitter = std::function<asio::awaitable<bool>(threads::event_record const&)>;

// An event that is not the run's (no id): the follower learns why it ends.
inline threads::event_record follower_error(std::string message, std::string_view code)
{
    return {0, "RUN_ERROR", to_json_text(run_error(std::move(message), code))};
}

// Follows a run: its events after `after`, then live until its last.
inline asio::awaitable<void> follow(std::shared_ptr<run_registry> reg, threads::thread_store* store,
    std::shared_ptr<live_run> local, std::string run_id, std::string owner, std::int64_t after,
    event_emitter const& emit)
{
    std::int64_t last = after;
    for(;;)
    {
        std::vector<threads::event_record> batch;
        bool over = false;
        if(local)
            batch = reg->events_after(*local, last, over);
        else
        {
            auto stored = co_await store->events_after(run_id, last, 256);
            if(!stored)
            {
                (void)co_await emit(follower_error("The run's events could not be read: " + stored.error().message,
                    "store_failed"));
                co_return;
            }
            batch = std::move(*stored);
        }
        for(auto const& e : batch)
        {
            if(!co_await emit(e))
                co_return; // the client left
            last = e.id;
            if(final_event(e))
                co_return;
        }
        if(!batch.empty())
            continue;
        if(local)
        {
            if(over)
                co_return;
            co_await reg->hub.wait(run_id, last, reg->reader_poll);
            continue;
        }
        auto run = co_await store->find_run(run_id, owner);
        if(!run || !*run)
            co_return;
        auto const& info = **run;
        bool const ended = info.status == threads::run_status::completed ||
            info.status == threads::run_status::failed || info.status == threads::run_status::cancelled;
        if(ended && info.last_event_id <= last)
        {
            if(last == 0) // it ended before it said anything
                (void)co_await emit(follower_error("The run ended without events.", "run_lost"));
            co_return;
        }
        if(!ended && info.lease_expires_at < threads::now())
        {
            (void)co_await emit(follower_error("The run was lost: the process running it stopped.", "run_lost"));
            co_return;
        }
        co_await store->hub().wait(run_id, last, reg->reader_poll);
    }
}

// Streams a run to the request's client: as the run's own request, or to one that connects again.
inline asio::awaitable<void> stream_run(std::shared_ptr<run_registry> reg, threads::thread_store* store,
    std::shared_ptr<live_run> local, std::string run_id, std::string owner, std::int64_t after,
    http::request const& req, http::any_stream& stream)
{
    // Counted from before the response starts: a client gone at once still arms the run's detach grace.
    if(local)
        reg->attach(local);
    struct detach_guard
    {
        std::shared_ptr<run_registry> const& reg;
        std::shared_ptr<live_run> const& run;
        ~detach_guard()
        {
            if(run)
                reg->detach(run);
        }
    } guard{reg, local};
    sse::basic_writer<http::any_stream> out(stream);
    if(auto ec = co_await out.start(req.version()))
    {
        co_await out.finish();
        co_return;
    }
    // A client that leaves stops its reading at once (the writer's signal); the run goes on.
    event_emitter const emit = [&out](threads::event_record const& e) -> asio::awaitable<bool> {
        std::string const id = e.id > 0 ? std::to_string(e.id) : std::string(); // named: GCC 12 and temporaries
        auto const failed = co_await out.send("", e.data, id);
        co_return !failed;
    };
    try
    {
        auto const ex = co_await asio::this_coro::executor;
        co_await asio::co_spawn(ex, follow(reg, store, local, std::move(run_id), std::move(owner), after, emit),
            asio::bind_cancellation_slot(out.disconnect_slot(), asio::use_awaitable));
    }
    catch(boost::system::system_error const&)
    {
    }
    co_await out.finish();
}

// The request's body as JSON, or the error event that names the fault.
inline boost::system::result<json::value, input_error> read_body(http::request const& req, std::size_t max)
{
    using result_type = boost::system::result<json::value, input_error>;
    if(req.body().size() > max)
        return result_type(boost::system::in_place_error,
            input_error{"body", "The body is larger than " + std::to_string(max) + " bytes."});
    boost::system::error_code ec;
    auto body = json::parse(req.body(), ec);
    if(ec)
        return result_type(boost::system::in_place_error,
            input_error{"body", "The body is not valid JSON: " + ec.message() + "."});
    return result_type(boost::system::in_place_value, std::move(body));
}

// The ids of the calls of a conversation that ends with the model's turn (`last`; none when it does not).
inline std::vector<std::string> pending_calls(llm::message const* last)
{
    std::vector<std::string> ids;
    if(last && last->role == llm::role::assistant)
        for(auto const& b : last->content)
            if(auto const* call = std::get_if<llm::tool_use_block>(&b))
                ids.push_back(call->id);
    return ids;
}

inline std::optional<input_error> check_id(std::string const& id, std::string_view field)
{
    if(cc::serving::valid_session_id(id))
        return std::nullopt;
    return input_error{std::string(field),
        std::string(field) + ": use 1 to 128 letters, digits and the characters - _ . :"};
}

// A string field of an object, or the error naming it (missing is an empty string when optional).
inline boost::system::result<std::string, input_error> string_field(json::object const& o, std::string_view name,
    bool required)
{
    using result_type = boost::system::result<std::string, input_error>;
    auto const* v = o.if_contains(name);
    if(!v || v->is_null())
    {
        if(required)
            return result_type(boost::system::in_place_error,
                input_error{std::string(name), std::string(name) + ": required."});
        return result_type(boost::system::in_place_value, std::string());
    }
    if(!v->is_string())
        return result_type(boost::system::in_place_error,
            input_error{std::string(name), std::string(name) + ": expected a string."});
    return result_type(boost::system::in_place_value, std::string(v->get_string()));
}

} // namespace detail

AGENTIO_DECL endpoint::endpoint(chat_completions::endpoint const& models, endpoint_options options)
    : models_(models)
    , options_(std::move(options))
{
    if(!options_.authenticate)
        options_.authenticate = models_.options().authenticate;
    if(!options_.store)
        options_.store = models_.options().sessions.store;
    if(!options_.on_complete)
        options_.on_complete = models_.options().on_complete;
    runs_ = std::make_shared<detail::run_registry>(options_);
}

AGENTIO_DECL endpoint::~endpoint()
{
    runs_->close();
}

AGENTIO_DECL std::size_t endpoint::running() const
{
    return runs_->running();
}

AGENTIO_DECL void endpoint::add_routes(http::router<>& routes) const
{
    routes.post(options_.path, [this](http::request&& req, http::route_params const&, http::any_stream& stream) {
        return run(std::move(req), stream, {});
    });
    routes.post(options_.path + "/agents/{id}",
        [this](http::request&& req, http::route_params const& p, http::any_stream& stream) {
            return run(std::move(req), stream, p["id"]);
        });
    routes.post(options_.path + "/connect",
        [this](http::request&& req, http::route_params const&, http::any_stream& stream) {
            return connect(std::move(req), stream);
        });
    routes.post(options_.path + "/cancel",
        [this](http::request&& req, http::route_params const&) { return cancel(std::move(req)); });
}

namespace detail {

// How a run reads its thread: the input's conversation as sent (AG-UI sends the whole of it each run), or
// the thread as stored and the input's messages after it (A2A sends only what is new).
enum class conversation_from
{
    input,
    thread_then_input
};

// A run to start, from either protocol.
struct run_start
{
    std::string user;
    std::string agent;
    std::shared_ptr<cc::model> model;
    std::string thread_id;
    std::string run_id;
    cc::request request; // the messages, the client's tools, the decisions
    conversation_from reading = conversation_from::input;
    // How a refusal of the decisions names its fields ("{i}": the decision's index).
    std::string decision_field = "resume[{i}].interruptId";
    std::string decisions_field = "resume";
    // RUN_STARTED's `metadata.agentio`: what another protocol finds again in the journal.
    json::object started_metadata;
    // False: nobody following never cancels the run (an A2A task outlives its streams).
    bool cancel_when_unfollowed = true;
    // The waiting calls answered as rejected, and the run cancelled before the model is asked (a task
    // cancelled while it waited for input): the thread no longer waits.
    bool cancel_at_once = false;
};

// A thread whose last turn waits is answered by decisions, on each of its calls that needs one, and no other.
inline std::optional<input_error> check_decisions(run_start const& s, std::vector<std::string> const& waiting)
{
    auto const quoted = [](std::vector<std::string> const& ids) {
        std::string out;
        for(auto const& id : ids)
            out.append(out.empty() ? "'" : ", '").append(id).append("'");
        return out;
    };
    auto const& decisions = s.request.decisions;
    if(decisions.empty())
    {
        if(waiting.empty())
            return std::nullopt;
        return input_error{s.decisions_field,
            s.decisions_field + ": the thread '" + s.thread_id + "' waits for decisions on " + quoted(waiting) +
                ", the interrupts of its last run; answer each."};
    }
    for(std::size_t i = 0; i < decisions.size(); ++i)
    {
        auto const& id = decisions[i].tool_call_id;
        if(std::find(waiting.begin(), waiting.end(), id) == waiting.end())
        {
            auto field = s.decision_field;
            if(auto const at = field.find("{i}"); at != std::string::npos)
                field.replace(at, 3, std::to_string(i));
            return input_error{field,
                field + ": '" + id + "' names no pending interrupt of the thread '" + s.thread_id + "'."};
        }
    }
    return std::nullopt;
}

// Starts a run on its own strand: the run, or the error event that refuses it.
inline asio::awaitable<boost::system::result<std::shared_ptr<live_run>, json::object>> start_run(
    endpoint_options const& options, std::shared_ptr<run_registry> const& reg, run_start s, http::request const& req)
{
    using result_type = boost::system::result<std::shared_ptr<live_run>, json::object>;
    auto const refuse = [](json::object e) { return result_type(boost::system::in_place_error, std::move(e)); };
    auto const run_exists = [&] {
        return run_error("runId: the run '" + s.run_id + "' exists already; follow it with POST " + options.path +
                "/connect, or start a run with a new id.",
            "run_exists");
    };
    if(reg->find(s.run_id))
        co_return refuse(run_exists());

    auto const ex = co_await asio::this_coro::executor;
    auto run = std::make_shared<live_run>(ex, s.request);
    run->id = s.run_id;
    run->thread_id = s.thread_id;
    run->owner = s.user;
    run->agent = s.agent;
    run->writer.emplace(s.thread_id, s.run_id);
    run->started_metadata = std::move(s.started_metadata);
    run->cancel_when_unfollowed = s.cancel_when_unfollowed;
    run->cancel_at_once = s.cancel_at_once;
    auto& asked = s.request;
    asked.model = s.agent;
    bool const resuming = !asked.decisions.empty();
    bool const appending = s.reading == conversation_from::thread_then_input;
    // A resumed turn is the thread's as stored: what a person approves is what the model asked.
    bool const from_store = (asked.messages.empty() || resuming || appending) && options.store;
    std::vector<std::string> waiting; // the calls of the conversation's last turn, the model's, if it waits
    if(options.store)
    {
        auto const store = options.store->under(cc::serving::request_traceparent(req));
        auto existing = co_await store->find_run(s.run_id, s.user);
        if(existing && *existing)
            co_return refuse(run_exists());
        threads::turn_request wanted;
        wanted.thread_id = s.thread_id;
        wanted.owner = s.user;
        wanted.agent = s.agent;
        wanted.run_id = s.run_id;
        wanted.traceparent = cc::serving::request_traceparent(req);
        for(auto m = asked.messages.rbegin(); m != asked.messages.rend() && wanted.title.empty(); ++m)
            if(m->role == llm::role::user)
                wanted.title = threads::make_title(m->text());
        auto begun = co_await threads::begin_turn(*options.store, std::move(wanted), options.turn);
        if(!begun)
        {
            auto const& e = begun.error();
            if(e.code == threads::errc::not_found)
                co_return refuse(run_error("threadId: the thread '" + s.thread_id + "' does not exist.",
                    "thread_not_found"));
            if(e.code == threads::errc::thread_busy)
                co_return refuse(run_error("threadId: the thread '" + s.thread_id +
                        "' is answering another run; send this one when that run ends.",
                    "thread_busy"));
            co_return refuse(run_error("The thread store failed: " + e.message, "store_failed"));
        }
        run->turn.emplace(std::move(*begun));
        // Interrupts: a thread whose last turn, the model's, waits for decisions says so (the client's copy
        // may have gone on without them).
        if(!run->turn->history().empty())
            waiting = pending_calls(&run->turn->history().back().message);
        // ... but not for calls the client's messages answer (its own tools' calls, run by the client).
        std::erase_if(waiting, [&](std::string const& id) {
            return std::any_of(asked.messages.begin(), asked.messages.end(), [&](llm::message const& m) {
                return std::any_of(m.content.begin(), m.content.end(), [&](llm::content_block const& b) {
                    auto const* result = std::get_if<llm::tool_result_block>(&b);
                    return result && result->tool_use_id == id;
                });
            });
        });
        if(from_store && !appending)
        {
            // The client's messages become the thread's: what a resumed turn or a run without messages reads.
            std::vector<llm::message> thread;
            thread.reserve(run->turn->history().size());
            for(auto const& item : run->turn->history())
                thread.push_back(item.message);
            run->thread_snapshot = messages_snapshot(thread, s.thread_id + "-");
        }
        if(from_store)
        {
            // A run on the thread as stored (and, appending, the input's messages after it).
            auto const summary = run->turn->summary();
            std::size_t first = 0;
            auto stored = cc::serving::memory_window(run->turn->history(), options.max_stored_messages,
                summary ? summary->covers : 0, first);
            if(appending && !resuming)
            {
                run->fresh = asked.messages;
                for(auto& m : asked.messages)
                    cc::serving::push_merged(stored, std::move(m));
            }
            asked.messages = std::move(stored);
            if(summary)
                run->ctx.summary = llm::conversation_summary{summary->text, 0};
        }
    }
    // Without a store the client's conversation says whether its last turn waits; the decisions answer it.
    if(!run->turn && !asked.messages.empty())
        waiting = pending_calls(&asked.messages.back());
    if(auto refusal = check_decisions(s, waiting))
    {
        if(run->turn)
            (void)co_await run->turn->finish({}, threads::run_status::failed);
        co_return refuse(input_error_event(*refusal));
    }
    if(resuming)
        run->resumed_calls = waiting;
    // What the thread keeps: the input's last turn (after the last answer), then the answer.
    auto const last_answer = std::find_if(asked.messages.rbegin(), asked.messages.rend(),
        [](llm::message const& m) { return m.role == llm::role::assistant; });
    if(!from_store)
        run->fresh.assign(last_answer.base(), asked.messages.end());
    run->http = req;
    run->request = std::move(asked);
    run->ctx.user = s.user;
    run->ctx.session = s.thread_id;
    run->ctx.http = &run->http;
    if(!reg->add(run))
        co_return refuse(run_exists());
    asio::co_spawn(run->strand, execute(reg, run, s.model), asio::detached);
    co_return result_type(boost::system::in_place_value, std::move(run));
}

// The model an agent's name serves: the default for an empty name.
inline std::shared_ptr<cc::model> find_agent(chat_completions::endpoint const& models, endpoint_options const& options,
    std::string& agent)
{
    if(agent.empty())
        agent = options.default_agent.empty() && !models.models().empty() ? models.models().front()->card().id
                                                                          : options.default_agent;
    return models.find(agent);
}

// The body of endpoint::run, inline so that its lambdas have linkage.
inline asio::awaitable<std::optional<beast::http::message_generator>>
serve_run(chat_completions::endpoint const& models, endpoint_options const& options,
    std::shared_ptr<run_registry> const& reg, http::request&& req, http::any_stream& stream, std::string agent)
{
    auto who = cc::serving::who_asks(options.authenticate, req);
    if(!who)
        co_return cc::serving::error_response(who.error(), req);
    std::string user = std::move(*who);
    auto body = read_body(req, options.max_body_bytes);
    if(!body)
        co_return one_event(req, input_error_event(body.error()));
    auto input = parse_run_input(*body, options.limits);
    if(!input)
        co_return one_event(req, input_error_event(input.error()));
    auto model = find_agent(models, options, agent);
    if(!model)
        co_return cc::serving::error_response({404, "The agent '" + agent + "' does not exist.",
                                                  "invalid_request_error", "agent", "agent_not_found"},
            req);
    if(auto bad = check_id(input->thread_id, "threadId"))
        co_return one_event(req, input_error_event(*bad));
    if(auto bad = check_id(input->run_id, "runId"))
        co_return one_event(req, input_error_event(*bad));
    run_start s;
    s.user = user;
    s.agent = std::move(agent);
    s.model = std::move(model);
    s.thread_id = input->thread_id;
    s.run_id = input->run_id;
    s.request = std::move(input->request);
    auto started = co_await start_run(options, reg, std::move(s), req);
    if(!started)
        co_return one_event(req, started.error());
    auto run = std::move(*started);
    co_await stream_run(reg, options.store, run, run->id, user, 0, req, stream);
    co_return std::nullopt;
}

inline asio::awaitable<std::optional<beast::http::message_generator>> serve_connect(endpoint_options const& options,
    std::shared_ptr<run_registry> const& reg, http::request&& req, http::any_stream& stream)
{
    auto who = cc::serving::who_asks(options.authenticate, req);
    if(!who)
        co_return cc::serving::error_response(who.error(), req);
    std::string user = std::move(*who);
    auto body = read_body(req, options.max_body_bytes);
    if(!body)
        co_return one_event(req, input_error_event(body.error()));
    if(!body->is_object())
        co_return one_event(req, input_error_event({"body", "The body must be a JSON object."}));
    auto thread_id = string_field(body->get_object(), "threadId", true);
    if(!thread_id)
        co_return one_event(req, input_error_event(thread_id.error()));
    auto run_id = string_field(body->get_object(), "runId", false);
    if(!run_id)
        co_return one_event(req, input_error_event(run_id.error()));
    std::int64_t after = 0;
    if(auto const h = req.find("Last-Event-ID"); h != req.end())
    {
        auto const v = h->value();
        auto const [end, err] = std::from_chars(v.data(), v.data() + v.size(), after);
        if(err != std::errc() || end != v.data() + v.size() || after < 0)
            co_return one_event(req, input_error_event({"Last-Event-ID", "Last-Event-ID: expected an event id."}));
    }
    auto const not_found = [&] {
        return run_error("runId: no run '" + *run_id + "' on the thread '" + *thread_id + "'.", "run_not_found");
    };
    auto local = run_id->empty() ? reg->latest_on(*thread_id) : reg->find(*run_id);
    if(local && (local->owner != user || local->thread_id != *thread_id))
        co_return one_event(req, not_found());
    if(!local)
    {
        if(!options.store)
            co_return one_event(req, not_found());
        auto const store = options.store->under(cc::serving::request_traceparent(req));
        threads::result<std::optional<threads::run_info>> found = std::optional<threads::run_info>();
        if(run_id->empty())
            found = co_await store->latest_run(*thread_id, user);
        else
            found = co_await store->find_run(*run_id, user);
        if(!found)
            co_return one_event(req, run_error("The thread store failed: " + found.error().message, "store_failed"));
        if(!*found || (*found)->thread_id != *thread_id)
            co_return one_event(req, not_found());
        *run_id = (*found)->id;
        local = reg->find(*run_id); // it may have started here meanwhile
    }
    else
        *run_id = local->id;
    co_await stream_run(reg, options.store, local, *run_id, user, after, req, stream);
    co_return std::nullopt;
}

inline asio::awaitable<beast::http::message_generator> serve_cancel(endpoint_options const& options,
    std::shared_ptr<run_registry> const& reg, http::request&& req)
{
    auto who = cc::serving::who_asks(options.authenticate, req);
    if(!who)
        co_return cc::serving::error_response(who.error(), req);
    std::string user = std::move(*who);
    auto const invalid = [&](input_error const& e) {
        return cc::serving::error_response(cc::invalid_request(e.message, e.field, "invalid_value"), req);
    };
    auto body = read_body(req, options.max_body_bytes);
    if(!body)
        co_return invalid(body.error());
    if(!body->is_object())
        co_return invalid({"body", "The body must be a JSON object."});
    auto thread_id = string_field(body->get_object(), "threadId", true);
    if(!thread_id)
        co_return invalid(thread_id.error());
    auto run_id = string_field(body->get_object(), "runId", true);
    if(!run_id)
        co_return invalid(run_id.error());
    auto const not_running = [&] {
        return cc::serving::error_response(
            {404, "The run '" + *run_id + "' of the thread '" + *thread_id + "' is not in progress.",
                "invalid_request_error", "runId", "run_not_found"},
            req);
    };
    auto const store_failed = [&](threads::error const& e) {
        return cc::serving::error_response({500, "The thread store failed: " + e.message, "server_error", {}, {}}, req);
    };
    json::object const done{{"threadId", *thread_id}, {"runId", *run_id}, {"status", "cancelling"}};
    if(auto local = reg->find(*run_id))
    {
        if(local->owner != user || local->thread_id != *thread_id || reg->is_over(*local))
            co_return not_running();
        run_registry::stop(local, "cancelled");
        co_return http::json_response(beast::http::status::ok, done, req);
    }
    if(!options.store)
        co_return not_running();
    auto const store = options.store->under(cc::serving::request_traceparent(req));
    auto found = co_await store->find_run(*run_id, user);
    if(!found)
        co_return store_failed(found.error());
    if(!*found || (*found)->thread_id != *thread_id)
        co_return not_running();
    auto asked = co_await store->request_cancel(*run_id, user); // its process learns at its next lease renewal
    if(!asked)
        co_return store_failed(asked.error());
    if(!*asked)
        co_return not_running();
    co_return http::json_response(beast::http::status::ok, done, req);
}

inline asio::awaitable<boost::system::result<void, json::object>> serve_start(chat_completions::endpoint const& models,
    endpoint_options const& options, std::shared_ptr<run_registry> const& reg, run_request r, http::request const& req)
{
    using result_type = boost::system::result<void, json::object>;
    auto model = find_agent(models, options, r.agent);
    if(!model)
        co_return result_type(boost::system::in_place_error,
            run_error("The agent '" + r.agent + "' does not exist.", "agent_not_found"));
    if(auto bad = check_id(r.thread_id, "threadId"))
        co_return result_type(boost::system::in_place_error, input_error_event(*bad));
    if(auto bad = check_id(r.run_id, "runId"))
        co_return result_type(boost::system::in_place_error, input_error_event(*bad));
    run_start s;
    s.user = std::move(r.user);
    s.agent = std::move(r.agent);
    s.model = std::move(model);
    s.thread_id = std::move(r.thread_id);
    s.run_id = std::move(r.run_id);
    s.request = std::move(r.request);
    s.request.stream = true;
    s.reading = conversation_from::thread_then_input;
    s.decision_field = std::move(r.decision_field);
    s.decisions_field = std::move(r.decisions_field);
    s.started_metadata = std::move(r.started_metadata);
    s.cancel_when_unfollowed = r.cancel_when_unfollowed;
    s.cancel_at_once = r.cancel_at_once;
    auto started = co_await start_run(options, reg, std::move(s), req);
    if(!started)
        co_return result_type(boost::system::in_place_error, std::move(started.error()));
    co_return result_type();
}

inline bool ended(threads::run_status s)
{
    return s == threads::run_status::completed || s == threads::run_status::failed ||
        s == threads::run_status::cancelled;
}

inline asio::awaitable<boost::system::result<std::optional<run_snapshot>, std::string>>
serve_find(threads::thread_store* store, std::shared_ptr<run_registry> const& reg, std::string run_id, std::string user)
{
    using result_type = boost::system::result<std::optional<run_snapshot>, std::string>;
    if(auto local = reg->find(run_id))
    {
        if(local->owner != user)
            co_return result_type(std::optional<run_snapshot>());
        run_snapshot snap;
        snap.thread_id = local->thread_id;
        snap.events = reg->events_after(*local, 0, snap.over);
        co_return result_type(std::optional<run_snapshot>(std::move(snap)));
    }
    if(!store)
        co_return result_type(std::optional<run_snapshot>());
    auto found = co_await store->find_run(run_id, user);
    if(!found)
        co_return result_type(boost::system::in_place_error, found.error().message);
    if(!*found)
        co_return result_type(std::optional<run_snapshot>());
    run_snapshot snap;
    snap.thread_id = (*found)->thread_id;
    snap.over = ended((*found)->status);
    for(std::int64_t last = 0;;)
    {
        auto batch = co_await store->events_after(run_id, last, 256);
        if(!batch)
            co_return result_type(boost::system::in_place_error, batch.error().message);
        if(batch->empty())
            break;
        last = batch->back().id;
        for(auto& e : *batch)
            snap.events.push_back(std::move(e));
    }
    if(!snap.over && (*found)->lease_expires_at < threads::now())
    {
        // Its process stopped: the run says no more.
        snap.events.push_back(follower_error("The run was lost: the process running it stopped.", "run_lost"));
        snap.over = true;
    }
    co_return result_type(std::optional<run_snapshot>(std::move(snap)));
}

inline asio::awaitable<void> serve_follow(threads::thread_store* store, std::shared_ptr<run_registry> reg,
    std::string run_id, std::string user, std::int64_t after, event_emitter on_event)
{
    auto local = reg->find(run_id);
    if(local && local->owner != user)
        co_return;
    if(local)
        reg->attach(local);
    struct detach_guard
    {
        std::shared_ptr<run_registry> const& reg;
        std::shared_ptr<live_run> const& run;
        ~detach_guard()
        {
            if(run)
                reg->detach(run);
        }
    } guard{reg, local};
    if(!local && !store)
        co_return;
    co_await follow(reg, store, local, run_id, user, after, on_event);
}

inline asio::awaitable<boost::system::result<bool, std::string>> serve_stop(threads::thread_store* store,
    std::shared_ptr<run_registry> const& reg, std::string run_id, std::string user)
{
    using result_type = boost::system::result<bool, std::string>;
    if(auto local = reg->find(run_id))
    {
        if(local->owner != user || reg->is_over(*local))
            co_return result_type(false);
        run_registry::stop(local, "cancelled");
        co_return result_type(true);
    }
    if(!store)
        co_return result_type(false);
    auto asked = co_await store->request_cancel(run_id, user); // its process learns at its next lease renewal
    if(!asked)
        co_return result_type(boost::system::in_place_error, asked.error().message);
    co_return result_type(*asked);
}

} // namespace detail

AGENTIO_DECL asio::awaitable<boost::system::result<void, json::object>> endpoint::start(run_request r,
    http::request const& req) const
{
    return detail::serve_start(models_, options_, runs_, std::move(r), req);
}

AGENTIO_DECL asio::awaitable<boost::system::result<std::optional<run_snapshot>, std::string>>
endpoint::find(std::string_view run_id, std::string_view user) const
{
    return detail::serve_find(options_.store, runs_, std::string(run_id), std::string(user));
}

AGENTIO_DECL asio::awaitable<void> endpoint::follow(std::string_view run_id, std::string_view user, std::int64_t after,
    std::function<asio::awaitable<bool>(threads::event_record const&)> on_event) const
{
    return detail::serve_follow(options_.store, runs_, std::string(run_id), std::string(user), after,
        std::move(on_event));
}

AGENTIO_DECL asio::awaitable<boost::system::result<bool, std::string>> endpoint::stop(std::string_view run_id,
    std::string_view user) const
{
    return detail::serve_stop(options_.store, runs_, std::string(run_id), std::string(user));
}

AGENTIO_DECL asio::awaitable<std::optional<beast::http::message_generator>> endpoint::run(http::request&& req,
    http::any_stream& stream, std::string_view agent) const
{
    return detail::serve_run(models_, options_, runs_, std::move(req), stream, std::string(agent));
}

AGENTIO_DECL asio::awaitable<std::optional<beast::http::message_generator>> endpoint::connect(http::request&& req,
    http::any_stream& stream) const
{
    return detail::serve_connect(options_, runs_, std::move(req), stream);
}

AGENTIO_DECL asio::awaitable<beast::http::message_generator> endpoint::cancel(http::request&& req) const
{
    return detail::serve_cancel(options_, runs_, std::move(req));
}

} // namespace agentio::ag_ui

#endif
