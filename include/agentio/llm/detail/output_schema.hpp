//
// agentio/llm/detail/output_schema.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// What each API accepts of a structured answer's JSON Schema. OpenAI's strict
// mode takes a subset whole or refuses the request; Anthropic's structured
// output takes closed objects without numeric or length bounds. The schema
// sent is the most the API takes; the caller validates the answer against the
// whole schema, so a bound left out of the request is still enforced (those
// the validator checks: not `pattern`, `format`, `multipleOf` or `uniqueItems`).
//

#ifndef AGENTIO_LLM_DETAIL_OUTPUT_SCHEMA_HPP
#define AGENTIO_LLM_DETAIL_OUTPUT_SCHEMA_HPP

#include <agentio/json_text.hpp>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <algorithm>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace agentio::llm::detail {

namespace json = boost::json;

inline bool is_one_of(std::string_view key, std::initializer_list<std::string_view> keys) noexcept
{
    return std::find(keys.begin(), keys.end(), key) != keys.end();
}

inline bool type_is(json::object const& schema, std::string_view type) noexcept
{
    auto const* t = schema.if_contains("type");
    return t && t->is_string() && t->get_string() == type;
}

/** Whether OpenAI's strict mode takes `schema` as it is: every object closed
    (`additionalProperties: false`) with all its properties required, and
    only the keywords of its subset. A schema it would refuse is sent with
    `strict: false`: the model is guided, not constrained. */
inline bool openai_strict_ready(json::value const& schema)
{
    auto const* o = schema.if_object();
    if(!o)
        return false;
    // `{}` (any value) has no grammar.
    if(!o->contains("type") && !o->contains("enum") && !o->contains("const") && !o->contains("anyOf") &&
        !o->contains("$ref"))
        return false;
    for(auto const& kv : *o)
        if(!is_one_of(kv.key(),
               {"type", "description", "title", "properties", "required", "additionalProperties", "items", "enum",
                   "const", "anyOf", "$defs", "$ref", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
                   "multipleOf", "minItems", "maxItems", "pattern", "format"}))
            return false;
    // Strict mode's string formats.
    if(auto const* format = o->if_contains("format"); format &&
        !(format->is_string() &&
            is_one_of(format->get_string(),
                {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"})))
        return false;
    if(type_is(*o, "object"))
    {
        auto const* closed = o->if_contains("additionalProperties");
        if(!closed || *closed != json::value(false))
            return false;
        auto const* properties = o->if_contains("properties");
        auto const* required = o->if_contains("required");
        if(properties && !properties->is_object())
            return false;
        if(properties && !properties->get_object().empty())
        {
            if(!required || !required->is_array())
                return false;
            for(auto const& p : properties->get_object())
            {
                auto const& names = required->get_array();
                if(std::find(names.begin(), names.end(), json::value(p.key())) == names.end())
                    return false;
                if(!openai_strict_ready(p.value()))
                    return false;
            }
        }
    }
    if(auto const* items = o->if_contains("items"); items && !openai_strict_ready(*items))
        return false;
    if(auto const* any_of = o->if_contains("anyOf"))
    {
        if(!any_of->is_array())
            return false;
        for(auto const& s : any_of->get_array())
            if(!openai_strict_ready(s))
                return false;
    }
    if(auto const* defs = o->if_contains("$defs"))
    {
        if(!defs->is_object())
            return false;
        for(auto const& d : defs->get_object())
            if(!openai_strict_ready(d.value()))
                return false;
    }
    return true;
}

// A bound that is the whole range of a machine integer (the schema of an
// `int` says so) tells the model nothing: it is not worth a note.
inline bool machine_range(json::value const& v) noexcept
{
    if(v.is_int64())
        return v.get_int64() <= -2147483647 || v.get_int64() >= 2147483647;
    if(v.is_uint64())
        return v.get_uint64() >= 2147483647u;
    return false;
}

// What a subset does with one keyword of a schema.
enum class keyword_action
{
    keep,  // in the subset
    note,  // outside it, and worth saying: into the description, as `(keyword: value)`
    drop,  // outside it, and not needed for the answer
    refuse // outside it, and the schema means nothing without it
};

// A subset of JSON Schema: what it does with each keyword (the subschemas
// under properties, items, anyOf, allOf and $defs are walked, not classified),
// and whether an object must be closed.
struct schema_subset
{
    keyword_action (*classify)(std::string_view keyword, json::value const& value);
    bool objects_closed;
};

inline bool adapt_schema(json::object const& in, json::object& out, schema_subset const& subset)
{
    // Any value (`{}`, or only a description): no closed grammar says it.
    if(!in.contains("type") && !in.contains("enum") && !in.contains("const") && !in.contains("anyOf") &&
        !in.contains("allOf") && !in.contains("$ref"))
        return false;
    std::string notes;
    auto adapt_one = [&](json::value const& v, json::value& into) {
        json::object one;
        if(!v.is_object() || !adapt_schema(v.get_object(), one, subset))
            return false;
        into = std::move(one);
        return true;
    };
    for(auto const& kv : in)
    {
        std::string_view const key = kv.key();
        json::value const& v = kv.value();
        if(key == "properties" || key == "$defs" || key == "definitions")
        {
            if(!v.is_object())
                return false;
            json::object adapted;
            for(auto const& p : v.get_object())
                if(!adapt_one(p.value(), adapted[p.key()]))
                    return false;
            out[key] = std::move(adapted);
            continue;
        }
        if(key == "items")
        {
            if(!adapt_one(v, out[key]))
                return false;
            continue;
        }
        if(key == "anyOf" || key == "allOf")
        {
            if(!v.is_array())
                return false;
            json::array adapted(v.get_array().size());
            for(std::size_t i = 0; i < adapted.size(); ++i)
                if(!adapt_one(v.get_array()[i], adapted[i]))
                    return false;
            out[key] = std::move(adapted);
            continue;
        }
        switch(subset.classify(key, v))
        {
        case keyword_action::keep: out[key] = v; break;
        case keyword_action::note:
            notes.append(notes.empty() ? "" : ", ").append(key).append(": ").append(to_json_text(v));
            break;
        case keyword_action::drop: break;
        case keyword_action::refuse: return false;
        }
    }
    if(subset.objects_closed && type_is(in, "object"))
    {
        if(!in.contains("additionalProperties"))
            return false; // open: any member may come
        out["additionalProperties"] = false;
    }
    if(!notes.empty())
    {
        std::string description;
        if(auto const* d = in.if_contains("description"); d && d->is_string())
            description.append(d->get_string()).append(" ");
        description.append("(").append(notes).append(")");
        out["description"] = description;
    }
    return true;
}

// Anthropic's structured output: no numeric or length bounds, minItems 0 or 1,
// a few string formats, objects closed.
inline keyword_action anthropic_keyword(std::string_view key, json::value const& v)
{
    if(is_one_of(key, {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}))
        return machine_range(v) ? keyword_action::drop : keyword_action::note;
    if(is_one_of(key, {"minLength", "maxLength", "maxItems", "uniqueItems"}))
        return keyword_action::note;
    if(key == "minItems")
        return v == json::value(0) || v == json::value(1) ? keyword_action::keep : keyword_action::note;
    if(key == "format")
        return v.is_string() &&
                is_one_of(v.get_string(),
                    {"date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"})
            ? keyword_action::keep
            : keyword_action::note;
    if(key == "examples" || key.starts_with("x-"))
        return keyword_action::drop;
    if(key == "additionalProperties")
        return v == json::value(false) ? keyword_action::keep : keyword_action::refuse; // a map, an open object
    if(is_one_of(key, {"type", "description", "title", "required", "enum", "const", "default", "pattern", "$ref"}))
        return keyword_action::keep;
    if(is_one_of(key, {"$schema", "$id", "$comment", "deprecated", "readOnly", "writeOnly"}))
        return keyword_action::drop;
    // Anything else (oneOf, not, if/then/else, prefixItems, patternProperties,
    // …) is outside the subset and may hold a schema: the schema goes in words.
    return keyword_action::refuse;
}

// OpenAI's strict mode: no string lengths, no defaults; the rest of its
// subset is checked whole by openai_strict_ready.
inline keyword_action openai_keyword(std::string_view key, json::value const&)
{
    if(is_one_of(key, {"minLength", "maxLength", "uniqueItems", "default"}))
        return keyword_action::note;
    if(key == "examples" || key.starts_with("x-"))
        return keyword_action::drop;
    return keyword_action::keep;
}

/** The schema OpenAI is sent, and whether strict: the schema with the
    keywords outside strict mode's subset moved into descriptions, strict,
    when the rest is strict material (closed objects, every property
    required); otherwise the schema as it is, not strict. */
inline std::pair<json::object, bool> openai_output_schema(json::object const& schema)
{
    json::object adapted;
    if(adapt_schema(schema, adapted, {&openai_keyword, false}) && openai_strict_ready(adapted))
        return {std::move(adapted), true};
    return {schema, false};
}

/** The schema as Anthropic's structured output takes it: every object closed,
    numeric and length bounds moved into the description (`(minLength: 1)`),
    `minItems` above 1, unsupported string formats, examples and vendor
    keywords likewise; empty when the schema cannot be said in its subset
    (an open object, a map, any value). */
inline std::optional<json::object> anthropic_output_schema(json::object const& schema)
{
    json::object out;
    if(!adapt_schema(schema, out, {&anthropic_keyword, true}))
        return std::nullopt;
    return out;
}

/// What carries a schema the API does not take: a sentence for the system prompt.
inline std::string schema_instruction(json::object const& schema)
{
    return "Answer with one JSON value, and no other text, that follows this JSON Schema:\n" + json::serialize(schema);
}

} // namespace agentio::llm::detail

#endif
