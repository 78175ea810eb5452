//
// agentio/agent/impl/react.ipp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Non-template bodies of agentio/agent/react.hpp: the prompt, the parser.
//

#ifndef AGENTIO_AGENT_IMPL_REACT_IPP
#define AGENTIO_AGENT_IMPL_REACT_IPP

#include <agentio/config.hpp>
#include <agentio/json_text.hpp>
#include <agentio/text.hpp>

#include <boost/json/parse_options.hpp>
#include <boost/json/parser.hpp>

namespace agentio::agent::react {

namespace detail {

enum class marker
{
    none,
    thought,
    action,
    action_input,
    observation,
    final_answer,
    question
};

struct marker_match
{
    marker kind = marker::none;
    /// Where the text after the marker starts, in the line.
    std::size_t content = 0;
    /// The line may still become a marker (the unfinished end of a stream).
    bool incomplete = false;
};

AGENTIO_DECL bool is_space(char c) noexcept
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

AGENTIO_DECL std::string_view trim(std::string_view s) noexcept
{
    while(!s.empty() && is_space(s.front()))
        s.remove_prefix(1);
    while(!s.empty() && is_space(s.back()))
        s.remove_suffix(1);
    return s;
}

AGENTIO_DECL std::string_view trim_start(std::string_view s) noexcept
{
    while(!s.empty() && is_space(s.front()))
        s.remove_prefix(1);
    return s;
}

AGENTIO_DECL char lower(char c) noexcept
{
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

AGENTIO_DECL bool is_fence(std::string_view line) noexcept
{
    line = trim_start(line);
    return line.starts_with("```") || line.starts_with("~~~");
}

AGENTIO_DECL std::size_t count_fences(std::string_view s) noexcept
{
    std::size_t n = 0;
    for(auto at = s.find("```"); at != std::string_view::npos; at = s.find("```", at + 3))
        ++n;
    return n;
}

// Whether `line` starts with a marker: spaces, markdown emphasis or heading
// signs, the marker's words in any case (joined by spaces or underscores),
// an optional step number, a colon.
AGENTIO_DECL marker_match match_marker(std::string_view line, bool may_grow) noexcept
{
    struct pattern
    {
        marker kind;
        std::string_view first;
        std::string_view second;
    };
    // `Action Input` before `Action`: the longer marker wins.
    static constexpr pattern patterns[] = {{marker::final_answer, "final", "answer"},
        {marker::action_input, "action", "input"}, {marker::action, "action", ""}, {marker::thought, "thought", ""},
        {marker::observation, "observation", ""}, {marker::question, "question", ""}};
    std::size_t start = 0;
    while(start < line.size() &&
        (line[start] == ' ' || line[start] == '\t' || line[start] == '*' || line[start] == '#'))
        ++start;
    bool incomplete = false;
    for(auto const& p : patterns)
    {
        enum
        {
            no,
            yes,
            maybe
        } state = yes;
        std::size_t i = start;
        auto word = [&](std::string_view w) {
            for(char const c : w)
            {
                if(i == line.size())
                {
                    state = maybe;
                    return;
                }
                if(lower(line[i]) != c)
                {
                    state = no;
                    return;
                }
                ++i;
            }
        };
        auto skip = [&](std::string_view chars) {
            while(i < line.size() && chars.find(line[i]) != std::string_view::npos)
                ++i;
        };
        word(p.first);
        if(state == yes && !p.second.empty())
        {
            skip(" \t_0123456789");
            word(p.second);
        }
        if(state == yes)
        {
            skip(" \t0123456789*");
            if(i == line.size())
                state = maybe;
            else if(line[i] != ':')
                state = no;
        }
        if(state == yes)
        {
            ++i;
            skip("*");
            skip(" \t");
            return {p.kind, i, false};
        }
        if(state == maybe)
            incomplete = true;
    }
    return {marker::none, 0, incomplete && may_grow};
}

// The tool's name without what models put around it: `search`, [search], "search", search().
AGENTIO_DECL std::string_view clean_tool(std::string_view s) noexcept
{
    constexpr std::string_view around = " \t\r`[]\"'*().";
    auto const first = s.find_first_not_of(around);
    if(first == std::string_view::npos)
        return {};
    return s.substr(first, s.find_last_not_of(around) - first + 1);
}

// The first JSON value of `s` (plain, in single backticks or in a fence),
// and its text; what follows it is ignored.
AGENTIO_DECL bool first_json(std::string_view s, json::value& value, std::string& raw)
{
    s = trim_start(s);
    if(s.starts_with("```") || s.starts_with("~~~"))
    {
        char const fence = s.front();
        std::size_t i = 0;
        while(i < s.size() && s[i] == fence)
            ++i;
        // The info string: json, JSON, json5.
        while(i < s.size() && !is_space(s[i]) && s[i] != '{' && s[i] != '[')
            ++i;
        s.remove_prefix(i);
        auto const close = s.find(fence == '`' ? "```" : "~~~");
        if(close != std::string_view::npos)
            s = s.substr(0, close);
    }
    else if(s.starts_with('`'))
        s.remove_prefix(1);
    json::parse_options opt;
    opt.allow_comments = true;
    opt.allow_trailing_commas = true;
    json::parser p({}, opt);
    boost::system::error_code ec;
    std::size_t const used = p.write_some(s.data(), s.size(), ec);
    if(ec)
        return false;
    value = p.release();
    raw = std::string(trim(s.substr(0, used)));
    return true;
}

AGENTIO_DECL std::string shortened(std::string_view s, std::size_t max_bytes)
{
    if(s.size() <= max_bytes)
        return std::string(s);
    std::string out(s.substr(0, agentio::utf8_byte_prefix(s, max_bytes)));
    out += "…";
    return out;
}

AGENTIO_DECL reply parse_reply(std::string_view text, bool complete, messages const& texts)
{
    struct mark
    {
        marker kind;
        std::size_t begin;    // of the line
        std::size_t content;  // after the marker
        std::size_t line_end; // before the newline
    };
    std::vector<mark> marks;
    std::size_t end = text.size(); // what follows is ignored
    bool in_fence = false;
    for(std::size_t pos = 0; pos < text.size();)
    {
        auto const nl = text.find('\n', pos);
        bool const last = nl == std::string_view::npos;
        std::size_t const line_end = last ? text.size() : nl;
        std::string_view const line = text.substr(pos, line_end - pos);
        if(in_fence)
        {
            if(is_fence(line))
                in_fence = false;
        }
        else
        {
            auto const m = match_marker(line, !complete && last);
            if(m.incomplete || m.kind == marker::observation)
            {
                end = pos;
                break;
            }
            if(m.kind != marker::none)
            {
                marks.push_back({m.kind, pos, pos + m.content, line_end});
                // `Action Input: ```json` opens a fence on the marker's line.
                if(count_fences(line.substr(m.content)) % 2 == 1)
                    in_fence = true;
            }
            else if(is_fence(line))
                in_fence = true;
        }
        if(last)
            break;
        pos = nl + 1;
    }

    auto find = [&](marker kind, std::size_t from) {
        for(std::size_t i = from; i < marks.size(); ++i)
            if(marks[i].kind == kind)
                return i;
        return marks.size();
    };
    // A section runs to the next marker line.
    auto section = [&](std::size_t i) {
        std::size_t const stop = i + 1 < marks.size() ? marks[i + 1].begin : end;
        return text.substr(marks[i].content, stop - marks[i].content);
    };
    auto thought_before = [&](std::size_t until) {
        std::string out;
        std::size_t at = 0;
        for(auto const& m : marks)
        {
            if(m.begin >= until)
                break;
            if(m.kind == marker::thought)
            {
                out.append(text.substr(at, m.begin - at));
                at = m.content;
            }
        }
        out.append(text.substr(at, until - at));
        return std::string(trim(out));
    };
    auto bad = [&](format_error e, std::string reason) {
        return malformed{e, std::move(reason), std::string(text.substr(0, end))};
    };

    auto const a = find(marker::action, 0);
    auto const f = find(marker::final_answer, 0);
    if(f < marks.size() && (a == marks.size() || f < a))
    {
        std::string answer(trim(section(f)));
        if(complete && answer.empty())
            return bad(format_error::empty_answer, std::string(texts.react_empty_answer));
        return final_answer{thought_before(marks[f].begin), std::move(answer)};
    }
    if(!complete)
        return malformed{}; // only a final answer streams
    if(a == marks.size())
        return bad(format_error::missing_action, std::string(texts.react_missing_action));
    if(f < marks.size())
        return bad(format_error::action_and_answer, std::string(texts.react_action_and_answer));
    auto const& am = marks[a];
    std::string_view const tool = clean_tool(text.substr(am.content, am.line_end - am.content));
    if(tool.empty())
        return bad(format_error::missing_tool, std::string(texts.react_missing_tool));
    // The action's own input: before a second action, if any.
    auto const i = find(marker::action_input, a + 1);
    if(i >= find(marker::action, a + 1))
        return bad(format_error::missing_action_input, std::string(texts.react_missing_action_input));
    std::string_view const input = trim(section(i));
    if(input.empty())
        return bad(format_error::missing_action_input, std::string(texts.react_missing_action_input));
    action out{thought_before(am.begin), std::string(tool), {}, {}};
    if(!first_json(input, out.input, out.raw_input))
        return bad(format_error::input_not_json,
            format_message(texts.react_input_not_json, {{"input", shortened(input, 200)}}));
    return out;
}

AGENTIO_DECL void answer_stream::advance(final_answer const& answer, unsigned iteration, std::vector<event>& out)
{
    if(!started)
    {
        started = true;
        if(!answer.thought.empty())
            out.emplace_back(events::thought{iteration, answer.thought});
    }
    // The text only grows as the reply does; anything else is not sent twice.
    if(answer.text.size() > sent.size() && answer.text.starts_with(sent))
    {
        out.emplace_back(events::answer_delta{answer.text.substr(sent.size())});
        sent = answer.text;
    }
    delivered = delivered || !out.empty();
}

AGENTIO_DECL std::string observation_text(tool_result const& result)
{
    std::string out;
    for(auto const& c : result.content)
    {
        if(!out.empty())
            out += '\n';
        if(auto const* t = std::get_if<text_content>(&c))
            out += t->text;
        else if(auto const* img = std::get_if<image_content>(&c))
            out += "[image " + img->mime_type + " omitted]";
        else if(auto const* res = std::get_if<resource_content>(&c))
            out += res->text ? "[" + res->uri + "]\n" + *res->text
                             : "[" + res->uri + ": " + res->mime_type + ", binary]";
        else if(auto const* audio = std::get_if<audio_content>(&c))
            out += "[audio " + audio->mime_type + " omitted]";
    }
    if(out.empty() && result.structured)
        out = to_json_text(*result.structured);
    return out;
}

AGENTIO_DECL std::string action_turn(action const& a)
{
    std::string out;
    if(!a.thought.empty())
        out.append("Thought: ").append(a.thought).append("\n");
    out.append("Action: ").append(a.tool).append("\nAction Input: ").append(a.raw_input);
    return out;
}

AGENTIO_DECL std::vector<llm::message> first_turns(std::span<llm::message const> conversation)
{
    std::vector<llm::message> turns(conversation.begin(), conversation.end());
    if(!turns.empty() && turns.back().role == llm::role::user)
        for(auto& b : turns.back().content)
            if(auto* t = std::get_if<llm::text_block>(&b))
            {
                if(!t->text.starts_with("Question:"))
                    t->text.insert(0, "Question: ");
                break;
            }
    return turns;
}

AGENTIO_DECL void append_user_text(std::vector<llm::message>& turns, std::string text)
{
    if(!turns.empty() && turns.back().role == llm::role::user)
        turns.back().content.emplace_back(llm::text_block{"\n\n" + text});
    else
        turns.push_back(llm::message::user(std::move(text)));
}

AGENTIO_DECL std::string match_tool(std::span<tool_descriptor const> tools, std::string_view name)
{
    for(auto const& d : tools)
        if(d.name == name)
            return std::string(name);
    for(auto const& d : tools)
        if(d.name.size() == name.size() &&
            std::equal(name.begin(), name.end(), d.name.begin(), [](char x, char y) { return lower(x) == lower(y); }))
            return std::string(d.name);
    return std::string(name);
}

AGENTIO_DECL std::string prose_answer(std::string_view raw)
{
    std::string out;
    for(std::size_t pos = 0; pos < raw.size();)
    {
        auto const nl = raw.find('\n', pos);
        std::size_t const line_end = nl == std::string_view::npos ? raw.size() : nl + 1;
        std::string_view line = raw.substr(pos, line_end - pos);
        auto const m = match_marker(line, false);
        if(m.kind == marker::thought)
            line.remove_prefix(m.content);
        out.append(line);
        pos = line_end;
    }
    return std::string(trim(out));
}

} // namespace detail

AGENTIO_DECL reply parse(std::string_view text, messages const& texts)
{
    return detail::parse_reply(text, true, texts);
}

AGENTIO_DECL std::string render_prompt(std::span<tool_descriptor const> tools, messages const& texts)
{
    std::string names;
    for(auto const& d : tools)
        names.append(names.empty() ? "" : ", ").append(d.name);
    std::string out(texts.react_intro);
    out += "\n\n";
    for(auto const& d : tools)
    {
        std::string const schema = d.input_schema ? to_json_text(json::value(*d.input_schema))
                                                  : std::string(d.input_schema_text);
        out += format_message(texts.react_tool, {{"name", d.name}, {"description", d.description}, {"schema", schema}});
        out += '\n';
    }
    out.append("\n").append(texts.react_format).append("\n\n");
    out.append("Question: ").append(texts.react_question);
    out.append("\nThought: ").append(texts.react_thought);
    out.append("\nAction: ").append(format_message(texts.react_action, {{"tools", names}}));
    out.append("\nAction Input: ").append(texts.react_action_input);
    out.append("\nObservation: ").append(texts.react_observation);
    out.append("\n").append(texts.react_repeat);
    out.append("\nThought: ").append(texts.react_final_thought);
    out.append("\nFinal Answer: ").append(texts.react_final_answer);
    out.append("\n\n").append(texts.react_rules);
    out.append("\n\n").append(texts.react_begin);
    return out;
}

} // namespace agentio::agent::react

#endif
