//
// agentio/agent/impl/plan_execute.ipp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Non-template bodies of agentio/agent/plan_execute.hpp: the plan's parser,
// the verdict's, and the prompts.
//

#ifndef AGENTIO_AGENT_IMPL_PLAN_EXECUTE_IPP
#define AGENTIO_AGENT_IMPL_PLAN_EXECUTE_IPP

#include <agentio/agent/detail/json_reply.hpp>
#include <agentio/config.hpp>
#include <agentio/tool/validator.hpp>

#include <boost/json/parse_options.hpp>
#include <boost/json/parser.hpp>

namespace agentio::agent::plan_execute {

namespace detail {

AGENTIO_DECL std::string_view trim_spaces(std::string_view s) noexcept
{
    constexpr std::string_view spaces = " \t\r\n\f\v";
    auto const first = s.find_first_not_of(spaces);
    if(first == std::string_view::npos)
        return {};
    return s.substr(first, s.find_last_not_of(spaces) - first + 1);
}

// Equal, with case folded unless `case_sensitive`: ASCII letters, and the
// Latin-1 letters of UTF-8 (lead byte C3: upper 80-9E, lower A0-BE, but for
// the signs x and / at 97 and B7).
AGENTIO_DECL bool same_word(std::string_view a, std::string_view b, bool case_sensitive) noexcept
{
    if(a.size() != b.size())
        return false;
    for(std::size_t i = 0; i < a.size(); ++i)
    {
        auto const x = static_cast<unsigned char>(a[i]);
        auto const y = static_cast<unsigned char>(b[i]);
        if(x == y)
            continue;
        if(case_sensitive || (x ^ y) != 0x20)
            return false;
        auto const low = x < y ? x : y; // the upper-case one
        bool const ascii = low >= 'A' && low <= 'Z';
        // The bytes before are equal (or ASCII letters): a C3 in `a` is one in `b`.
        bool const latin = i > 0 && static_cast<unsigned char>(a[i - 1]) == 0xC3 && low >= 0x80 && low <= 0x9E &&
            low != 0x97;
        if(!ascii && !latin)
            return false;
    }
    return true;
}

AGENTIO_DECL std::string numbered_steps(std::span<std::string const> steps, messages const& texts)
{
    std::string out;
    for(std::size_t i = 0; i < steps.size(); ++i)
    {
        if(i > 0)
            out += '\n';
        std::string const position = std::to_string(i + 1);
        out += format_message(texts.plan_step_item, {{"index", position}, {"step", steps[i]}});
    }
    return out;
}

// The first `count` results of a revision, each under its step.
AGENTIO_DECL std::string results_text(revision const& r, std::size_t count, messages const& texts)
{
    std::string out;
    for(std::size_t i = 0; i < count && i < r.results.size() && i < r.steps.size(); ++i)
    {
        if(i > 0)
            out += "\n\n";
        std::string const position = std::to_string(i + 1);
        out += format_message(texts.plan_result_item,
            {{"index", position}, {"step", r.steps[i]}, {"result", trim_spaces(r.results[i])}});
    }
    return out;
}

AGENTIO_DECL agentio::agent::options executor_options(options const& o)
{
    agentio::agent::options e;
    e.model = o.executor_model.empty() ? o.model : o.executor_model;
    e.system = o.system;
    e.max_tokens = o.max_tokens;
    e.temperature = o.temperature;
    e.limits = o.step_limits;
    e.texts = o.texts;
    e.describe_error = o.describe_error;
    // The steps report their calls under the plan's run (run_options::traceparent), not runs of their own.
    e.telemetry = o.telemetry;
    e.telemetry.report_runs = false;
    return e;
}

AGENTIO_DECL std::string tool_list(std::span<tool_descriptor const> tools, messages const& texts)
{
    if(tools.empty())
        return std::string(texts.plan_no_tools);
    std::string out;
    for(auto const& t : tools)
    {
        if(!out.empty())
            out += '\n';
        out += format_message(texts.plan_tool, {{"name", t.name}, {"description", t.description}});
    }
    return out;
}

AGENTIO_DECL std::string plan_prompt(std::string_view request, std::string_view tools, options const& o)
{
    std::string const min = std::to_string(o.min_steps);
    std::string const max = std::to_string(o.max_steps);
    return format_message(o.texts.plan_prompt, {{"min", min}, {"max", max}, {"tools", tools}, {"request", request}});
}

AGENTIO_DECL std::string replan_prompt(std::string_view request, std::string_view tools, revision const& previous,
    options const& o)
{
    std::string const min = std::to_string(o.min_steps);
    std::string const max = std::to_string(o.max_steps);
    std::string const plan = numbered_steps(previous.steps, o.texts);
    std::string const results = results_text(previous, previous.results.size(), o.texts);
    return format_message(o.texts.plan_replan_prompt,
        {{"min", min}, {"max", max}, {"tools", tools}, {"request", request}, {"plan", plan}, {"results", results},
            {"answer", trim_spaces(previous.answer)}, {"verdict", trim_spaces(previous.verdict_text)}});
}

AGENTIO_DECL std::string plan_correction(std::string_view errors, options const& o)
{
    std::string const min = std::to_string(o.min_steps);
    std::string const max = std::to_string(o.max_steps);
    return format_message(o.texts.plan_invalid, {{"errors", errors}, {"min", min}, {"max", max}});
}

AGENTIO_DECL std::string step_prompt(std::string_view request, revision const& current, unsigned index,
    messages const& texts)
{
    std::string const position = std::to_string(index + 1);
    std::string const count = std::to_string(current.steps.size());
    std::string const previous = index == 0
        ? std::string()
        : format_message(texts.plan_previous_results, {{"results", results_text(current, index, texts)}});
    return format_message(texts.plan_step_prompt,
        {{"index", position}, {"count", count}, {"request", request}, {"previous", previous},
            {"step", current.steps.at(index)}});
}

AGENTIO_DECL std::string answer_prompt(std::string_view request, revision const& current, messages const& texts)
{
    std::string const results = results_text(current, current.results.size(), texts);
    return format_message(texts.plan_answer_prompt, {{"request", request}, {"results", results}});
}

AGENTIO_DECL std::string verify_prompt(std::string_view request, revision const& current, verdict_tokens const& tokens,
    messages const& texts)
{
    std::string const results = results_text(current, current.results.size(), texts);
    return format_message(texts.plan_verify_prompt,
        {{"request", request}, {"results", results}, {"answer", trim_spaces(current.answer)}, {"yes", tokens.yes},
            {"no", tokens.no}});
}

AGENTIO_DECL void add_correction(std::vector<llm::message>& turns, std::string reply, std::string correction)
{
    // An empty assistant turn is refused by the APIs: the correction then
    // joins the last user turn.
    if(!trim_spaces(reply).empty())
    {
        turns.push_back(llm::message::assistant(std::move(reply)));
        turns.push_back(llm::message::user(std::move(correction)));
        return;
    }
    if(!turns.empty() && turns.back().role == llm::role::user)
        for(auto b = turns.back().content.rbegin(); b != turns.back().content.rend(); ++b)
            if(auto* t = std::get_if<llm::text_block>(&*b))
            {
                t->text += "\n\n";
                t->text += correction;
                return;
            }
    turns.push_back(llm::message::user(std::move(correction)));
}

} // namespace detail

AGENTIO_DECL json::value plan_schema(unsigned min_steps, unsigned max_steps)
{
    json::object step;
    step["type"] = "string";
    step["minLength"] = 1;
    json::object steps;
    steps["type"] = "array";
    steps["minItems"] = min_steps;
    steps["maxItems"] = max_steps;
    steps["items"] = std::move(step);
    json::object properties;
    properties["steps"] = std::move(steps);
    json::object schema;
    schema["type"] = "object";
    schema["properties"] = std::move(properties);
    schema["required"] = json::array{"steps"};
    return schema;
}

AGENTIO_DECL parsed_plan parse_plan(std::string_view reply, unsigned min_steps, unsigned max_steps,
    messages const& texts)
{
    parsed_plan out;
    json::value plan;
    if(!agentio::agent::detail::first_json_object(reply, plan))
    {
        out.problems.errors.push_back({std::string(), std::string(texts.plan_not_json)});
        return out;
    }
    // Compiling the schema costs little beside the call that wrote the reply.
    auto const validator = schema_validator::compile(plan_schema(min_steps, max_steps));
    if(!validator) // not with this schema; but not a plan either
    {
        out.problems.errors.push_back({std::string(), validator.error()});
        return out;
    }
    validation_options check;
    check.texts = texts;
    out.problems = validator->validate(plan, check);
    if(!out.problems.ok())
        return out;
    auto const& steps = plan.as_object().at("steps").as_array();
    for(std::size_t i = 0; i < steps.size(); ++i)
    {
        auto const& s = steps[i].as_string();
        auto const text = detail::trim_spaces(std::string_view(s.data(), s.size()));
        if(text.empty())
            out.problems.errors.push_back({"/steps/" + std::to_string(i),
                format_message(texts.too_short, {{"n", "1"}})});
        else
            out.steps.emplace_back(text);
    }
    if(!out.problems.ok())
        out.steps.clear();
    return out;
}

AGENTIO_DECL verdict parse_verdict(std::string_view reply, verdict_tokens const& tokens)
{
    auto word = detail::trim_spaces(reply);
    if(word.ends_with('.'))
    {
        word.remove_suffix(1);
        word = detail::trim_spaces(word);
    }
    if(word.empty())
        return verdict::unparseable;
    auto const yes = detail::trim_spaces(tokens.yes);
    auto const no = detail::trim_spaces(tokens.no);
    if(!yes.empty() && detail::same_word(word, yes, tokens.case_sensitive))
        return verdict::yes;
    if(!no.empty() && detail::same_word(word, no, tokens.case_sensitive))
        return verdict::no;
    return verdict::unparseable;
}

} // namespace agentio::agent::plan_execute

#endif
