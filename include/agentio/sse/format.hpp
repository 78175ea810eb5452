//
// agentio/sse/format.hpp
// ~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Writing events in the `text/event-stream` format (HTML §9.2.5): the bytes an
// SSE writer sends. Values can never inject fields: line breaks in data become
// further `data:` lines, and line breaks in an event name or id are removed.
//

#ifndef AGENTIO_SSE_FORMAT_HPP
#define AGENTIO_SSE_FORMAT_HPP

#include <string>
#include <string_view>

namespace agentio::sse {

/// What one event carries; `data` may hold any text, line breaks included.
struct outgoing_event
{
    std::string_view type = {}; ///< `event:` field; empty means the default, "message"
    std::string_view data = {}; ///< split into one `data:` line per line (LF, CR or CRLF)
    std::string_view id = {};   ///< `id:` field; empty means none
};

namespace detail {

// Appends `value` without CR, LF or NUL: one line, and a valid id.
inline void append_single_line(std::string& out, std::string_view value)
{
    for(char c : value)
        if(c != '\r' && c != '\n' && c != '\0')
            out.push_back(c);
}

} // namespace detail

/** Appends one event, ended by its blank line.

    @code
    std::string out;
    sse::append_event(out, {.type = "chunk", .data = R"({"content":"Hola"})"});
    // out == "event: chunk\ndata: {\"content\":\"Hola\"}\n\n"
    @endcode

    An event with empty data still gets one `data:` line, so that a
    conforming parser dispatches it (an event with no data line is dropped).
*/
inline void append_event(std::string& out, outgoing_event const& e)
{
    if(!e.type.empty())
    {
        out.append("event: ");
        detail::append_single_line(out, e.type);
        out.push_back('\n');
    }
    if(!e.id.empty())
    {
        out.append("id: ");
        detail::append_single_line(out, e.id);
        out.push_back('\n');
    }
    std::string_view rest = e.data;
    for(;;)
    {
        auto const eol = rest.find_first_of("\r\n");
        out.append("data: ");
        out.append(rest.substr(0, eol));
        out.push_back('\n');
        if(eol == std::string_view::npos)
            break;
        std::size_t skip = 1;
        if(rest[eol] == '\r' && eol + 1 < rest.size() && rest[eol + 1] == '\n')
            skip = 2; // CRLF is one line break
        rest.remove_prefix(eol + skip);
    }
    out.push_back('\n');
}

/// Appends a comment line (ignored by parsers), e.g. a keep-alive; line breaks are removed.
inline void append_comment(std::string& out, std::string_view text = {})
{
    out.push_back(':');
    if(!text.empty())
    {
        out.push_back(' ');
        detail::append_single_line(out, text);
    }
    out.append("\n\n");
}

} // namespace agentio::sse

#endif
