//
// agentio/llm/impl/openai_codec.ipp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_LLM_IMPL_OPENAI_CODEC_IPP
#define AGENTIO_LLM_IMPL_OPENAI_CODEC_IPP

#include <agentio/config.hpp>
#include <agentio/json_text.hpp>
#include <agentio/llm/detail/json_fields.hpp>
#include <agentio/llm/detail/output_schema.hpp>
#include <agentio/llm/retry.hpp>

#include <boost/json/parse.hpp>

namespace agentio::llm::openai {

namespace detail {

using llm::detail::count_at;
using llm::detail::string_at;

AGENTIO_DECL void merge_usage(usage& u, json::object const& o)
{
    u.input_tokens = count_at(o, "prompt_tokens", u.input_tokens);
    u.output_tokens = count_at(o, "completion_tokens", u.output_tokens);
    if(auto const* d = o.if_contains("prompt_tokens_details"); d && d->is_object())
        u.cache_read_input_tokens = count_at(d->get_object(), "cached_tokens", u.cache_read_input_tokens);
}

AGENTIO_DECL std::string text_of(std::vector<std::variant<text_block, image_block>> const& parts)
{
    std::string out;
    for(auto const& p : parts)
        if(auto const* t = std::get_if<text_block>(&p))
        {
            if(!out.empty())
                out += '\n';
            out += t->text;
        }
    return out;
}

} // namespace detail

AGENTIO_DECL json::object make_request_body(request const& r, wire_options const& options, bool stream)
{
    json::object body;
    body["model"] = r.model;
    json::array messages;
    if(!r.system.empty())
        messages.push_back({{"role", "system"}, {"content", r.system}});
    for(auto const& m : r.messages)
    {
        if(m.role == role::assistant)
        {
            std::string text;
            json::array calls;
            for(auto const& b : m.content)
            {
                if(auto const* t = std::get_if<text_block>(&b))
                    text += t->text;
                else if(auto const* c = std::get_if<tool_use_block>(&b))
                    calls.push_back({{"id", c->id}, {"type", "function"},
                        {"function",
                            {{"name", c->name},
                                {"arguments", c->raw_input.empty() ? to_json_text(c->input) : c->raw_input}}}});
                // thinking and provider-specific blocks have no OpenAI form
            }
            json::object msg{{"role", "assistant"}};
            msg["content"] = text.empty() && !calls.empty() ? json::value(nullptr) : json::value(text);
            if(!calls.empty())
                msg["tool_calls"] = std::move(calls);
            messages.push_back(std::move(msg));
            continue;
        }
        // A user turn: tool results become `tool` messages (they answer the
        // previous assistant turn, so they come first); the rest one user message.
        json::array parts;
        bool only_text = true;
        std::string text;
        for(auto const& b : m.content)
        {
            if(auto const* res = std::get_if<tool_result_block>(&b))
            {
                // No is_error flag on this wire: the text says it.
                std::string content = detail::text_of(res->content);
                if(res->is_error)
                    content = "Error: " + content;
                messages.push_back({{"role", "tool"}, {"tool_call_id", res->tool_use_id}, {"content", content}});
            }
            else if(auto const* t = std::get_if<text_block>(&b))
            {
                text += t->text;
                parts.push_back({{"type", "text"}, {"text", t->text}});
            }
            else if(auto const* img = std::get_if<image_block>(&b))
            {
                only_text = false;
                parts.push_back({{"type", "image_url"},
                    {"image_url", {{"url", "data:" + img->media_type + ";base64," + img->base64_data}}}});
            }
        }
        if(!parts.empty())
            messages.push_back({{"role", "user"}, {"content", only_text ? json::value(text) : json::value(parts)}});
    }
    body["messages"] = std::move(messages);
    body[options.max_tokens_field] = r.max_tokens;
    if(!r.tools.empty())
    {
        json::array tools;
        for(auto const& t : r.tools)
            tools.push_back({{"type", "function"},
                {"function", {{"name", t.name}, {"description", t.description}, {"parameters", *t.input_schema}}}});
        body["tools"] = std::move(tools);
        if(r.choice && options.send_tool_choice)
        {
            switch(r.choice->mode)
            {
            case tool_choice::mode::automatic: body["tool_choice"] = "auto"; break;
            case tool_choice::mode::any: body["tool_choice"] = "required"; break;
            case tool_choice::mode::none: body["tool_choice"] = "none"; break;
            case tool_choice::mode::named:
                body["tool_choice"] = {{"type", "function"}, {"function", {{"name", r.choice->name}}}};
                break;
            }
            if(r.choice->disable_parallel)
                body["parallel_tool_calls"] = false;
        }
    }
    if(r.temperature)
        body["temperature"] = *r.temperature;
    if(!r.stop.empty())
    {
        json::array stop;
        for(auto const& sequence : r.stop)
            stop.emplace_back(sequence);
        body["stop"] = std::move(stop);
    }
    if(r.output && r.output->schema)
    {
        auto [schema, strict] = llm::detail::openai_output_schema(*r.output->schema);
        body["response_format"] = {{"type", "json_schema"},
            {"json_schema", {{"name", r.output->name}, {"schema", std::move(schema)}, {"strict", strict}}}};
    }
    if(stream)
    {
        body["stream"] = true;
        if(options.include_usage)
            body["stream_options"] = {{"include_usage", true}};
    }
    return body;
}

AGENTIO_DECL stop_reason parse_finish_reason(std::string_view s) noexcept
{
    if(s == "stop")
        return stop_reason::end_turn;
    if(s == "tool_calls" || s == "function_call")
        return stop_reason::tool_use;
    if(s == "length")
        return stop_reason::max_tokens;
    if(s == "content_filter")
        return stop_reason::refusal;
    return stop_reason::unknown;
}

AGENTIO_DECL error error_from_body(unsigned status, std::string_view body)
{
    error e;
    e.what = error::kind::http_status;
    e.status = status;
    e.retryable = status_is_retryable(status, {});
    boost::system::error_code ec;
    auto const v = json::parse(body, ec);
    if(!ec && v.is_object())
        if(auto const* inner = v.get_object().if_contains("error"); inner && inner->is_object())
        {
            auto const& err = inner->get_object();
            e.type = detail::string_at(err, "type");
            e.message = detail::string_at(err, "message");
            if(auto code = detail::string_at(err, "code"); !code.empty() && e.type.empty())
                e.type = code;
            else if(code == "model_not_found" || code == "context_length_exceeded")
                e.type = code;
        }
    if(e.message.empty())
        e.message = "HTTP " + std::to_string(status) +
            (body.empty() ? std::string() : ": " + std::string(body.substr(0, 200)));
    return e;
}

AGENTIO_DECL std::optional<response> parse_response_body(std::string_view body, error& failure)
{
    boost::system::error_code ec;
    auto const v = json::parse(body, ec);
    if(ec || !v.is_object())
    {
        failure = {error::kind::protocol, 0, {}, "the answer is not a JSON object", false, {}, {}};
        return std::nullopt;
    }
    auto const& o = v.get_object();
    response r;
    r.id = detail::string_at(o, "id");
    r.model = detail::string_at(o, "model");
    if(auto const* u = o.if_contains("usage"); u && u->is_object())
        detail::merge_usage(r.tokens, u->get_object());
    auto const* choices = o.if_contains("choices");
    if(!choices || !choices->is_array() || choices->get_array().empty() || !choices->get_array()[0].is_object())
    {
        failure = {error::kind::protocol, 0, {}, "the answer has no choices", false, {}, {}};
        return std::nullopt;
    }
    auto const& choice = choices->get_array()[0].get_object();
    r.stop_reason_text = detail::string_at(choice, "finish_reason");
    r.stop = parse_finish_reason(r.stop_reason_text);
    if(auto const* m = choice.if_contains("message"); m && m->is_object())
    {
        auto const& msg = m->get_object();
        if(auto text = detail::string_at(msg, "content"); !text.empty())
            r.assistant.content.emplace_back(text_block{std::string(text)});
        // With a response format, a refusal comes as `refusal`, the reason `stop`.
        if(!detail::string_at(msg, "refusal").empty())
            r.stop = stop_reason::refusal;
        if(auto const* calls = msg.if_contains("tool_calls"); calls && calls->is_array())
            for(auto const& c : calls->get_array())
            {
                if(!c.is_object())
                    continue;
                tool_use_block t;
                t.id = detail::string_at(c.get_object(), "id");
                if(auto const* f = c.get_object().if_contains("function"); f && f->is_object())
                {
                    t.name = detail::string_at(f->get_object(), "name");
                    t.raw_input = detail::string_at(f->get_object(), "arguments");
                }
                boost::system::error_code pec;
                auto input = json::parse(t.raw_input.empty() ? std::string_view("{}") : std::string_view(t.raw_input),
                    pec);
                t.input = pec ? json::value() : std::move(input);
                r.assistant.content.emplace_back(std::move(t));
            }
    }
    return r;
}

AGENTIO_DECL std::optional<error> stream_decoder::feed(sse::event const& e, std::vector<stream_event>& out)
{
    if(e.data == "[DONE]")
    {
        complete_ = true;
        return std::nullopt;
    }
    boost::system::error_code ec;
    auto const parsed = json::parse(e.data, ec);
    if(ec || !parsed.is_object())
        return error{error::kind::protocol, 0, {}, "malformed chunk in the stream", false, {}, {}};
    auto const& o = parsed.get_object();
    // Not documented by OpenAI; what the SDKs turn into an APIError.
    if(auto const* inner = o.if_contains("error"); e.type == "error" || inner)
    {
        error err{error::kind::stream_error, 0, {}, {}, false, {}, {}};
        if(inner && inner->is_object())
        {
            err.type = detail::string_at(inner->get_object(), "type");
            err.message = detail::string_at(inner->get_object(), "message");
        }
        if(err.message.empty())
            err.message = "error in the stream";
        err.retryable = err.type == "server_error";
        return err;
    }
    if(response_.id.empty())
    {
        response_.id = detail::string_at(o, "id");
        response_.model = detail::string_at(o, "model");
    }
    if(auto const* u = o.if_contains("usage"); u && u->is_object())
        detail::merge_usage(response_.tokens, u->get_object());
    auto const* choices = o.if_contains("choices");
    if(!choices || !choices->is_array()) // vLLM may send null on the usage chunk
        return std::nullopt;
    for(auto const& c : choices->get_array())
    {
        if(!c.is_object())
            continue;
        auto const& choice = c.get_object();
        if(auto const* i = choice.if_contains("index"); i && i->is_number() && i->to_number<std::int64_t>() != 0)
            continue; // only the first choice (n = 1)
        if(auto const* d = choice.if_contains("delta"); d && d->is_object())
        {
            auto const& delta = d->get_object();
            if(auto text = detail::string_at(delta, "content"); !text.empty())
            {
                produced_ = true;
                text_ += text;
                out.emplace_back(llm::text_delta{std::string(text)});
            }
            if(auto thinking = detail::string_at(delta, "reasoning_content"); !thinking.empty())
                out.emplace_back(llm::thinking_delta{std::string(thinking)}); // llama.cpp
            // With a response format, a refusal streams as `refusal`, the reason `stop`.
            if(!detail::string_at(delta, "refusal").empty())
                produced_ = refused_ = true;
            if(auto const* calls = delta.if_contains("tool_calls"); calls && calls->is_array())
                for(auto const& f : calls->get_array())
                {
                    if(!f.is_object())
                        continue;
                    auto const& fragment = f.get_object();
                    std::size_t index = calls_.size();
                    if(auto const* i = fragment.if_contains("index"); i && i->is_number())
                        index = i->to_number<std::size_t>();
                    if(index > calls_.size() + 64)
                        return error{error::kind::protocol, 0, {}, "tool call index out of range", false, {}, {}};
                    if(index >= calls_.size())
                        calls_.resize(index + 1);
                    auto& call = calls_[index];
                    produced_ = true;
                    if(auto id = detail::string_at(fragment, "id"); !id.empty())
                        call.id = id;
                    if(auto const* fn = fragment.if_contains("function"); fn && fn->is_object())
                    {
                        auto const& function = fn->get_object();
                        auto const arguments = detail::string_at(function, "arguments");
                        call.raw_input += arguments;
                        if(auto name = detail::string_at(function, "name"); !name.empty() && call.name.empty())
                        {
                            // Announced with its name: what came before it (usually nothing) goes out at once.
                            call.name = name;
                            out.emplace_back(tool_use_started{call.id, call.name});
                            if(!call.raw_input.empty())
                                out.emplace_back(tool_input_delta{call.id, call.raw_input});
                        }
                        else if(!arguments.empty() && !call.name.empty())
                            out.emplace_back(tool_input_delta{call.id, std::string(arguments)});
                    }
                }
        }
        if(auto reason = detail::string_at(choice, "finish_reason"); !reason.empty())
        {
            response_.stop_reason_text = reason;
            response_.stop = parse_finish_reason(reason);
        }
    }
    return std::nullopt;
}

AGENTIO_DECL std::optional<response> stream_decoder::finish(error& failure)
{
    if(!complete_)
    {
        failure = {error::kind::protocol, 0, {}, "the stream ended before [DONE]", true, {}, {}};
        return std::nullopt;
    }
    if(!text_.empty())
        response_.assistant.content.emplace_back(text_block{std::move(text_)});
    for(auto& call : calls_)
    {
        boost::system::error_code ec;
        auto input = json::parse(call.raw_input.empty() ? std::string_view("{}") : std::string_view(call.raw_input),
            ec);
        call.input = ec ? json::value() : std::move(input);
        response_.assistant.content.emplace_back(std::move(call));
    }
    calls_.clear();
    if(refused_)
        response_.stop = stop_reason::refusal;
    return std::move(response_);
}

} // namespace agentio::llm::openai

#endif
