//
// agentio/json_text.hpp
// ~~~~~~~~~~~~~~~~~~~~~
//
// Appending JSON text straight into a std::string. Used where building a
// boost::json::value first would only be thrown away (SQL rows on a hot path),
// and where the shortest round-trip form of a double matters: 1234.5, not the
// 1.2345E3 that Boost.JSON 1.81 writes.
//

#ifndef AGENTIO_JSON_TEXT_HPP
#define AGENTIO_JSON_TEXT_HPP

#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>

namespace agentio {

/// Appends `s` as a quoted JSON string. Control characters are escaped; bytes
/// >= 0x80 are copied as they are (the caller provides UTF-8).
inline void append_json_string(std::string& out, std::string_view s)
{
    static constexpr char hex[] = "0123456789abcdef";
    out.push_back('"');
    std::size_t run = 0; // start of the pending run of bytes that need no escape
    for(std::size_t i = 0; i < s.size(); ++i)
    {
        auto const c = static_cast<unsigned char>(s[i]);
        if(c >= 0x20 && c != '"' && c != '\\')
            continue;
        out.append(s.data() + run, i - run);
        run = i + 1;
        switch(c)
        {
        case '"':  out.append("\\\""); break;
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
    out.append(s.data() + run, s.size() - run);
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

} // agentio

#endif
