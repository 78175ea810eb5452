//
// agentio/testing/detail/fake_llm_plan.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// What to answer: the plan of one response, and the non-streamed bodies.
//

#ifndef AGENTIO_TESTING_DETAIL_FAKE_LLM_PLAN_HPP
#define AGENTIO_TESTING_DETAIL_FAKE_LLM_PLAN_HPP

#include <agentio/testing/detail/fake_llm_request.hpp>
#include <agentio/json_text.hpp>
#include <agentio/sse/format.hpp>
#include <agentio/testing/detail/fake_llm_wire.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/deferred.hpp>
#include <boost/asio/experimental/parallel_group.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http/chunk_encode.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/serializer.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/stream_parser.hpp>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <ctime>
#include <deque>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <unordered_map>
#include <utility>

namespace agentio::testing::detail {

// ================================================================================
// What to answer: the plan of one response
// ================================================================================

enum class block_kind
{
    thinking,
    text,
    tool_use
};

struct planned_block
{
    block_kind kind = block_kind::text;
    std::vector<std::string> pieces; // text or thinking pieces; tool_use: argument fragments
    std::string id;                  // tool_use
    std::string name;                // tool_use
    std::string signature;           // thinking
    json::value input;               // tool_use, for non-streamed Anthropic answers
    std::string arguments;           // tool_use, for non-streamed OpenAI answers

    std::string joined() const
    {
        std::string s;
        for(auto const& p : pieces)
            s += p;
        return s;
    }
};

struct response_plan
{
    std::string model;
    std::vector<planned_block> blocks;
    std::string stop_reason;
    std::uint64_t input_tokens = 0;
    std::uint64_t output_tokens = 0;
    std::chrono::milliseconds interval{0};
};

// The first word of `text` that starts with `prefix` (letters, digits, '-'
// and '_'), or nothing: what a model copies from the question into a call.
inline std::string_view word_starting(std::string_view text, std::string_view prefix)
{
    auto const in_word = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == '_'; };
    for(auto at = text.find(prefix); !prefix.empty() && at != std::string_view::npos; at = text.find(prefix, at + 1))
    {
        if(at > 0 && in_word(text[at - 1]))
            continue;
        auto end = at + prefix.size();
        while(end < text.size() && in_word(text[end]))
            ++end;
        return text.substr(at, end - at);
    }
    return {};
}

// `{{last_tool_result}}` and `{{user_word:PREFIX}}` replaced.
inline std::string substitute(std::string_view text, conversation const& c)
{
    std::string out;
    for(;;)
    {
        auto const at = text.find("{{");
        auto const end = at == std::string_view::npos ? at : text.find("}}", at);
        if(end == std::string_view::npos)
        {
            out.append(text);
            return out;
        }
        out.append(text.substr(0, at));
        std::string_view const name = text.substr(at + 2, end - at - 2);
        if(name == "last_tool_result")
            out.append(c.last_tool_result);
        else if(name.starts_with("user_word:"))
            out.append(word_starting(c.last_user_text, name.substr(10)));
        else
            out.append(text.substr(at, end + 2 - at));
        text.remove_prefix(end + 2);
    }
}

// A tool call's input with its strings' placeholders replaced.
inline json::value substitute(json::value const& input, conversation const& c)
{
    if(input.is_string())
        return json::value(substitute(std::string_view(input.get_string()), c));
    if(input.is_array())
    {
        json::array out;
        for(auto const& v : input.get_array())
            out.push_back(substitute(v, c));
        return out;
    }
    if(input.is_object())
    {
        json::object out;
        for(auto const& [key, v] : input.get_object())
            out.emplace(key, substitute(v, c));
        return out;
    }
    return input;
}

inline std::vector<std::string> cut_text(scripted_text const& t, conversation const& c, provider p,
    std::size_t piece_chars)
{
    std::vector<std::string> pieces;
    if(!t.split)
    {
        for(auto const& piece : t.pieces)
            pieces.push_back(substitute(piece, c));
        return pieces;
    }
    std::string whole;
    for(auto const& piece : t.pieces)
        whole += substitute(piece, c);
    std::string_view rest = whole;
    for(std::size_t i = 0; !rest.empty(); ++i)
    {
        std::size_t const n = std::max<std::size_t>(1, next_text_piece(rest, i, p, piece_chars));
        pieces.emplace_back(rest.substr(0, n));
        rest.remove_prefix(n);
    }
    return pieces;
}

inline response_plan make_plan(scripted_response const& r, scenario const& s, conversation const& c, provider p,
    fake_llm_options const& options, std::size_t request_bytes)
{
    response_plan plan;
    plan.model = s.model.empty() ? c.model : s.model;
    plan.interval = s.token_interval.value_or(options.token_interval);
    std::uint64_t output_bytes = 0;

    if(p == provider::anthropic && !r.thinking.empty())
    {
        planned_block b;
        b.kind = block_kind::thinking;
        b.pieces = cut_text(r.thinking, c, p, options.piece_chars);
        b.signature = r.thinking_signature.empty() ? make_signature(b.joined()) : r.thinking_signature;
        plan.blocks.push_back(std::move(b));
    }
    if(!r.text.empty())
    {
        planned_block b;
        b.kind = block_kind::text;
        b.pieces = cut_text(r.text, c, p, options.piece_chars);
        plan.blocks.push_back(std::move(b));
    }
    for(auto const& call : r.tool_calls)
    {
        planned_block b;
        b.kind = block_kind::tool_use;
        b.name = call.name;
        b.id = !call.id.empty() ? call.id : p == provider::anthropic ? anthropic_tool_use_id() : openai_call_id();
        b.input = substitute(call.input, c);
        bool const derived = !call.input_fragments.empty() && call.input.is_object() && call.input.get_object().empty();
        if(!call.input_fragments.empty())
            b.pieces = call.input_fragments;
        else
        {
            std::string text;
            append_json_spaced(text, b.input);
            std::string_view rest = text;
            for(std::size_t i = 0; !rest.empty(); ++i)
            {
                std::size_t const n = std::max<std::size_t>(1, next_fragment(rest, i, options.piece_chars));
                b.pieces.emplace_back(rest.substr(0, n));
                rest.remove_prefix(n);
            }
        }
        b.arguments = to_json_text(b.input);
        if(derived)
        {
            // The input is what the fragments say; cut short (max_tokens), it
            // stays {} and the OpenAI arguments keep the partial text.
            system::error_code ec;
            auto const parsed = json::parse(b.joined(), ec);
            if(!ec && parsed.is_object())
                b.input = parsed;
            b.arguments = ec ? b.joined() : to_json_text(parsed);
        }
        plan.blocks.push_back(std::move(b));
    }
    for(auto const& b : plan.blocks)
        for(auto const& piece : b.pieces)
            output_bytes += piece.size();

    plan.stop_reason = !r.stop_reason.empty() ? r.stop_reason : r.tool_calls.empty() ? "end_turn" : "tool_use";
    plan.input_tokens = r.input_tokens.value_or(std::max<std::uint64_t>(1, request_bytes / 4));
    plan.output_tokens = r.output_tokens.value_or(std::max<std::uint64_t>(1, (output_bytes + 3) / 4));
    return plan;
}

// ================================================================================
// Non-streamed bodies
// ================================================================================

inline std::string anthropic_message_body(response_plan const& plan)
{
    std::string out = R"({"id":)";
    append_json_string(out, anthropic_message_id());
    out.append(R"(,"type":"message","role":"assistant","model":)");
    append_json_string(out, plan.model);
    out.append(R"(,"content":[)");
    bool first = true;
    for(auto const& b : plan.blocks)
    {
        if(!first)
            out.push_back(',');
        first = false;
        switch(b.kind)
        {
        case block_kind::thinking:
            out.append(R"({"type":"thinking","thinking":)");
            append_json_string(out, b.joined());
            out.append(R"(,"signature":)");
            append_json_string(out, b.signature);
            out.push_back('}');
            break;
        case block_kind::text:
            out.append(R"({"type":"text","text":)");
            append_json_string(out, b.joined());
            out.push_back('}');
            break;
        case block_kind::tool_use:
            out.append(R"({"type":"tool_use","id":)");
            append_json_string(out, b.id);
            out.append(R"(,"name":)");
            append_json_string(out, b.name);
            out.append(R"(,"input":)");
            append_json(out, b.input);
            out.push_back('}');
            break;
        }
    }
    out.append(R"(],"stop_reason":)");
    append_json_string(out, plan.stop_reason);
    out.append(R"(,"stop_sequence":null,"usage":{"input_tokens":)");
    append_json_number(out, static_cast<std::int64_t>(plan.input_tokens));
    out.append(R"(,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":)");
    append_json_number(out, static_cast<std::int64_t>(plan.output_tokens));
    out.append(R"(,"service_tier":"standard"}})");
    return out;
}

inline std::int64_t unix_now()
{
    return static_cast<std::int64_t>(std::time(nullptr));
}

inline void append_openai_usage(std::string& out, response_plan const& plan, bool details)
{
    out.append(R"("usage":{"prompt_tokens":)");
    append_json_number(out, static_cast<std::int64_t>(plan.input_tokens));
    out.append(R"(,"completion_tokens":)");
    append_json_number(out, static_cast<std::int64_t>(plan.output_tokens));
    out.append(R"(,"total_tokens":)");
    append_json_number(out, static_cast<std::int64_t>(plan.input_tokens + plan.output_tokens));
    if(details)
        out.append(R"(,"completion_tokens_details":{"reasoning_tokens":0})");
    out.push_back('}');
}

inline std::string openai_completion_body(response_plan const& plan)
{
    std::string out = R"({"id":)";
    append_json_string(out, openai_completion_id());
    out.append(R"(,"object":"chat.completion","created":)");
    append_json_number(out, unix_now());
    out.append(R"(,"model":)");
    append_json_string(out, plan.model);
    out.append(R"(,"system_fingerprint":)");
    append_json_string(out, openai_fingerprint());
    out.append(R"(,"choices":[{"index":0,"message":{"role":"assistant","content":)");
    auto const text = std::find_if(plan.blocks.begin(), plan.blocks.end(),
        [](auto const& b) { return b.kind == block_kind::text; });
    if(text == plan.blocks.end())
        out.append("null");
    else
        append_json_string(out, text->joined());
    out.append(R"(,"refusal":null)");
    bool first = true;
    for(auto const& b : plan.blocks)
    {
        if(b.kind != block_kind::tool_use)
            continue;
        out.append(first ? R"(,"tool_calls":[)" : ",");
        first = false;
        out.append(R"({"id":)");
        append_json_string(out, b.id);
        out.append(R"(,"type":"function","function":{"name":)");
        append_json_string(out, b.name);
        out.append(R"(,"arguments":)");
        append_json_string(out, b.arguments);
        out.append("}}");
    }
    if(!first)
        out.push_back(']');
    out.append(R"(},"logprobs":null,"finish_reason":)");
    append_json_string(out, openai_finish_reason(plan.stop_reason));
    out.append("}],");
    append_openai_usage(out, plan, false);
    out.push_back('}');
    return out;
}

} // namespace agentio::testing::detail

#endif
