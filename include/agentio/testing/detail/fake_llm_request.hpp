//
// agentio/testing/detail/fake_llm_request.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Reading a request as the providers would: validation, the round, the last tool result.
//

#ifndef AGENTIO_TESTING_DETAIL_FAKE_LLM_REQUEST_HPP
#define AGENTIO_TESTING_DETAIL_FAKE_LLM_REQUEST_HPP

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
// Reading a request: validation, the round, the last tool result
// ================================================================================

// An error answer, in the vocabulary of both providers.
struct api_failure
{
    unsigned status = 400;
    std::string type;    // error.type
    std::string message; // error.message
    std::string param;   // OpenAI only; empty: null
    std::string code;    // OpenAI only; empty: null
};

inline api_failure anthropic_invalid(std::string message)
{
    return {400, "invalid_request_error", std::move(message), {}, {}};
}

inline api_failure openai_invalid(std::string message, std::string param = {}, std::string code = {})
{
    return {400, "invalid_request_error", std::move(message), std::move(param), std::move(code)};
}

// What the fake needs to know about a valid request.
struct conversation
{
    std::string model;
    bool stream = false;
    bool include_usage = false;   // OpenAI stream_options.include_usage
    bool tools_forbidden = false; // tool_choice "none": the API answers without calling tools
    bool tools_offered = false;   // the request has a non-empty "tools"
    std::size_t round = 0;
    std::string last_tool_result;
    std::string last_user_text; // the text of the last user message that is not only tool results
    std::uint64_t messages_hash = 0;
    std::uint64_t max_tokens = 0; // the answer's room the request asks for (0: not given)
};

// A whole number of a body, 0 when absent or not one.
inline std::uint64_t count_at(json::object const& body, std::string_view key)
{
    auto const* v = body.if_contains(key);
    if(!v)
        return 0;
    if(v->is_uint64())
        return v->get_uint64();
    if(v->is_int64() && v->get_int64() > 0)
        return static_cast<std::uint64_t>(v->get_int64());
    return 0;
}

// The text of a tool result's content: a string, or the text of its blocks / parts.
inline std::string content_text(json::value const& content)
{
    if(auto const* s = content.if_string())
        return std::string(*s);
    std::string out;
    if(auto const* a = content.if_array())
        for(auto const& part : *a)
            if(auto const* o = part.if_object())
                if(auto const* t = o->if_contains("text"); t && t->is_string())
                    out.append(t->get_string());
    return out;
}

inline bool block_is(json::value const& block, std::string_view type)
{
    auto const* o = block.if_object();
    if(!o)
        return false;
    auto const* t = o->if_contains("type");
    return t && t->is_string() && t->get_string() == type;
}

inline std::string_view string_or_empty(json::object const& o, std::string_view key)
{
    auto const* v = o.if_contains(key);
    return v && v->is_string() ? std::string_view(v->get_string()) : std::string_view();
}

inline std::string index_path(std::string_view prefix, std::size_t i)
{
    return std::string(prefix) + std::to_string(i);
}

// What Anthropic's structured output refuses in a schema (its documented
// limits): an object not closed, numeric and length bounds, minItems above 1.
inline std::optional<std::string> anthropic_schema_problem(json::value const& schema)
{
    auto const* o = schema.if_object();
    if(!o)
        return std::nullopt;
    auto const type = string_or_empty(*o, "type");
    if(type == "object")
        if(auto const* closed = o->if_contains("additionalProperties"); !closed || *closed != json::value(false))
            return "For 'object' type, 'additionalProperties' must be explicitly set to false";
    for(std::string_view key : {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength",
            "maxLength", "maxItems"})
        if(o->contains(key))
            return "For '" + std::string(type) + "' type, property '" + std::string(key) + "' is not supported";
    if(auto const* min_items = o->if_contains("minItems");
        min_items && !(*min_items == json::value(0) || *min_items == json::value(1)))
        return "For 'array' type, property 'minItems' only supports values 0 and 1";
    for(std::string_view key : {"properties", "$defs"})
        if(auto const* map = o->if_contains(key); map && map->is_object())
            for(auto const& kv : map->get_object())
                if(auto problem = anthropic_schema_problem(kv.value()))
                    return problem;
    if(auto const* items = o->if_contains("items"))
        if(auto problem = anthropic_schema_problem(*items))
            return problem;
    for(std::string_view key : {"anyOf", "allOf"})
        if(auto const* list = o->if_contains(key); list && list->is_array())
            for(auto const& s : list->get_array())
                if(auto problem = anthropic_schema_problem(s))
                    return problem;
    return std::nullopt;
}

// What OpenAI's strict mode refuses: an object not closed, or one whose
// `required` does not list every property. `where` is its context path.
inline std::optional<std::string> openai_strict_problem(json::value const& schema, std::string const& where)
{
    auto const* o = schema.if_object();
    if(!o)
        return std::nullopt;
    if(string_or_empty(*o, "type") == "object")
    {
        if(auto const* closed = o->if_contains("additionalProperties"); !closed || *closed != json::value(false))
            return "In context=(" + where + "), 'additionalProperties' is required to be supplied and to be false.";
        if(auto const* properties = o->if_contains("properties"); properties && properties->is_object())
        {
            auto const* required = o->if_contains("required");
            for(auto const& kv : properties->get_object())
            {
                bool listed = false;
                if(required && required->is_array())
                    for(auto const& r : required->get_array())
                        listed = listed || (r.is_string() && r.get_string() == kv.key());
                if(!listed)
                    return "In context=(" + where +
                        "), 'required' is required to be supplied and to be an array "
                        "including every key in properties. Missing '" +
                        std::string(kv.key()) + "'.";
            }
            for(auto const& kv : properties->get_object())
                if(auto problem = openai_strict_problem(kv.value(),
                       where + (where.empty() ? "" : ", ") + "'properties', '" + std::string(kv.key()) + "'"))
                    return problem;
        }
    }
    if(auto const* items = o->if_contains("items"))
        if(auto problem = openai_strict_problem(*items, where + (where.empty() ? "" : ", ") + "'items'"))
            return problem;
    return std::nullopt;
}

// Validates an Anthropic request as the API would where that is cheap and
// catches client bugs; fills `c` when valid.
inline std::optional<api_failure> read_anthropic(json::object const& body, std::string_view version, conversation& c)
{
    auto const* model = body.if_contains("model");
    if(!model)
        return anthropic_invalid("model: Field required");
    if(!model->is_string())
        return anthropic_invalid("model: Input should be a valid string");
    auto const* max_tokens = body.if_contains("max_tokens");
    if(!max_tokens)
        return anthropic_invalid("max_tokens: Field required");
    if(!max_tokens->is_int64() && !max_tokens->is_uint64())
        return anthropic_invalid("max_tokens: Input should be a valid integer");
    auto const* messages = body.if_contains("messages");
    if(!messages)
        return anthropic_invalid("messages: Field required");
    if(!messages->is_array())
        return anthropic_invalid("messages: Input should be a valid list");
    if(version == "2026-10-21")
        for(std::string_view key : {"temperature", "top_p", "top_k"})
            if(body.contains(key))
                return anthropic_invalid(std::string(key) +
                    ": Extra inputs are not permitted (not supported with anthropic-version 2026-10-21)");

    if(auto const* output = body.if_contains("output_config"); output && output->is_object())
        if(auto const* format = output->get_object().if_contains("format"); format && format->is_object())
        {
            if(string_or_empty(format->get_object(), "type") != "json_schema")
                return anthropic_invalid("output_config.format.type: Input should be 'json_schema'");
            auto const* schema = format->get_object().if_contains("schema");
            if(!schema || !schema->is_object())
                return anthropic_invalid("output_config.format.schema: Field required");
            if(auto problem = anthropic_schema_problem(*schema))
                return anthropic_invalid("output_config.format.schema: " + *problem);
        }

    auto const& list = messages->get_array();
    std::vector<std::string_view> open_tool_uses; // ids of the previous assistant message's tool_use blocks
    std::size_t last_plain_user = list.size();    // index of the last user message that is not only tool results
    for(std::size_t i = 0; i < list.size(); ++i)
    {
        auto const* m = list[i].if_object();
        if(!m)
            return anthropic_invalid(index_path("messages.", i) + ": Input should be a valid dictionary");
        auto const role = string_or_empty(*m, "role");
        if(role == "system")
            return anthropic_invalid(
                "messages: Unexpected role \"system\". The Messages API accepts a top-level `system` parameter, "
                "not \"system\" as an input message role.");
        if(role != "user" && role != "assistant")
            return anthropic_invalid(index_path("messages.", i) + ".role: Input should be 'user' or 'assistant'");
        auto const* content = m->if_contains("content");
        if(!content)
            return anthropic_invalid(index_path("messages.", i) + ".content: Field required");
        json::array const empty;
        auto const& blocks = content->is_array() ? content->get_array() : empty;

        std::vector<std::string_view> uses;
        if(role == "assistant")
        {
            for(auto const& b : blocks)
                if(block_is(b, "tool_use"))
                    uses.push_back(string_or_empty(b.get_object(), "id"));
        }
        else
        {
            // The tool_result blocks at the beginning answer the previous tool_use blocks.
            std::size_t leading = 0;
            bool any_result = false;
            for(std::size_t k = 0; k < blocks.size(); ++k)
            {
                if(!block_is(blocks[k], "tool_result"))
                    continue;
                any_result = true;
                auto const& block = blocks[k].get_object();
                auto const id = string_or_empty(block, "tool_use_id");
                if(std::find(open_tool_uses.begin(), open_tool_uses.end(), id) == open_tool_uses.end())
                    return anthropic_invalid(index_path("messages.", i) + ".content." + std::to_string(k) +
                        ": unexpected `tool_use_id` found in `tool_result` blocks: " + std::string(id) +
                        ". Each `tool_result` block must have a corresponding `tool_use` block in the previous "
                        "message.");
                if(k == leading)
                    ++leading;
                if(auto const* rc = block.if_contains("content"))
                    c.last_tool_result = content_text(*rc);
                else
                    c.last_tool_result.clear();
            }
            if(leading < open_tool_uses.size())
                return anthropic_invalid(index_path("messages.", i) + ": Did not find " +
                    std::to_string(open_tool_uses.size() - leading) +
                    " tool_result block(s) at the beginning of this message. Messages following tool_use blocks "
                    "must begin with a matching number of tool_result blocks.");
            if(!any_result)
                last_plain_user = i;
        }
        open_tool_uses = std::move(uses);
    }

    c.model = std::string(model->get_string());
    c.max_tokens = count_at(body, "max_tokens");
    if(auto const* s = body.if_contains("stream"))
        c.stream = s->is_bool() && s->get_bool();
    if(auto const* choice = body.if_contains("tool_choice"); choice && choice->is_object())
        if(auto const* type = choice->get_object().if_contains("type"))
            c.tools_forbidden = *type == "none";
    if(auto const* t = body.if_contains("tools"))
        c.tools_offered = t->is_array() && !t->get_array().empty();
    if(last_plain_user < list.size())
        if(auto const* content = list[last_plain_user].get_object().if_contains("content"))
            c.last_user_text = content_text(*content);
    c.round = 0;
    for(std::size_t i = last_plain_user == list.size() ? 0 : last_plain_user + 1; i < list.size(); ++i)
        if(string_or_empty(list[i].get_object(), "role") == "assistant")
            ++c.round;
    c.messages_hash = fnv1a(to_json_text(*messages));
    return std::nullopt;
}

// The same for an OpenAI Chat Completions request.
inline std::optional<api_failure> read_openai(json::object const& body, conversation& c)
{
    auto const* model = body.if_contains("model");
    if(!model || !model->is_string())
        return openai_invalid("you must provide a model parameter");
    auto const* messages = body.if_contains("messages");
    if(!messages)
        return openai_invalid("Missing required parameter: 'messages'.", "messages", "missing_required_parameter");
    if(!messages->is_array())
        return openai_invalid("Invalid type for 'messages': expected an array of objects, but got " +
                std::string(to_string(messages->kind())) + " instead.",
            "messages", "invalid_type");

    if(auto const* format = body.if_contains("response_format"); format && format->is_object())
        if(string_or_empty(format->get_object(), "type") == "json_schema")
        {
            auto const* spec = format->get_object().if_contains("json_schema");
            if(!spec || !spec->is_object())
                return openai_invalid("Missing required parameter: 'response_format.json_schema'.",
                    "response_format.json_schema", "missing_required_parameter");
            auto const name = string_or_empty(spec->get_object(), "name");
            if(name.empty())
                return openai_invalid("Missing required parameter: 'response_format.json_schema.name'.",
                    "response_format.json_schema.name", "missing_required_parameter");
            auto const* strict = spec->get_object().if_contains("strict");
            auto const* schema = spec->get_object().if_contains("schema");
            if(strict && *strict == json::value(true) && schema)
                if(auto problem = openai_strict_problem(*schema, ""))
                    return openai_invalid("Invalid schema for response_format '" + std::string(name) + "': " + *problem,
                        "response_format", "invalid_json_schema");
        }

    auto const& list = messages->get_array();
    std::vector<std::string_view> unanswered; // tool_call ids of the last assistant message not yet answered
    std::size_t calls_at = 0;                 // that message's index
    bool in_tool_run = false;                 // right after an assistant message with tool_calls
    auto unanswered_error = [&] {
        std::string ids;
        for(auto id : unanswered)
            ids.append(ids.empty() ? "" : ", ").append(id);
        return openai_invalid("An assistant message with 'tool_calls' must be followed by tool messages responding "
                              "to each 'tool_call_id'. The following tool_call_ids did not have response messages: " +
                ids,
            "messages.[" + std::to_string(calls_at) + "].role");
    };
    std::size_t last_user = list.size();
    for(std::size_t i = 0; i < list.size(); ++i)
    {
        auto const* m = list[i].if_object();
        if(!m)
            return openai_invalid("Invalid type for 'messages[" + std::to_string(i) +
                    "]': expected an object, but got " + std::string(to_string(list[i].kind())) + " instead.",
                "messages[" + std::to_string(i) + "]", "invalid_type");
        auto const role = string_or_empty(*m, "role");
        static constexpr std::string_view roles[] = {"system", "assistant", "user", "function", "tool", "developer"};
        if(std::find(std::begin(roles), std::end(roles), role) == std::end(roles))
            return openai_invalid("Invalid value: '" + std::string(role) +
                    "'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.",
                "messages[" + std::to_string(i) + "].role", "invalid_value");
        if(role == "tool")
        {
            auto const id = string_or_empty(*m, "tool_call_id");
            auto const it = std::find(unanswered.begin(), unanswered.end(), id);
            if(!in_tool_run || it == unanswered.end())
                return openai_invalid("Invalid parameter: messages with role 'tool' must be a response to a "
                                      "preceeding message with 'tool_calls'.",
                    "messages.[" + std::to_string(i) + "].role");
            unanswered.erase(it);
            if(auto const* content = m->if_contains("content"))
                c.last_tool_result = content_text(*content);
            continue;
        }
        if(in_tool_run && !unanswered.empty())
            return unanswered_error();
        in_tool_run = false;
        if(role == "user")
            last_user = i;
        if(role == "assistant")
            if(auto const* calls = m->if_contains("tool_calls");
                calls && calls->is_array() && !calls->get_array().empty())
            {
                in_tool_run = true;
                calls_at = i;
                unanswered.clear();
                for(auto const& call : calls->get_array())
                    if(auto const* co = call.if_object())
                        unanswered.push_back(string_or_empty(*co, "id"));
            }
    }
    if(in_tool_run && !unanswered.empty())
        return unanswered_error();

    c.model = std::string(model->get_string());
    c.max_tokens = count_at(body, "max_completion_tokens");
    if(c.max_tokens == 0)
        c.max_tokens = count_at(body, "max_tokens");
    if(auto const* s = body.if_contains("stream"))
        c.stream = s->is_bool() && s->get_bool();
    if(auto const* choice = body.if_contains("tool_choice"))
        c.tools_forbidden = *choice == "none";
    if(auto const* t = body.if_contains("tools"))
        c.tools_offered = t->is_array() && !t->get_array().empty();
    if(auto const* so = body.if_contains("stream_options"); so && so->is_object())
        if(auto const* iu = so->get_object().if_contains("include_usage"))
            c.include_usage = iu->is_bool() && iu->get_bool();
    if(last_user < list.size())
        if(auto const* content = list[last_user].get_object().if_contains("content"))
            c.last_user_text = content_text(*content);
    c.round = 0;
    for(std::size_t i = last_user == list.size() ? 0 : last_user + 1; i < list.size(); ++i)
        if(string_or_empty(list[i].get_object(), "role") == "assistant")
            ++c.round;
    c.messages_hash = fnv1a(to_json_text(*messages));
    return std::nullopt;
}

} // namespace agentio::testing::detail

#endif
