//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_CHAT_COMPLETIONS_IMPL_REQUEST_IPP
#define AGENTIO_CHAT_COMPLETIONS_IMPL_REQUEST_IPP

#include <agentio/chat_completions/request.hpp>
#include <agentio/chat_completions/serving.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/parse_options.hpp>

#include <algorithm>
#include <cmath>

namespace agentio::chat_completions {

namespace detail {

using result_void = boost::system::result<void, api_error>;

inline std::string kind_name(json::value const& v)
{
    switch(v.kind())
    {
    case json::kind::null: return "null";
    case json::kind::bool_: return "boolean";
    case json::kind::int64:
    case json::kind::uint64: return "integer";
    case json::kind::double_: return "number";
    case json::kind::string: return "string";
    case json::kind::array: return "array";
    case json::kind::object: return "object";
    }
    return "value";
}

inline api_error invalid_type(std::string const& param, std::string_view expected, json::value const& got)
{
    return invalid_request("Invalid type for '" + param + "': expected " + std::string(expected) + ", but got " +
            kind_name(got) + " instead.",
        param, "invalid_type");
}

inline api_error invalid_value(std::string const& param, std::string message)
{
    return invalid_request(std::move(message), param, "invalid_value");
}

inline std::string indexed(std::string_view prefix, std::size_t i)
{
    return std::string(prefix).append("[").append(std::to_string(i)).append("]");
}

inline bool valid_tool_name(std::string_view name) noexcept
{
    if(name.empty() || name.size() > 64)
        return false;
    return std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    });
}

// Text of a `content` that may only hold text: a string, or an array of
// `{"type": "text", "text": ...}` parts.
inline boost::system::result<std::string, api_error> text_content(json::value const& content, std::string const& param)
{
    if(auto const* s = content.if_string())
        return std::string(*s);
    auto const* parts = content.if_array();
    if(!parts)
        return invalid_type(param, "a string or an array of content parts", content);
    std::string out;
    for(std::size_t i = 0; i < parts->size(); ++i)
    {
        auto const where = indexed(param, i);
        auto const* part = (*parts)[i].if_object();
        if(!part)
            return invalid_type(where, "an object", (*parts)[i]);
        auto const* type = part->if_contains("type");
        if(!type || *type != "text")
            return invalid_value(where + ".type", "Only 'text' content parts are supported here.");
        auto const* text = part->if_contains("text");
        if(!text || !text->is_string())
            return invalid_type(where + ".text", "a string", text ? *text : json::value());
        out.append(text->get_string());
    }
    return out;
}

// A user message's content: text and images given as data URLs.
inline result_void user_content(json::value const& content, std::string const& param, llm::message& out)
{
    if(auto const* s = content.if_string())
    {
        out.content.emplace_back(llm::text_block{std::string(*s)});
        return {};
    }
    auto const* parts = content.if_array();
    if(!parts)
        return invalid_type(param, "a string or an array of content parts", content);
    for(std::size_t i = 0; i < parts->size(); ++i)
    {
        auto const where = indexed(param, i);
        auto const* part = (*parts)[i].if_object();
        if(!part)
            return invalid_type(where, "an object", (*parts)[i]);
        auto const* type = part->if_contains("type");
        if(type && *type == "text")
        {
            auto const* text = part->if_contains("text");
            if(!text || !text->is_string())
                return invalid_type(where + ".text", "a string", text ? *text : json::value());
            out.content.emplace_back(llm::text_block{std::string(text->get_string())});
            continue;
        }
        if(type && *type == "image_url")
        {
            auto const* image = part->if_contains("image_url");
            json::value const* url = image && image->is_object() ? image->get_object().if_contains("url") : nullptr;
            if(!url || !url->is_string())
                return invalid_type(where + ".image_url.url", "a string", url ? *url : json::value());
            // data:<media type>;base64,<data>: a server must not fetch URLs its clients name.
            std::string_view u = url->get_string();
            auto const comma = u.find(',');
            auto const semicolon = u.find(";base64");
            if(!u.starts_with("data:") || comma == std::string_view::npos || semicolon == std::string_view::npos ||
                semicolon > comma)
                return invalid_value(where + ".image_url.url", "Only images given as base64 data URLs are supported.");
            out.content.emplace_back(llm::image_block{std::string(u.substr(5, semicolon - 5)),
                std::string(u.substr(comma + 1))});
            continue;
        }
        return invalid_value(where + ".type", "Supported content part types are 'text' and 'image_url'.");
    }
    return {};
}

inline result_void assistant_calls(json::value const& calls, std::string const& param, llm::message& out,
    std::vector<std::string>& unanswered)
{
    auto const* list = calls.if_array();
    if(!list)
        return invalid_type(param, "an array", calls);
    for(std::size_t i = 0; i < list->size(); ++i)
    {
        auto const where = indexed(param, i);
        auto const* call = (*list)[i].if_object();
        if(!call)
            return invalid_type(where, "an object", (*list)[i]);
        auto const* id = call->if_contains("id");
        if(!id || !id->is_string() || id->get_string().empty())
            return invalid_type(where + ".id", "a non-empty string", id ? *id : json::value());
        auto const* fn = call->if_contains("function");
        if(!fn || !fn->is_object())
            return invalid_type(where + ".function", "an object", fn ? *fn : json::value());
        auto const* name = fn->get_object().if_contains("name");
        if(!name || !name->is_string())
            return invalid_type(where + ".function.name", "a string", name ? *name : json::value());
        auto const* arguments = fn->get_object().if_contains("arguments");
        if(!arguments || !arguments->is_string())
            return invalid_type(where + ".function.arguments", "a string", arguments ? *arguments : json::value());
        llm::tool_use_block block{std::string(id->get_string()), std::string(name->get_string()), {},
            std::string(arguments->get_string())};
        boost::system::error_code ec;
        block.input = json::parse(block.raw_input, ec);
        if(ec)
            block.input = nullptr; // sent on as the client wrote it; the model sees its own words
        unanswered.push_back(block.id);
        out.content.emplace_back(std::move(block));
    }
    return {};
}

inline result_void read_tools(json::value const& tools, parse_options const& options, request& r)
{
    auto const* list = tools.if_array();
    if(!list)
        return invalid_type("tools", "an array", tools);
    if(list->size() > options.max_tools)
        return invalid_value("tools",
            "Invalid 'tools': array too long. Expected an array with maximum length " +
                std::to_string(options.max_tools) + ", but got an array with length " + std::to_string(list->size()) +
                " instead.");
    for(std::size_t i = 0; i < list->size(); ++i)
    {
        auto const where = indexed("tools", i);
        auto const* tool = (*list)[i].if_object();
        if(!tool)
            return invalid_type(where, "an object", (*list)[i]);
        auto const* type = tool->if_contains("type");
        if(!type || *type != "function")
            return invalid_value(where + ".type", "Only tools of type 'function' are supported.");
        auto const* fn = tool->if_contains("function");
        if(!fn || !fn->is_object())
            return invalid_type(where + ".function", "an object", fn ? *fn : json::value());
        auto const& f = fn->get_object();
        auto const* name = f.if_contains("name");
        if(!name || !name->is_string())
            return invalid_type(where + ".function.name", "a string", name ? *name : json::value());
        if(!valid_tool_name(name->get_string()))
            return invalid_value(where + ".function.name",
                "Invalid 'tools[" + std::to_string(i) +
                    "].function.name': string does not match pattern. Expected a string that matches the pattern "
                    "'^[a-zA-Z0-9_-]{1,64}$'.");
        client_tool t{std::string(name->get_string()), {},
            json::object{{"type", "object"}, {"properties", json::object{}}}};
        if(std::any_of(r.tools.begin(), r.tools.end(), [&](client_tool const& o) { return o.name == t.name; }))
            return invalid_value(where + ".function.name", "Tool names must be unique: '" + t.name + "' is repeated.");
        if(auto const* d = f.if_contains("description"))
        {
            if(!d->is_string())
                return invalid_type(where + ".function.description", "a string", *d);
            t.description = std::string(d->get_string());
        }
        if(auto const* p = f.if_contains("parameters"))
        {
            if(!p->is_object())
                return invalid_type(where + ".function.parameters", "an object", *p);
            t.parameters = p->get_object();
        }
        r.tools.push_back(std::move(t));
    }
    return {};
}

inline result_void read_tool_choice(json::value const& v, request& r)
{
    llm::tool_choice choice = r.choice.value_or(llm::tool_choice{});
    if(auto const* s = v.if_string())
    {
        if(*s == "auto")
            choice.mode = llm::tool_choice::mode::automatic;
        else if(*s == "required")
            choice.mode = llm::tool_choice::mode::any;
        else if(*s == "none")
            choice.mode = llm::tool_choice::mode::none;
        else
            return invalid_value("tool_choice",
                "Invalid value: '" + std::string(*s) + "'. Supported values are: 'none', 'auto', and 'required'.");
    }
    else if(auto const* o = v.if_object())
    {
        auto const* fn = o->if_contains("function");
        json::value const* name = fn && fn->is_object() ? fn->get_object().if_contains("name") : nullptr;
        if(!name || !name->is_string())
            return invalid_type("tool_choice.function.name", "a string", name ? *name : json::value());
        auto const wanted = name->get_string();
        if(std::none_of(r.tools.begin(), r.tools.end(), [&](client_tool const& t) { return t.name == wanted; }))
            return invalid_value("tool_choice.function.name",
                "Invalid value for 'tool_choice': tool '" + std::string(wanted) + "' is not in 'tools'.");
        choice.mode = llm::tool_choice::mode::named;
        choice.name = std::string(wanted);
    }
    else
        return invalid_type("tool_choice", "a string or an object", v);
    r.choice = std::move(choice);
    return {};
}

using serving::push_merged;

inline result_void read_messages(json::value const& v, parse_options const& options, request& r)
{
    auto const* list = v.if_array();
    if(!list)
        return invalid_type("messages", "an array of objects", v);
    if(list->empty())
        return invalid_request(
            "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.",
            "messages", "empty_array");
    if(list->size() > options.max_messages)
        return invalid_value("messages",
            "Invalid 'messages': array too long. Expected an array with maximum length " +
                std::to_string(options.max_messages) + ", but got an array with length " +
                std::to_string(list->size()) + " instead.");
    std::vector<std::string> unanswered; // the ids of the last assistant turn's calls not yet answered
    std::size_t calls_at = 0;
    auto unanswered_error = [&] {
        std::string ids;
        for(auto const& id : unanswered)
            ids.append(ids.empty() ? "" : ", ").append(id);
        return invalid_request("An assistant message with 'tool_calls' must be followed by tool messages responding "
                               "to each 'tool_call_id'. The following tool_call_ids did not have response messages: " +
                ids,
            indexed("messages", calls_at) + ".tool_calls");
    };
    for(std::size_t i = 0; i < list->size(); ++i)
    {
        auto const where = indexed("messages", i);
        auto const* m = (*list)[i].if_object();
        if(!m)
            return invalid_type(where, "an object", (*list)[i]);
        auto const* role_value = m->if_contains("role");
        if(!role_value)
            return invalid_request("Missing required parameter: '" + where + ".role'.", where + ".role",
                "missing_required_parameter");
        if(!role_value->is_string())
            return invalid_type(where + ".role", "a string", *role_value);
        std::string_view const role = role_value->get_string();
        auto const* content = m->if_contains("content");
        if(role == "tool")
        {
            auto const* id = m->if_contains("tool_call_id");
            if(!id || !id->is_string())
                return invalid_type(where + ".tool_call_id", "a string", id ? *id : json::value());
            auto const it = std::find(unanswered.begin(), unanswered.end(), std::string_view(id->get_string()));
            if(it == unanswered.end())
                return invalid_request("Invalid parameter: messages with role 'tool' must be a response to a "
                                       "preceding message with 'tool_calls'.",
                    where + ".tool_call_id");
            unanswered.erase(it);
            if(!content)
                return invalid_request("Missing required parameter: '" + where + ".content'.", where + ".content",
                    "missing_required_parameter");
            auto text = text_content(*content, where + ".content");
            if(!text)
                return text.error();
            llm::tool_result_block result{std::string(id->get_string()), {llm::text_block{std::move(*text)}}, false};
            push_merged(r.messages, llm::message{llm::role::user, {std::move(result)}});
            continue;
        }
        if(!unanswered.empty())
            return unanswered_error();
        if(role == "system" || role == "developer")
        {
            if(!content)
                return invalid_request("Missing required parameter: '" + where + ".content'.", where + ".content",
                    "missing_required_parameter");
            auto text = text_content(*content, where + ".content");
            if(!text)
                return text.error();
            if(!r.system.empty())
                r.system.append("\n\n");
            r.system.append(*text);
        }
        else if(role == "user")
        {
            if(!content)
                return invalid_request("Missing required parameter: '" + where + ".content'.", where + ".content",
                    "missing_required_parameter");
            llm::message user{llm::role::user, {}};
            if(auto ok = user_content(*content, where + ".content", user); !ok)
                return ok.error();
            push_merged(r.messages, std::move(user));
        }
        else if(role == "assistant")
        {
            llm::message assistant{llm::role::assistant, {}};
            if(content && !content->is_null())
            {
                auto text = text_content(*content, where + ".content");
                if(!text)
                    return text.error();
                if(!text->empty())
                    assistant.content.emplace_back(llm::text_block{std::move(*text)});
            }
            if(auto const* calls = m->if_contains("tool_calls"); calls && !calls->is_null())
            {
                if(auto ok = assistant_calls(*calls, where + ".tool_calls", assistant, unanswered); !ok)
                    return ok.error();
                calls_at = i;
            }
            if(assistant.content.empty())
                return invalid_request("Invalid value for '" + where +
                        ".content': an assistant message needs content or 'tool_calls'.",
                    where + ".content");
            push_merged(r.messages, std::move(assistant));
        }
        else
            return invalid_value(where + ".role",
                "Invalid value: '" + std::string(role) +
                    "'. Supported values are: 'system', 'developer', 'user', 'assistant', and 'tool'.");
    }
    if(!unanswered.empty())
        return unanswered_error();
    if(r.messages.empty())
        return invalid_request("Invalid 'messages': there is no user or assistant message, only instructions.",
            "messages", "empty_array");
    return {};
}

inline boost::system::result<std::optional<unsigned>, api_error> positive_count(json::object const& body,
    std::string_view key)
{
    auto const* v = body.if_contains(key);
    if(!v || v->is_null())
        return std::optional<unsigned>();
    std::string const param(key);
    if(v->is_int64() && v->get_int64() >= 1 && v->get_int64() <= 1'000'000)
        return std::optional<unsigned>(static_cast<unsigned>(v->get_int64()));
    if(v->is_uint64() && v->get_uint64() >= 1 && v->get_uint64() <= 1'000'000)
        return std::optional<unsigned>(static_cast<unsigned>(v->get_uint64()));
    if(v->is_number())
        return invalid_value(param, "Invalid '" + param + "': expected an integer from 1 to 1000000.");
    return invalid_type(param, "an integer", *v);
}

} // namespace detail

AGENTIO_DECL boost::system::result<request, api_error> parse_request(std::string_view body,
    parse_options const& options)
{
    using namespace detail;
    json::parse_options json_options;
    json_options.max_depth = options.max_depth;
    boost::system::error_code ec;
    json::value parsed = json::parse(body, ec, {}, json_options);
    if(ec)
        return invalid_request("The request body is not valid JSON: " + ec.message() + ".", {}, "invalid_json");
    auto* object = parsed.if_object();
    if(!object)
        return invalid_request("The request body must be a JSON object, not " + kind_name(parsed) + ".", {},
            "invalid_type");
    auto& o = *object;
    request r;

    auto const* model = o.if_contains("model");
    if(!model)
        return invalid_request("Missing required parameter: 'model'.", "model", "missing_required_parameter");
    if(!model->is_string() || model->get_string().empty())
        return invalid_type("model", "a non-empty string", *model);
    r.model = std::string(model->get_string());

    auto const* messages = o.if_contains("messages");
    if(!messages)
        return invalid_request("Missing required parameter: 'messages'.", "messages", "missing_required_parameter");

    // The tools first: tool_choice names one of them.
    if(auto const* tools = o.if_contains("tools"); tools && !tools->is_null())
        if(auto ok = read_tools(*tools, options, r); !ok)
            return ok.error();
    if(auto ok = read_messages(*messages, options, r); !ok)
        return ok.error();
    if(auto const* choice = o.if_contains("tool_choice"); choice && !choice->is_null())
        if(auto ok = read_tool_choice(*choice, r); !ok)
            return ok.error();
    if(auto const* parallel = o.if_contains("parallel_tool_calls"); parallel && !parallel->is_null())
    {
        if(!parallel->is_bool())
            return invalid_type("parallel_tool_calls", "a boolean", *parallel);
        auto choice = r.choice.value_or(llm::tool_choice{});
        choice.disable_parallel = !parallel->get_bool();
        r.choice = std::move(choice);
    }

    if(auto const* stream = o.if_contains("stream"); stream && !stream->is_null())
    {
        if(!stream->is_bool())
            return invalid_type("stream", "a boolean", *stream);
        r.stream = stream->get_bool();
    }
    if(auto const* so = o.if_contains("stream_options"); so && !so->is_null())
    {
        if(!r.stream)
            return invalid_request("The 'stream_options' parameter is only allowed when 'stream' is enabled.",
                "stream_options");
        if(!so->is_object())
            return invalid_type("stream_options", "an object", *so);
        if(auto const* iu = so->get_object().if_contains("include_usage"); iu && !iu->is_null())
        {
            if(!iu->is_bool())
                return invalid_type("stream_options.include_usage", "a boolean", *iu);
            r.include_usage = iu->get_bool();
        }
    }

    if(auto const* n = o.if_contains("n"); n && !n->is_null())
    {
        if(!n->is_number())
            return invalid_type("n", "an integer", *n);
        if(!(n->is_int64() && n->get_int64() == 1) && !(n->is_uint64() && n->get_uint64() == 1))
            return invalid_value("n", "Only n = 1 is supported: this server returns one choice per request.");
    }
    for(std::string_view key : {"max_completion_tokens", "max_tokens"})
    {
        auto count = positive_count(o, key);
        if(!count)
            return count.error();
        if(*count && !r.max_tokens)
            r.max_tokens = *count;
    }
    if(auto const* t = o.if_contains("temperature"); t && !t->is_null())
    {
        if(!t->is_number())
            return invalid_type("temperature", "a number", *t);
        double const value = t->to_number<double>();
        if(!(value >= 0 && value <= 2))
            return invalid_value("temperature", "Invalid 'temperature': expected a number from 0 to 2.");
        r.temperature = value;
    }
    if(auto const* stop = o.if_contains("stop"); stop && !stop->is_null())
    {
        if(auto const* s = stop->if_string())
            r.stop.emplace_back(*s);
        else if(auto const* list = stop->if_array())
        {
            if(list->size() > options.max_stop_sequences)
                return invalid_value("stop",
                    "Invalid 'stop': array too long. Expected an array with maximum length " +
                        std::to_string(options.max_stop_sequences) + ", but got an array with length " +
                        std::to_string(list->size()) + " instead.");
            for(std::size_t i = 0; i < list->size(); ++i)
            {
                auto const* sequence = (*list)[i].if_string();
                if(!sequence)
                    return invalid_type(indexed("stop", i), "a string", (*list)[i]);
                if(sequence->empty())
                    return invalid_value(indexed("stop", i), "Invalid 'stop': a stop sequence cannot be empty.");
                r.stop.emplace_back(*sequence);
            }
        }
        else
            return invalid_type("stop", "a string or an array of strings", *stop);
    }
    if(auto const* user = o.if_contains("user"); user && !user->is_null())
    {
        if(!user->is_string())
            return invalid_type("user", "a string", *user);
        r.user = std::string(user->get_string());
    }

    static constexpr std::string_view read[] = {"model", "messages", "tools", "tool_choice", "parallel_tool_calls",
        "stream", "stream_options", "n", "max_completion_tokens", "max_tokens", "temperature", "stop", "user"};
    for(auto& [key, value] : o)
        if(std::find(std::begin(read), std::end(read), key) == std::end(read))
            r.extra.emplace(key, std::move(value));
    return r;
}

} // namespace agentio::chat_completions

#endif
