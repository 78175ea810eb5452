//
// agentio/llm/impl/anthropic_codec.ipp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_LLM_IMPL_ANTHROPIC_CODEC_IPP
#define AGENTIO_LLM_IMPL_ANTHROPIC_CODEC_IPP

#include <agentio/config.hpp>
#include <agentio/json_text.hpp>
#include <agentio/llm/detail/json_fields.hpp>
#include <agentio/llm/detail/output_schema.hpp>
#include <agentio/llm/retry.hpp>

#include <boost/json/parse.hpp>

namespace agentio::llm::anthropic {

namespace detail {

using llm::detail::count_at;
using llm::detail::string_at;

// Counters present and not null overwrite; `message_delta` carries the
// running totals, not increments.
AGENTIO_DECL void merge_usage(usage& u, json::object const& o)
{
    u.input_tokens = count_at(o, "input_tokens", u.input_tokens);
    u.output_tokens = count_at(o, "output_tokens", u.output_tokens);
    u.cache_creation_input_tokens = count_at(o, "cache_creation_input_tokens", u.cache_creation_input_tokens);
    u.cache_read_input_tokens = count_at(o, "cache_read_input_tokens", u.cache_read_input_tokens);
}

AGENTIO_DECL json::value block_to_json(content_block const& block)
{
    struct visitor
    {
        json::value operator()(text_block const& b) const { return {{"type", "text"}, {"text", b.text}}; }
        json::value operator()(image_block const& b) const
        {
            return {{"type", "image"},
                {"source", {{"type", "base64"}, {"media_type", b.media_type}, {"data", b.base64_data}}}};
        }
        json::value operator()(thinking_block const& b) const
        {
            return {{"type", "thinking"}, {"thinking", b.thinking}, {"signature", b.signature}};
        }
        json::value operator()(tool_use_block const& b) const
        {
            // The API wants an object; a call whose arguments never parsed
            // (cut short) goes back as an empty one.
            return {{"type", "tool_use"}, {"id", b.id}, {"name", b.name},
                {"input", b.input.is_object() ? b.input : json::object{}}};
        }
        json::value operator()(tool_result_block const& b) const
        {
            json::object o{{"type", "tool_result"}, {"tool_use_id", b.tool_use_id}};
            json::array content;
            for(auto const& part : b.content)
                content.push_back(std::visit(*this, content_block_cast(part)));
            o["content"] = std::move(content);
            if(b.is_error)
                o["is_error"] = true;
            return o;
        }
        json::value operator()(opaque_block const& b) const { return b.value; }

        static content_block content_block_cast(std::variant<text_block, image_block> const& part)
        {
            if(auto const* t = std::get_if<text_block>(&part))
                return *t;
            return std::get<image_block>(part);
        }
    };
    return std::visit(visitor{}, block);
}

} // namespace detail

AGENTIO_DECL json::object make_request_body(request const& r, api_version version, bool stream)
{
    json::object body;
    body["model"] = r.model;
    body["max_tokens"] = r.max_tokens;
    // A schema outside structured output's subset goes to the model as words;
    // the caller's validation enforces it either way.
    std::optional<json::object> output_schema;
    std::string system(r.system);
    if(r.output && r.output->schema)
    {
        output_schema = llm::detail::anthropic_output_schema(*r.output->schema);
        if(!output_schema)
            system.append(system.empty() ? "" : "\n\n").append(llm::detail::schema_instruction(*r.output->schema));
    }
    if(!system.empty())
        body["system"] = system;
    json::array messages;
    for(auto const& m : r.messages)
    {
        json::array content;
        for(auto const& b : m.content)
            content.push_back(detail::block_to_json(b));
        messages.push_back({{"role", m.role == role::user ? "user" : "assistant"}, {"content", std::move(content)}});
    }
    body["messages"] = std::move(messages);
    if(!r.tools.empty())
    {
        json::array tools;
        for(auto const& t : r.tools)
            tools.push_back({{"name", t.name}, {"description", t.description}, {"input_schema", *t.input_schema}});
        body["tools"] = std::move(tools);
    }
    if(r.choice)
    {
        static constexpr std::string_view names[] = {"auto", "any", "tool", "none"};
        json::object choice{{"type", names[static_cast<int>(r.choice->mode)]}};
        if(r.choice->mode == tool_choice::mode::named)
            choice["name"] = r.choice->name;
        if(r.choice->disable_parallel && r.choice->mode != tool_choice::mode::none)
            choice["disable_parallel_tool_use"] = true;
        body["tool_choice"] = std::move(choice);
    }
    // 2026-10-21 refuses temperature even at its default value.
    if(r.temperature && version == api_version::v2023_06_01)
        body["temperature"] = *r.temperature;
    if(r.thinking_budget)
        body["thinking"] = {{"type", "enabled"}, {"budget_tokens", *r.thinking_budget}};
    if(!r.stop.empty())
    {
        json::array stop;
        for(auto const& sequence : r.stop)
            stop.emplace_back(sequence);
        body["stop_sequences"] = std::move(stop);
    }
    if(output_schema)
        body["output_config"] = {{"format", {{"type", "json_schema"}, {"schema", std::move(*output_schema)}}}};
    if(stream)
        body["stream"] = true;
    return body;
}

AGENTIO_DECL std::pair<std::string_view, std::string> auth_header(api_version version, std::string_view api_key)
{
    if(version == api_version::v2023_06_01)
        return {"x-api-key", std::string(api_key)};
    return {"authorization", "Bearer " + std::string(api_key)};
}

AGENTIO_DECL stop_reason parse_stop_reason(std::string_view s) noexcept
{
    if(s == "end_turn")
        return stop_reason::end_turn;
    if(s == "tool_use")
        return stop_reason::tool_use;
    if(s == "max_tokens")
        return stop_reason::max_tokens;
    if(s == "stop_sequence")
        return stop_reason::stop_sequence;
    if(s == "pause_turn")
        return stop_reason::pause_turn;
    if(s == "refusal")
        return stop_reason::refusal;
    if(s == "model_context_window_exceeded")
        return stop_reason::context_window;
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
    {
        auto const& o = v.get_object();
        e.request_id = detail::string_at(o, "request_id");
        if(auto const* inner = o.if_contains("error"); inner && inner->is_object())
        {
            e.type = detail::string_at(inner->get_object(), "type");
            e.message = detail::string_at(inner->get_object(), "message");
        }
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
    r.stop_reason_text = detail::string_at(o, "stop_reason");
    r.stop = parse_stop_reason(r.stop_reason_text);
    if(auto const* u = o.if_contains("usage"); u && u->is_object())
        detail::merge_usage(r.tokens, u->get_object());
    if(auto const* content = o.if_contains("content"); content && content->is_array())
        for(auto const& b : content->get_array())
        {
            if(!b.is_object())
                continue;
            auto const& block = b.get_object();
            auto const type = detail::string_at(block, "type");
            if(type == "text")
                r.assistant.content.emplace_back(text_block{std::string(detail::string_at(block, "text"))});
            else if(type == "thinking")
                r.assistant.content.emplace_back(thinking_block{std::string(detail::string_at(block, "thinking")),
                    std::string(detail::string_at(block, "signature"))});
            else if(type == "tool_use")
            {
                tool_use_block t{std::string(detail::string_at(block, "id")),
                    std::string(detail::string_at(block, "name")),
                    block.contains("input") ? block.at("input") : json::value(json::object{}), {}};
                t.raw_input = to_json_text(t.input);
                r.assistant.content.emplace_back(std::move(t));
            }
            else
                r.assistant.content.emplace_back(opaque_block{block});
        }
    return r;
}

AGENTIO_DECL void stream_decoder::close_block(block_state& b)
{
    if(!b.open)
        return;
    b.open = false;
    if(auto* t = std::get_if<tool_use_block>(&b.block))
    {
        // A call without arguments may stream nothing at all.
        if(t->raw_input.empty())
        {
            t->input = json::object{};
            return;
        }
        boost::system::error_code ec;
        auto v = json::parse(t->raw_input, ec);
        t->input = ec ? json::value() : std::move(v);
    }
}

AGENTIO_DECL std::optional<error> stream_decoder::feed(sse::event const& e, std::vector<stream_event>& out)
{
    auto protocol = [](std::string message) {
        return error{error::kind::protocol, 0, {}, std::move(message), false, {}, {}};
    };
    boost::system::error_code ec;
    auto const parsed = json::parse(e.data, ec); // trailing whitespace, as in real captures, is fine
    if(ec || !parsed.is_object())
        return protocol("malformed data in a '" + e.type + "' event");
    auto const& o = parsed.get_object();
    // The `event:` line names the event; the SDKs drop events without one,
    // the JSON `type` says the same thing.
    std::string_view const type = e.type != "message" ? std::string_view(e.type) : detail::string_at(o, "type");

    if(type == "ping")
        return std::nullopt;
    if(type == "error")
    {
        error err{error::kind::stream_error, 0, {}, {}, false, {}, {}};
        if(auto const* inner = o.if_contains("error"); inner && inner->is_object())
        {
            err.type = detail::string_at(inner->get_object(), "type");
            err.message = detail::string_at(inner->get_object(), "message");
        }
        if(err.message.empty())
            err.message = "error event without a message";
        err.retryable = err.type == "overloaded_error" || err.type == "api_error";
        return err;
    }
    if(type == "message_start")
    {
        started_ = true;
        if(auto const* m = o.if_contains("message"); m && m->is_object())
        {
            auto const& msg = m->get_object();
            response_.id = detail::string_at(msg, "id");
            response_.model = detail::string_at(msg, "model");
            if(auto const* u = msg.if_contains("usage"); u && u->is_object())
                detail::merge_usage(response_.tokens, u->get_object());
        }
        return std::nullopt;
    }
    if(!started_)
        return protocol("unexpected event order: '" + std::string(type) + "' before 'message_start'");

    auto block_at = [&](std::size_t& index) -> block_state* {
        auto const* i = o.if_contains("index");
        if(!i || !i->is_number())
            return nullptr;
        index = i->to_number<std::size_t>();
        return index < blocks_.size() ? &blocks_[index] : nullptr;
    };

    if(type == "content_block_start")
    {
        auto const* i = o.if_contains("index");
        auto const* cb = o.if_contains("content_block");
        if(!i || !i->is_number() || !cb || !cb->is_object())
            return protocol("content_block_start without index or content_block");
        auto const index = i->to_number<std::size_t>();
        if(index != blocks_.size())
            return protocol("content_block_start with index " + std::to_string(index) + ", expected " +
                std::to_string(blocks_.size()));
        auto const& block = cb->get_object();
        auto const block_type = detail::string_at(block, "type");
        produced_ = true;
        if(block_type == "text")
            blocks_.push_back({text_block{std::string(detail::string_at(block, "text"))}});
        else if(block_type == "thinking")
            blocks_.push_back({thinking_block{std::string(detail::string_at(block, "thinking")), {}}});
        else if(block_type == "tool_use")
        {
            tool_use_block t{std::string(detail::string_at(block, "id")), std::string(detail::string_at(block, "name")),
                json::value(), {}};
            out.emplace_back(tool_use_started{t.id, t.name});
            blocks_.push_back({std::move(t)});
        }
        else
            blocks_.push_back({opaque_block{block}});
        return std::nullopt;
    }
    if(type == "content_block_delta")
    {
        std::size_t index = 0;
        block_state* b = block_at(index);
        auto const* d = o.if_contains("delta");
        if(!b || !d || !d->is_object())
            return protocol("content_block_delta for no open block");
        auto const& delta = d->get_object();
        auto const delta_type = detail::string_at(delta, "type");
        if(delta_type == "text_delta")
        {
            auto* t = std::get_if<text_block>(&b->block);
            if(!t)
                return protocol("text_delta for a block that is not text");
            auto const text = detail::string_at(delta, "text");
            t->text += text;
            out.emplace_back(llm::text_delta{std::string(text)});
        }
        else if(delta_type == "input_json_delta")
        {
            auto* t = std::get_if<tool_use_block>(&b->block);
            if(!t)
                return protocol("input_json_delta for a block that is not tool_use");
            auto const partial = detail::string_at(delta, "partial_json");
            t->raw_input += partial;
            if(!partial.empty())
                out.emplace_back(tool_input_delta{t->id, std::string(partial)});
        }
        else if(delta_type == "thinking_delta")
        {
            auto* t = std::get_if<thinking_block>(&b->block);
            if(!t)
                return protocol("thinking_delta for a block that is not thinking");
            auto const thinking = detail::string_at(delta, "thinking");
            t->thinking += thinking;
            out.emplace_back(llm::thinking_delta{std::string(thinking)});
        }
        else if(delta_type == "signature_delta")
        {
            auto* t = std::get_if<thinking_block>(&b->block);
            if(!t)
                return protocol("signature_delta for a block that is not thinking");
            t->signature = detail::string_at(delta, "signature");
        }
        // citations_delta and deltas of later API versions: nothing to show.
        return std::nullopt;
    }
    if(type == "content_block_stop")
    {
        std::size_t index = 0;
        block_state* b = block_at(index);
        if(!b)
            return protocol("content_block_stop for no block");
        close_block(*b);
        return std::nullopt;
    }
    if(type == "message_delta")
    {
        if(auto const* d = o.if_contains("delta"); d && d->is_object())
            if(auto const* s = d->get_object().if_contains("stop_reason"); s && s->is_string())
            {
                response_.stop_reason_text = s->get_string();
                response_.stop = parse_stop_reason(response_.stop_reason_text);
            }
        if(auto const* u = o.if_contains("usage"); u && u->is_object())
            detail::merge_usage(response_.tokens, u->get_object());
        return std::nullopt;
    }
    if(type == "message_stop")
    {
        complete_ = true;
        return std::nullopt;
    }
    return std::nullopt; // event types added later: ignored, as the API asks
}

AGENTIO_DECL std::optional<response> stream_decoder::finish(error& failure)
{
    if(!complete_)
    {
        failure = {error::kind::protocol, 0, {}, "the stream ended before message_stop", true, {}, {}};
        return std::nullopt;
    }
    // A block cut by max_tokens has no content_block_stop.
    for(auto& b : blocks_)
        close_block(b);
    for(auto& b : blocks_)
        response_.assistant.content.push_back(std::move(b.block));
    blocks_.clear();
    return std::move(response_);
}

} // namespace agentio::llm::anthropic

#endif
