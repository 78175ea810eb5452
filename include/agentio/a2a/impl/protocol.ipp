//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_A2A_IMPL_PROTOCOL_IPP
#define AGENTIO_A2A_IMPL_PROTOCOL_IPP

#include <agentio/a2a/protocol.hpp>
#include <agentio/json_text.hpp>

#include <boost/json/parse.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <utility>

namespace agentio::a2a {

namespace detail {

inline constexpr std::array<std::pair<task_state, std::string_view>, 8> state_names{{
    {task_state::submitted, "TASK_STATE_SUBMITTED"},
    {task_state::working, "TASK_STATE_WORKING"},
    {task_state::input_required, "TASK_STATE_INPUT_REQUIRED"},
    {task_state::auth_required, "TASK_STATE_AUTH_REQUIRED"},
    {task_state::completed, "TASK_STATE_COMPLETED"},
    {task_state::failed, "TASK_STATE_FAILED"},
    {task_state::canceled, "TASK_STATE_CANCELED"},
    {task_state::rejected, "TASK_STATE_REJECTED"},
}};

// google.rpc.ErrorInfo, as the specification attaches it to A2A's own errors.
inline json::array error_info(std::string_view reason, json::object metadata = {})
{
    json::object info{{"@type", "type.googleapis.com/google.rpc.ErrorInfo"}, {"reason", reason},
        {"domain", "a2a-protocol.org"}};
    if(!metadata.empty())
        info["metadata"] = std::move(metadata);
    return json::array{std::move(info)};
}

inline std::string at(std::string_view where, std::size_t i)
{
    return std::string(where) + "[" + std::to_string(i) + "]";
}

} // namespace detail

AGENTIO_DECL std::string_view to_string(task_state s) noexcept
{
    for(auto const& [state, name] : detail::state_names)
        if(state == s)
            return name;
    return "TASK_STATE_UNSPECIFIED";
}

AGENTIO_DECL std::optional<task_state> parse_task_state(std::string_view name) noexcept
{
    for(auto const& [state, wire] : detail::state_names)
        if(wire == name)
            return state;
    return std::nullopt;
}

AGENTIO_DECL rpc_error task_not_found(std::string_view task_id)
{
    return {error_code::task_not_found, "Task not found: '" + std::string(task_id) + "'.",
        detail::error_info("TASK_NOT_FOUND", {{"taskId", task_id}})};
}

AGENTIO_DECL rpc_error task_not_cancelable(std::string_view task_id, task_state state)
{
    return {error_code::task_not_cancelable,
        "Task '" + std::string(task_id) + "' cannot be canceled: it is " + std::string(to_string(state)) + ".",
        detail::error_info("TASK_NOT_CANCELABLE", {{"taskId", task_id}})};
}

AGENTIO_DECL rpc_error unsupported_operation(std::string message)
{
    return {error_code::unsupported_operation, std::move(message), detail::error_info("UNSUPPORTED_OPERATION")};
}

AGENTIO_DECL rpc_error push_notification_not_supported()
{
    return {error_code::push_notification_not_supported, "Push notifications are not supported by this agent.",
        detail::error_info("PUSH_NOTIFICATION_NOT_SUPPORTED")};
}

AGENTIO_DECL rpc_error content_type_not_supported(std::string_view field, std::string_view media_type)
{
    return {error_code::content_type_not_supported,
        std::string(field) + ": the agent does not take " +
            (media_type.empty() ? std::string("files") : "'" + std::string(media_type) + "'") +
            "; send text or data parts.",
        detail::error_info("CONTENT_TYPE_NOT_SUPPORTED", {{"field", field}})};
}

AGENTIO_DECL rpc_error version_not_supported(std::string_view asked)
{
    std::string const version = asked.empty() ? std::string("0.3") : std::string(asked);
    return {error_code::version_not_supported,
        "A2A version " + version + " is not supported: send the header A2A-Version: " + std::string(protocol_version) +
            (asked.empty() ? " (without it, a request is 0.3)." : "."),
        detail::error_info("VERSION_NOT_SUPPORTED", {{"version", version}})};
}

AGENTIO_DECL rpc_error invalid_params(std::string field, std::string description)
{
    json::object violation{{"field", field}, {"description", description}};
    return {error_code::invalid_params, field + ": " + description,
        json::array{json::object{{"@type", "type.googleapis.com/google.rpc.BadRequest"},
            {"fieldViolations", json::array{std::move(violation)}}}}};
}

AGENTIO_DECL boost::system::result<rpc_request, rpc_error> parse_request(std::string_view body, json::value& id)
{
    using result_type = boost::system::result<rpc_request, rpc_error>;
    auto const invalid = [](std::string message) {
        return result_type(boost::system::in_place_error,
            rpc_error{error_code::invalid_request, std::move(message), {}});
    };
    id = nullptr;
    boost::system::error_code ec;
    auto v = json::parse(body, ec);
    if(ec)
        return result_type(boost::system::in_place_error,
            rpc_error{error_code::parse_error, "The body is not JSON: " + ec.message() + ".", {}});
    auto* o = v.if_object();
    if(!o)
        return invalid("The body is not a JSON-RPC request object.");
    rpc_request r;
    if(auto const* given = o->if_contains("id"))
    {
        if(!given->is_string() && !given->is_number() && !given->is_null())
            return invalid("id: a string, a number or null.");
        id = *given;
        r.id = *given;
    }
    auto const* version = o->if_contains("jsonrpc");
    if(!version || !version->is_string() || version->get_string() != "2.0")
        return invalid("jsonrpc: must be \"2.0\".");
    auto const* method = o->if_contains("method");
    if(!method || !method->is_string())
        return invalid("method: a string is required.");
    r.method = std::string(method->get_string());
    if(auto const* params = o->if_contains("params"); params && !params->is_null())
    {
        if(!params->is_object())
            return invalid("params: an object is required.");
        r.params = params->get_object();
    }
    return result_type(boost::system::in_place_value, std::move(r));
}

AGENTIO_DECL std::optional<rpc_error> check_version(std::optional<std::string_view> header)
{
    if(!header || header->empty())
        return version_not_supported({});
    std::string_view v = *header;
    while(!v.empty() && v.front() == ' ')
        v.remove_prefix(1);
    while(!v.empty() && v.back() == ' ')
        v.remove_suffix(1);
    // Major.Minor is negotiated; a patch number is not.
    if(v == protocol_version ||
        (v.starts_with(protocol_version) && v.size() > protocol_version.size() && v[protocol_version.size()] == '.'))
        return std::nullopt;
    return version_not_supported(v);
}

AGENTIO_DECL json::object result_response(json::value const& id, json::value result)
{
    return json::object{{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

AGENTIO_DECL json::object error_response(json::value const& id, rpc_error const& e)
{
    json::object error{{"code", e.code}, {"message", e.message}};
    if(!e.data.empty())
        error["data"] = e.data;
    return json::object{{"jsonrpc", "2.0"}, {"id", id}, {"error", std::move(error)}};
}

namespace detail {

using params_result = boost::system::result<send_params, rpc_error>;

inline params_result fail(rpc_error e)
{
    return params_result(boost::system::in_place_error, std::move(e));
}

inline params_result bad(std::string field, std::string description)
{
    return params_result(boost::system::in_place_error, invalid_params(std::move(field), std::move(description)));
}

inline std::optional<rpc_error> optional_string(json::object const& o, std::string_view key, std::string const& where,
    std::string& out)
{
    auto const* v = o.if_contains(key);
    if(!v || v->is_null())
        return std::nullopt;
    if(!v->is_string())
        return invalid_params(where, "expected a string");
    out = std::string(v->get_string());
    return std::nullopt;
}

// `{"decisions": [{toolCallId, approved, reason?}]}`: approvals for a task that waits.
inline std::optional<rpc_error> read_decisions(json::value const& list, std::string const& where,
    std::vector<chat_completions::approval>& out)
{
    auto const* items = list.if_array();
    if(!items || items->empty())
        return invalid_params(where, "expected a non-empty array of {toolCallId, approved, reason?}");
    for(std::size_t i = 0; i < items->size(); ++i)
    {
        auto const item_at = at(where, i);
        auto const* d = (*items)[i].if_object();
        if(!d)
            return invalid_params(item_at, "expected an object {toolCallId, approved, reason?}");
        chat_completions::approval a;
        auto const* id = d->if_contains("toolCallId");
        if(!id || !id->is_string() || id->get_string().empty())
            return invalid_params(item_at + ".toolCallId", "the id of the call decided is required");
        a.tool_call_id = std::string(id->get_string());
        auto const* approved = d->if_contains("approved");
        if(!approved || !approved->is_bool())
            return invalid_params(item_at + ".approved", "true or false is required");
        a.approved = approved->get_bool();
        if(auto e = optional_string(*d, "reason", item_at + ".reason", a.reason))
            return e;
        for(auto const& earlier : out)
            if(earlier.tool_call_id == a.tool_call_id)
                return invalid_params(item_at + ".toolCallId", "'" + a.tool_call_id + "' is decided twice");
        out.push_back(std::move(a));
    }
    return std::nullopt;
}

} // namespace detail

AGENTIO_DECL boost::system::result<send_params, rpc_error> parse_send_params(json::object const& params)
{
    send_params p;
    auto const* message = params.if_contains("message");
    if(!message || !message->is_object())
        return detail::bad("message", "a Message object is required");
    auto const& m = message->get_object();
    auto const* id = m.if_contains("messageId");
    if(!id || !id->is_string() || id->get_string().empty())
        return detail::bad("message.messageId", "a non-empty string is required");
    p.message_id = std::string(id->get_string());
    auto const* role = m.if_contains("role");
    if(!role || !role->is_string() || role->get_string() != "ROLE_USER")
        return detail::bad("message.role", "must be \"ROLE_USER\"");
    if(auto e = detail::optional_string(m, "contextId", "message.contextId", p.context_id))
        return detail::fail(std::move(*e));
    if(auto e = detail::optional_string(m, "taskId", "message.taskId", p.task_id))
        return detail::fail(std::move(*e));
    auto const* parts = m.if_contains("parts");
    if(!parts || !parts->is_array() || parts->get_array().empty())
        return detail::bad("message.parts", "a non-empty array of parts is required");
    auto const& list = parts->get_array();
    for(std::size_t i = 0; i < list.size(); ++i)
    {
        auto const where = detail::at("message.parts", i);
        auto const* part = list[i].if_object();
        if(!part)
            return detail::bad(where, "expected a Part object");
        int kinds = 0;
        for(auto const* k : {"text", "raw", "url", "data"})
            kinds += part->contains(k) ? 1 : 0;
        if(kinds != 1)
            return detail::bad(where, "a part holds exactly one of text, raw, url or data");
        std::string media_type;
        if(auto e = detail::optional_string(*part, "mediaType", where + ".mediaType", media_type))
            return detail::fail(std::move(*e));
        if(auto const* text = part->if_contains("text"))
        {
            if(!text->is_string())
                return detail::bad(where + ".text", "expected a string");
            p.content.content.emplace_back(llm::text_block{std::string(text->get_string())});
        }
        else if(auto const* data = part->if_contains("data"))
        {
            auto const* fields = data->if_object();
            if(fields && fields->contains("decisions"))
            {
                if(auto e = detail::read_decisions(fields->at("decisions"), where + ".data.decisions", p.decisions))
                    return detail::fail(std::move(*e));
            }
            else
                p.content.content.emplace_back(llm::text_block{to_json_text(*data)});
        }
        else
            return detail::fail(content_type_not_supported(where, media_type));
    }
    if(auto const* configuration = params.if_contains("configuration"); configuration && !configuration->is_null())
    {
        auto const* c = configuration->if_object();
        if(!c)
            return detail::bad("configuration", "expected an object");
        if(auto const* n = c->if_contains("historyLength"); n && !n->is_null())
        {
            auto const* count = n->if_int64();
            if(!count || *count < 0)
                return detail::bad("configuration.historyLength", "expected a whole number, 0 or more");
            p.history_length = static_cast<std::size_t>(*count);
        }
        if(auto const* now = c->if_contains("returnImmediately"); now && !now->is_null())
        {
            if(!now->is_bool())
                return detail::bad("configuration.returnImmediately", "expected true or false");
            p.return_immediately = now->get_bool();
        }
        if(auto const* push = c->if_contains("taskPushNotificationConfig"); push && !push->is_null())
            return detail::fail(push_notification_not_supported());
    }
    p.message = m;
    return p;
}

AGENTIO_DECL json::object agent_card(card_options const& options, std::vector<skill> const& skills)
{
    auto const strings = [](std::vector<std::string> const& list) {
        json::array out;
        for(auto const& s : list)
            out.push_back(json::value(s));
        return out;
    };
    json::object card{{"name", options.name}, {"description", options.description}, {"version", options.version},
        {"supportedInterfaces",
            json::array{json::object{{"url", options.url}, {"protocolBinding", "JSONRPC"},
                {"protocolVersion", protocol_version}}}}};
    if(!options.provider_organization.empty())
        card["provider"] = json::object{{"organization", options.provider_organization}, {"url", options.provider_url}};
    if(!options.documentation_url.empty())
        card["documentationUrl"] = options.documentation_url;
    card["capabilities"] = json::object{{"streaming", true}, {"pushNotifications", false},
        {"extendedAgentCard", false}};
    if(options.security != card_security::none)
    {
        json::object schemes;
        json::array requirements;
        if(options.security == card_security::jwt || options.api_key_as_bearer)
        {
            json::object bearer{{"scheme", "Bearer"}};
            if(options.security == card_security::jwt)
                bearer["bearerFormat"] = "JWT";
            schemes["bearer"] = json::object{{"httpAuthSecurityScheme", std::move(bearer)}};
            requirements.push_back(json::object{
                {"schemes", json::object{{"bearer", json::object{{"list", json::array{}}}}}}});
        }
        if(options.security == card_security::api_key && !options.api_key_header.empty())
        {
            schemes["apiKey"] = json::object{
                {"apiKeySecurityScheme", json::object{{"location", "header"}, {"name", options.api_key_header}}}};
            requirements.push_back(json::object{
                {"schemes", json::object{{"apiKey", json::object{{"list", json::array{}}}}}}});
        }
        card["securitySchemes"] = std::move(schemes);
        card["securityRequirements"] = std::move(requirements);
    }
    card["defaultInputModes"] = strings(options.input_modes);
    card["defaultOutputModes"] = strings(options.output_modes);
    json::array listed;
    for(auto const& s : skills)
    {
        json::object o{{"id", s.id}, {"name", s.name}, {"description", s.description},
            {"tags", strings(s.tags.empty() ? std::vector<std::string>{"tool"} : s.tags)}};
        if(!s.examples.empty())
            o["examples"] = strings(s.examples);
        listed.push_back(std::move(o));
    }
    if(listed.empty())
        listed.push_back(json::object{{"id", "chat"}, {"name", "chat"}, {"description", options.description},
            {"tags", json::array{"chat"}}});
    card["skills"] = std::move(listed);
    return card;
}

AGENTIO_DECL std::string timestamp_at(std::int64_t unix_ms)
{
    auto const ms = ((unix_ms % 1000) + 1000) % 1000;
    std::time_t const t = static_cast<std::time_t>((unix_ms - ms) / 1000);
    std::tm utc{};
    gmtime_r(&t, &utc);
    char out[64]; // room for any int GCC can imagine in each field
    std::snprintf(out, sizeof out, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900, utc.tm_mon + 1,
        utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec, static_cast<int>(ms));
    return out;
}

AGENTIO_DECL std::string timestamp_now()
{
    return timestamp_at(
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count());
}

// --- the task as the view of AG-UI events ----------------------------------------

AGENTIO_DECL task_view::task_view(std::string task_id, std::string context_id)
    : id_(std::move(task_id))
    , context_id_(std::move(context_id))
{
    status_ = status(task_state::submitted, std::nullopt);
}

AGENTIO_DECL void task_view::asked(json::object message)
{
    message["taskId"] = id_;
    message["contextId"] = context_id_;
    history_.push_back(std::move(message));
}

AGENTIO_DECL json::object task_view::agent_message(json::array parts) const
{
    return json::object{{"messageId", id_ + "-" + std::to_string(counter_)}, {"contextId", context_id_},
        {"taskId", id_}, {"role", "ROLE_AGENT"}, {"parts", std::move(parts)}};
}

AGENTIO_DECL json::object task_view::status(task_state s, std::optional<json::object> message)
{
    state_ = s;
    updated_ = event_time_.empty() ? timestamp_now() : event_time_;
    json::object out{{"state", to_string(s)}};
    if(message)
        out["message"] = std::move(*message);
    out["timestamp"] = updated_;
    return out;
}

AGENTIO_DECL json::object task_view::status_update(json::object status) const
{
    return json::object{
        {"statusUpdate", json::object{{"taskId", id_}, {"contextId", context_id_}, {"status", status}}}};
}

AGENTIO_DECL void task_view::set(task_state s, std::optional<json::object> message, std::vector<json::object>& out)
{
    ++counter_;
    status_ = status(s, std::move(message));
    out.push_back(status_update(status_));
}

AGENTIO_DECL json::object task_view::artifact_update(std::string text, bool append, bool last) const
{
    json::object artifact{{"artifactId", "answer"}, {"name", "answer"},
        {"parts", json::array{json::object{{"text", std::move(text)}}}}};
    return json::object{{"artifactUpdate",
        json::object{{"taskId", id_}, {"contextId", context_id_}, {"artifact", std::move(artifact)}, {"append", append},
            {"lastChunk", last}}}};
}

AGENTIO_DECL void task_view::take(json::object const& event, std::vector<json::object>& out)
{
    auto const* type_value = event.if_contains("type");
    if(!type_value || !type_value->is_string())
        return;
    std::string_view const type = type_value->get_string();
    event_time_.clear();
    if(auto const* when = event.if_contains("timestamp"); when && when->is_int64())
        event_time_ = timestamp_at(when->get_int64());
    auto const text_of = [&](std::string_view key) {
        auto const* v = event.if_contains(key);
        return v && v->is_string() ? std::string(v->get_string()) : std::string();
    };
    if(type == "RUN_STARTED")
    {
        waiting_.clear();
        if(state_ != task_state::working)
            set(task_state::working, std::nullopt, out);
    }
    else if(type == "TEXT_MESSAGE_CONTENT")
    {
        auto delta = text_of("delta");
        if(delta.empty())
            return;
        bool const append = answer_open_;
        answer_open_ = true;
        answer_ += delta;
        out.push_back(artifact_update(std::move(delta), append, false));
    }
    else if(type == "TOOL_CALL_START")
        calls_.push_back({text_of("toolCallId"), text_of("toolCallName"), {}});
    else if(type == "TOOL_CALL_ARGS")
    {
        auto const id = text_of("toolCallId");
        for(auto& c : calls_)
            if(c.id == id)
                c.arguments += text_of("delta");
    }
    else if(type == "TOOL_CALL_END")
    {
        auto const id = text_of("toolCallId");
        auto const c = std::find_if(calls_.begin(), calls_.end(), [&](forming_call const& f) { return f.id == id; });
        if(c == calls_.end())
            return;
        boost::system::error_code ec;
        auto arguments = json::parse(c->arguments, ec);
        json::object call{{"id", c->id}, {"name", c->name},
            {"arguments", ec ? json::value(c->arguments) : std::move(arguments)}};
        calls_.erase(c);
        set(task_state::working,
            agent_message(json::array{json::object{{"data", json::object{{"toolCall", std::move(call)}}},
                {"mediaType", "application/json"}}}),
            out);
    }
    else if(type == "TOOL_CALL_RESULT")
    {
        json::object result{{"id", text_of("toolCallId")}};
        if(auto const* content = event.if_contains("content"))
            result["content"] = *content;
        if(auto const* meta = event.if_contains("metadata"); meta && meta->is_object())
            if(auto const* mine = meta->get_object().if_contains("agentio"); mine && mine->is_object())
                if(mine->get_object().contains("isError"))
                    result["isError"] = true;
        set(task_state::working,
            agent_message(json::array{json::object{{"data", json::object{{"toolResult", std::move(result)}}},
                {"mediaType", "application/json"}}}),
            out);
    }
    else if(type == "STEP_STARTED" || type == "STEP_FINISHED")
    {
        json::object step{{"name", text_of("stepName")}, {"status", type == "STEP_STARTED" ? "started" : "finished"}};
        set(task_state::working,
            agent_message(json::array{
                json::object{{"data", json::object{{"step", std::move(step)}}}, {"mediaType", "application/json"}}}),
            out);
    }
    else if(type == "RUN_FINISHED")
    {
        json::object const* outcome = nullptr;
        if(auto const* o = event.if_contains("outcome"); o && o->is_object())
            outcome = &o->get_object();
        std::string const kind = outcome && outcome->contains("type") && outcome->at("type").is_string()
            ? std::string(outcome->at("type").get_string())
            : std::string("success");
        if(answer_open_)
        {
            // The whole answer again as the last chunk: a client that missed pieces has it all.
            out.push_back(artifact_update(answer_, false, true));
            answer_open_ = false;
        }
        if(kind == "interrupt")
        {
            json::array approvals;
            std::string questions;
            if(auto const* list = outcome->if_contains("interrupts"); list && list->is_array())
                for(auto const& i : list->get_array())
                {
                    auto const* in = i.if_object();
                    if(!in)
                        continue;
                    json::object a;
                    if(auto const* id = in->if_contains("toolCallId"); id && id->is_string())
                    {
                        a["toolCallId"] = *id;
                        waiting_.emplace_back(id->get_string());
                    }
                    if(auto const* message = in->if_contains("message"); message && message->is_string())
                    {
                        a["question"] = *message;
                        questions.append(questions.empty() ? "" : "\n").append(message->get_string());
                    }
                    if(auto const* meta = in->if_contains("metadata"); meta && meta->is_object())
                        if(auto const* mine = meta->get_object().if_contains("agentio"); mine && mine->is_object())
                        {
                            auto const& m = mine->get_object();
                            if(auto const* tool = m.if_contains("tool"))
                                a["tool"] = *tool;
                            if(auto const* input = m.if_contains("arguments"))
                                a["input"] = *input;
                            if(m.contains("inDoubt"))
                                a["inDoubt"] = true;
                        }
                    approvals.push_back(std::move(a));
                }
            json::array parts;
            if(!questions.empty())
                parts.push_back(json::object{{"text", questions}});
            parts.push_back(json::object{{"data", json::object{{"approvals", std::move(approvals)}}},
                {"mediaType", "application/json"}});
            set(task_state::input_required, agent_message(std::move(parts)), out);
        }
        else if(kind == "cancelled")
            set(task_state::canceled, std::nullopt, out);
        else
        {
            if(!answer_.empty())
                history_.push_back(agent_message(json::array{json::object{{"text", answer_}}}));
            set(task_state::completed, std::nullopt, out);
        }
    }
    else if(type == "RUN_ERROR")
    {
        if(answer_open_)
        {
            out.push_back(artifact_update(answer_, false, true));
            answer_open_ = false;
        }
        set(task_state::failed, agent_message(json::array{json::object{{"text", text_of("message")}}}), out);
    }
}

AGENTIO_DECL json::object task_view::task(std::optional<std::size_t> history_length, bool artifacts) const
{
    json::object t{{"id", id_}, {"contextId", context_id_}, {"status", status_}};
    if(artifacts && !answer_.empty())
        t["artifacts"] = json::array{json::object{{"artifactId", "answer"}, {"name", "answer"},
            {"parts", json::array{json::object{{"text", answer_}}}}}};
    std::size_t const keep = history_length.value_or(history_.size());
    if(keep > 0 && !history_.empty())
    {
        auto const from = history_.size() > keep ? history_.size() - keep : 0;
        json::array h;
        for(std::size_t i = from; i < history_.size(); ++i)
            h.push_back(history_[i]);
        t["history"] = std::move(h);
    }
    return t;
}

} // namespace agentio::a2a

#endif
