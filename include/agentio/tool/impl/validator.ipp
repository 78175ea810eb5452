//
// agentio/tool/impl/validator.ipp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_TOOL_IMPL_VALIDATOR_IPP
#define AGENTIO_TOOL_IMPL_VALIDATOR_IPP

#include <agentio/config.hpp>
#include <agentio/detail/json_pointer.hpp>
#include <agentio/detail/utf8.hpp>
#include <agentio/json_text.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace agentio {

struct schema_validator::node
{
    enum type_bit : unsigned
    {
        null_type = 1,
        boolean_type = 2,
        integer_type = 4,
        number_type = 8, // includes integers
        string_type = 16,
        array_type = 32,
        object_type = 64,
    };

    enum class extra_keys
    {
        allowed,
        forbidden,
        schema
    };

    bool never = false; // the schema `false`
    unsigned types = 0; // 0: any type
    std::optional<json::value> minimum, maximum, exclusive_minimum, exclusive_maximum;
    std::optional<std::uint64_t> min_length, max_length, min_items, max_items, min_properties, max_properties;
    std::optional<json::array> enum_values;
    std::optional<json::value> const_value;
    std::vector<std::pair<std::string, std::size_t>> properties;
    std::vector<std::string> required;
    extra_keys additional = extra_keys::allowed;
    std::size_t additional_schema = 0;
    std::optional<std::size_t> items;
    std::vector<std::size_t> any_of, one_of, all_of;
    std::optional<std::size_t> ref, not_schema, if_schema, then_schema, else_schema;
    std::string_view unchecked; // an assertion keyword present here that is not checked ("pattern"...)
};

AGENTIO_DECL schema_validator::schema_validator(schema_validator const&) = default;
AGENTIO_DECL schema_validator::schema_validator(schema_validator&&) noexcept = default;
AGENTIO_DECL schema_validator& schema_validator::operator=(schema_validator const&) = default;
AGENTIO_DECL schema_validator& schema_validator::operator=(schema_validator&&) noexcept = default;
AGENTIO_DECL schema_validator::~schema_validator() = default;

namespace detail {

// Numbers compared exactly across int64, uint64 and double: long double
// holds every 64-bit integer and every double.
AGENTIO_DECL int compare_numbers(json::value const& a, json::value const& b)
{
    auto as_long_double = [](json::value const& v) -> long double {
        if(auto const* i = v.if_int64())
            return static_cast<long double>(*i);
        if(auto const* u = v.if_uint64())
            return static_cast<long double>(*u);
        return static_cast<long double>(v.get_double());
    };
    long double const x = as_long_double(a);
    long double const y = as_long_double(b);
    return x < y ? -1 : (x > y ? 1 : 0);
}

// JSON Schema equality (`const`, `enum`): numbers by value, so 0 and 0.0 are equal.
AGENTIO_DECL bool json_equal(json::value const& a, json::value const& b)
{
    if(a.is_number() && b.is_number())
        return compare_numbers(a, b) == 0;
    if(a.kind() != b.kind())
        return false;
    if(auto const* x = a.if_array())
    {
        auto const& y = b.get_array();
        return x->size() == y.size() && std::equal(x->begin(), x->end(), y.begin(), json_equal);
    }
    if(auto const* x = a.if_object())
    {
        auto const& y = b.get_object();
        if(x->size() != y.size())
            return false;
        for(auto const& kv : *x)
        {
            auto const* other = y.if_contains(kv.key());
            if(!other || !json_equal(kv.value(), *other))
                return false;
        }
        return true;
    }
    return a == b;
}

AGENTIO_DECL bool is_integral_number(json::value const& v)
{
    if(v.is_int64() || v.is_uint64())
        return true;
    if(auto const* d = v.if_double())
        return std::isfinite(*d) && std::trunc(*d) == *d;
    return false;
}

AGENTIO_DECL std::string_view kind_name(json::value const& v)
{
    switch(v.kind())
    {
    case json::kind::null: return "null";
    case json::kind::bool_: return "boolean";
    case json::kind::int64:
    case json::kind::uint64: return "integer";
    case json::kind::double_: return is_integral_number(v) ? "integer" : "number";
    case json::kind::string: return "string";
    case json::kind::array: return "array";
    case json::kind::object: return "object";
    }
    return "?";
}

AGENTIO_DECL std::size_t code_points(std::string_view s)
{
    return agentio::detail::utf8_code_points(s);
}

// A value as the model would write it: strings bare, for readable lists, and
// numbers in their shortest form (Boost.JSON writes 0.5 as 5E-1).
AGENTIO_DECL std::string display(json::value const& v)
{
    if(auto const* s = v.if_string())
        return std::string(s->data(), s->size());
    return to_json_text(v);
}

// The validator's sentences, from the caller's messages.
struct message_catalog
{
    messages const& m;

    std::string type(std::string_view expected, std::string_view got) const
    {
        return format_message(m.type_mismatch, {{"expected", expected}, {"actual", got}});
    }
    std::string missing() const { return std::string(m.missing_field); }
    std::string unknown(std::string_view allowed) const
    {
        if(allowed.empty())
            return std::string(m.unknown_field_none_allowed);
        return format_message(m.unknown_field, {{"allowed", allowed}});
    }
    std::string one_of_values(std::string_view values) const
    {
        return format_message(m.not_one_of, {{"values", values}});
    }
    std::string equal_to(std::string_view value) const { return format_message(m.not_equal, {{"value", value}}); }
    std::string compare(std::string_view op, std::string_view bound) const
    {
        return format_message(m.out_of_range, {{"operator", op}, {"bound", bound}});
    }
    std::string count(std::string_view text, std::uint64_t n) const
    {
        return format_message(text, {{"n", std::to_string(n)}});
    }
    std::string no_alternative() const { return std::string(m.no_alternative); }
    std::string not_exactly_one(std::size_t n) const { return count(m.not_exactly_one, n); }
    std::string never() const { return std::string(m.nothing_allowed); }
    std::string excluded() const { return std::string(m.excluded_form); }
    std::string too_deep() const { return std::string(m.schema_too_deep); }
    std::string too_complex() const { return std::string(m.schema_too_complex); }
    std::string more(std::size_t n) const { return count(m.more_errors, n); }
};

} // namespace detail

class schema_validator::compiler
{
public:
    explicit compiler(std::vector<node>& nodes) : nodes_(nodes) {}

    std::optional<std::string> add_root(json::value const& root)
    {
        root_ = &root;
        if(auto const* o = root.if_object())
            if(auto const* id = o->if_contains("$id"))
            {
                if(!id->is_string())
                    return fail("", "'$id' must be a string");
                base_id_ = id->get_string();
                if(auto const hash = base_id_.find('#'); hash != std::string::npos)
                    base_id_.resize(hash);
            }
        std::string pointer;
        if(auto err = collect_anchors(root, pointer))
            return err;
        std::size_t index = 0;
        if(auto err = add(root, pointer, index))
            return err;
        // Reference targets are compiled from a work list, not by recursion:
        // a chain of thousands of `$defs` must not exhaust the stack.
        while(!pending_.empty())
        {
            auto target = std::move(pending_.back());
            pending_.pop_back();
            if(auto err = compile(*target.schema, target.pointer, target.index))
                return err;
        }
        if(auto err = find_loop())
            return err;
        return find_unchecked_under_negation();
    }

private:
    // Compiles the subschema at `pointer` (the key its node is known by, so a
    // subschema reached both in place and through `$ref` is compiled once, and
    // a reference to an enclosing schema - a recursive one - finds its node).
    std::optional<std::string> add(json::value const& schema, std::string& pointer, std::size_t& index)
    {
        if(auto const known = by_pointer_.find(pointer); known != by_pointer_.end())
        {
            index = known->second;
            return std::nullopt;
        }
        index = nodes_.size();
        nodes_.emplace_back();
        by_pointer_.emplace(pointer, index);
        return compile(schema, pointer, index);
    }

    std::optional<std::string> compile(json::value const& schema, std::string& pointer, std::size_t index)
    {
        if(auto const* b = schema.if_bool())
        {
            nodes_[index].never = !*b;
            return std::nullopt;
        }
        auto const* o = schema.if_object();
        if(!o)
            return fail(pointer, "a schema must be an object or a boolean");
        // Dynamic scopes and embedded resources change what a reference
        // means: refused rather than resolved wrongly.
        for(std::string_view unsupported : {"$dynamicRef", "$recursiveRef"})
            if(o->contains(unsupported))
                return fail(pointer, "keyword '" + std::string(unsupported) + "' is not supported");
        if(!pointer.empty() && o->contains("$id"))
            return fail(pointer, "'$id' is only supported on the root schema");

        node n;
        if(auto const* r = o->if_contains("$ref"))
        {
            if(!r->is_string())
                return fail(pointer, "'$ref' must be a string");
            std::string target;
            if(auto err = resolve(std::string_view(r->get_string()), pointer, target))
                return err;
            bool inside_other_resource = false;
            json::value const* subschema = locate(target, inside_other_resource);
            if(!subschema)
                return fail(pointer, "'$ref' " + to_json_text(*r) + " names nothing in this schema");
            if(inside_other_resource)
                return fail(pointer, "'$ref' " + to_json_text(*r) + " leads into a subschema with its own '$id'");
            if(auto const known = by_pointer_.find(target); known != by_pointer_.end())
                n.ref = known->second;
            else
            {
                n.ref = nodes_.size();
                nodes_.emplace_back();
                by_pointer_.emplace(target, *n.ref);
                pending_.push_back({subschema, std::move(target), *n.ref});
            }
        }
        // Kept as annotations where they only loosen the answer; under `not`,
        // `if` or `oneOf` that would turn it around, so such a schema is refused.
        for(std::string_view unchecked : {"pattern", "patternProperties", "multipleOf", "uniqueItems", "prefixItems",
                "contains", "minContains", "maxContains", "propertyNames", "dependentRequired", "dependentSchemas",
                "dependencies", "unevaluatedItems", "unevaluatedProperties"})
            if(o->contains(unchecked))
            {
                n.unchecked = unchecked;
                break;
            }
        if(auto const* t = o->if_contains("type"))
        {
            if(auto err = parse_types(*t, n.types, pointer))
                return err;
        }
        for(auto [key, target] : {std::pair{"minimum", &n.minimum}, std::pair{"maximum", &n.maximum},
                std::pair{"exclusiveMinimum", &n.exclusive_minimum},
                std::pair{"exclusiveMaximum", &n.exclusive_maximum}})
            if(auto const* v = o->if_contains(key))
            {
                if(!v->is_number())
                    return fail(pointer, std::string("'") + key + "' must be a number");
                *target = *v;
            }
        for(auto [key, target] : {std::pair{"minLength", &n.min_length}, std::pair{"maxLength", &n.max_length},
                std::pair{"minItems", &n.min_items}, std::pair{"maxItems", &n.max_items},
                std::pair{"minProperties", &n.min_properties}, std::pair{"maxProperties", &n.max_properties}})
            if(auto const* v = o->if_contains(key))
            {
                if(!detail::is_integral_number(*v) || detail::compare_numbers(*v, json::value(0)) < 0)
                    return fail(pointer, std::string("'") + key + "' must be a non-negative integer");
                // 1e30 is an integer too: past 2^64 a count bound limits nothing.
                if(auto const* d = v->if_double())
                    *target = *d < 18446744073709551616.0 ? static_cast<std::uint64_t>(*d)
                                                          : std::numeric_limits<std::uint64_t>::max();
                else
                    *target = v->to_number<std::uint64_t>();
            }
        if(auto const* e = o->if_contains("enum"))
        {
            if(!e->is_array())
                return fail(pointer, "'enum' must be an array");
            n.enum_values = e->get_array();
        }
        if(auto const* c = o->if_contains("const"))
            n.const_value = *c;
        if(auto const* r = o->if_contains("required"))
        {
            if(!r->is_array())
                return fail(pointer, "'required' must be an array of strings");
            for(auto const& name : r->get_array())
            {
                if(!name.is_string())
                    return fail(pointer, "'required' must be an array of strings");
                n.required.emplace_back(name.get_string());
            }
        }
        // Children are compiled after this node is stored: `nodes_` may
        // reallocate, so the node is written back by index at the end.
        if(auto const* p = o->if_contains("properties"))
        {
            if(!p->is_object())
                return fail(pointer, "'properties' must be an object");
            for(auto const& kv : p->get_object())
            {
                std::size_t const mark = pointer.size();
                pointer += "/properties";
                detail::append_pointer_token(pointer, kv.key());
                std::size_t child = 0;
                if(auto err = add(kv.value(), pointer, child))
                    return err;
                pointer.resize(mark);
                n.properties.emplace_back(std::string(kv.key()), child);
            }
        }
        if(auto const* a = o->if_contains("additionalProperties"))
        {
            if(auto const* b = a->if_bool())
                n.additional = *b ? node::extra_keys::allowed : node::extra_keys::forbidden;
            else
            {
                if(auto err = child(*a, pointer, "/additionalProperties", n.additional_schema))
                    return err;
                n.additional = node::extra_keys::schema;
            }
        }
        if(auto const* i = o->if_contains("items"))
        {
            std::size_t c = 0;
            if(auto err = child(*i, pointer, "/items", c))
                return err;
            n.items = c;
        }
        for(auto [key, target] :
            {std::pair{"anyOf", &n.any_of}, std::pair{"oneOf", &n.one_of}, std::pair{"allOf", &n.all_of}})
            if(auto const* list = o->if_contains(key))
            {
                if(!list->is_array() || list->get_array().empty())
                    return fail(pointer, std::string("'") + key + "' must be a non-empty array of schemas");
                std::size_t k = 0;
                for(auto const& s : list->get_array())
                {
                    std::size_t c = 0;
                    if(auto err = child(s, pointer, "/" + std::string(key) + "/" + std::to_string(k++), c))
                        return err;
                    target->push_back(c);
                }
            }
        // `if` alone asserts nothing; nor do `then` and `else` without it (2020-12 §10.2.2).
        bool const conditional = o->contains("if") && (o->contains("then") || o->contains("else"));
        if(auto const* sub = o->if_contains("not"))
        {
            std::size_t c = 0;
            if(auto err = child(*sub, pointer, "/not", c))
                return err;
            n.not_schema = c;
        }
        if(auto const* sub = o->if_contains("if"); sub && conditional)
        {
            std::size_t c = 0;
            if(auto err = child(*sub, pointer, "/if", c))
                return err;
            n.if_schema = c;
        }
        if(n.if_schema)
            for(auto [key, target] : {std::pair{"then", &n.then_schema}, std::pair{"else", &n.else_schema}})
                if(auto const* sub = o->if_contains(key))
                {
                    std::size_t c = 0;
                    if(auto err = child(*sub, pointer, "/" + std::string(key), c))
                        return err;
                    *target = c;
                }
        nodes_[index] = std::move(n);
        return std::nullopt;
    }

    // The subschemas a node applies to its own value: references, combinators, conditionals.
    std::vector<std::size_t> same_value_children(std::size_t i) const
    {
        node const& n = nodes_[i];
        std::vector<std::size_t> out(n.all_of);
        out.insert(out.end(), n.any_of.begin(), n.any_of.end());
        out.insert(out.end(), n.one_of.begin(), n.one_of.end());
        for(auto const& o : {n.ref, n.not_schema, n.if_schema, n.then_schema, n.else_schema})
            if(o)
                out.push_back(*o);
        return out;
    }

    // Every subschema a node leads to: those, and those of its members and items.
    std::vector<std::size_t> children(std::size_t i) const
    {
        node const& n = nodes_[i];
        std::vector<std::size_t> out = same_value_children(i);
        for(auto const& p : n.properties)
            out.push_back(p.second);
        if(n.additional == node::extra_keys::schema)
            out.push_back(n.additional_schema);
        if(n.items)
            out.push_back(*n.items);
        return out;
    }

    // Under `not`, `if` and `oneOf` an unchecked keyword would not merely
    // loosen the answer but reverse it ({"not": {"multipleOf": 2}} refusing 3).
    // One backward sweep from the nodes holding one marks every node that
    // leads to it, whatever the references' cycles.
    std::optional<std::string> find_unchecked_under_negation() const
    {
        std::vector<std::vector<std::size_t>> parents(nodes_.size());
        for(std::size_t i = 0; i < nodes_.size(); ++i)
            for(std::size_t c : children(i))
                parents[c].push_back(i);
        constexpr std::size_t clean = static_cast<std::size_t>(-1);
        std::vector<std::size_t> leads_to(nodes_.size(), clean); // the unchecked node it reaches
        std::vector<std::size_t> todo;
        for(std::size_t i = 0; i < nodes_.size(); ++i)
            if(!nodes_[i].unchecked.empty())
            {
                leads_to[i] = i;
                todo.push_back(i);
            }
        while(!todo.empty())
        {
            std::size_t const at = todo.back();
            todo.pop_back();
            for(std::size_t p : parents[at])
                if(leads_to[p] == clean)
                {
                    leads_to[p] = leads_to[at];
                    todo.push_back(p);
                }
        }
        for(std::size_t owner = 0; owner < nodes_.size(); ++owner)
        {
            node const& n = nodes_[owner];
            std::vector<std::pair<std::size_t, std::string_view>> negated;
            if(n.not_schema)
                negated.emplace_back(*n.not_schema, "not");
            if(n.if_schema)
                negated.emplace_back(*n.if_schema, "if");
            for(std::size_t alt : n.one_of)
                negated.emplace_back(alt, "oneOf");
            for(auto const& [start, keyword] : negated)
                if(std::size_t const culprit = leads_to[start]; culprit != clean)
                    return fail(pointer_of(culprit),
                        "'" + std::string(nodes_[culprit].unchecked) + "' is not checked, and under '" +
                            std::string(keyword) + "' (at " + display_pointer(pointer_of(owner)) +
                            ") ignoring it would reverse the answer");
        }
        return std::nullopt;
    }

    // Subschemas that apply to the same value (references, combinators,
    // conditionals) must not lead back to themselves: validating
    // {"$ref": "#"} never ends, so such a schema means nothing.
    std::optional<std::string> find_loop() const
    {
        enum class mark : unsigned char
        {
            unseen,
            open,
            done
        };
        std::vector<mark> marks(nodes_.size(), mark::unseen);
        std::vector<std::pair<std::size_t, std::vector<std::size_t>>> stack;
        for(std::size_t start = 0; start < nodes_.size(); ++start)
        {
            if(marks[start] != mark::unseen)
                continue;
            marks[start] = mark::open;
            stack.emplace_back(start, same_value_children(start));
            while(!stack.empty())
            {
                auto& [at, next] = stack.back();
                if(next.empty())
                {
                    marks[at] = mark::done;
                    stack.pop_back();
                    continue;
                }
                std::size_t const to = next.back();
                next.pop_back();
                if(marks[to] == mark::open)
                    return fail(pointer_of(at),
                        "'$ref' loops back to " + display_pointer(pointer_of(to)) + " without going into the value");
                if(marks[to] == mark::unseen)
                {
                    marks[to] = mark::open;
                    stack.emplace_back(to, same_value_children(to));
                }
            }
        }
        return std::nullopt;
    }

    std::string pointer_of(std::size_t index) const
    {
        for(auto const& [pointer, i] : by_pointer_)
            if(i == index)
                return pointer;
        return {};
    }

    static std::string display_pointer(std::string const& pointer)
    {
        return pointer.empty() ? std::string("(root)") : pointer;
    }

    // A same-document reference to the JSON Pointer of its target: "#",
    // "#/$defs/x" (percent-decoded), "#name" (an `$anchor`), each optionally
    // after the root's own `$id`. Anything else would need fetching.
    std::optional<std::string> resolve(std::string_view ref, std::string const& pointer, std::string& target) const
    {
        auto const hash = ref.find('#');
        std::string_view const resource = ref.substr(0, hash);
        std::string_view const fragment = hash == std::string_view::npos ? std::string_view() : ref.substr(hash + 1);
        if(!resource.empty() && resource != base_id_)
            return fail(pointer,
                "'$ref' \"" + std::string(ref) +
                    "\" is not within this schema (only \"#...\" references are supported)");
        if(fragment.empty() || fragment.front() == '/')
        {
            target.clear();
            for(std::size_t i = 0; i < fragment.size(); ++i)
            {
                auto hex = [](char c) {
                    return c >= '0' && c <= '9' ? c - '0'
                        : c >= 'a' && c <= 'f'  ? c - 'a' + 10
                        : c >= 'A' && c <= 'F'  ? c - 'A' + 10
                                                : -1;
                };
                if(fragment[i] == '%' && i + 2 < fragment.size() && hex(fragment[i + 1]) >= 0 &&
                    hex(fragment[i + 2]) >= 0)
                {
                    target += static_cast<char>(hex(fragment[i + 1]) * 16 + hex(fragment[i + 2]));
                    i += 2;
                }
                else
                    target += fragment[i];
            }
            return std::nullopt;
        }
        auto const anchor = anchors_.find(std::string(fragment));
        if(anchor == anchors_.end())
            return fail(pointer, "'$ref' \"" + std::string(ref) + "\" names no '$anchor' of this schema");
        target = anchor->second;
        return std::nullopt;
    }

    // The value at an RFC 6901 pointer in the root document, or null;
    // `inside_other_resource` when the way there enters an embedded `$id`,
    // under which references would mean something else.
    json::value const* locate(std::string_view pointer, bool& inside_other_resource) const
    {
        json::value const* at = root_;
        while(!pointer.empty() && at)
        {
            if(at != root_)
                if(auto const* o = at->if_object(); o && o->contains("$id"))
                    inside_other_resource = true;
            pointer.remove_prefix(1); // '/'
            auto const end = pointer.find('/');
            std::string token;
            for(std::size_t i = 0; i < std::min(end, pointer.size()); ++i)
            {
                if(pointer[i] == '~' && i + 1 < pointer.size() && (pointer[i + 1] == '0' || pointer[i + 1] == '1'))
                    token += pointer[++i] == '0' ? '~' : '/';
                else
                    token += pointer[i];
            }
            pointer = end == std::string_view::npos ? std::string_view() : pointer.substr(end);
            if(auto const* o = at->if_object())
                at = o->if_contains(token);
            else if(auto const* a = at->if_array())
            {
                std::size_t k = 0;
                bool const digits = !token.empty() && token.size() < 10 &&
                    std::all_of(token.begin(), token.end(), [](char c) { return c >= '0' && c <= '9'; }) &&
                    (token == "0" || token.front() != '0');
                at = digits && (k = std::stoul(token)) < a->size() ? &(*a)[k] : nullptr;
            }
            else
                at = nullptr;
        }
        if(at && at != root_)
            if(auto const* o = at->if_object(); o && o->contains("$id"))
                inside_other_resource = true;
        return at;
    }

    // `$anchor` names, found where subschemas can be (not inside `const`,
    // `enum` or `default` values, which merely look like schemas).
    std::optional<std::string> collect_anchors(json::value const& schema, std::string& pointer)
    {
        auto const* o = schema.if_object();
        if(!o || (!pointer.empty() && o->contains("$id")))
            return std::nullopt; // an embedded resource's anchors are its own
        if(auto const* a = o->if_contains("$anchor"))
        {
            if(!a->is_string() || a->get_string().empty())
                return fail(pointer, "'$anchor' must be a non-empty string");
            if(!anchors_.emplace(std::string(a->get_string()), pointer).second)
                return fail(pointer, "'$anchor' \"" + std::string(a->get_string()) + "\" is defined twice");
        }
        for(auto const& kv : *o)
        {
            std::string_view const key = kv.key();
            std::size_t const mark = pointer.size();
            detail::append_pointer_token(pointer, key);
            std::optional<std::string> err;
            if(key == "properties" || key == "patternProperties" || key == "$defs" || key == "definitions" ||
                key == "dependentSchemas")
            {
                if(auto const* m = kv.value().if_object())
                    for(auto const& sub : *m)
                    {
                        std::size_t const inner = pointer.size();
                        detail::append_pointer_token(pointer, sub.key());
                        err = collect_anchors(sub.value(), pointer);
                        pointer.resize(inner);
                        if(err)
                            break;
                    }
            }
            else if(key == "anyOf" || key == "oneOf" || key == "allOf" || key == "prefixItems")
            {
                if(auto const* list = kv.value().if_array())
                    for(std::size_t k = 0; k < list->size() && !err; ++k)
                    {
                        std::size_t const inner = pointer.size();
                        pointer += '/' + std::to_string(k);
                        err = collect_anchors((*list)[k], pointer);
                        pointer.resize(inner);
                    }
            }
            else if(key == "items" || key == "additionalProperties" || key == "not" || key == "if" || key == "then" ||
                key == "else" || key == "contains" || key == "propertyNames" || key == "unevaluatedItems" ||
                key == "unevaluatedProperties")
                err = collect_anchors(kv.value(), pointer);
            pointer.resize(mark);
            if(err)
                return err;
        }
        return std::nullopt;
    }

    std::optional<std::string> child(json::value const& s, std::string& pointer, std::string_view suffix,
        std::size_t& out)
    {
        std::size_t const mark = pointer.size();
        pointer += suffix;
        auto err = add(s, pointer, out);
        pointer.resize(mark);
        return err;
    }

    static std::optional<std::string> parse_types(json::value const& t, unsigned& types, std::string const& pointer)
    {
        auto one = [&](json::value const& name) -> bool {
            auto const* s = name.if_string();
            if(!s)
                return false;
            std::string_view const n(s->data(), s->size());
            if(n == "null")
                types |= node::null_type;
            else if(n == "boolean")
                types |= node::boolean_type;
            else if(n == "integer")
                types |= node::integer_type;
            else if(n == "number")
                types |= node::number_type;
            else if(n == "string")
                types |= node::string_type;
            else if(n == "array")
                types |= node::array_type;
            else if(n == "object")
                types |= node::object_type;
            else
                return false;
            return true;
        };
        if(auto const* list = t.if_array())
        {
            for(auto const& name : *list)
                if(!one(name))
                    return fail(pointer, "'type' lists an unknown type name");
            return std::nullopt;
        }
        if(!one(t))
            return fail(pointer, "'type' must be a JSON type name or a list of them");
        return std::nullopt;
    }

    static std::string fail(std::string const& pointer, std::string const& what)
    {
        return "schema " + display_pointer(pointer) + ": " + what;
    }

    std::vector<node>& nodes_;
    json::value const* root_ = nullptr;
    std::string base_id_;                                        // the root's `$id`, without fragment
    std::map<std::string, std::size_t, std::less<>> by_pointer_; // compiled subschemas
    std::map<std::string, std::string, std::less<>> anchors_;    // `$anchor` -> its pointer
    struct pending_target
    {
        json::value const* schema;
        std::string pointer;
        std::size_t index;
    };
    std::vector<pending_target> pending_; // reference targets reserved, not yet compiled
};

class schema_validator::walker
{
public:
    // What the walkers of one validation share, those trying alternatives included.
    struct shared_state
    {
        std::size_t steps_left = 0;
        bool exhausted = false;
        bool too_deep = false;
        // Nulls taken as absent (validation_options::null_means_absent): a
        // `required` elsewhere (`then`, `allOf`) must not count them as given.
        std::vector<json::value const*> absent_nulls;
    };

    walker(std::vector<node> const& nodes, validation_options const& options, validation_report& report,
        shared_state& shared)
        : nodes_(nodes)
        , options_(options)
        , text_{options.texts}
        , report_(report)
        , shared_(&shared)
    {
    }

    void check(std::size_t index, json::value const& v)
    {
        // A reference may lead back to an enclosing schema; it must consume
        // some of the instance on the way, or recursion stops here.
        // Both refusals also fail any alternative being tried, and validate()
        // then refuses the whole value: a cut-short walk never accepts.
        if(depth_ >= max_depth)
        {
            shared_->too_deep = true;
            return report(text_.too_deep());
        }
        node const& n = nodes_[index];
        std::size_t const cost = 1 + (v.is_object() ? v.get_object().size() : 0) +
            (v.is_array() ? v.get_array().size() : 0) + (n.enum_values ? n.enum_values->size() : 0);
        if(shared_->steps_left < cost)
        {
            shared_->steps_left = 0;
            shared_->exhausted = true;
            return report(text_.too_complex());
        }
        shared_->steps_left -= cost;
        ++depth_;
        check_node(n, v);
        --depth_;
    }

private:
    static constexpr std::size_t max_depth = 256;

    void check_node(node const& n, json::value const& v)
    {
        if(n.never)
            return report(text_.never());
        if(n.types != 0 && !type_matches(n.types, v))
            return report(text_.type(type_list(n.types), detail::kind_name(v)));
        if(n.const_value && !detail::json_equal(*n.const_value, v))
            report(text_.equal_to(detail::display(*n.const_value)));
        if(n.enum_values && std::none_of(n.enum_values->begin(), n.enum_values->end(), [&](json::value const& e) {
               return detail::json_equal(e, v);
           }))
        {
            std::string values;
            for(auto const& e : *n.enum_values)
                values += (values.empty() ? "" : ", ") + detail::display(e);
            report(text_.one_of_values(values));
        }
        if(v.is_number())
            check_number(n, v);
        else if(auto const* s = v.if_string())
            check_string(n, *s);
        else if(auto const* a = v.if_array())
            check_array(n, *a);
        else if(auto const* o = v.if_object())
            check_object(n, *o);
        for(std::size_t sub : n.all_of)
            check(sub, v);
        if(!n.any_of.empty())
        {
            std::size_t const passing = count_passing(n.any_of, v, 1);
            if(passing == 0)
                report(text_.no_alternative());
        }
        if(!n.one_of.empty())
        {
            std::size_t const passing = count_passing(n.one_of, v, 2);
            if(passing != 1)
                report(passing == 0 ? text_.no_alternative() : text_.not_exactly_one(passing));
        }
        if(n.ref)
            check(*n.ref, v);
        if(n.not_schema && count_passing({*n.not_schema}, v, 1) == 1)
            report(text_.excluded());
        if(n.if_schema) // compiled only with a `then` or an `else`
        {
            // Only the branch taken reports, with the pointers of its own problems.
            auto const branch = count_passing({*n.if_schema}, v, 1) == 1 ? n.then_schema : n.else_schema;
            if(branch)
                check(*branch, v);
        }
    }

    void report(std::string message)
    {
        if(report_.errors.size() < std::max<std::size_t>(options_.max_errors, 1)) // 0 must not read as valid
            report_.errors.push_back({pointer_, std::move(message)});
        else
            ++report_.omitted;
    }

    static bool type_matches(unsigned types, json::value const& v)
    {
        switch(v.kind())
        {
        case json::kind::null: return types & node::null_type;
        case json::kind::bool_: return types & node::boolean_type;
        case json::kind::string: return types & node::string_type;
        case json::kind::array: return types & node::array_type;
        case json::kind::object: return types & node::object_type;
        default: return (types & node::number_type) || ((types & node::integer_type) && detail::is_integral_number(v));
        }
    }

    static std::string type_list(unsigned types)
    {
        static constexpr std::pair<unsigned, std::string_view> names[] = {{node::object_type, "object"},
            {node::array_type, "array"}, {node::string_type, "string"}, {node::integer_type, "integer"},
            {node::number_type, "number"}, {node::boolean_type, "boolean"}, {node::null_type, "null"}};
        std::string out;
        for(auto const& [bit, name] : names)
            if(types & bit)
                out += (out.empty() ? "" : " | ") + std::string(name);
        return out;
    }

    void check_number(node const& n, json::value const& v)
    {
        if(n.minimum && detail::compare_numbers(v, *n.minimum) < 0)
            report(text_.compare(">=", detail::display(*n.minimum)));
        if(n.maximum && detail::compare_numbers(v, *n.maximum) > 0)
            report(text_.compare("<=", detail::display(*n.maximum)));
        if(n.exclusive_minimum && detail::compare_numbers(v, *n.exclusive_minimum) <= 0)
            report(text_.compare(">", detail::display(*n.exclusive_minimum)));
        if(n.exclusive_maximum && detail::compare_numbers(v, *n.exclusive_maximum) >= 0)
            report(text_.compare("<", detail::display(*n.exclusive_maximum)));
    }

    void check_string(node const& n, json::string const& s)
    {
        if(!n.min_length && !n.max_length)
            return;
        std::size_t const length = detail::code_points(std::string_view(s.data(), s.size()));
        if(n.min_length && length < *n.min_length)
            report(text_.count(text_.m.too_short, *n.min_length));
        if(n.max_length && length > *n.max_length)
            report(text_.count(text_.m.too_long, *n.max_length));
    }

    void check_array(node const& n, json::array const& a)
    {
        if(n.min_items && a.size() < *n.min_items)
            report(text_.count(text_.m.too_few_items, *n.min_items));
        if(n.max_items && a.size() > *n.max_items)
            report(text_.count(text_.m.too_many_items, *n.max_items));
        if(!n.items)
            return;
        for(std::size_t i = 0; i < a.size(); ++i)
        {
            std::size_t const mark = pointer_.size();
            pointer_ += '/';
            pointer_ += std::to_string(i);
            check(*n.items, a[i]);
            pointer_.resize(mark);
        }
    }

    bool property_allows_null(std::size_t index) const
    {
        // Through references: `{"$ref": "#/$defs/address"}` allows what its target allows.
        for(std::size_t hops = 0; hops < max_depth; ++hops)
        {
            node const& p = nodes_[index];
            if(p.types != 0)
                return p.types & node::null_type;
            if(!p.ref)
                return true;
            index = *p.ref;
        }
        return true;
    }

    void check_object(node const& n, json::object const& o)
    {
        if(n.min_properties && o.size() < *n.min_properties)
            report(text_.count(text_.m.too_few_fields, *n.min_properties));
        if(n.max_properties && o.size() > *n.max_properties)
            report(text_.count(text_.m.too_many_fields, *n.max_properties));
        auto is_required = [&](std::string_view key) {
            return std::find(n.required.begin(), n.required.end(), key) != n.required.end();
        };
        for(auto const& name : n.required)
        {
            auto const* found = o.if_contains(name);
            auto const& absent = shared_->absent_nulls;
            if(found == nullptr || std::find(absent.begin(), absent.end(), found) != absent.end())
                at_key(name, [&] { report(text_.missing()); });
        }
        for(auto const& kv : o)
        {
            std::string_view const key = kv.key();
            auto const it = std::find_if(n.properties.begin(), n.properties.end(),
                [&](auto const& p) { return p.first == key; });
            if(it != n.properties.end())
            {
                if(kv.value().is_null() && options_.null_means_absent && !is_required(key) &&
                    !property_allows_null(it->second))
                {
                    shared_->absent_nulls.push_back(&kv.value());
                    continue;
                }
                at_key(key, [&] { check(it->second, kv.value()); });
            }
            else if(n.additional == node::extra_keys::schema)
                at_key(key, [&] { check(n.additional_schema, kv.value()); });
            else if(n.additional == node::extra_keys::forbidden && options_.unknown == unknown_keys::reject)
            {
                std::string allowed;
                for(auto const& p : n.properties)
                    allowed += (allowed.empty() ? "" : ", ") + p.first;
                at_key(key, [&] { report(text_.unknown(allowed)); });
            }
        }
    }

    template<class F>
    void at_key(std::string_view key, F&& f)
    {
        std::size_t const mark = pointer_.size();
        detail::append_pointer_token(pointer_, key);
        f();
        pointer_.resize(mark);
    }

    // Alternatives are tried on the side: their errors are not the caller's.
    std::size_t count_passing(std::vector<std::size_t> const& alternatives, json::value const& v, std::size_t enough)
    {
        std::size_t passing = 0;
        for(std::size_t alt : alternatives)
        {
            validation_report scratch;
            validation_options trial = options_;
            trial.max_errors = 1;
            walker w(nodes_, trial, scratch, *shared_);
            w.pointer_ = pointer_;
            w.depth_ = depth_;
            w.check(alt, v);
            if(scratch.ok() && ++passing >= enough)
                break;
        }
        return passing;
    }

    std::vector<node> const& nodes_;
    validation_options const& options_;
    detail::message_catalog text_;
    validation_report& report_;
    std::string pointer_;
    std::size_t depth_ = 0;
    shared_state* shared_;
};

AGENTIO_DECL boost::system::result<schema_validator, std::string> schema_validator::compile(json::value const& schema)
{
    schema_validator v;
    compiler c(v.nodes_);
    if(auto err = c.add_root(schema))
        return std::move(*err);
    return v;
}

AGENTIO_DECL validation_report schema_validator::validate(json::value const& instance,
    validation_options const& options) const
{
    validation_report report;
    walker::shared_state shared;
    shared.steps_left = options.max_steps;
    walker w(nodes_, options, report, shared);
    w.check(0, instance);
    if(shared.exhausted || shared.too_deep)
    {
        // One clear refusal rather than whatever the cut-short walk reported.
        detail::message_catalog const text{options.texts};
        report.errors.assign(1, {std::string(), shared.exhausted ? text.too_complex() : text.too_deep()});
        report.omitted = 0;
    }
    return report;
}

AGENTIO_DECL std::string format_validation_errors(validation_report const& report, messages const& texts)
{
    std::string out;
    for(auto const& e : report.errors)
    {
        if(!out.empty())
            out += '\n';
        if(e.pointer.empty())
            out += texts.root;
        else
            out += e.pointer;
        out += ": ";
        out += e.message;
    }
    if(report.omitted > 0)
        out += '\n' + detail::message_catalog{texts}.more(report.omitted);
    return out;
}

} // namespace agentio

#endif
