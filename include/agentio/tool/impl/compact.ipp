// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

//
// agentio/tool/impl/compact.ipp
//

#ifndef AGENTIO_TOOL_IMPL_COMPACT_IPP
#define AGENTIO_TOOL_IMPL_COMPACT_IPP

#include <agentio/config.hpp>
#include <agentio/detail/json_pointer.hpp>
#include <agentio/text.hpp>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <algorithm>

namespace agentio {

namespace detail {

AGENTIO_DECL void shorten_and_prune(boost::json::value& v, compact_options const& options, compact_report& report)
{
    if(auto* s = v.if_string())
    {
        if(s->size() > options.max_string_bytes)
        {
            std::size_t const keep = agentio::utf8_byte_prefix(*s, options.max_string_bytes);
            s->resize(keep);
            s->append("…");
            ++report.strings_shortened;
        }
    }
    else if(auto* a = v.if_array())
    {
        for(auto& e : *a)
            shorten_and_prune(e, options, report);
    }
    else if(auto* o = v.if_object())
    {
        if(options.drop_null_members)
        {
            for(auto it = o->begin(); it != o->end();)
            {
                if(it->value().is_null())
                {
                    it = o->erase(it); // keeps the order of the remaining members
                    ++report.null_members_dropped;
                }
                else
                    ++it;
            }
        }
        for(auto& kv : *o)
            shorten_and_prune(kv.value(), options, report);
    }
}

// The size append_json_string writes, without writing it: quotes, plus the
// escapes (\" \\ and the short forms take 2 bytes, other controls \u00XX take 6).
AGENTIO_DECL std::size_t json_string_size(std::string_view s) noexcept
{
    std::size_t n = s.size() + 2;
    for(unsigned char c : s)
        if(json_escape_table.escape[c])
            n += (c == '"' || c == '\\' || c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t') ? 1 : 5;
    return n;
}

struct largest_array
{
    boost::json::array* array = nullptr;
    std::string pointer;
    std::size_t bytes = 0;
};

// The compact text size of `v`, noting the largest non-empty array on the way.
AGENTIO_DECL std::size_t measure(boost::json::value& v, std::string& pointer, largest_array& best)
{
    if(auto* a = v.if_array())
    {
        std::size_t n = 2 + (a->empty() ? 0 : a->size() - 1);
        for(std::size_t i = 0; i < a->size(); ++i)
        {
            std::size_t const mark = pointer.size();
            append_pointer_token(pointer, std::to_string(i));
            n += measure((*a)[i], pointer, best);
            pointer.resize(mark);
        }
        if(!a->empty() && n > best.bytes)
            best = {a, pointer, n};
        return n;
    }
    if(auto* o = v.if_object())
    {
        std::size_t n = 2 + (o->empty() ? 0 : o->size() - 1);
        for(auto& kv : *o)
        {
            std::size_t const mark = pointer.size();
            append_pointer_token(pointer, kv.key());
            n += json_string_size(kv.key()) + 1 + measure(kv.value(), pointer, best);
            pointer.resize(mark);
        }
        return n;
    }
    if(auto const* str = v.if_string())
        return json_string_size(*str);
    if(v.is_null())
        return 4;
    if(v.is_bool())
        return v.get_bool() ? 4 : 5;
    return to_json_text(v).size();
}

} // namespace detail

AGENTIO_DECL compact_report compact_json(boost::json::value& v, compact_options const& options)
{
    compact_report report;
    detail::shorten_and_prune(v, options, report);
    // Each pass empties or shortens one array; the bound only guards against
    // a value whose bulk is not in arrays at all.
    for(int pass = 0; pass < 64; ++pass)
    {
        std::string pointer;
        detail::largest_array best;
        report.bytes = detail::measure(v, pointer, best);
        if(report.bytes <= options.max_bytes)
            return report;
        if(!best.array)
        {
            report.fits = false;
            return report;
        }
        // Keep the first k elements such that the array shrinks by at least the excess.
        std::size_t const excess = report.bytes - options.max_bytes;
        std::size_t const target = best.bytes > excess ? best.bytes - excess : 0;
        auto& a = *best.array;
        std::size_t kept_bytes = 2;
        std::size_t k = 0;
        for(; k < a.size(); ++k)
        {
            std::size_t const element = to_json_text(a[k]).size() + (k ? 1 : 0);
            if(kept_bytes + element > target)
                break;
            kept_bytes += element;
        }
        std::size_t const dropped = a.size() - k;
        a.resize(k);
        // A second trim of the same array updates its entry.
        auto it = std::find_if(report.arrays.begin(), report.arrays.end(),
            [&](trimmed_array const& t) { return t.pointer == best.pointer; });
        if(it == report.arrays.end())
            report.arrays.push_back({std::move(best.pointer), k, dropped});
        else
        {
            it->kept = k;
            it->dropped += dropped;
        }
    }
    report.bytes = to_json_text(v).size();
    report.fits = report.bytes <= options.max_bytes;
    return report;
}

} // namespace agentio

#endif
