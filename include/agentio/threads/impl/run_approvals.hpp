//
// agentio/threads/impl/run_approvals.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Approvals in run_manager's core: a person's decision on a call a waiting
// run asks about, recorded in the run's stored state (compare and swap: a
// decision that lands first from anywhere makes this one read again), and
// the last one resuming the run here. Apart because a waiting run has no holder: this
// works on the store alone until the run is claimed again. (How a run comes
// to wait is the agent's event, handled where the run executes.)
// Included by impl/run_manager.hpp.
//

#ifndef AGENTIO_THREADS_IMPL_RUN_APPROVALS_HPP
#define AGENTIO_THREADS_IMPL_RUN_APPROVALS_HPP

namespace agentio::threads {

namespace detail {

template<class Agent>
asio::awaitable<result<decision_outcome>> run_manager_core<Agent>::decide(std::string run_id, std::string owner,
    agent::approval_decision decision)
{
    for(int attempt = 0; attempt < 8; ++attempt)
    {
        auto found = co_await store_.find_run(run_id, owner);
        if(!found)
            co_return found.error();
        if(!*found)
            co_return decision_outcome::not_found;
        auto const& run = **found;
        if(run.status != run_status::waiting || !run.state.is_object())
            co_return decision_outcome::not_waiting;
        auto state = run.state.get_object();
        auto const* pending = state.if_contains("pending");
        if(!pending || !pending->is_array())
            co_return decision_outcome::not_waiting;
        json::object decisions;
        if(auto const* d = state.if_contains("decisions"); d && d->is_object())
            decisions = d->get_object();
        bool waits_for_it = false;
        for(auto const& p : pending->get_array())
            if(p.is_object() && p.get_object().if_contains("tool_call_id") &&
                p.get_object().at("tool_call_id") == decision.tool_call_id.c_str())
                waits_for_it = true;
        if(!waits_for_it || decisions.contains(decision.tool_call_id))
            co_return decision_outcome::unknown_call;
        json::object d;
        d["approved"] = decision.approved;
        d["reason"] = decision.reason;
        decisions[decision.tool_call_id] = std::move(d);
        bool const complete = decisions.size() >= pending->get_array().size();
        state["decisions"] = decisions;
        json::value const updated = state;
        auto stored = co_await store_.update_waiting_state(run_id, owner, run.state, updated);
        if(!stored)
            co_return stored.error();
        if(!*stored)
            continue; // another decision landed meanwhile: read again
        if(!complete)
            co_return decision_outcome::recorded;
        auto claimed = co_await store_.claim_waiting_run(run_id, owner, options_.holder, options_.lease);
        if(!claimed)
            co_return claimed.error();
        if(!*claimed)
            co_return decision_outcome::not_waiting; // resumed or cancelled by someone else
        co_await resume(std::move(**claimed), false);
        co_return decision_outcome::resumed;
    }
    co_return decision_outcome::not_waiting;
}

} // namespace detail

} // namespace agentio::threads

#endif
