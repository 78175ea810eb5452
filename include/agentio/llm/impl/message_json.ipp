//
// agentio/llm/impl/message_json.ipp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_LLM_IMPL_MESSAGE_JSON_IPP
#define AGENTIO_LLM_IMPL_MESSAGE_JSON_IPP

#include <agentio/config.hpp>
#include <agentio/json_text.hpp>

#include <boost/json/parse.hpp>

namespace agentio::llm {

namespace detail {

AGENTIO_DECL json::object media_to_json(std::variant<text_block, image_block> const& b)
{
    if(auto const* t = std::get_if<text_block>(&b))
        return {{"type", "text"}, {"text", t->text}};
    auto const& img = std::get<image_block>(b);
    return {{"type", "image"}, {"media_type", img.media_type}, {"data", img.base64_data}};
}

AGENTIO_DECL json::object block_to_json(content_block const& block)
{
    struct visitor
    {
        json::object operator()(text_block const& b) const { return {{"type", "text"}, {"text", b.text}}; }
        json::object operator()(image_block const& b) const { return media_to_json(b); }
        json::object operator()(thinking_block const& b) const
        {
            return {{"type", "thinking"}, {"thinking", b.thinking}, {"signature", b.signature}};
        }
        json::object operator()(tool_use_block const& b) const
        {
            return {{"type", "tool_use"}, {"id", b.id}, {"name", b.name}, {"input", b.input},
                {"raw_input", b.raw_input}};
        }
        json::object operator()(tool_result_block const& b) const
        {
            json::array content;
            for(auto const& c : b.content)
                content.push_back(media_to_json(c));
            return {{"type", "tool_result"}, {"tool_use_id", b.tool_use_id}, {"content", std::move(content)},
                {"is_error", b.is_error}};
        }
        json::object operator()(opaque_block const& b) const { return {{"type", "opaque"}, {"value", b.value}}; }
    };
    return std::visit(visitor{}, block);
}

// The string at `key`, or nothing.
AGENTIO_DECL std::optional<std::string> string_field(json::object const& o, std::string_view key)
{
    auto const* v = o.if_contains(key);
    if(!v || !v->is_string())
        return std::nullopt;
    return std::string(v->get_string());
}

AGENTIO_DECL std::optional<std::variant<text_block, image_block>> media_from_json(json::object const& o)
{
    auto type = string_field(o, "type");
    if(type == "text")
    {
        if(auto text = string_field(o, "text"))
            return text_block{std::move(*text)};
    }
    else if(type == "image")
    {
        auto media = string_field(o, "media_type");
        auto data = string_field(o, "data");
        if(media && data)
            return image_block{std::move(*media), std::move(*data)};
    }
    return std::nullopt;
}

AGENTIO_DECL std::optional<content_block> block_from_json(json::value const& v)
{
    auto const* o = v.if_object();
    if(!o)
        return std::nullopt;
    auto const type = string_field(*o, "type");
    if(!type)
        return std::nullopt;
    if(*type == "text" || *type == "image")
    {
        auto m = media_from_json(*o);
        if(!m)
            return std::nullopt;
        return std::visit([](auto&& b) { return content_block{std::move(b)}; }, std::move(*m));
    }
    if(*type == "thinking")
    {
        auto thinking = string_field(*o, "thinking");
        auto signature = string_field(*o, "signature");
        if(!thinking || !signature)
            return std::nullopt;
        return thinking_block{std::move(*thinking), std::move(*signature)};
    }
    if(*type == "tool_use")
    {
        auto id = string_field(*o, "id");
        auto name = string_field(*o, "name");
        auto raw = string_field(*o, "raw_input");
        auto const* input = o->if_contains("input");
        if(!id || !name || !raw || !input)
            return std::nullopt;
        return tool_use_block{std::move(*id), std::move(*name), *input, std::move(*raw)};
    }
    if(*type == "tool_result")
    {
        auto id = string_field(*o, "tool_use_id");
        auto const* content = o->if_contains("content");
        auto const* is_error = o->if_contains("is_error");
        if(!id || !content || !content->is_array() || !is_error || !is_error->is_bool())
            return std::nullopt;
        tool_result_block b{std::move(*id), {}, is_error->get_bool()};
        for(auto const& c : content->get_array())
        {
            auto const* co = c.if_object();
            auto m = co ? media_from_json(*co) : std::nullopt;
            if(!m)
                return std::nullopt;
            b.content.push_back(std::move(*m));
        }
        return b;
    }
    if(*type == "opaque")
    {
        auto const* value = o->if_contains("value");
        if(!value || !value->is_object())
            return std::nullopt;
        return opaque_block{value->get_object()};
    }
    return std::nullopt;
}

} // namespace detail

AGENTIO_DECL json::value to_json(message const& m)
{
    json::array content;
    content.reserve(m.content.size());
    for(auto const& b : m.content)
        content.push_back(detail::block_to_json(b));
    return json::object{{"role", m.role == role::user ? "user" : "assistant"}, {"content", std::move(content)}};
}

AGENTIO_DECL std::optional<message> message_from_json(json::value const& v, std::string* why)
{
    auto fail = [&](char const* reason) -> std::optional<message> {
        if(why)
            *why = reason;
        return std::nullopt;
    };
    auto const* o = v.if_object();
    if(!o)
        return fail("a message must be an object");
    auto const r = detail::string_field(*o, "role");
    if(r != "user" && r != "assistant")
        return fail("role: must be \"user\" or \"assistant\"");
    auto const* content = o->if_contains("content");
    if(!content || !content->is_array())
        return fail("content: must be an array of blocks");
    message m{*r == "user" ? role::user : role::assistant, {}};
    m.content.reserve(content->get_array().size());
    for(auto const& b : content->get_array())
    {
        auto block = detail::block_from_json(b);
        if(!block)
            return fail("content: a block is not one this library writes");
        m.content.push_back(std::move(*block));
    }
    return m;
}

AGENTIO_DECL std::string messages_to_json_text(std::span<message const> messages)
{
    json::array a;
    a.reserve(messages.size());
    for(auto const& m : messages)
        a.push_back(to_json(m));
    return agentio::to_json_text(a);
}

AGENTIO_DECL std::optional<std::vector<message>> messages_from_json_text(std::string_view text, std::string* why)
{
    boost::system::error_code ec;
    auto const v = json::parse(text, ec);
    if(ec || !v.is_array())
    {
        if(why)
            *why = "not a JSON array";
        return std::nullopt;
    }
    std::vector<message> out;
    out.reserve(v.get_array().size());
    for(auto const& m : v.get_array())
    {
        auto parsed = message_from_json(m, why);
        if(!parsed)
            return std::nullopt;
        out.push_back(std::move(*parsed));
    }
    return out;
}

} // namespace agentio::llm

#endif
