//
// agentio/chat_completions/strategy_model.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// One agent, four ways to run it, as one Chat Completions model: the native
// tool loop (as agent_model), ReAct for models without tool calling,
// plan-and-execute with verification, and plain chat (one model call without
// a tool menu, for a greeting, thanks or a rewrite of the last answer). The
// request's `agent_type` field (`tools`, `react`, `plan_execute`, `chat`)
// forces one; otherwise the model's `choose` decides (agent::classify with a
// keyword fallback, typically).
// What the client sees: the answer as `content`; the strategy, the thoughts,
// plans, steps, tool calls and verdicts as lines of `reasoning_content`. A
// plan's answer reaches `content` once it is final (verified, or the replans
// ran out), so that a rejected answer is never shown as the answer.
//
// The events ReAct and plan-and-execute share (text, the end, a failure; see
// agent/vocabulary.hpp) are forwarded by one function; each strategy's own
// events become activity lines.
//

#ifndef AGENTIO_CHAT_COMPLETIONS_STRATEGY_MODEL_HPP
#define AGENTIO_CHAT_COMPLETIONS_STRATEGY_MODEL_HPP

#include <agentio/agent/plan_execute.hpp>
#include <agentio/agent/react.hpp>
#include <agentio/agent/strategy.hpp>
#include <agentio/agent/vocabulary.hpp>
#include <agentio/chat_completions/agent_model.hpp>
#include <agentio/tool/toolset.hpp>

#include <functional>
#include <string>
#include <utility>

namespace agentio::chat_completions {

/// How a @ref strategy_model behaves.
struct strategy_model_options
{
    /// How `/v1/models` lists it.
    model_card card = {};
    /// The tool loop: model, system prompt, limits (and the texts of every strategy's activity lines).
    agent::options tools = {};
    /// ReAct: model, system prompt, `max_iterations`.
    agent::react::options react = {};
    /// Plan-and-execute: models, verdict tokens, replans.
    agent::plan_execute::options plan = {};
    /** Plain chat: one call, no tools. An empty `model`, `system` or
        `context.window` is the tool loop's; `limits.max_rounds` is 1. */
    agent::options chat = {};
    /// The request field that forces a strategy.
    std::string field = "agent_type";
    /// Chooses when the request does not say; empty: the tool loop.
    std::function<asio::awaitable<agent::strategy>(request const&)> choose = {};
    /// A line for the application's log at each step (the strategy, each tool call, each plan step, the
    /// verdict), with the request's context (its user and session).
    std::function<void(call_context const&, std::string_view)> log = {};
    /// The tool loop's question about a call that needs approval (@ref agent_model_options::describe_approval).
    std::function<std::string(agent::approval_request const&)> describe_approval = {};
};

/** An agent served with four strategies over one provider and one set of tools.

    @tparam Provider an @ref llm::provider, held by reference
    @tparam Tools a @ref tool_catalog, held by value
*/
template<llm::provider Provider, tool_catalog Tools>
class strategy_model final : public model
{
public:
    strategy_model(Provider& provider, Tools tools, strategy_model_options options)
        : provider_(provider)
        , tools_(std::move(tools))
        , options_(std::move(options))
        , loop_(provider, tools_,
              agent_model_options{options_.card, options_.tools, true, {}, options_.describe_approval})
        , chat_(provider, toolset<>{}, agent_model_options{options_.card, chat_options(options_), true, {}})
    {
    }

    model_card const& card() const noexcept override { return options_.card; }

    asio::awaitable<void> complete(request r, call_context const& ctx, output_sink sink) override
    {
        std::optional<agent::strategy> forced;
        if(auto const* v = r.extra.if_contains(options_.field); v && !v->is_null())
        {
            forced = v->is_string() ? agent::parse_strategy(v->get_string()) : std::nullopt;
            if(!forced)
            {
                sink(failed{invalid_request("Invalid value for '" + options_.field +
                        "': expected 'tools', 'react', 'plan_execute' or 'chat'.",
                    options_.field, "invalid_value")});
                co_return;
            }
            if(*forced != agent::strategy::tools && !r.tools.empty())
            {
                sink(failed{invalid_request(*forced == agent::strategy::chat
                        ? std::string("The strategy 'chat' offers no tools: send the client's tools with 'tools' or "
                                      "none.")
                        : "The strategy '" + std::string(agent::to_string(*forced)) +
                            "' runs only this model's tools: send the client's tools with 'tools' or none.",
                    options_.field, "invalid_value")});
                co_return;
            }
        }
        agent::strategy chosen = agent::strategy::tools;
        if(!r.decisions.empty())
        {
            // Only the tool loop stops for approvals: decisions resume it.
            if(forced && *forced != agent::strategy::tools)
            {
                sink(failed{invalid_request("The strategy '" + std::string(agent::to_string(*forced)) +
                        "' takes no decisions: only 'tools' stops for approvals.",
                    options_.field, "invalid_value")});
                co_return;
            }
        }
        else if(forced)
            chosen = *forced;
        else if(r.tools.empty() && options_.choose)
            chosen = co_await options_.choose(r);
        log(ctx,
            format_message("strategy={strategy}{how}",
                {{"strategy", agent::to_string(chosen)}, {"how", forced ? " (asked)" : " (chosen)"}}));
        sink(reasoning_delta{
            format_message(texts().activity_strategy, {{"strategy", agent::to_string(chosen)}}) + "\n"});

        if(chosen == agent::strategy::tools)
        {
            co_await loop_.complete(std::move(r), ctx, std::move(sink));
            co_return;
        }
        if(chosen == agent::strategy::chat)
        {
            co_await chat_.complete(std::move(r), ctx, std::move(sink));
            co_return;
        }
        if(chosen == agent::strategy::react)
        {
            auto opts = options_.react;
            if(!r.system.empty())
                opts.system = opts.system.empty() ? r.system : opts.system + "\n\n" + r.system;
            if(r.max_tokens)
                opts.max_tokens = *r.max_tokens;
            if(ctx.summary) // the session's older turns, summarized: ReAct reads the summary after its prompt
                opts.system = llm::system_with_summary(opts.system, opts.texts.compaction_heading, ctx.summary->text);
            opts.telemetry.traceparent = ctx.traceparent();
            opts.telemetry.conversation_id = ctx.session;
            detail::with_client_tools<Tools> catalog(tools_, {}, caller{ctx.user, ctx.session});
            agent::react::agent<Provider, detail::with_client_tools<Tools>> runner(provider_, catalog, std::move(opts));
            run_state state;
            auto on_event = [this, &sink, &state, &ctx](agent::react::event const& e) {
                forward_shared(e, sink, state);
                show_activity(e, sink, ctx);
            };
            co_await runner.run(r.messages, on_event);
            co_return;
        }
        auto opts = options_.plan;
        if(r.max_tokens)
            opts.max_tokens = *r.max_tokens;
        opts.telemetry.traceparent = ctx.traceparent();
        opts.telemetry.conversation_id = ctx.session;
        detail::with_client_tools<Tools> catalog(tools_, {}, caller{ctx.user, ctx.session});
        agent::plan_execute::agent<Provider, detail::with_client_tools<Tools>> runner(provider_, catalog,
            std::move(opts));
        run_state state{.hold_answer = true};
        auto on_event = [this, &sink, &state, &ctx](agent::plan_execute::event const& e) {
            forward_shared(e, sink, state);
            show_activity(e, sink, state, ctx);
        };
        auto const task = request_text(r);
        co_await runner.run(task, on_event);
    }

private:
    // Plain chat's options: what it does not set, the tool loop's; a single call.
    static agent::options chat_options(strategy_model_options const& o)
    {
        auto chat = o.chat;
        if(chat.model.empty())
            chat.model = o.tools.model;
        if(chat.system.empty())
            chat.system = o.tools.system;
        if(chat.context.window == 0)
            chat.context = o.tools.context;
        chat.limits.max_rounds = 1;
        chat.limits.last_round_answers = false;
        if(!chat.telemetry.active())
            chat.telemetry = o.tools.telemetry;
        chat.telemetry.strategy = agent::to_string(agent::strategy::chat); // its runs counted as chat, not tools
        return chat;
    }

    // What a run has written, for the shared events.
    struct run_state
    {
        // The answer is held until the run ends (a plan's answer may be replaced by a later revision's).
        bool hold_answer = false;
        std::string answer = {};
        // Steps of the current plan, for the activity lines.
        std::size_t steps = 0;
        // The plan as state (`state_update`): its revision and each step with its status.
        unsigned revision = 0;
        json::array plan = {};
    };

    // The plan and how far it has got, whole: what an AG-UI client keeps as the run's state.
    static state_update plan_state(run_state const& state)
    {
        return {json::object{{"plan", json::object{{"revision", state.revision}, {"steps", state.plan}}}}};
    }

    static std::string step_name(unsigned index, std::string_view text)
    {
        return std::to_string(index + 1) + ". " + std::string(text);
    }

    static void mark_step(run_state& state, unsigned index, std::string_view status)
    {
        if(index < state.plan.size())
            state.plan[index].as_object()["status"] = status;
    }

    void log(call_context const& ctx, std::string const& line) const
    {
        if(options_.log)
            options_.log(ctx, line);
    }

    messages const& texts() const noexcept { return options_.tools.texts; }

    // The task of a plan: the last question, after the conversation that led to it.
    static std::string request_text(request const& r)
    {
        std::string context;
        for(std::size_t i = 0; i + 1 < r.messages.size(); ++i)
        {
            auto const text = r.messages[i].text();
            if(text.empty())
                continue;
            context.append(r.messages[i].role == llm::role::user ? "User: " : "Assistant: ").append(text).append("\n");
        }
        auto question = r.messages.empty() ? std::string() : r.messages.back().text();
        if(context.empty())
            return question;
        return "Conversation so far:\n" + context + "\nRequest: " + question;
    }

    static std::string first_line(std::string_view text, std::size_t max = 160)
    {
        auto line = text.substr(0, text.find('\n'));
        if(line.size() > max)
            return std::string(line.substr(0, max)) + "…";
        return std::string(line);
    }

    // The events every strategy sends: the answer's text to `content` (at the
    // end when it is held), the end with its usage, a failure.
    template<class Event>
    void forward_shared(Event const& e, output_sink& sink, run_state& state) const
    {
        agent::visit_shared(
            e,
            [&](agent::text_delta const& d) {
                if(state.hold_answer)
                    state.answer += d.text;
                else
                    sink(content_delta{d.text});
            },
            [&](agent::finished const& end) {
                if(state.hold_answer)
                    sink(content_delta{std::move(state.answer)});
                sink(finished{finish_reason::stop, end.usage});
            },
            [&](agent::error const& failure) {
                sink(failed{{502, failure.message, "server_error", {}, "agent_failed"}});
            });
    }

    // ReAct's own events, as activity lines.
    void show_activity(agent::react::event const& e, output_sink& sink, call_context const& ctx) const
    {
        namespace ev = agent::react::events;
        agent::visit_event(
            e,
            [&](ev::thought const& t) {
                if(!t.text.empty())
                    sink(reasoning_delta{format_message(texts().activity_thought, {{"text", t.text}}) + "\n"});
            },
            [&](ev::action const& a) {
                log(ctx, "react step " + std::to_string(a.iteration) + ": " + a.tool);
                sink(step_boundary{"react " + std::to_string(a.iteration) + ": " + a.tool, false});
                sink(reasoning_delta{"→ " + a.tool + "(" + agent::summarize_input(a.input) + ")\n"});
            },
            [&](ev::observation const& o) {
                sink(reasoning_delta{"← " + o.tool + (o.is_error ? " ✗ " : ": ") + first_line(o.text) + "\n"});
                sink(step_boundary{"react " + std::to_string(o.iteration) + ": " + o.tool, true});
            },
            [&](ev::malformed const& m) {
                log(ctx, "react step " + std::to_string(m.iteration) + ": malformed reply");
                sink(reasoning_delta{format_message(texts().activity_malformed, {{"reason", m.reason}}) + "\n"});
            });
    }

    // Plan-and-execute's own events, as activity lines; a replan drops the held answer.
    void show_activity(agent::plan_execute::event const& e, output_sink& sink, run_state& state,
        call_context const& ctx) const
    {
        namespace ev = agent::plan_execute::events;
        agent::visit_event(
            e,
            [&](ev::plan const& p) {
                std::string steps;
                for(std::size_t i = 0; i < p.steps.size(); ++i)
                    steps
                        .append(format_message(texts().plan_step_item,
                            {{"index", std::to_string(i + 1)}, {"step", p.steps[i]}}))
                        .append("\n");
                state.steps = p.steps.size();
                state.revision = p.revision;
                state.plan.clear();
                for(auto const& step : p.steps)
                    state.plan.push_back(json::object{{"step", step}, {"status", "pending"}});
                log(ctx,
                    "plan revision " + std::to_string(p.revision) + ": " + std::to_string(p.steps.size()) + " steps");
                sink(reasoning_delta{format_message(texts().activity_plan, {{"steps", steps}})});
                sink(plan_state(state));
            },
            [&](ev::plan_rejected const& r) {
                sink(reasoning_delta{
                    format_message(texts().activity_malformed, {{"reason", first_line(r.errors)}}) + "\n"});
            },
            [&](ev::step_started const& s) {
                log(ctx, "plan step " + std::to_string(s.index + 1) + "/" + std::to_string(state.steps));
                sink(step_boundary{step_name(s.index, s.text), false});
                mark_step(state, s.index, "running");
                sink(plan_state(state));
                sink(reasoning_delta{format_message(texts().activity_step,
                                         {{"index", std::to_string(s.index + 1)},
                                             {"count", std::to_string(state.steps)}, {"text", s.text}}) +
                    "\n"});
            },
            [&](ev::step_event const& inner) {
                agent::visit_event(
                    inner.event,
                    [&](agent::round_end const& end) {
                        for(auto const* call : end.calls)
                            sink(reasoning_delta{
                                "  → " + call->name + "(" + agent::summarize_input(call->input) + ")\n"});
                    },
                    [&](agent::tool_call const& call) {
                        sink(reasoning_delta{
                            "  ← " + call.tool + (call.is_error ? " ✗ " : ": ") + call.result_summary + "\n"});
                    });
            },
            [&](ev::step_finished const& f) {
                std::string text;
                if(f.index < state.plan.size())
                    text = std::string(state.plan[f.index].at("step").as_string());
                sink(step_boundary{step_name(f.index, text), true});
                mark_step(state, f.index, "done");
                sink(plan_state(state));
            },
            [&](ev::verification const& v) {
                log(ctx, "plan verification: " + std::string(agent::plan_execute::to_string(v.verdict)));
                sink(reasoning_delta{
                    format_message(texts().activity_verdict, {{"verdict", agent::plan_execute::to_string(v.verdict)}}) +
                    "\n"});
            },
            [&](ev::replan const& again) {
                state.answer.clear();
                sink(reasoning_delta{
                    format_message(texts().activity_replan, {{"revision", std::to_string(again.revision)}}) + "\n"});
            });
    }

    Provider& provider_;
    Tools tools_;
    strategy_model_options options_;
    agent_model<Provider, Tools> loop_;
    agent_model<Provider, toolset<>> chat_;
};

} // namespace agentio::chat_completions

#endif
