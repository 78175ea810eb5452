//
// agentio/tool/compact.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Keeping tool results small enough for a model's context: a deterministic
// trim of a JSON value to a byte budget, with a report the tool can turn
// into a note for the model ("12 of 50 rows shown; page with offset").
//

#ifndef AGENTIO_TOOL_COMPACT_HPP
#define AGENTIO_TOOL_COMPACT_HPP

#include <agentio/config.hpp>
#include <agentio/json_text.hpp>

#include <boost/json/value.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace agentio {

/// How far compact_json may go.
struct compact_options
{
    /// Budget for the compact JSON text of the whole value, in bytes.
    std::size_t max_bytes = 48 * 1024;

    /// Strings longer than this are cut at a UTF-8 boundary and end in "…".
    std::size_t max_string_bytes = 2000;

    /// Omit object members whose value is null (a model reads absence as null).
    bool drop_null_members = false;
};

/// An array that lost its tail.
struct trimmed_array
{
    std::string pointer;  ///< JSON Pointer of the array ("" for the root, "/datos", ...)
    std::size_t kept = 0; ///< elements left, the first ones
    std::size_t dropped = 0;
};

/// What compact_json changed.
struct compact_report
{
    std::size_t strings_shortened = 0;
    std::size_t null_members_dropped = 0;
    std::vector<trimmed_array> arrays;
    std::size_t bytes = 0; ///< size of the compact text afterwards
    bool fits = true;      ///< false when even trimming every array left it over budget

    /// True when any array was trimmed: the model is not seeing every element.
    bool truncated() const noexcept { return !arrays.empty(); }
};

/** Shrinks `v` in place to fit `options.max_bytes`, deterministically.

    The steps, in order, each only if still needed:
    1. null members are dropped (when asked) and long strings shortened;
    2. while the text is over budget, the array whose text is largest
       (document order breaks ties) keeps the longest prefix of its elements
       that brings the whole under budget, possibly none.
    Elements are never reordered or partially removed: a row is either
    whole or absent, and the kept rows are the first ones, so "the first k
    rows" is always a correct description of what the model sees.
*/
compact_report compact_json(boost::json::value& v, compact_options const& options = {});

} // namespace agentio

#ifdef AGENTIO_HEADER_ONLY
#include <agentio/tool/impl/compact.ipp>
#endif

#endif
