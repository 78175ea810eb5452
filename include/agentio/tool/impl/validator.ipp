//
// agentio/tool/impl/validator.ipp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//

#ifndef AGENTIO_TOOL_IMPL_VALIDATOR_IPP
#define AGENTIO_TOOL_IMPL_VALIDATOR_IPP

#include <agentio/detail/json_pointer.hpp>
#include <agentio/json_text.hpp>

#include <algorithm>
#include <cmath>

namespace agentio {

struct schema_validator::node
{
    enum type_bit : unsigned {
        null_type = 1,
        boolean_type = 2,
        integer_type = 4,
        number_type = 8, // includes integers
        string_type = 16,
        array_type = 32,
        object_type = 64,
    };

    enum class extra_keys { allowed, forbidden, schema };

    bool never = false;  // the schema `false`
    unsigned types = 0;  // 0: any type
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
};

namespace detail {

// Numbers compared exactly across int64, uint64 and double: long double
// holds every 64-bit integer and every double.
inline int compare_numbers(json::value const& a, json::value const& b)
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

inline bool is_integral_number(json::value const& v)
{
    if(v.is_int64() || v.is_uint64())
        return true;
    if(auto const* d = v.if_double())
        return std::isfinite(*d) && std::trunc(*d) == *d;
    return false;
}

inline std::string_view kind_name(json::value const& v)
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

inline std::size_t code_points(std::string_view s)
{
    return static_cast<std::size_t>(
        std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

// A value as the model would write it: strings bare, for readable lists, and
// numbers in their shortest form (Boost.JSON writes 0.5 as 5E-1).
inline std::string display(json::value const& v)
{
    if(auto const* s = v.if_string())
        return std::string(s->data(), s->size());
    return to_json_text(v);
}

struct message_catalog
{
    message_language language;

    bool es() const { return language == message_language::spanish; }

    std::string type(std::string_view expected, std::string_view got) const
    {
        return (es() ? "se esperaba " : "expected ") + std::string(expected) + (es() ? ", se recibió " : ", got ")
            + std::string(got);
    }
    std::string missing() const { return es() ? "falta este campo obligatorio" : "required field is missing"; }
    std::string unknown(std::string_view allowed) const
    {
        if(allowed.empty())
            return es() ? "campo desconocido (no se admite ninguno)" : "unknown field (none is allowed)";
        return (es() ? "campo desconocido (se admiten: " : "unknown field (allowed: ") + std::string(allowed) + ")";
    }
    std::string one_of_values(std::string_view values) const
    {
        return (es() ? "debe ser uno de " : "must be one of ") + std::string(values);
    }
    std::string equal_to(std::string_view value) const { return (es() ? "debe ser " : "must be ") + std::string(value); }
    std::string compare(std::string_view op, std::string_view bound) const
    {
        return (es() ? "debe ser " : "must be ") + std::string(op) + " " + std::string(bound);
    }
    std::string at_least(std::uint64_t n, std::string_view what_en, std::string_view what_es) const
    {
        return (es() ? "debe tener al menos " : "must have at least ") + std::to_string(n) + " "
            + std::string(es() ? what_es : what_en);
    }
    std::string at_most(std::uint64_t n, std::string_view what_en, std::string_view what_es) const
    {
        return (es() ? "debe tener como máximo " : "must have at most ") + std::to_string(n) + " "
            + std::string(es() ? what_es : what_en);
    }
    std::string no_alternative() const
    {
        return es() ? "no coincide con ninguna de las formas admitidas" : "matches none of the allowed forms";
    }
    std::string not_exactly_one(std::size_t n) const
    {
        return es() ? "debe coincidir con exactamente una de las formas admitidas (coincide con " + std::to_string(n) + ")"
                    : "must match exactly one of the allowed forms (matches " + std::to_string(n) + ")";
    }
    std::string never() const { return es() ? "no se admite ningún valor aquí" : "no value is allowed here"; }
    std::string more(std::size_t n) const
    {
        return es() ? "y " + std::to_string(n) + " errores más" : "and " + std::to_string(n) + " more errors";
    }
};

} // namespace detail

class schema_validator::compiler
{
public:
    explicit compiler(std::vector<node>& nodes) : nodes_(nodes) {}

    std::optional<std::string> add(json::value const& schema, std::string& pointer, std::size_t& index)
    {
        index = nodes_.size();
        nodes_.emplace_back();
        if(auto const* b = schema.if_bool())
        {
            nodes_[index].never = !*b;
            return std::nullopt;
        }
        auto const* o = schema.if_object();
        if(!o)
            return fail(pointer, "a schema must be an object or a boolean");
        for(std::string_view unsupported : {"$ref", "$dynamicRef", "not", "if"})
            if(o->contains(unsupported))
                return fail(pointer, "keyword '" + std::string(unsupported) + "' is not supported");

        node n;
        if(auto const* t = o->if_contains("type"))
        {
            if(auto err = parse_types(*t, n.types, pointer))
                return err;
        }
        for(auto [key, target] : {std::pair{"minimum", &n.minimum}, std::pair{"maximum", &n.maximum},
                std::pair{"exclusiveMinimum", &n.exclusive_minimum}, std::pair{"exclusiveMaximum", &n.exclusive_maximum}})
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
        for(auto [key, target] : {std::pair{"anyOf", &n.any_of}, std::pair{"oneOf", &n.one_of},
                std::pair{"allOf", &n.all_of}})
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
        nodes_[index] = std::move(n);
        return std::nullopt;
    }

private:
    std::optional<std::string> child(json::value const& s, std::string& pointer, std::string_view suffix, std::size_t& out)
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
            if(n == "null") types |= node::null_type;
            else if(n == "boolean") types |= node::boolean_type;
            else if(n == "integer") types |= node::integer_type;
            else if(n == "number") types |= node::number_type;
            else if(n == "string") types |= node::string_type;
            else if(n == "array") types |= node::array_type;
            else if(n == "object") types |= node::object_type;
            else return false;
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
        return "schema " + (pointer.empty() ? std::string("(root)") : pointer) + ": " + what;
    }

    std::vector<node>& nodes_;
};

class schema_validator::walker
{
public:
    walker(std::vector<node> const& nodes, validation_options const& options, validation_report& report)
        : nodes_(nodes), options_(options), text_{options.language}, report_(report)
    {
    }

    void check(std::size_t index, json::value const& v)
    {
        node const& n = nodes_[index];
        if(n.never)
            return report(text_.never());
        if(n.types != 0 && !type_matches(n.types, v))
            return report(text_.type(type_list(n.types), detail::kind_name(v)));
        if(n.const_value && *n.const_value != v)
            report(text_.equal_to(detail::display(*n.const_value)));
        if(n.enum_values && std::find(n.enum_values->begin(), n.enum_values->end(), v) == n.enum_values->end())
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
    }

private:
    void report(std::string message)
    {
        if(report_.errors.size() < options_.max_errors)
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
        default:
            return (types & node::number_type) || ((types & node::integer_type) && detail::is_integral_number(v));
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
            report(text_.at_least(*n.min_length, "characters", "caracteres"));
        if(n.max_length && length > *n.max_length)
            report(text_.at_most(*n.max_length, "characters", "caracteres"));
    }

    void check_array(node const& n, json::array const& a)
    {
        if(n.min_items && a.size() < *n.min_items)
            report(text_.at_least(*n.min_items, "items", "elementos"));
        if(n.max_items && a.size() > *n.max_items)
            report(text_.at_most(*n.max_items, "items", "elementos"));
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
        node const& p = nodes_[index];
        return p.types == 0 || (p.types & node::null_type);
    }

    void check_object(node const& n, json::object const& o)
    {
        if(n.min_properties && o.size() < *n.min_properties)
            report(text_.at_least(*n.min_properties, "fields", "campos"));
        if(n.max_properties && o.size() > *n.max_properties)
            report(text_.at_most(*n.max_properties, "fields", "campos"));
        auto is_required = [&](std::string_view key) {
            return std::find(n.required.begin(), n.required.end(), key) != n.required.end();
        };
        for(auto const& name : n.required)
        {
            auto const* found = o.if_contains(name);
            if(found == nullptr)
                at_key(name, [&] { report(text_.missing()); });
        }
        for(auto const& kv : o)
        {
            std::string_view const key = kv.key();
            auto const it = std::find_if(n.properties.begin(), n.properties.end(),
                [&](auto const& p) { return p.first == key; });
            if(it != n.properties.end())
            {
                if(kv.value().is_null() && options_.null_means_absent && !is_required(key)
                   && !property_allows_null(it->second))
                    continue;
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
            walker w(nodes_, trial, scratch);
            w.pointer_ = pointer_;
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
};

inline boost::system::result<schema_validator, std::string> schema_validator::compile(json::value const& schema)
{
    schema_validator v;
    std::string pointer;
    std::size_t root = 0;
    compiler c(v.nodes_);
    if(auto err = c.add(schema, pointer, root))
        return std::move(*err);
    return v;
}

inline validation_report schema_validator::validate(json::value const& instance, validation_options const& options) const
{
    validation_report report;
    walker w(nodes_, options, report);
    w.check(0, instance);
    return report;
}

inline std::string format_validation_errors(validation_report const& report, message_language language)
{
    std::string out;
    for(auto const& e : report.errors)
    {
        if(!out.empty())
            out += '\n';
        if(e.pointer.empty())
            out += language == message_language::spanish ? "(raíz)" : "(root)";
        else
            out += e.pointer;
        out += ": ";
        out += e.message;
    }
    if(report.omitted > 0)
        out += '\n' + detail::message_catalog{language}.more(report.omitted);
    return out;
}

} // namespace agentio

#endif
