//
// agentio/ag_ui/impl/protocol.ipp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_AG_UI_IMPL_PROTOCOL_IPP
#define AGENTIO_AG_UI_IMPL_PROTOCOL_IPP

#include <agentio/ag_ui/protocol.hpp>
#include <agentio/chat_completions/serving.hpp>
#include <agentio/json_patch.hpp>
#include <agentio/json_text.hpp>

#include <boost/json/parse.hpp>

#include <algorithm>
#include <chrono>
#include <iterator>
#include <utility>
#include <variant>

namespace agentio::ag_ui {

namespace detail {

using input_result = boost::system::result<void, input_error>;
using text_result = boost::system::result<std::string, input_error>;

// A string as a result: said explicitly, since an input_error can be made of a string too.
inline text_result text_value(std::string s)
{
    return text_result(boost::system::in_place_value, std::move(s));
}

inline std::string kind_of(json::value const& v)
{
    switch(v.kind())
    {
    case json::kind::null: return "null";
    case json::kind::bool_: return "a boolean";
    case json::kind::string: return "a string";
    case json::kind::array: return "an array";
    case json::kind::object: return "an object";
    default: return "a number";
    }
}

inline input_error wrong_type(std::string field, std::string_view expected, json::value const* got)
{
    std::string message = field + ": expected " + std::string(expected);
    message += got ? ", got " + kind_of(*got) : ", but it is missing";
    return {std::move(field), std::move(message)};
}

inline input_error invalid(std::string field, std::string_view why)
{
    std::string message = field + ": " + std::string(why);
    return {std::move(field), std::move(message)};
}

inline std::string at(std::string_view prefix, std::size_t i)
{
    return std::string(prefix) + "[" + std::to_string(i) + "]";
}

// A required string member; `max` bytes at most (0: any).
inline text_result required_string(json::object const& o, std::string_view key, std::string const& field,
    std::size_t max = 0)
{
    auto const* v = o.if_contains(key);
    if(!v || !v->is_string())
        return wrong_type(field, "a string", v);
    if(max && v->get_string().size() > max)
        return invalid(field, "longer than " + std::to_string(max) + " bytes");
    return text_value(std::string(v->get_string()));
}

// An optional string member: absent or null is empty.
inline text_result optional_string(json::object const& o, std::string_view key, std::string const& field)
{
    auto const* v = o.if_contains(key);
    if(!v || v->is_null())
        return text_value({});
    if(!v->is_string())
        return wrong_type(field, "a string", v);
    return text_value(std::string(v->get_string()));
}

using chat_completions::serving::push_merged;

// A user message's content: a string, or text parts and images given as data (a server fetches no URL a client names).
inline input_result user_content(json::value const& content, std::string const& field, llm::message& out)
{
    if(auto const* s = content.if_string())
    {
        out.content.emplace_back(llm::text_block{std::string(*s)});
        return {};
    }
    auto const* parts = content.if_array();
    if(!parts)
        return wrong_type(field, "a string or an array of content parts", &content);
    for(std::size_t i = 0; i < parts->size(); ++i)
    {
        auto const where = at(field, i);
        auto const* part = (*parts)[i].if_object();
        if(!part)
            return wrong_type(where, "an object", &(*parts)[i]);
        auto type = required_string(*part, "type", where + ".type");
        if(!type)
            return type.error();
        if(*type == "text")
        {
            auto text = required_string(*part, "text", where + ".text");
            if(!text)
                return text.error();
            out.content.emplace_back(llm::text_block{std::move(*text)});
            continue;
        }
        if(*type == "image")
        {
            auto const* source = part->if_contains("source");
            if(!source || !source->is_object())
                return wrong_type(where + ".source", "an object", source);
            auto const& s = source->get_object();
            auto kind = required_string(s, "type", where + ".source.type");
            if(!kind)
                return kind.error();
            if(*kind != "data")
                return invalid(where + ".source.type", "only images given as data (base64) are accepted");
            auto value = required_string(s, "value", where + ".source.value");
            if(!value)
                return value.error();
            auto media = required_string(s, "mimeType", where + ".source.mimeType");
            if(!media)
                return media.error();
            out.content.emplace_back(llm::image_block{std::move(*media), std::move(*value)});
            continue;
        }
        return invalid(where + ".type", "'" + *type + "' is not accepted here; use 'text' or 'image'");
    }
    return {};
}

// The text of a content that may only be text: a string, or text parts.
inline text_result text_of(json::value const* content, std::string const& field)
{
    if(!content || content->is_null())
        return text_value({});
    if(auto const* s = content->if_string())
        return text_value(std::string(*s));
    llm::message m;
    if(auto ok = user_content(*content, field, m); !ok)
        return ok.error();
    std::string out;
    for(auto const& b : m.content)
    {
        auto const* t = std::get_if<llm::text_block>(&b);
        if(!t)
            return invalid(field, "only text is accepted here");
        out += t->text;
    }
    return text_value(std::move(out));
}

inline input_result read_tools(json::value const& v, input_limits const& limits, chat_completions::request& r)
{
    if(v.is_null())
        return {};
    auto const* list = v.if_array();
    if(!list)
        return wrong_type("tools", "an array", &v);
    if(list->size() > limits.max_tools)
        return invalid("tools", "more than " + std::to_string(limits.max_tools) + " tools");
    for(std::size_t i = 0; i < list->size(); ++i)
    {
        auto const where = at("tools", i);
        auto const* t = (*list)[i].if_object();
        if(!t)
            return wrong_type(where, "an object", &(*list)[i]);
        auto name = required_string(*t, "name", where + ".name");
        if(!name)
            return name.error();
        bool const valid_name = !name->empty() && name->size() <= 64 &&
            std::all_of(name->begin(), name->end(), [](char c) {
                return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                    c == '-';
            });
        if(!valid_name)
            return invalid(where + ".name", "a tool's name is 1 to 64 letters, digits, '_' or '-'");
        for(auto const& earlier : r.tools)
            if(earlier.name == *name)
                return invalid(where + ".name", "'" + *name + "' names two tools");
        auto description = optional_string(*t, "description", where + ".description");
        if(!description)
            return description.error();
        chat_completions::client_tool tool{std::move(*name), std::move(*description), {}};
        if(auto const* p = t->if_contains("parameters"); p && !p->is_null())
        {
            if(!p->is_object())
                return wrong_type(where + ".parameters", "an object (a JSON Schema)", p);
            tool.parameters = p->get_object();
        }
        else
            tool.parameters = json::object{{"type", "object"}, {"properties", json::object{}}};
        r.tools.push_back(std::move(tool));
    }
    return {};
}

// Calls a later message shows were never answered (their run was cancelled
// or left, or the client went on without a frontend tool's result) leave
// the conversation: a model is never shown a call without its result.
inline void drop_calls(std::vector<llm::message>& messages, std::set<std::string, std::less<>> const& ids)
{
    for(auto m = messages.begin(); m != messages.end();)
    {
        if(m->role == llm::role::assistant)
            std::erase_if(m->content, [&](llm::content_block const& b) {
                auto const* call = std::get_if<llm::tool_use_block>(&b);
                return call && ids.contains(call->id);
            });
        if(!m->content.empty())
        {
            ++m;
            continue;
        }
        m = messages.erase(m);
        // Its neighbours may now be of one role: one turn.
        if(m != messages.begin() && m != messages.end() && std::prev(m)->role == m->role)
        {
            auto& before = std::prev(m)->content;
            before.insert(before.end(), std::make_move_iterator(m->content.begin()),
                std::make_move_iterator(m->content.end()));
            m = messages.erase(m);
        }
    }
}

inline input_result read_messages(json::value const& v, input_limits const& limits, chat_completions::request& r)
{
    auto const* list = v.if_array();
    if(!list)
        return wrong_type("messages", "an array of messages", &v);
    if(list->size() > limits.max_messages)
        return invalid("messages", "more than " + std::to_string(limits.max_messages) + " messages");
    std::set<std::string, std::less<>> called;     // the ids of the assistant's calls so far
    std::set<std::string, std::less<>> unanswered; // ... with no result yet
    for(std::size_t i = 0; i < list->size(); ++i)
    {
        auto const where = at("messages", i);
        auto const* m = (*list)[i].if_object();
        if(!m)
            return wrong_type(where, "an object", &(*list)[i]);
        auto role = required_string(*m, "role", where + ".role");
        if(!role)
            return role.error();
        if((*role == "user" || *role == "assistant") && !unanswered.empty())
            drop_calls(r.messages, std::exchange(unanswered, {}));
        auto const* content = m->if_contains("content");
        if(*role == "system" || *role == "developer")
        {
            auto text = text_of(content, where + ".content");
            if(!text)
                return text.error();
            if(!text->empty())
                r.system.append(r.system.empty() ? "" : "\n\n").append(*text);
        }
        else if(*role == "user")
        {
            if(!content)
                return wrong_type(where + ".content", "a string or an array of content parts", nullptr);
            llm::message user{llm::role::user, {}};
            if(auto ok = user_content(*content, where + ".content", user); !ok)
                return ok.error();
            push_merged(r.messages, std::move(user));
        }
        else if(*role == "assistant")
        {
            llm::message assistant{llm::role::assistant, {}};
            auto text = text_of(content, where + ".content");
            if(!text)
                return text.error();
            if(!text->empty())
                assistant.content.emplace_back(llm::text_block{std::move(*text)});
            if(auto const* calls = m->if_contains("toolCalls"); calls && !calls->is_null())
            {
                auto const* array = calls->if_array();
                if(!array)
                    return wrong_type(where + ".toolCalls", "an array", calls);
                for(std::size_t k = 0; k < array->size(); ++k)
                {
                    auto const call_at = at(where + ".toolCalls", k);
                    auto const* call = (*array)[k].if_object();
                    if(!call)
                        return wrong_type(call_at, "an object", &(*array)[k]);
                    auto id = required_string(*call, "id", call_at + ".id");
                    if(!id)
                        return id.error();
                    auto const* fn = call->if_contains("function");
                    if(!fn || !fn->is_object())
                        return wrong_type(call_at + ".function", "an object", fn);
                    auto name = required_string(fn->get_object(), "name", call_at + ".function.name");
                    if(!name)
                        return name.error();
                    auto arguments = required_string(fn->get_object(), "arguments", call_at + ".function.arguments");
                    if(!arguments)
                        return arguments.error();
                    boost::system::error_code ec;
                    json::value input = json::parse(*arguments, ec);
                    if(ec)
                        return invalid(call_at + ".function.arguments", "not JSON text");
                    called.insert(*id);
                    unanswered.insert(*id);
                    assistant.content.emplace_back(llm::tool_use_block{std::move(*id), std::move(*name),
                        std::move(input), std::move(*arguments)});
                }
            }
            if(!assistant.content.empty())
                push_merged(r.messages, std::move(assistant));
        }
        else if(*role == "tool")
        {
            auto id = required_string(*m, "toolCallId", where + ".toolCallId");
            if(!id)
                return id.error();
            if(!called.contains(*id))
                return invalid(where + ".toolCallId", "'" + *id + "' answers no call of an earlier assistant message");
            unanswered.erase(*id);
            auto text = text_of(content, where + ".content");
            if(!text)
                return text.error();
            auto failure = optional_string(*m, "error", where + ".error");
            if(!failure)
                return failure.error();
            llm::tool_result_block result{std::move(*id), {}, !failure->empty()};
            // A failure whose content says the same (as messages_snapshot writes it) is said once.
            std::string said = failure->empty()
                ? std::move(*text)
                : (text->empty() || *text == *failure ? std::move(*failure) : *text + "\n" + *failure);
            result.content.emplace_back(llm::text_block{std::move(said)});
            push_merged(r.messages, llm::message{llm::role::user, {std::move(result)}});
        }
        else if(*role == "reasoning" || *role == "activity")
            continue; // the client's record of what it was shown: not the model's to read again
        else
            return invalid(where + ".role",
                "'" + *role + "' is not a role; use 'system', 'developer', 'user', 'assistant' or 'tool'");
    }
    return {};
}

inline std::int64_t now_ms()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

inline json::object event(std::string_view type)
{
    return json::object{{"type", type}, {"timestamp", now_ms()}};
}

} // namespace detail

AGENTIO_DECL boost::system::result<run_input, input_error> parse_run_input(json::value const& body,
    input_limits const& limits)
{
    auto const* o = body.if_object();
    if(!o)
        return detail::wrong_type("body", "a RunAgentInput object", &body);
    run_input in;
    auto thread = detail::required_string(*o, "threadId", "threadId", limits.max_id_bytes);
    if(!thread)
        return thread.error();
    if(thread->empty())
        return detail::invalid("threadId", "empty");
    in.thread_id = std::move(*thread);
    auto run = detail::required_string(*o, "runId", "runId", limits.max_id_bytes);
    if(!run)
        return run.error();
    if(run->empty())
        return detail::invalid("runId", "empty");
    in.run_id = std::move(*run);
    if(auto const* parent = o->if_contains("parentRunId"); parent && !parent->is_null())
    {
        if(!parent->is_string())
            return detail::wrong_type("parentRunId", "a string", parent);
        in.parent_run_id = std::string(parent->get_string());
    }
    if(auto const* state = o->if_contains("state"))
        in.state = *state;
    if(auto const* props = o->if_contains("forwardedProps"))
    {
        in.forwarded_props = *props;
        if(auto const* fields = props->if_object())
            for(auto const& [key, value] : *fields)
                in.request.extra.insert_or_assign(key, value);
    }
    auto const* messages = o->if_contains("messages");
    if(!messages)
        return detail::wrong_type("messages", "an array of messages", nullptr);
    if(auto ok = detail::read_messages(*messages, limits, in.request); !ok)
        return ok.error();
    if(auto const* tools = o->if_contains("tools"))
        if(auto ok = detail::read_tools(*tools, limits, in.request); !ok)
            return ok.error();
    if(auto const* context = o->if_contains("context"); context && !context->is_null())
    {
        auto const* list = context->if_array();
        if(!list)
            return detail::wrong_type("context", "an array", context);
        if(list->size() > limits.max_context)
            return detail::invalid("context", "more than " + std::to_string(limits.max_context) + " items");
        for(std::size_t i = 0; i < list->size(); ++i)
        {
            auto const where = detail::at("context", i);
            auto const* item = (*list)[i].if_object();
            if(!item)
                return detail::wrong_type(where, "an object", &(*list)[i]);
            auto description = detail::required_string(*item, "description", where + ".description");
            if(!description)
                return description.error();
            auto value = detail::required_string(*item, "value", where + ".value");
            if(!value)
                return value.error();
            in.context.push_back({std::move(*description), std::move(*value)});
        }
    }
    if(auto const* resume = o->if_contains("resume"); resume && !resume->is_null())
    {
        auto const* list = resume->if_array();
        if(!list)
            return detail::wrong_type("resume", "an array", resume);
        for(std::size_t i = 0; i < list->size(); ++i)
        {
            auto const where = detail::at("resume", i);
            auto const* item = (*list)[i].if_object();
            if(!item)
                return detail::wrong_type(where, "an object", &(*list)[i]);
            auto id = detail::required_string(*item, "interruptId", where + ".interruptId");
            if(!id)
                return id.error();
            auto status = detail::required_string(*item, "status", where + ".status");
            if(!status)
                return status.error();
            if(*status != "resolved" && *status != "cancelled")
                return detail::invalid(where + ".status", "'" + *status + "': use 'resolved' or 'cancelled'");
            for(auto const& earlier : in.resume)
                if(earlier.interrupt_id == *id)
                    return detail::invalid(where + ".interruptId", "'" + *id + "' is answered twice");
            resume_answer answer{std::move(*id), *status == "resolved", {}};
            if(auto const* payload = item->if_contains("payload"))
                answer.payload = *payload;
            // A decision, as the interrupt's responseSchema asks: {approved, reason?}; cancelled is a no.
            chat_completions::approval decision{answer.interrupt_id, false, {}};
            if(answer.resolved)
            {
                auto const* fields = answer.payload.if_object();
                if(!fields)
                    return detail::wrong_type(where + ".payload", "an object {approved, reason?}", &answer.payload);
                auto const* approved = fields->if_contains("approved");
                if(!approved || !approved->is_bool())
                    return detail::wrong_type(where + ".payload.approved", "true or false", approved);
                decision.approved = approved->get_bool();
                auto reason = detail::optional_string(*fields, "reason", where + ".payload.reason");
                if(!reason)
                    return reason.error();
                decision.reason = std::move(*reason);
            }
            in.request.decisions.push_back(std::move(decision));
            in.resume.push_back(std::move(answer));
        }
    }
    // The context the client gives joins the instructions, one fact a line.
    if(!in.context.empty())
    {
        std::string facts;
        for(auto const& c : in.context)
            facts.append(facts.empty() ? "" : "\n").append(c.description).append(": ").append(c.value);
        in.request.system.append(in.request.system.empty() ? "" : "\n\n").append(facts);
    }
    in.request.stream = true;
    return in;
}

AGENTIO_DECL std::string frame(json::object const& event)
{
    std::string out = "data: ";
    out += to_json_text(event);
    out += "\n\n";
    return out;
}

AGENTIO_DECL json::object input_error_event(input_error const& e)
{
    auto ev = detail::event("RUN_ERROR");
    ev["message"] = e.message;
    ev["code"] = "invalid_input";
    ev["metadata"] = json::object{{"agentio", json::object{{"field", e.field}}}};
    return ev;
}

AGENTIO_DECL json::object messages_snapshot(std::vector<llm::message> const& messages, std::string_view id_prefix)
{
    json::array out;
    for(std::size_t i = 0; i < messages.size(); ++i)
    {
        auto const& m = messages[i];
        std::string const id = std::string(id_prefix) + std::to_string(i);
        if(m.role == llm::role::assistant)
        {
            std::string text;
            json::array calls;
            for(auto const& b : m.content)
            {
                if(auto const* t = std::get_if<llm::text_block>(&b))
                    text += t->text;
                else if(auto const* call = std::get_if<llm::tool_use_block>(&b))
                    calls.push_back(json::object{{"id", call->id}, {"type", "function"},
                        {"function",
                            json::object{{"name", call->name},
                                {"arguments",
                                    call->raw_input.empty() ? to_json_text(call->input) : call->raw_input}}}});
            }
            if(text.empty() && calls.empty())
                continue; // reasoning alone: not the client's to show as a message
            json::object a{{"id", id}, {"role", "assistant"}};
            if(!text.empty())
                a["content"] = std::move(text);
            if(!calls.empty())
                a["toolCalls"] = std::move(calls);
            out.push_back(std::move(a));
            continue;
        }
        // A user turn: its tool results as tool messages, its own words as a user message, in their order.
        json::array parts;
        bool images = false;
        std::size_t stretches = 0; // of the turn's own words: the first has the turn's id
        auto const flush = [&] {
            if(parts.empty())
                return;
            json::object u{{"id", stretches++ == 0 ? id : id + "-" + std::to_string(stretches)}, {"role", "user"}};
            if(images)
                u["content"] = std::move(parts);
            else
            {
                std::string text;
                for(auto const& p : parts)
                    text.append(text.empty() ? "" : "\n").append(p.at("text").as_string());
                u["content"] = std::move(text);
            }
            out.push_back(std::move(u));
            parts = {};
            images = false;
        };
        for(auto const& b : m.content)
        {
            if(auto const* t = std::get_if<llm::text_block>(&b))
                parts.push_back(json::object{{"type", "text"}, {"text", t->text}});
            else if(auto const* image = std::get_if<llm::image_block>(&b))
            {
                images = true;
                parts.push_back(json::object{{"type", "image"},
                    {"source",
                        json::object{{"type", "data"}, {"value", image->base64_data},
                            {"mimeType", image->media_type}}}});
            }
            else if(auto const* result = std::get_if<llm::tool_result_block>(&b))
            {
                flush();
                std::string text;
                for(auto const& part : result->content)
                    if(auto const* said = std::get_if<llm::text_block>(&part))
                        text.append(text.empty() ? "" : "\n").append(said->text);
                json::object tool{{"id", id + "-" + result->tool_use_id}, {"role", "tool"},
                    {"toolCallId", result->tool_use_id}, {"content", text}};
                if(result->is_error)
                    tool["error"] = std::move(text);
                out.push_back(std::move(tool));
            }
        }
        flush();
    }
    auto ev = detail::event("MESSAGES_SNAPSHOT");
    ev["messages"] = std::move(out);
    return ev;
}

// --- run_events ---------------------------------------------------------------

AGENTIO_DECL run_events::run_events(std::string thread_id, std::string run_id, std::string usage_provider,
    std::string usage_model)
    : thread_id_(std::move(thread_id))
    , run_id_(std::move(run_id))
    , usage_provider_(std::move(usage_provider))
    , usage_model_(std::move(usage_model))
{
}

AGENTIO_DECL json::object run_events::started() const
{
    auto ev = detail::event("RUN_STARTED");
    ev["threadId"] = thread_id_;
    ev["runId"] = run_id_;
    return ev;
}

AGENTIO_DECL std::string run_events::next_id(std::string_view kind)
{
    return run_id_ + "-" + std::string(kind) + "-" + std::to_string(++counter_);
}

AGENTIO_DECL void run_events::close_text(std::vector<json::object>& out)
{
    if(text_id_.empty())
        return;
    auto ev = detail::event("TEXT_MESSAGE_END");
    ev["messageId"] = std::exchange(text_id_, {});
    out.push_back(std::move(ev));
}

AGENTIO_DECL void run_events::close_reasoning(std::vector<json::object>& out)
{
    if(reasoning_id_.empty())
        return;
    auto message_end = detail::event("REASONING_MESSAGE_END");
    message_end["messageId"] = reasoning_id_ + "-message";
    out.push_back(std::move(message_end));
    auto end = detail::event("REASONING_END");
    end["messageId"] = std::exchange(reasoning_id_, {});
    out.push_back(std::move(end));
}

AGENTIO_DECL void run_events::close_calls(std::vector<json::object>& out)
{
    for(auto const& id : open_calls_)
    {
        auto ev = detail::event("TOOL_CALL_END");
        ev["toolCallId"] = id;
        out.push_back(std::move(ev));
    }
    open_calls_.clear();
}

AGENTIO_DECL void run_events::close_step(std::vector<json::object>& out)
{
    if(open_step_.empty())
        return;
    auto ev = detail::event("STEP_FINISHED");
    ev["stepName"] = std::exchange(open_step_, {});
    out.push_back(std::move(ev));
}

// The assistant message a call belongs to: the text just written, or a new id (the client creates it).
AGENTIO_DECL std::string const& run_events::assistant_message(std::vector<json::object>& out)
{
    if(!text_id_.empty())
    {
        last_message_ = text_id_;
        close_text(out);
    }
    if(last_message_.empty())
        last_message_ = next_id("message");
    return last_message_;
}

AGENTIO_DECL json::array run_events::usage(llm::usage const& u) const
{
    json::object usage;
    if(!usage_provider_.empty())
        usage["provider"] = usage_provider_;
    if(!usage_model_.empty())
        usage["model"] = usage_model_;
    usage["inputTokens"] = u.input_tokens;
    usage["outputTokens"] = u.output_tokens;
    usage["totalTokens"] = u.input_tokens + u.output_tokens;
    if(u.cache_read_input_tokens)
        usage["cachedInputTokens"] = u.cache_read_input_tokens;
    if(u.cache_creation_input_tokens)
        usage["cacheWriteInputTokens"] = u.cache_creation_input_tokens;
    return json::array{std::move(usage)};
}

AGENTIO_DECL json::object approval_schema()
{
    return json::object{{"type", "object"},
        {"properties",
            json::object{{"approved", json::object{{"type", "boolean"}}},
                {"reason", json::object{{"type", "string"}}}}},
        {"required", json::array{"approved"}}};
}

AGENTIO_DECL void run_events::take(chat_completions::output o, std::vector<json::object>& out)
{
    namespace cc = chat_completions;
    if(ended_)
        return;
    if(auto* text = std::get_if<cc::content_delta>(&o))
    {
        if(text->text.empty())
            return;
        close_reasoning(out);
        if(text_id_.empty())
        {
            text_id_ = next_id("message");
            last_message_.clear(); // calls after this text belong to it
            auto start = detail::event("TEXT_MESSAGE_START");
            start["messageId"] = text_id_;
            start["role"] = "assistant";
            out.push_back(std::move(start));
        }
        auto content = detail::event("TEXT_MESSAGE_CONTENT");
        content["messageId"] = text_id_;
        content["delta"] = std::move(text->text);
        out.push_back(std::move(content));
    }
    else if(auto* thought = std::get_if<cc::reasoning_delta>(&o))
    {
        // The agent's own calls arrive as TOOL_CALL_* (tool_activity): their lines would say it twice.
        if(thought->activity || thought->text.empty())
            return;
        close_text(out);
        if(reasoning_id_.empty())
        {
            reasoning_id_ = next_id("reasoning");
            auto start = detail::event("REASONING_START");
            start["messageId"] = reasoning_id_;
            out.push_back(std::move(start));
            auto message = detail::event("REASONING_MESSAGE_START");
            message["messageId"] = reasoning_id_ + "-message";
            message["role"] = "reasoning";
            out.push_back(std::move(message));
        }
        auto content = detail::event("REASONING_MESSAGE_CONTENT");
        content["messageId"] = reasoning_id_ + "-message";
        content["delta"] = std::move(thought->text);
        out.push_back(std::move(content));
    }
    else if(auto* begun = std::get_if<cc::tool_call_begun>(&o))
    {
        if(begun_calls_.contains(begun->id))
            return;
        close_reasoning(out);
        auto start = detail::event("TOOL_CALL_START");
        start["toolCallId"] = begun->id;
        start["toolCallName"] = begun->name;
        start["parentMessageId"] = assistant_message(out);
        out.push_back(std::move(start));
        begun_calls_.insert(begun->id);
        open_calls_.insert(begun->id);
    }
    else if(auto* args = std::get_if<cc::tool_call_arguments>(&o))
    {
        if(!open_calls_.contains(args->id) || args->delta.empty())
            return;
        auto ev = detail::event("TOOL_CALL_ARGS");
        ev["toolCallId"] = args->id;
        ev["delta"] = std::move(args->delta);
        out.push_back(std::move(ev));
    }
    else if(auto* call = std::get_if<cc::tool_call_output>(&o))
    {
        // The client's call, whole: streamed now if it did not stream as it formed.
        if(!begun_calls_.contains(call->id))
        {
            take(cc::tool_call_begun{call->id, call->name}, out);
            take(cc::tool_call_arguments{call->id, call->arguments}, out);
        }
        if(open_calls_.erase(call->id))
        {
            auto end = detail::event("TOOL_CALL_END");
            end["toolCallId"] = call->id;
            out.push_back(std::move(end));
        }
        pending_calls_.push_back(call->id);
    }
    else if(auto* activity = std::get_if<cc::tool_activity>(&o))
    {
        using phase = cc::tool_activity::phase;
        if(activity->what == phase::begun)
            return take(cc::tool_call_begun{std::move(activity->id), std::move(activity->name)}, out);
        if(activity->what == phase::arguments)
            return take(cc::tool_call_arguments{std::move(activity->id), std::move(activity->arguments)}, out);
        if(activity->what == phase::ready)
        {
            if(!begun_calls_.contains(activity->id))
            {
                take(cc::tool_call_begun{activity->id, activity->name}, out);
                take(cc::tool_call_arguments{activity->id, activity->arguments}, out);
            }
            if(open_calls_.erase(activity->id))
            {
                auto end = detail::event("TOOL_CALL_END");
                end["toolCallId"] = activity->id;
                out.push_back(std::move(end));
            }
            return;
        }
        close_text(out);
        close_reasoning(out);
        auto result = detail::event("TOOL_CALL_RESULT");
        result["messageId"] = "result-" + activity->id;
        result["toolCallId"] = activity->id;
        result["content"] = std::move(activity->result);
        result["role"] = "tool";
        if(activity->is_error)
            result["metadata"] = json::object{{"agentio", json::object{{"isError", true}}}};
        out.push_back(std::move(result));
    }
    else if(auto* done = std::get_if<cc::finished>(&o))
    {
        close_text(out);
        close_reasoning(out);
        close_calls(out);
        close_step(out);
        auto ev = detail::event("RUN_FINISHED");
        ev["threadId"] = thread_id_;
        ev["runId"] = run_id_;
        json::object outcome{{"type", "success"}};
        if(!pending_calls_.empty())
        {
            json::array ids;
            for(auto const& id : pending_calls_)
                ids.push_back(json::value(id));
            outcome["pendingToolCallIds"] = std::move(ids);
        }
        ev["outcome"] = std::move(outcome);
        if(done->reason == cc::finish_reason::length || done->reason == cc::finish_reason::content_filter)
            ev["result"] = json::object{{"finishReason", cc::to_string(done->reason)}};
        ev["usage"] = usage(done->usage);
        out.push_back(std::move(ev));
        ended_ = true;
    }
    else if(auto* step = std::get_if<cc::step_boundary>(&o))
    {
        close_text(out);
        close_reasoning(out);
        if(!step->finished)
        {
            close_step(out); // a step that begins ends the one before
            auto ev = detail::event("STEP_STARTED");
            ev["stepName"] = step->name;
            open_step_ = std::move(step->name);
            out.push_back(std::move(ev));
        }
        else if(step->name.empty() || step->name == open_step_)
            close_step(out); // a step ends under its own name, once
    }
    else if(auto* state = std::get_if<cc::state_update>(&o))
    {
        if(!state_)
        {
            auto ev = detail::event("STATE_SNAPSHOT");
            ev["snapshot"] = state->snapshot;
            out.push_back(std::move(ev));
        }
        else if(auto delta = json_patch::diff(*state_, state->snapshot); !delta.empty())
        {
            auto ev = detail::event("STATE_DELTA");
            ev["delta"] = std::move(delta);
            out.push_back(std::move(ev));
        }
        state_ = std::move(state->snapshot);
    }
    else if(auto* wait = std::get_if<cc::awaiting_approval>(&o))
    {
        // The turn's calls as the client files them (those that did not stream), then the interrupts.
        for(auto& made : wait->turn)
            if(!begun_calls_.contains(made.id))
            {
                take(cc::tool_call_begun{made.id, made.name}, out);
                take(cc::tool_call_arguments{made.id, made.arguments}, out);
            }
        close_text(out);
        close_reasoning(out);
        close_calls(out);
        close_step(out);
        json::array interrupts;
        for(auto& asked : wait->calls)
        {
            json::object agentio{{"tool", asked.name}};
            boost::system::error_code ec;
            auto arguments = json::parse(asked.arguments, ec);
            agentio["arguments"] = ec ? json::value(asked.arguments) : std::move(arguments);
            if(asked.in_doubt)
                agentio["inDoubt"] = true;
            interrupts.push_back(json::object{{"id", asked.id}, {"reason", "tool_call"}, {"toolCallId", asked.id},
                {"message", std::move(asked.question)}, {"responseSchema", approval_schema()},
                {"metadata", json::object{{"agentio", std::move(agentio)}}}});
        }
        auto ev = detail::event("RUN_FINISHED");
        ev["threadId"] = thread_id_;
        ev["runId"] = run_id_;
        ev["outcome"] = json::object{{"type", "interrupt"}, {"interrupts", std::move(interrupts)}};
        ev["usage"] = usage(wait->usage);
        out.push_back(std::move(ev));
        ended_ = true;
    }
    else if(auto* failure = std::get_if<cc::failed>(&o))
    {
        close_step(out);
        auto ev = detail::event("RUN_ERROR");
        ev["message"] = failure->error.message;
        ev["code"] = !failure->error.code.empty() ? failure->error.code
            : !failure->error.type.empty()        ? failure->error.type
                                                  : std::string("server_error");
        if(!failure->error.param.empty())
            ev["metadata"] = json::object{{"agentio", json::object{{"field", failure->error.param}}}};
        out.push_back(std::move(ev));
        ended_ = true;
    }
}

AGENTIO_DECL void run_events::end_abruptly(bool cancelled, std::vector<json::object>& out)
{
    if(ended_)
        return;
    if(!cancelled)
    {
        take(chat_completions::failed{{500, "The agent stopped without an answer.", "server_error", {}, {}}}, out);
        return;
    }
    close_text(out);
    close_reasoning(out);
    close_calls(out);
    close_step(out);
    auto ev = detail::event("RUN_FINISHED");
    ev["threadId"] = thread_id_;
    ev["runId"] = run_id_;
    ev["outcome"] = json::object{{"type", "cancelled"}};
    out.push_back(std::move(ev));
    ended_ = true;
}

} // namespace agentio::ag_ui

#endif
