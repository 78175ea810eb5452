//
// agentio/json_text.hpp
// ~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Appending JSON text straight into a std::string. Used where building a
// boost::json::value first would only be thrown away (SQL rows on a hot path),
// and where the shortest round-trip form of a double matters: 1234.5, not the
// 1.2345E3 that Boost.JSON 1.81 writes.
//

#ifndef AGENTIO_JSON_TEXT_HPP
#define AGENTIO_JSON_TEXT_HPP

#include <boost/json/value.hpp>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>

namespace agentio {

namespace detail {

// 1 for the bytes a JSON string must escape: controls, '"' and '\\'.
inline constexpr auto json_escape_table = [] {
    struct table
    {
        bool escape[256] = {};
    } t;
    for(int c = 0; c < 0x20; ++c)
        t.escape[c] = true;
    t.escape[static_cast<unsigned char>('"')] = true;
    t.escape[static_cast<unsigned char>('\\')] = true;
    return t;
}();

} // namespace detail

/// Appends `s` as a quoted JSON string. Control characters are escaped; bytes
/// >= 0x80 are copied as they are (the caller provides UTF-8).
inline void append_json_string(std::string& out, std::string_view s)
{
    static constexpr char hex[] = "0123456789abcdef";
    out.reserve(out.size() + s.size() + 2);
    out.push_back('"');
    char const* p = s.data();
    char const* const end = p + s.size();
    while(p != end)
    {
        // Copy the longest run that needs no escape in one append.
        char const* run = p;
        while(p != end && !detail::json_escape_table.escape[static_cast<unsigned char>(*p)])
            ++p;
        out.append(run, p);
        if(p == end)
            break;
        auto const c = static_cast<unsigned char>(*p++);
        switch(c)
        {
        case '"': out.append("\\\""); break;
        case '\\': out.append("\\\\"); break;
        case '\n': out.append("\\n"); break;
        case '\r': out.append("\\r"); break;
        case '\t': out.append("\\t"); break;
        case '\b': out.append("\\b"); break;
        case '\f': out.append("\\f"); break;
        default:
            out.append("\\u00");
            out.push_back(hex[c >> 4]);
            out.push_back(hex[c & 0xf]);
        }
    }
    out.push_back('"');
}

/// Appends an integer in decimal.
inline void append_json_number(std::string& out, std::int64_t v)
{
    char buf[24];
    auto const r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
}

/// Shortest representation that round-trips; NaN and infinities have no JSON
/// form and are written as null.
inline void append_json_number(std::string& out, double v)
{
    if(!std::isfinite(v))
    {
        out.append("null");
        return;
    }
    char buf[32];
    auto const r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
}

/// Appends a JSON value as compact text, numbers in their shortest
/// round-trip form (Boost.JSON 1.81's serialize writes 212.0 as 2.12E2, which
/// is valid but not what a model or a person expects to read).
/// Separators of written JSON.
enum class json_layout
{
    compact, ///< `{"a":1,"b":2}`
    spaced   ///< `{"a": 1, "b": 2}`, as Python's json.dumps writes by default
};

inline void append_json(std::string& out, boost::json::value const& v, json_layout layout = json_layout::compact)
{
    bool const spaced = layout == json_layout::spaced;
    switch(v.kind())
    {
    case boost::json::kind::null: out.append("null"); break;
    case boost::json::kind::bool_: out.append(v.get_bool() ? "true" : "false"); break;
    case boost::json::kind::int64: append_json_number(out, v.get_int64()); break;
    case boost::json::kind::uint64:
    {
        char buf[24];
        auto const r = std::to_chars(buf, buf + sizeof buf, v.get_uint64());
        out.append(buf, r.ptr);
        break;
    }
    case boost::json::kind::double_: append_json_number(out, v.get_double()); break;
    case boost::json::kind::string: append_json_string(out, v.get_string()); break;
    case boost::json::kind::array:
    {
        out.push_back('[');
        bool first = true;
        for(auto const& e : v.get_array())
        {
            if(!first)
                out.append(spaced ? ", " : ",");
            first = false;
            append_json(out, e, layout);
        }
        out.push_back(']');
        break;
    }
    case boost::json::kind::object:
    {
        out.push_back('{');
        bool first = true;
        for(auto const& kv : v.get_object())
        {
            if(!first)
                out.append(spaced ? ", " : ",");
            first = false;
            append_json_string(out, kv.key());
            out.append(spaced ? ": " : ":");
            append_json(out, kv.value(), layout);
        }
        out.push_back('}');
        break;
    }
    }
}

/// A JSON value as compact text; see @ref append_json.
inline std::string to_json_text(boost::json::value const& v, json_layout layout = json_layout::compact)
{
    std::string out;
    append_json(out, v, layout);
    return out;
}

} // namespace agentio

#endif
