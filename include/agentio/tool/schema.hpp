//
// agentio/tool/schema.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// JSON Schema for a tool's arguments, generated from the C++ type at compile
// time. A tool's arguments are one Boost.Describe'd struct; what the type
// system cannot say (descriptions, bounds, allowed strings, defaults,
// examples) comes from a separate `field_traits` specialization, the way
// glaze's `json_schema<T>` keeps metadata out of the struct. A member without
// a description, a bound on a string, malformed JSON in a default: each is a
// compile error that names what is wrong.
//
// The same type descriptions convert validated JSON into the struct (`read`),
// so the schema the model sees and the conversion can never disagree.
//

#ifndef AGENTIO_TOOL_SCHEMA_HPP
#define AGENTIO_TOOL_SCHEMA_HPP

#include <agentio/tool/detail/schema_writer.hpp>

#include <boost/describe/enum.hpp>
#include <boost/describe/enumerators.hpp>
#include <boost/describe/members.hpp>
#include <boost/describe/modifiers.hpp>
#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/string.hpp>
#include <boost/json/value.hpp>
#include <boost/mp11/algorithm.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace agentio {

namespace json = boost::json;

/** A short list of strings fixed at compile time.

    Used in @ref field_info for the allowed values of a string member and for
    examples. Holds at most 64 entries; more is a compile error.
*/
struct string_list
{
    static constexpr std::size_t capacity = 64;

    std::array<std::string_view, capacity> items{};
    std::size_t count = 0;

    constexpr string_list() = default;

    constexpr string_list(std::initializer_list<std::string_view> values)
    {
        if(values.size() > capacity)
            throw "agentio::string_list holds at most 64 values";
        for(auto v : values)
            items[count++] = v;
    }

    constexpr std::string_view const* begin() const noexcept { return items.data(); }
    constexpr std::string_view const* end() const noexcept { return items.data() + count; }
    constexpr std::size_t size() const noexcept { return count; }
    constexpr bool empty() const noexcept { return count == 0; }
};

/** A vendor extension keyword (`x-...`) with a string value, written into a
    property's schema for a layer above the tools that gives it a meaning. The
    tools' layer checks only that the keyword is an extension and, when
    `scalar_only`, that the member is a scalar (string, number, boolean, enum,
    or an optional of one).
*/
struct schema_annotation
{
    std::string_view keyword = {};
    std::string_view value = {};
    bool scalar_only = false;
};

/** What the schema says about one member of an argument struct.

    One entry per described member, in @ref field_traits. Only `name` and
    `description` are required; a constraint that cannot apply to the member's
    type (a length on a number, say) is a compile error.

    Constraints on a `std::vector` or `std::map` member that concern scalars
    (bounds, lengths, allowed values) apply to its elements.
*/
struct field_info
{
    /// The C++ member name, as Boost.Describe spells it.
    std::string_view name = {};

    /// The JSON key, when it differs from the member name (`"operator"` is
    /// a fine JSON key and no C++ identifier).
    std::string_view json_name = {};

    /// What the model reads about this argument. Required, non-empty.
    std::string_view description = {};

    /// Inclusive bounds of a number.
    std::optional<std::int64_t> minimum = {};
    std::optional<std::int64_t> maximum = {};

    /// Bounds on the length of a string, in code points.
    std::optional<std::size_t> min_length = {};
    std::optional<std::size_t> max_length = {};

    /// Bounds on the number of elements of a vector or entries of a map.
    std::optional<std::size_t> min_items = {};
    std::optional<std::size_t> max_items = {};

    /// Allowed values of a string (a JSON Schema `enum`).
    string_list one_of = {};

    /// JSON text of the default value. A member with a default is optional
    /// for the model; when absent, the default is converted in its place.
    std::string_view default_value = {};

    /// JSON texts of example values, shown to the model.
    string_list examples = {};

    /// A vendor keyword for this member's schema, read by a layer above the
    /// tools (for example mcp::param_header, which mirrors an argument in an
    /// HTTP header).
    schema_annotation annotation = {};

    /// The key this member has in JSON.
    constexpr std::string_view key() const noexcept { return json_name.empty() ? name : json_name; }
};

/** Per-member documentation and constraints of a described argument struct.

    Specialize for every struct that appears in a tool's arguments:

    @code
    struct filtro { std::string campo; operador op; json::value valor; };
    BOOST_DESCRIBE_STRUCT(filtro, (), (campo, op, valor))

    template<>
    struct agentio::field_traits<filtro>
    {
        static constexpr agentio::field_info fields[] = {
            {.name = "campo", .description = "Columna a filtrar"},
            {.name = "op", .json_name = "operator", .description = "Operador de comparación"},
            {.name = "valor", .description = "Valor con el que comparar"},
        };
    };
    @endcode
*/
template<class T>
struct field_traits
{
    using not_specialized = void;
};

/** The schema and the conversion of one C++ type, by category.

    Each specialization provides
    @li `static constexpr void write_keys(detail::schema_writer&, field_info const&)`,
        the keywords of the type's schema (inside an object already opened);
    @li `static bool read(json::value const&, T&)`, the conversion of a JSON
        value that the schema accepted;
    @li `static constexpr unsigned accepts`, the constraints of
        @ref field_info that make sense for the type.

    Specialize it for your own types to use them in arguments.
*/
template<class T>
struct json_schema;

namespace detail {

enum constraint : unsigned
{
    bounds_constraint = 1,
    length_constraint = 2,
    items_constraint = 4,
    one_of_constraint = 8,
    scalar_constraint = 16,
};

constexpr unsigned constraints_used(field_info const& f)
{
    unsigned used = 0;
    if(f.minimum || f.maximum)
        used |= bounds_constraint;
    if(f.min_length || f.max_length)
        used |= length_constraint;
    if(f.min_items || f.max_items)
        used |= items_constraint;
    if(!f.one_of.empty())
        used |= one_of_constraint;
    if(f.annotation.scalar_only)
        used |= scalar_constraint;
    return used;
}

// clang-format off
template<class T>
concept has_schema = requires { json_schema<T>::accepts; };
// clang-format on

template<class T>
concept described_struct = std::is_class_v<T> && boost::describe::has_describe_members<T>::value;

template<class T>
using members_of = boost::describe::describe_members<T, boost::describe::mod_public | boost::describe::mod_inherited>;

template<class T, class Descriptor>
using member_type_t = std::remove_cvref_t<decltype(std::declval<T&>().*Descriptor::pointer)>;

template<class T>
struct is_optional : std::false_type
{
};
template<class T>
struct is_optional<std::optional<T>> : std::true_type
{
};

// Where a struct's descriptions are: a specialization of field_traits (every
// entry named), or a `static constexpr agentio::field_info fields[]` member of
// the struct itself (every entry named, or none: then in member order).
// clang-format off
template<class T>
concept has_traits_specialization = !requires { typename field_traits<T>::not_specialized; };

template<class T>
concept has_member_fields = requires {
    { std::size(T::fields) } -> std::convertible_to<std::size_t>;
    { T::fields[0] } -> std::convertible_to<field_info const&>;
};
// clang-format on

template<class T>
concept has_fields = has_traits_specialization<T> || has_member_fields<T>;

template<class T>
constexpr auto const& raw_fields() noexcept
{
    if constexpr(has_traits_specialization<T>)
        return field_traits<T>::fields;
    else
        return T::fields;
}

template<class T>
inline constexpr std::size_t field_count = std::size(raw_fields<T>());

// Entries without names, in the struct itself: they follow the members' order.
template<class T>
constexpr bool positional_fields() noexcept
{
    if constexpr(has_traits_specialization<T>)
        return false;
    else
    {
        for(auto const& f : raw_fields<T>())
            if(!f.name.empty())
                return false;
        return true;
    }
}

template<class T>
inline constexpr std::size_t member_count = boost::mp11::mp_size<
    boost::describe::describe_members<T, boost::describe::mod_public | boost::describe::mod_inherited>>::value;

// The entries, each with its member's name (positional ones take it from the
// member at their place).
template<class T>
inline constexpr auto fields_of = [] {
    std::array<field_info, field_count<T>> out{};
    for(std::size_t i = 0; i < out.size(); ++i)
        out[i] = raw_fields<T>()[i];
    if constexpr(positional_fields<T>())
    {
        std::size_t i = 0;
        boost::mp11::mp_for_each<
            boost::describe::describe_members<T, boost::describe::mod_public | boost::describe::mod_inherited>>(
            [&](auto d) {
                if(i < out.size())
                    out[i].name = decltype(d)::name;
                ++i;
            });
    }
    return out;
}();

// What a member without an entry gets: no description, no constraints.
// A reference to it rather than a null pointer: GCC refuses pointer
// comparisons in constant expressions under -fsanitize=undefined.
inline constexpr field_info no_field{};

// The field_info of a member, or `no_field` (empty name). Only meaningful
// once the traits passed the checks below.
template<class T>
constexpr field_info const& find_field(std::string_view member)
{
    if constexpr(!has_fields<T>)
        return no_field;
    else
    {
        for(auto const& f : fields_of<T>)
            if(f.name == member)
                return f;
        return no_field;
    }
}

// --- compile-time checks; each names the offending member through its
//     template arguments, which the compiler prints above the message -------

template<class Args, bool Specialized>
struct argument_struct_needs_field_traits
{
    static_assert(Specialized,
        "agentio: describe each member of 'Args': a specialization of agentio::field_traits<Args>, or a "
        "`static constexpr agentio::field_info fields[]` in the struct (the struct is the template argument "
        "'Args' above)");
};

template<auto Member, bool Documented>
struct member_needs_a_description
{
    static_assert(Documented,
        "agentio: this member of a tool's argument struct has no entry with a non-empty description "
        "in agentio::field_traits (the member is the template argument 'Member' above)");
};

template<auto Member, bool Supported>
struct member_type_has_no_json_schema
{
    static_assert(Supported,
        "agentio: the type of this member has no JSON Schema; use bool, integers, floating point, "
        "std::string, described enums, std::optional, std::vector, std::map<std::string, T>, "
        "described structs, boost::json::value, or specialize agentio::json_schema "
        "(the member is the template argument 'Member' above)");
};

template<auto Member, bool Applicable>
struct constraint_does_not_apply_to_member_type
{
    static_assert(Applicable,
        "agentio: a constraint in field_traits does not fit this member's type: minimum/maximum are for "
        "numbers, min_length/max_length and one_of for strings, min_items/max_items for vectors and maps, "
        "an annotation marked scalar_only for scalars (string, number, boolean, enum) "
        "(the member is the template argument 'Member' above)");
};

template<auto Member, bool Valid>
struct default_or_example_is_not_valid_json
{
    static_assert(Valid,
        "agentio: default_value and examples in field_traits must be JSON texts, e.g. \"50\" or "
        "R\"(\"eq\")\" (the member is the template argument 'Member' above)");
};

template<auto Member, bool Extension>
struct annotation_keyword_is_not_an_extension
{
    static_assert(Extension,
        "agentio: a schema annotation's keyword is a vendor extension: it starts with \"x-\" "
        "(the member is the template argument 'Member' above)");
};

template<class Args, std::size_t Entries, std::size_t Members, bool OneEach>
struct fields_must_describe_every_member_in_order
{
    static_assert(OneEach,
        "agentio: the unnamed entries of Args::fields describe the members in their order, one entry each "
        "(the struct is 'Args' above, with 'Entries' entries for 'Members' members)");
};

template<class Args, std::size_t Entry, bool Known>
struct field_traits_entry_names_no_member
{
    static_assert(Known,
        "agentio: an entry of agentio::field_traits<Args>::fields names no described member, or names one twice "
        "(the entry's index is the template argument 'Entry' above)");
};

template<class Args, bool Unique>
struct json_keys_must_be_unique
{
    static_assert(Unique, "agentio: two members of 'Args' map to the same JSON key (check json_name)");
};

template<class T, class Descriptor>
constexpr bool check_member()
{
    using M = member_type_t<T, Descriptor>;
    constexpr field_info const& f = find_field<T>(Descriptor::name);
    constexpr bool documented = !f.name.empty() && !f.description.empty();
    (void)member_needs_a_description<Descriptor::pointer, documented>{};
    (void)member_type_has_no_json_schema<Descriptor::pointer, has_schema<M>>{};
    if constexpr(documented && has_schema<M>)
    {
        constexpr bool applicable = (constraints_used(f) & ~json_schema<M>::accepts) == 0;
        (void)constraint_does_not_apply_to_member_type<Descriptor::pointer, applicable>{};
        constexpr bool valid_json = [] {
            if(!f.default_value.empty() && !json_syntax::valid(f.default_value))
                return false;
            for(auto e : f.examples)
                if(!json_syntax::valid(e))
                    return false;
            return true;
        }();
        (void)default_or_example_is_not_valid_json<Descriptor::pointer, valid_json>{};
        constexpr bool extension = f.annotation.keyword.empty() || f.annotation.keyword.starts_with("x-");
        (void)annotation_keyword_is_not_an_extension<Descriptor::pointer, extension>{};
        return applicable && valid_json && extension;
    }
    return documented && has_schema<M>;
}

// One described member and one traits entry by this name.
template<class T>
constexpr bool names_exactly_one_member(std::string_view name)
{
    std::size_t matches = 0;
    boost::mp11::mp_for_each<members_of<T>>([&](auto d) {
        if(std::string_view(decltype(d)::name) == name)
            ++matches;
    });
    std::size_t entries = 0;
    for(auto const& f : fields_of<T>)
        if(f.name == name)
            ++entries;
    return matches == 1 && entries == 1;
}

template<class T, std::size_t Entry>
constexpr bool check_entry()
{
    constexpr bool known = names_exactly_one_member<T>(fields_of<T>[Entry].name);
    (void)field_traits_entry_names_no_member<T, Entry, known>{};
    return known;
}

template<class T>
constexpr bool keys_unique()
{
    std::array<std::string_view, boost::mp11::mp_size<members_of<T>>::value> keys{};
    std::size_t n = 0;
    boost::mp11::mp_for_each<members_of<T>>([&](auto d) {
        auto const& f = find_field<T>(decltype(d)::name);
        keys[n++] = f.name.empty() ? std::string_view(decltype(d)::name) : f.key();
    });
    for(std::size_t i = 0; i < n; ++i)
        for(std::size_t j = i + 1; j < n; ++j)
            if(keys[i] == keys[j])
                return false;
    return true;
}

template<class T, class = members_of<T>>
struct struct_check;

template<class T, template<class...> class L, class... Ds>
struct struct_check<T, L<Ds...>>
{
    // A struct without members needs no traits.
    static constexpr bool specialized = has_fields<T>;
    static constexpr bool members_ok = [] {
        if constexpr(sizeof...(Ds) == 0 && !specialized)
            return true;
        else if constexpr(specialized)
            return (check_member<T, Ds>() && ... && true);
        else
        {
            (void)argument_struct_needs_field_traits<T, false>{};
            return false;
        }
    }();
    static constexpr bool entries_ok = [] {
        if constexpr(sizeof...(Ds) == 0 && !specialized)
            return true;
        else if constexpr(specialized)
        {
            if constexpr(positional_fields<T>())
            {
                constexpr bool one_each = field_count<T> == sizeof...(Ds);
                (void)fields_must_describe_every_member_in_order<T, field_count<T>, sizeof...(Ds), one_each>{};
                if constexpr(!one_each)
                    return false;
            }
            // clang-format off
            return []<std::size_t... I>(std::index_sequence<I...>) {
                return (check_entry<T, I>() && ... && true);
            }(std::make_index_sequence<field_count<T>>{});
            // clang-format on
        }
        else
            return false;
    }();
    static constexpr bool value = [] {
        if constexpr(members_ok && entries_ok)
        {
            (void)json_keys_must_be_unique<T, keys_unique<T>()>{};
            return keys_unique<T>();
        }
        else
            return false;
    }();
};

// A member the model may leave out: std::optional, or one with a default.
template<class T, class Descriptor>
constexpr bool member_is_optional()
{
    if constexpr(is_optional<member_type_t<T, Descriptor>>::value)
        return true;
    else
    {
        constexpr field_info const& f = find_field<T>(Descriptor::name);
        return !f.default_value.empty();
    }
}

// Description, default and examples: the part of a member's schema that
// belongs to the member, not to its type.
constexpr void write_annotations(schema_writer& w, field_info const& f)
{
    if(!f.description.empty())
    {
        w.key("description");
        w.string(f.description);
    }
    if(!f.default_value.empty())
    {
        w.key("default");
        w.raw(f.default_value);
    }
    if(!f.examples.empty())
    {
        w.key("examples");
        w.begin_array();
        for(auto e : f.examples)
            w.raw(e);
        w.end_array();
    }
    if(!f.annotation.keyword.empty())
    {
        w.key(f.annotation.keyword);
        w.string(f.annotation.value);
    }
}

template<class T>
constexpr void write_type_schema(schema_writer& w, field_info const& f)
{
    w.begin_object();
    json_schema<T>::write_keys(w, f);
    w.end_object();
}

// The schema is written twice in constant evaluation: once to learn its
// size, once into an array of that size that outlives the evaluation.
template<class T>
struct schema_text
{
    static constexpr std::size_t size = [] {
        schema_writer w;
        write_type_schema<T>(w, no_field);
        return w.text().size();
    }();

    static constexpr std::array<char, size> storage = [] {
        schema_writer w;
        write_type_schema<T>(w, no_field);
        std::array<char, size> a{};
        std::copy(w.text().begin(), w.text().end(), a.begin());
        return a;
    }();
};

} // namespace detail

// --- the categories ---------------------------------------------------------

/// `bool` → `{"type":"boolean"}`.
template<>
struct json_schema<bool>
{
    static constexpr unsigned accepts = detail::scalar_constraint;

    static constexpr void write_keys(detail::schema_writer& w, field_info const&)
    {
        w.key("type");
        w.string("boolean");
    }

    static bool read(json::value const& v, bool& out)
    {
        if(!v.is_bool())
            return false;
        out = v.get_bool();
        return true;
    }
};

/// Integers → `{"type":"integer"}` with the type's range as bounds (narrowed
/// by the field's `minimum`/`maximum`), so out-of-range values are refused
/// by validation rather than truncated.
// clang-format off
template<class T>
    requires std::integral<T> && (!std::same_as<T, bool>) && (!std::same_as<T, char>)
struct json_schema<T>
// clang-format on
{
    static constexpr unsigned accepts = detail::bounds_constraint | detail::scalar_constraint;

    static constexpr std::int64_t lowest = std::is_signed_v<T> ? std::numeric_limits<T>::min() : 0;

    static constexpr void write_keys(detail::schema_writer& w, field_info const& f)
    {
        w.key("type");
        w.string("integer");
        std::optional<std::int64_t> low = f.minimum;
        std::optional<std::int64_t> high = f.maximum;
        if(low && *low < lowest)
            throw "agentio: field minimum is below the range of the member type";
        if constexpr(sizeof(T) < 8 || std::is_signed_v<T>)
            if(high && *high > static_cast<std::int64_t>(std::numeric_limits<T>::max()))
                throw "agentio: field maximum is above the range of the member type";
        w.key("minimum");
        w.integer(low ? *low : lowest);
        w.key("maximum");
        if(high)
            w.integer(*high);
        else
            w.unsigned_integer(static_cast<std::uint64_t>(std::numeric_limits<T>::max()));
    }

    static bool read(json::value const& v, T& out)
    {
        using limits = std::numeric_limits<T>;
        if(auto const* i = v.if_int64())
        {
            if(*i < static_cast<std::int64_t>(lowest))
                return false;
            if(*i > 0 && static_cast<std::uint64_t>(*i) > static_cast<std::uint64_t>(limits::max()))
                return false;
            out = static_cast<T>(*i);
            return true;
        }
        if(auto const* u = v.if_uint64())
        {
            if(*u > static_cast<std::uint64_t>(limits::max()))
                return false;
            out = static_cast<T>(*u);
            return true;
        }
        if(auto const* d = v.if_double())
        {
            // JSON Schema: 3.0 is an integer. The upper test is exact because
            // max + 1 is a power of two.
            if(std::trunc(*d) != *d || *d < static_cast<double>(limits::min()) ||
                !(*d < static_cast<double>(limits::max()) + 1.0))
                return false;
            out = static_cast<T>(*d);
            return true;
        }
        return false;
    }
};

/// Floating point → `{"type":"number"}`.
template<std::floating_point T>
struct json_schema<T>
{
    static constexpr unsigned accepts = detail::bounds_constraint | detail::scalar_constraint;

    static constexpr void write_keys(detail::schema_writer& w, field_info const& f)
    {
        w.key("type");
        w.string("number");
        if(f.minimum)
        {
            w.key("minimum");
            w.integer(*f.minimum);
        }
        if(f.maximum)
        {
            w.key("maximum");
            w.integer(*f.maximum);
        }
    }

    static bool read(json::value const& v, T& out)
    {
        if(!v.is_number())
            return false;
        out = static_cast<T>(v.to_number<double>());
        return true;
    }
};

/// `std::string` → `{"type":"string"}` with lengths and allowed values.
template<>
struct json_schema<std::string>
{
    static constexpr unsigned accepts = detail::length_constraint | detail::one_of_constraint |
        detail::scalar_constraint;

    static constexpr void write_keys(detail::schema_writer& w, field_info const& f)
    {
        w.key("type");
        w.string("string");
        if(f.min_length)
        {
            w.key("minLength");
            w.unsigned_integer(*f.min_length);
        }
        if(f.max_length)
        {
            w.key("maxLength");
            w.unsigned_integer(*f.max_length);
        }
        if(!f.one_of.empty())
        {
            w.key("enum");
            w.begin_array();
            for(auto s : f.one_of)
                w.string(s);
            w.end_array();
        }
    }

    static bool read(json::value const& v, std::string& out)
    {
        if(!v.is_string())
            return false;
        out.assign(v.get_string().data(), v.get_string().size());
        return true;
    }
};

/// Described enums → a string with the enumerator names as its `enum`.
// clang-format off
template<class E>
    requires std::is_enum_v<E> && boost::describe::has_describe_enumerators<E>::value
struct json_schema<E>
// clang-format on
{
    static constexpr unsigned accepts = detail::scalar_constraint;

    static constexpr void write_keys(detail::schema_writer& w, field_info const&)
    {
        w.key("type");
        w.string("string");
        w.key("enum");
        w.begin_array();
        boost::mp11::mp_for_each<boost::describe::describe_enumerators<E>>([&](auto d) { w.string(d.name); });
        w.end_array();
    }

    static bool read(json::value const& v, E& out)
    {
        if(!v.is_string())
            return false;
        // Not describe::enum_from_string: in Boost 1.81 it takes a C string,
        // and a JSON string may hold a NUL.
        std::string_view const name(v.get_string().data(), v.get_string().size());
        bool found = false;
        boost::mp11::mp_for_each<boost::describe::describe_enumerators<E>>([&](auto d) {
            if(!found && name == d.name)
            {
                found = true;
                out = d.value;
            }
        });
        return found;
    }
};

/// `std::optional<T>`: the schema of `T`; the member is not required, and
/// `null` or absence give an empty optional.
template<class T>
struct json_schema<std::optional<T>>
{
    static constexpr unsigned accepts = json_schema<T>::accepts;

    static constexpr void write_keys(detail::schema_writer& w, field_info const& f)
    {
        json_schema<T>::write_keys(w, f);
    }

    static bool read(json::value const& v, std::optional<T>& out)
    {
        if(v.is_null())
        {
            out.reset();
            return true;
        }
        return json_schema<T>::read(v, out.emplace());
    }
};

/// `std::vector<T>` → an array; scalar constraints apply to the items.
template<class T>
struct json_schema<std::vector<T>>
{
    static constexpr unsigned accepts = detail::items_constraint |
        (json_schema<T>::accepts & ~detail::scalar_constraint);

    static constexpr void write_keys(detail::schema_writer& w, field_info const& f)
    {
        w.key("type");
        w.string("array");
        w.key("items");
        detail::write_type_schema<T>(w, f);
        if(f.min_items)
        {
            w.key("minItems");
            w.unsigned_integer(*f.min_items);
        }
        if(f.max_items)
        {
            w.key("maxItems");
            w.unsigned_integer(*f.max_items);
        }
    }

    static bool read(json::value const& v, std::vector<T>& out)
    {
        auto const* a = v.if_array();
        if(!a)
            return false;
        out.clear();
        out.reserve(a->size());
        for(auto const& e : *a)
            if(!json_schema<T>::read(e, out.emplace_back()))
                return false;
        return true;
    }
};

/// `std::map<std::string, T>` → an object whose values all follow `T`.
template<class T>
struct json_schema<std::map<std::string, T>>
{
    static constexpr unsigned accepts = detail::items_constraint |
        (json_schema<T>::accepts & ~detail::scalar_constraint);

    static constexpr void write_keys(detail::schema_writer& w, field_info const& f)
    {
        w.key("type");
        w.string("object");
        w.key("additionalProperties");
        detail::write_type_schema<T>(w, f);
        if(f.min_items)
        {
            w.key("minProperties");
            w.unsigned_integer(*f.min_items);
        }
        if(f.max_items)
        {
            w.key("maxProperties");
            w.unsigned_integer(*f.max_items);
        }
    }

    static bool read(json::value const& v, std::map<std::string, T>& out)
    {
        auto const* o = v.if_object();
        if(!o)
            return false;
        out.clear();
        for(auto const& kv : *o)
            if(!json_schema<T>::read(kv.value(), out[std::string(kv.key())]))
                return false;
        return true;
    }
};

/// `boost::json::value` → `{}`: any JSON value.
template<>
struct json_schema<json::value>
{
    static constexpr unsigned accepts = 0;

    static constexpr void write_keys(detail::schema_writer&, field_info const&) {}

    static bool read(json::value const& v, json::value& out)
    {
        out = v;
        return true;
    }
};

/// `boost::json::object` → any object.
template<>
struct json_schema<json::object>
{
    static constexpr unsigned accepts = 0;

    static constexpr void write_keys(detail::schema_writer& w, field_info const&)
    {
        w.key("type");
        w.string("object");
    }

    static bool read(json::value const& v, json::object& out)
    {
        if(!v.is_object())
            return false;
        out = v.get_object();
        return true;
    }
};

/// `boost::json::array` → any array.
template<>
struct json_schema<json::array>
{
    static constexpr unsigned accepts = 0;

    static constexpr void write_keys(detail::schema_writer& w, field_info const&)
    {
        w.key("type");
        w.string("array");
    }

    static bool read(json::value const& v, json::array& out)
    {
        if(!v.is_array())
            return false;
        out = v.get_array();
        return true;
    }
};

/// Described structs → an object with one property per member, the members
/// that are neither optional nor defaulted as `required`, and no other keys.
template<detail::described_struct T>
struct json_schema<T>
{
    static constexpr unsigned accepts = 0;

    /// True when the struct and its field traits passed every check; the
    /// checks themselves fail the build with a message naming the member.
    static constexpr bool well_formed = detail::struct_check<T>::value;

    static constexpr void write_keys(detail::schema_writer& w, field_info const&)
    {
        if constexpr(well_formed)
        {
            w.key("type");
            w.string("object");
            w.key("properties");
            w.begin_object();
            boost::mp11::mp_for_each<detail::members_of<T>>([&](auto d) {
                using D = decltype(d);
                constexpr field_info const& f = detail::find_field<T>(D::name);
                w.key(f.key());
                w.begin_object();
                json_schema<detail::member_type_t<T, D>>::write_keys(w, f);
                detail::write_annotations(w, f);
                w.end_object();
            });
            w.end_object();
            bool any_required = false;
            boost::mp11::mp_for_each<detail::members_of<T>>([&](auto d) {
                using D = decltype(d);
                if constexpr(!detail::member_is_optional<T, D>())
                {
                    if(!any_required)
                    {
                        w.key("required");
                        w.begin_array();
                        any_required = true;
                    }
                    w.string(detail::find_field<T>(D::name).key());
                }
            });
            if(any_required)
                w.end_array();
            w.key("additionalProperties");
            w.boolean(false);
        }
    }

    /// Converts an object the schema accepted. Unknown keys are ignored here;
    /// whether they are an error is the validator's decision.
    static bool read(json::value const& v, T& out)
    {
        auto const* o = v.if_object();
        if(!o)
            return false;
        bool ok = true;
        boost::mp11::mp_for_each<detail::members_of<T>>([&](auto d) {
            using D = decltype(d);
            using M = detail::member_type_t<T, D>;
            if(!ok)
                return;
            constexpr field_info const& f = detail::find_field<T>(D::name);
            auto const* found = o->if_contains(f.key());
            if(found && !(found->is_null() && !detail::is_optional<M>::value && !f.default_value.empty()))
                ok = json_schema<M>::read(*found, out.*D::pointer);
            else if constexpr(detail::is_optional<M>::value)
                (out.*D::pointer).reset();
            else if(!f.default_value.empty())
                ok = json_schema<M>::read(json::parse(f.default_value), out.*D::pointer);
            else
                ok = false;
        });
        return ok;
    }
};

/** The JSON Schema of `T` as JSON text, computed by the compiler.

    `T` is normally a described struct (a tool's arguments), giving an object
    schema. The text lives in the binary's read-only data; nothing runs at
    start-up to build it.
*/
template<class T>
inline constexpr std::string_view schema_of{detail::schema_text<T>::storage.data(), detail::schema_text<T>::size};

/** Converts a JSON value into `T` through its @ref json_schema.

    Meant for values the schema validator accepted; returns false (leaving
    `out` partly assigned) when the value does not fit.
*/
template<class T>
bool read_json(json::value const& v, T& out)
{
    return json_schema<T>::read(v, out);
}

} // namespace agentio

#endif
