// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The SQL the model wrote, made ready to run: code fences and a final ';'
// removed, a first look that it is a query, and a LIMIT around it. This is
// for a clear answer, not for safety: the MCP server runs it on a read-only
// handle that refuses anything but one read, whatever the text says.
#pragma once

#include <boost/system/result.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace facturas {

/// The query inside a Markdown code fence, if there is one; trimmed, without a final ';'.
std::string strip_code_fences(std::string_view text);

/** The query to run: `text` as `strip_code_fences` leaves it, which must be
    a SELECT or WITH statement of at most `max_bytes`, wrapped so that it
    returns at most `max_rows` rows. The error is a Spanish sentence.
*/
boost::system::result<std::string, std::string> prepare_query(std::string_view text, unsigned max_rows,
    std::size_t max_bytes = 100 * 1024);

/** The tables of `among` that `sql` names, compared without case as whole
    identifiers (quoted or not). A column named as a table counts too: an
    extra approval asked, never one missed. */
std::vector<std::string> mentioned_tables(std::string_view sql, std::vector<std::string> const& among);

} // namespace facturas
