//
// agentio/threads/impl/run_execution.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// A run's life in run_manager's core: started (on a stored thread or a new
// one) or resumed from its last checkpoint, the agent run on the run's
// strand with each round checkpointed, its end written with its last events,
// and cancel. The only part that calls the agent; the others move a run's
// events and leases around it. Included by impl/run_manager.hpp.
//

#ifndef AGENTIO_THREADS_IMPL_RUN_EXECUTION_HPP
#define AGENTIO_THREADS_IMPL_RUN_EXECUTION_HPP

namespace agentio::threads {

namespace detail {

// A call's result as the calls journal keeps it: the tool-result block the
// model reads, in the store's message JSON (images included).
inline json::value call_result_to_json(tool_result const& r)
{
    llm::message m{llm::role::user, {}};
    m.content.emplace_back(agent::detail::to_result_block({}, r));
    return llm::to_json(m);
}

inline tool_result call_result_from_json(json::value const& v)
{
    auto const m = llm::message_from_json(v);
    auto const* block = m && !m->content.empty() ? std::get_if<llm::tool_result_block>(&m->content.front()) : nullptr;
    if(!block)
        return tool_result::error("the recorded result of this call could not be read");
    tool_result r;
    r.is_error = block->is_error;
    for(auto const& c : block->content)
        if(auto const* t = std::get_if<llm::text_block>(&c))
            r.content.emplace_back(text_content{t->text});
        else if(auto const* img = std::get_if<llm::image_block>(&c))
            r.content.emplace_back(image_content{img->media_type, img->base64_data});
    return r;
}

// The calls of round `round` an earlier attempt at the run started, as the orchestrator takes them.
inline std::vector<agent::earlier_call> earlier_calls_of(std::vector<call_record> const& journaled, unsigned round)
{
    std::vector<agent::earlier_call> out;
    for(auto const& c : journaled)
        if(c.round == round)
            out.push_back({c.call_id, c.finished, c.finished ? call_result_from_json(c.result) : tool_result{}});
    return out;
}

// What a durable run records around its tool calls: the model's turn before
// they run (a checkpoint), each call's start and result (the calls journal).
class durable_call_journal final : public agent::call_journal
{
public:
    using checkpoint_fn = std::function<asio::awaitable<bool>(std::span<llm::message const>, unsigned, json::object)>;

    durable_call_journal(thread_store& store, std::string run_id, std::string holder, checkpoint_fn checkpoint)
        : store_(store)
        , run_id_(std::move(run_id))
        , holder_(std::move(holder))
        , checkpoint_(std::move(checkpoint))
    {
    }

    // The round whose model turn the thread already holds (its checkpoint then stores only the results).
    unsigned turn_kept = 0;

    asio::awaitable<void> calls_ahead(std::span<llm::message const> model_turn, unsigned round) override
    {
        json::object extra;
        extra["calls_ahead"] = round;
        if(co_await checkpoint_(model_turn, round - 1, std::move(extra)))
            turn_kept = round;
    }

    asio::awaitable<bool> started(llm::tool_use_block const& call, unsigned round) override
    {
        call_record const record{call.id, call.name, call.input, round, 0, false, nullptr};
        auto const ok = co_await store_.call_started(run_id_, holder_, record);
        co_return ok.has_value();
    }

    asio::awaitable<void> finished(llm::tool_use_block const& call, tool_result const& result) override
    {
        auto const recorded = call_result_to_json(result);
        (void)co_await store_.call_finished(run_id_, holder_, call.id, recorded); // lost: the lease says so next
    }

private:
    thread_store& store_;
    std::string run_id_;
    std::string holder_;
    checkpoint_fn checkpoint_;
};

template<class Agent>
asio::awaitable<result<typename run_manager_core<Agent>::started>>
run_manager_core<Agent>::start_run(std::string thread_id, std::string owner, std::vector<llm::message> messages,
    busy_policy when_busy, std::string traceparent)
{
    new_run nr{{}, std::move(thread_id), std::move(owner), options_.holder, options_.lease, std::move(messages)};
    nr.when_busy = when_busy;
    return begin(std::move(nr), std::move(traceparent));
}

template<class Agent>
asio::awaitable<result<typename run_manager_core<Agent>::started>>
run_manager_core<Agent>::start_run(thread_info thread, std::vector<llm::message> messages, std::string traceparent)
{
    new_run nr{{}, thread.id, thread.owner, options_.holder, options_.lease, std::move(messages)};
    nr.new_thread = std::move(thread);
    return begin(std::move(nr), std::move(traceparent));
}

template<class Agent>
asio::awaitable<result<typename run_manager_core<Agent>::started>> run_manager_core<Agent>::begin(new_run nr,
    std::string traceparent)
{
    started out{boost::uuids::to_string(boost::uuids::random_generator()())};
    nr.id = out.run_id;
    // The request's reads and writes: spans of its trace when the store records them.
    std::shared_ptr<thread_store> const traced = store_.under(traceparent);
    thread_store& store = *traced;
    // Read before the thread is held: only a run holding it writes a summary.
    std::optional<thread_summary> summary;
    if(!nr.new_thread)
    {
        auto latest = co_await store.latest_summary(nr.thread_id);
        if(!latest)
            co_return latest.error();
        summary = std::move(*latest);
    }
    if(nr.when_busy == busy_policy::interrupt && !nr.new_thread)
    {
        // A run waiting for decisions has nobody to stop it: it ends here.
        auto latest = co_await store.latest_run(nr.thread_id, nr.owner);
        if(latest && *latest && (*latest)->status == run_status::waiting)
            (void)co_await cancel((*latest)->id, nr.owner, "interrupted");
    }
    // The store hands the whole thread back: no second read.
    auto admitted = co_await store.admit_run(nr);
    if(!admitted)
        co_return admitted.error();
    if(!admitted->interrupted_run.empty())
    {
        std::lock_guard lock(mutex_);
        if(auto it = runs_.find(admitted->interrupted_run); it != runs_.end())
            cancel_local(it->second, "interrupted", true); // here: at once, not at the next renewal
    }
    if(admitted->status == run_status::queued)
    {
        out.status = run_status::queued;
        out.ahead = admitted->ahead;
        co_return out;
    }
    std::vector<llm::message> conversation;
    conversation.reserve(admitted->items.size());
    for(auto& item : admitted->items)
        conversation.push_back(std::move(item.message));
    launch(out.run_id, std::move(nr.thread_id), std::move(conversation), 0, 1, std::nullopt, std::move(nr.owner), {},
        std::move(summary), {}, std::move(traceparent));
    co_return out;
}

template<class Agent>
asio::awaitable<void> run_manager_core<Agent>::resume(run_info run, bool restarted)
{
    auto items = co_await store_.load_items(run.thread_id);
    auto summary = co_await store_.latest_summary(run.thread_id);
    auto journaled = co_await store_.run_calls(run.id);
    if(!items || !summary || !journaled)
        co_return; // the lease expires again; someone retries
    std::vector<llm::message> conversation;
    for(auto& item : *items)
        conversation.push_back(std::move(item.message));
    std::int64_t discard_after = 0;
    std::vector<agent::approval_decision> decisions;
    if(auto const* o = run.state.if_object())
    {
        if(auto const* e = o->if_contains("event_id"); e && e->is_int64())
            discard_after = e->get_int64();
        if(auto const* d = o->if_contains("decisions"); d && d->is_object())
            for(auto const& [id, v] : d->get_object())
                if(auto const* dv = v.if_object())
                {
                    auto const* approved = dv->if_contains("approved");
                    auto const* reason = dv->if_contains("reason");
                    decisions.push_back({std::string(id), approved && approved->is_bool() && approved->get_bool(),
                        reason && reason->is_string() ? std::string(reason->get_string()) : std::string()});
                }
    }
    std::optional<round_restart> retract;
    if(restarted)
        retract = round_restart{run.rounds + 1, discard_after};
    // The round resumed: the calls an earlier attempt started (finished, or in doubt).
    auto earlier = earlier_calls_of(*journaled, run.rounds + 1);
    launch(run.id, run.thread_id, std::move(conversation), run.rounds, run.last_event_id + 1, retract, run.owner,
        std::move(decisions), std::move(*summary), std::move(earlier));
}

template<class Agent>
void run_manager_core<Agent>::launch(std::string run_id, std::string thread_id, std::vector<llm::message> conversation,
    unsigned rounds, std::int64_t next_id, std::optional<round_restart> restart, std::string owner,
    std::vector<agent::approval_decision> decisions, std::optional<thread_summary> summary,
    std::vector<agent::earlier_call> earlier, std::string traceparent)
{
    auto run = std::make_shared<run_slot>(std::move(run_id), std::move(thread_id), std::move(owner), ex_);
    run->traced = store_.under(traceparent);
    run->traceparent = std::move(traceparent);
    run->next_id = next_id;
    run->committed = next_id - 1;
    {
        std::lock_guard lock(mutex_);
        runs_[run->id] = run;
        // Readers here that followed it before it ran here (queued, or taken over) read it now.
        if(auto f = followed_.find(run->id); f != followed_.end())
            run->readers = f->second;
    }
    if(run->readers == 0)
        arm_detach_timer(run);
    asio::co_spawn(
        run->strand,
        [self = this->shared_from_this(), run, conversation = std::move(conversation), rounds, restart,
            decisions = std::move(decisions), summary = std::move(summary), earlier = std::move(earlier)]() mutable {
            return self->execute(run, std::move(conversation), rounds, restart, std::move(decisions),
                std::move(summary), std::move(earlier));
        },
        asio::detached);
}

template<class Agent>
asio::awaitable<void> run_manager_core<Agent>::execute(std::shared_ptr<run_slot> run,
    std::vector<llm::message> conversation, unsigned rounds, std::optional<round_restart> restart,
    std::vector<agent::approval_decision> decisions, std::optional<thread_summary> summary,
    std::vector<agent::earlier_call> earlier)
{
    auto const began = std::chrono::steady_clock::now();
    thread_store& store = *run->traced; // the run's own writes: under its request's trace
    json::object state;
    std::int64_t checkpoint_event = run->committed;
    bool store_failed = false;
    if(restart)
    {
        record(*run, *restart);
    }
    // A round's last events, its messages and the run's state, in one write.
    auto save_checkpoint = [&](std::span<llm::message const> messages, unsigned rounds_done,
                               json::object extra) -> asio::awaitable<bool> {
        auto events = co_await take_journal(*run);
        if(!events)
            co_return false;
        {
            std::lock_guard lock(mutex_);
            checkpoint_event = events->empty() ? run->committed : events->back().id;
        }
        state["event_id"] = checkpoint_event;
        for(auto& [key, value] : extra)
            state[key] = std::move(value);
        auto saved = co_await store.checkpoint(run->id, options_.holder, *events, messages, rounds_done, state);
        co_return settle_write(run, *events, saved);
    };
    durable_call_journal journal(store, run->id, options_.holder,
        [&save_checkpoint](std::span<llm::message const> messages, unsigned rounds_done, json::object extra) {
            return save_checkpoint(messages, rounds_done, std::move(extra));
        });
    auto sink = [&](agent::event const& e) -> asio::awaitable<bool> {
        if(auto const* complete = std::get_if<agent::round_complete>(&e))
        {
            json::object usage;
            usage["input_tokens"] = complete->usage.input_tokens;
            usage["output_tokens"] = complete->usage.output_tokens;
            // The model's turn is in the thread already when its calls were journaled ahead.
            auto messages = complete->messages;
            if(journal.turn_kept == complete->iteration && !messages.empty())
                messages = messages.subspan(1);
            co_return co_await save_checkpoint(messages, complete->iteration, std::move(usage));
        }
        if(auto const* made = std::get_if<agent::compacted>(&e))
        {
            // The thread keeps it beside its messages (the conversation is the whole thread: index n is seq n + 1).
            // A store that fails here costs only the summary: the next run compacts again.
            (void)co_await store.save_summary(run->thread_id, static_cast<std::int64_t>(made->summary.covers),
                made->summary.text);
        }
        if(auto const* wait = std::get_if<agent::approval_required>(&e))
        {
            // Journal one event per call, store the model's turn, then sleep.
            json::array pending;
            for(auto const& c : wait->calls)
            {
                if(!record(*run, approval_pending{c.tool_call_id, c.tool, c.input, c.in_doubt}))
                    co_return false;
                json::object p;
                p["tool_call_id"] = c.tool_call_id;
                p["tool"] = c.tool;
                p["input"] = c.input;
                pending.push_back(std::move(p));
            }
            json::object extra;
            extra["pending"] = std::move(pending);
            extra["decisions"] = json::object{};
            extra["input_tokens"] = wait->usage.input_tokens;
            extra["output_tokens"] = wait->usage.output_tokens;
            if(!co_await save_checkpoint(wait->messages, wait->iteration - 1, std::move(extra)))
                co_return false;
            run->suspending = true;
            co_return true;
        }
        co_return record(*run, run_event{e});
    };
    agent::run_options how{rounds, decisions, {}}; // named: GCC 12 destroys braced temporaries in a co_await twice
    how.idempotency_scope = run->thread_id;        // each call's key: thread/call, the same in any process
    how.journal = &journal;
    how.traceparent = run->traceparent; // its invoke_agent span: a child of the request's
    how.earlier_calls = earlier;
    if(summary)
        how.summary = llm::conversation_summary{std::move(summary->text),
            static_cast<std::size_t>(summary->through_seq)};
    auto result = co_await asio::co_spawn(run->strand, agent_.run(conversation, sink, std::move(how)),
        asio::bind_cancellation_slot(run->signal.slot(), asio::use_awaitable));

    std::optional<std::string> cancel_reason;
    bool announce = true;
    bool lost = false;
    {
        std::lock_guard lock(mutex_);
        cancel_reason = run->cancel_reason;
        announce = run->announce_cancel;
        lost = run->lease_lost;
        store_failed = run->journal_failure.has_value();
    }
    // A run stopped with its process, lost to another process or to a
    // failed store is left as the store has it: another process (or this
    // one, restarted) takes it over when its lease expires.
    bool const abandoned = result.status == agent::run_result::outcome::cancelled && !announce;
    if(!lost && !store_failed && !abandoned)
    {
        run_status status = run_status::completed;
        if(result.status == agent::run_result::outcome::suspended && run->suspending)
            status = run_status::waiting;
        else if(result.status == agent::run_result::outcome::failed)
            status = run_status::failed;
        else if(result.status == agent::run_result::outcome::cancelled)
        {
            status = run_status::cancelled;
            if(announce)
                record(*run, run_cancelled{cancel_reason.value_or("cancelled")});
        }
        // The last events and the run's end, in one write.
        if(auto events = co_await take_journal(*run))
        {
            if(status == run_status::waiting)
            {
                auto ended = co_await store.suspend_run(run->id, options_.holder, *events, state);
                settle_write(run, *events, ended);
            }
            else
            {
                state["status_reason"] = result.error_message;
                auto ended = co_await store.finish_run(run->id, options_.holder, *events, status, state);
                settle_write(run, *events, ended);
            }
        }
    }
    run->grace.cancel();
    if(options_.on_end)
        options_.on_end(run_context{run->id, run->thread_id}, result, cancel_reason.value_or(""),
            std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - began));
    {
        std::lock_guard lock(mutex_);
        runs_.erase(run->id);
    }
    // Readers following it from memory look at the store now (it may be
    // waiting for a decision, or another process may run it).
    local_hub_.wake_all(run->id);
    // Its thread may be free now: whoever waits in its line goes next.
    if(!stopped_)
        co_await start_queued();
}

template<class Agent>
asio::awaitable<void> run_manager_core<Agent>::start_queued()
{
    while(!stopped_)
    {
        auto claimed = co_await store_.claim_queued_run({}, options_.holder, options_.lease);
        if(!claimed || !*claimed)
            co_return;
        run_info& run = (*claimed)->run;
        std::vector<item>& items = (*claimed)->items;
        auto summary = co_await store_.latest_summary(run.thread_id);
        std::vector<llm::message> conversation;
        conversation.reserve(items.size());
        for(auto& item : items)
            conversation.push_back(std::move(item.message));
        launch(run.id, run.thread_id, std::move(conversation), 0, run.last_event_id + 1, std::nullopt, run.owner, {},
            summary ? std::move(*summary) : std::nullopt);
    }
}

template<class Agent>
void run_manager_core<Agent>::cancel_local(std::shared_ptr<run_slot> const& run, std::string reason, bool announce)
{
    if(run->cancel_reason)
        return;
    run->cancel_reason = std::move(reason);
    run->announce_cancel = announce;
    asio::post(run->strand, [run] { run->signal.emit(asio::cancellation_type::terminal); });
}

template<class Agent>
asio::awaitable<result<bool>> run_manager_core<Agent>::cancel(std::string run_id, std::string owner, std::string reason)
{
    {
        std::lock_guard lock(mutex_);
        if(auto it = runs_.find(run_id); it != runs_.end() && it->second->owner == owner)
        {
            cancel_local(it->second, std::move(reason), true);
            co_return true;
        }
    }
    auto requested = co_await store_.request_cancel(run_id, owner);
    if(!requested || !*requested)
        co_return requested;
    auto claimed = co_await store_.claim_waiting_run(run_id, owner, options_.holder, options_.lease);
    if(!claimed)
        co_return claimed.error();
    if(*claimed)
    {
        // Journal the end and close it, as the run itself would have.
        auto const& run = **claimed;
        std::vector<event_record> last;
        if(auto rec = map_(run_cancelled{reason}, run_context{run.id, run.thread_id}))
        {
            rec->id = run.last_event_id + 1;
            last.push_back(std::move(*rec));
        }
        auto finished = co_await store_.finish_run(run.id, options_.holder, last, run_status::cancelled, run.state);
        if(!finished)
            co_return finished.error();
    }
    co_return true;
}

template<class Agent>
asio::awaitable<void> run_manager_core<Agent>::abandon(std::string const& run_id, error const& why)
{
    json::object state;
    state["error"] = why.message;
    std::span<event_record const> const none;
    co_await store_.finish_run(run_id, options_.holder, none, run_status::failed, state);
}

} // namespace detail

} // namespace agentio::threads

#endif
