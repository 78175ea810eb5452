//
// agentio/chat_completions/agent_model.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// An agent as a Chat Completions model: the orchestrator's tool loop over a
// provider and the agent's own tools, which run on the server. What the
// client sees:
//   - the answer's text as `content`;
//   - each server-side tool call, as it starts and as it ends, as a line of
//     `reasoning_content` (clients that do not know the field ignore it), and
//     there too the model's own reasoning as it streams;
//   - the client's own `tools` offered to the model beside the agent's: when
//     the model calls one, the answer ends with `finish_reason: tool_calls`
//     and those calls; the client runs them and sends the results back, as
//     with any OpenAI model. With no tools of its own, this is a faithful
//     OpenAI-compatible front to the provider's model (an Anthropic one);
//   - a call of the agent's tools that needs a person's approval ends the
//     answer with `awaiting_approval`; the request that carries the
//     decisions (`request::decisions`) resumes the turn.
//

#ifndef AGENTIO_CHAT_COMPLETIONS_AGENT_MODEL_HPP
#define AGENTIO_CHAT_COMPLETIONS_AGENT_MODEL_HPP

#include <agentio/agent/orchestrator.hpp>
#include <agentio/chat_completions/model.hpp>
#include <agentio/json_text.hpp>
#include <agentio/tool/toolset.hpp>

#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace agentio::chat_completions {

namespace detail {

/** The agent's tools and the client's behind one catalog, for one request.
    A client tool is never called here: the orchestrator stops before (its
    calls "need approval", the client's). Each call's context carries the
    request's @ref caller. */
template<class Tools>
class with_client_tools
{
public:
    with_client_tools(Tools const& tools, std::vector<client_tool> const& client, chat_completions::caller who)
        : tools_(&tools)
        , client_(std::make_shared<std::vector<entry>>())
        , caller_(std::make_shared<chat_completions::caller const>(std::move(who)))
    {
        client_->reserve(client.size());
        for(auto const& t : client)
            client_->push_back({t.name, t.description, t.parameters, to_json_text(t.parameters)});
    }

    bool contains(std::string_view name) const { return tools_->contains(name) || is_client(name); }

    bool is_client(std::string_view name) const
    {
        return std::any_of(client_->begin(), client_->end(), [&](entry const& e) { return e.name == name; });
    }

    std::vector<tool_descriptor> descriptors() const
    {
        auto const own = tools_->descriptors();
        std::vector<tool_descriptor> all(own.begin(), own.end());
        for(auto const& e : *client_)
            all.push_back({e.name, e.description, e.schema_text, &e.schema, client_, false});
        return all;
    }

    asio::awaitable<tool_result> call(std::string_view name, json::value const& arguments, tool_context& ctx) const
    {
        if(is_client(name))
            co_return tool_result::error("this tool runs on the client");
        ctx.extensions.set(*caller_);
        co_return co_await tools_->call(name, arguments, ctx);
    }

private:
    struct entry
    {
        std::string name;
        std::string description;
        json::object schema;
        std::string schema_text;
    };

    Tools const* tools_;
    std::shared_ptr<std::vector<entry>> client_;
    std::shared_ptr<chat_completions::caller const> caller_;
};

} // namespace detail

/** The outputs that show the agent's own tool calls (@ref tool_activity):
    as each forms, once whole, and once run. For a model that runs an
    orchestrator of its own rather than through @ref agent_model; other
    events give nothing. */
inline void forward_tool_activity(agent::event const& e, output_sink const& sink)
{
    using phase = tool_activity::phase;
    if(auto const* begun = std::get_if<agent::tool_call_started>(&e))
        sink(tool_activity{phase::begun, begun->tool_call_id, begun->tool, {}, {}, false});
    else if(auto const* part = std::get_if<agent::tool_input_delta>(&e))
        sink(tool_activity{phase::arguments, part->tool_call_id, {}, part->partial_json, {}, false});
    else if(auto const* end = std::get_if<agent::round_end>(&e))
        for(auto const* call : end->calls)
            sink(tool_activity{phase::ready, call->id, call->name,
                call->raw_input.empty() ? to_json_text(call->input) : call->raw_input, {}, false});
    else if(auto const* done = std::get_if<agent::tool_call>(&e))
        sink(tool_activity{phase::finished, done->tool_call_id, done->tool, {}, done->result_summary, done->is_error});
}

/** The `awaiting_approval` an orchestrator's `approval_required` stops
    the answer with: each call that needs a decision, with the question
    `question(call)` words for it (a `std::string(agent::approval_request
    const&)`), and the whole turn. For a model that runs an orchestrator of
    its own, as @ref agent_model does. */
template<class Question>
awaiting_approval stop_for_approval(agent::approval_required const& wait, Question const& question)
{
    awaiting_approval stop{{}, {}, wait.usage};
    for(auto const& c : wait.calls)
        stop.calls.push_back({c.tool_call_id, c.tool, to_json_text(c.input), question(c), c.in_doubt});
    if(!wait.messages.empty())
        for(auto const& block : wait.messages.back().content)
            if(auto const* call = std::get_if<llm::tool_use_block>(&block))
                stop.turn.push_back({call->id, call->name,
                    call->raw_input.empty() ? to_json_text(call->input) : call->raw_input});
    return stop;
}

/// How an @ref agent_model behaves.
struct agent_model_options
{
    /// How `/v1/models` lists it; `card.id` is the name clients ask for.
    model_card card = {};
    /// The model the provider is asked for, the system prompt, limits, texts.
    agent::options agent = {};
    /// Whether the client's system and developer messages are added after
    /// the agent's own prompt (otherwise they are ignored).
    bool accept_client_system = true;
    /** The line of `reasoning_content` for a tool call that starts (a
        `round_end` call) or ends (a `tool_call`); empty: `→ name(arguments)`
        and `← name: result`. Return an empty string to say nothing. */
    std::function<std::string(agent::event const&)> describe_activity = {};
    /** What a person is asked about a call of the agent's tools that needs
        approval (`agent.requires_approval`, or the tool's own flag); empty:
        "Approve the call of 'name'?". */
    std::function<std::string(agent::approval_request const&)> describe_approval = {};
};

/** An agent (provider + tools + prompt) served as a Chat Completions model.

    @tparam Provider an @ref llm::provider, held by reference
    @tparam Tools a @ref tool_catalog, held by value
*/
template<llm::provider Provider, tool_catalog Tools>
class agent_model final : public model
{
public:
    agent_model(Provider& provider, Tools tools, agent_model_options options)
        : provider_(provider)
        , tools_(std::move(tools))
        , options_(std::move(options))
    {
    }

    model_card const& card() const noexcept override { return options_.card; }

    Tools const& tools() const noexcept { return tools_; }

    asio::awaitable<void> complete(request r, call_context const& ctx, output_sink sink) override
    {
        detail::with_client_tools<Tools> catalog(tools_, r.tools, caller{ctx.user, ctx.session});
        for(std::size_t i = 0; i < r.tools.size(); ++i)
            if(tools_.contains(r.tools[i].name))
            {
                sink(failed{invalid_request("The tool '" + r.tools[i].name + "' conflicts with a tool of the model '" +
                        options_.card.id + "'; rename it.",
                    "tools[" + std::to_string(i) + "].function.name", "invalid_value")});
                co_return;
            }
        agent::options opts = options_.agent;
        if(options_.accept_client_system && !r.system.empty())
            opts.system = opts.system.empty() ? r.system : opts.system + "\n\n" + r.system;
        if(r.max_tokens)
            opts.max_tokens = *r.max_tokens;
        if(r.temperature)
            opts.temperature = r.temperature;
        if(!r.stop.empty())
            opts.stop = r.stop;
        auto const own_approval = options_.agent.requires_approval;
        opts.requires_approval = [&catalog, own_approval](std::string_view name) {
            return catalog.is_client(name) || (own_approval && own_approval(name));
        };
        std::vector<agent::approval_decision> decisions;
        if(!r.decisions.empty())
        {
            if(auto refusal = check_decisions(r, catalog))
            {
                sink(failed{std::move(*refusal)});
                co_return;
            }
            for(auto const& d : r.decisions)
                decisions.push_back({d.tool_call_id, d.approved, d.reason});
        }

        agent::orchestrator<Provider, detail::with_client_tools<Tools>> runner(provider_, catalog, std::move(opts));
        std::set<std::string, std::less<>> forming; // the client's calls begun in this run
        auto on_event = [this, &sink, &catalog, &forming](agent::event const& e) {
            forward(e, sink, catalog, forming);
        };
        agent::run_options how{.summary = ctx.summary}; // named: GCC 12 destroys braced temporaries twice
        how.decisions = decisions;
        how.traceparent = ctx.traceparent();
        how.conversation_id = ctx.session;
        auto result = co_await runner.run(r.messages, on_event, how);
        if(result.summary && ctx.compacted)
            *ctx.compacted = std::move(result.summary);
    }

private:
    bool needs_approval(std::string_view name) const
    {
        auto const d = tools_.descriptors();
        for(auto const& t : d)
            if(t.name == name && t.requires_approval)
                return true;
        return options_.agent.requires_approval && options_.agent.requires_approval(name);
    }

    // Decisions answer calls of the conversation's last turn, every call that needs one.
    std::optional<api_error> check_decisions(request const& r, detail::with_client_tools<Tools> const& catalog) const
    {
        std::vector<llm::tool_use_block const*> calls;
        if(!r.messages.empty() && r.messages.back().role == llm::role::assistant)
            for(auto const& b : r.messages.back().content)
                if(auto const* c = std::get_if<llm::tool_use_block>(&b))
                    calls.push_back(c);
        for(std::size_t i = 0; i < r.decisions.size(); ++i)
        {
            auto const& id = r.decisions[i].tool_call_id;
            if(std::none_of(calls.begin(), calls.end(), [&](auto const* c) { return c->id == id; }))
                return invalid_request("The decision on '" + id +
                        "' answers no call the conversation's last turn waits for.",
                    "decisions[" + std::to_string(i) + "].tool_call_id", "invalid_value");
        }
        for(auto const* c : calls)
            if(!catalog.is_client(c->name) && needs_approval(c->name) &&
                std::none_of(r.decisions.begin(), r.decisions.end(),
                    [&](approval const& d) { return d.tool_call_id == c->id; }))
                return invalid_request("The call '" + c->id + "' of '" + c->name + "' waits for a decision too.",
                    "decisions", "missing_decision");
        return std::nullopt;
    }

    std::string question(agent::approval_request const& call) const
    {
        if(options_.describe_approval)
            return options_.describe_approval(call);
        return "Approve the call of '" + call.tool + "'?";
    }

    std::string activity(agent::event const& e) const
    {
        if(options_.describe_activity)
            return options_.describe_activity(e);
        if(auto const* end = std::get_if<agent::round_end>(&e))
        {
            std::string out;
            for(auto const* call : end->calls)
                out.append("→ ")
                    .append(call->name)
                    .append("(")
                    .append(agent::summarize_input(call->input))
                    .append(")\n");
            return out;
        }
        if(auto const* call = std::get_if<agent::tool_call>(&e))
            return std::string("← ")
                       .append(call->tool)
                       .append(call->is_error ? " ✗ " : ": ")
                       .append(call->result_summary) +
                "\n";
        return {};
    }

    void forward(agent::event const& e, output_sink& sink, detail::with_client_tools<Tools> const& catalog,
        std::set<std::string, std::less<>>& forming) const
    {
        if(auto const* d = std::get_if<agent::text_delta>(&e))
            sink(content_delta{d->text});
        else if(auto const* begun = std::get_if<agent::tool_call_started>(&e))
        {
            // The client's calls stream as they form; the agent's own as activity (their reasoning lines come once whole).
            if(catalog.is_client(begun->tool))
            {
                forming.insert(begun->tool_call_id);
                sink(tool_call_begun{begun->tool_call_id, begun->tool});
            }
            else
                forward_tool_activity(e, sink);
        }
        else if(auto const* part = std::get_if<agent::tool_input_delta>(&e))
        {
            if(forming.contains(part->tool_call_id))
                sink(tool_call_arguments{part->tool_call_id, part->partial_json});
            else
                forward_tool_activity(e, sink);
        }
        else if(auto const* th = std::get_if<agent::thinking_delta>(&e))
            sink(reasoning_delta{th->text});
        else if(std::holds_alternative<agent::round_end>(e) || std::holds_alternative<agent::tool_call>(e))
        {
            if(auto const* end = std::get_if<agent::round_end>(&e))
            {
                // A round with a client call stops before running anything: announce nothing.
                for(auto const* call : end->calls)
                    if(catalog.is_client(call->name))
                        return;
            }
            forward_tool_activity(e, sink);
            if(auto line = activity(e); !line.empty())
                sink(reasoning_delta{std::move(line), true});
        }
        else if(auto const* wait = std::get_if<agent::approval_required>(&e))
        {
            bool const client = std::any_of(wait->calls.begin(), wait->calls.end(),
                [&](agent::approval_request const& c) { return catalog.is_client(c.tool); });
            if(!client)
            {
                // The agent's own calls wait for a person: the turn stops, to be resumed with the decisions.
                sink(stop_for_approval(*wait, [this](agent::approval_request const& c) { return question(c); }));
                return;
            }
            // The client's calls; the agent's own calls of that round are not run
            // (the model calls them again once it has the client's results).
            for(auto const& block : wait->messages.back().content)
                if(auto const* call = std::get_if<llm::tool_use_block>(&block); call && catalog.is_client(call->name))
                    sink(tool_call_output{call->id, call->name,
                        call->raw_input.empty() ? to_json_text(call->input) : call->raw_input});
            sink(finished{finish_reason::tool_calls, wait->usage});
        }
        else if(auto const* ok = std::get_if<agent::done>(&e))
            sink(finished{finish_reason::stop, ok->usage});
        else if(auto const* failure = std::get_if<agent::error>(&e))
        {
            switch(failure->cause)
            {
            case agent::error_cause::token_limit: sink(finished{finish_reason::length, {}}); return;
            case agent::error_cause::refused: sink(finished{finish_reason::content_filter, {}}); return;
            case agent::error_cause::context_window:
                sink(failed{invalid_request(failure->message, "messages", "context_length_exceeded")});
                return;
            case agent::error_cause::provider:
                sink(failed{{502, failure->message, "server_error", {}, "upstream_error"}});
                return;
            default: sink(failed{{500, failure->message, "server_error", {}, {}}}); return;
            }
        }
    }

    Provider& provider_;
    Tools tools_;
    agent_model_options options_;
};

} // namespace agentio::chat_completions

#endif
